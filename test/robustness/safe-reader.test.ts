/**
 * The one reader of paths a file's content or the settings name (docs/robustness.md, "What the reader refuses"):
 * a named pipe, a device or a folder is refused without blocking, what is read is bounded as it is read (procfs
 * files stat as 0 bytes), and a link out of the repository is not followed unless asked. Each refusal is a
 * finding on the value that named the path, or a usage error (exit 2) for a flag's file.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReportDiagnostic } from '../../core/src';
import { readBounded } from '../../protocol/src/file-io';
import { BIN, lint, ROOT } from '../fixtures/lint-cli';
import { RawServer } from './raw-server';

const PLAN = readFileSync(join(ROOT, 'test/fixtures/terraform/plans/gcp.json'), 'utf8');
const SIDECAR = (target: string) => `version: 1\nterraform: ${target}\n`;
const PAGEMAP = '/proc/self/pagemap';

const made: string[] = [];
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'storage-perf-reader-'));
  made.push(d);
  return d;
}

/** A named pipe no one writes to: opening it for reading without O_NONBLOCK would block for ever. */
function fifo(path: string): string {
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, `mkfifo: ${r.stderr}`);
  return path;
}

/** `evaluate --format json` of `file` (cwd: its folder), with a timeout so that a hang fails the test. */
function evaluate(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'evaluate', ...args, '--format', 'json'], { cwd, encoding: 'utf8', timeout: 30000 });
  assert.equal(r.signal, null, `evaluate did not answer: ${r.stderr}`);
  return r;
}

const diagnostics = (stdout: string) => (JSON.parse(stdout) as { files: Array<{ diagnostics: ReportDiagnostic[] }> }).files[0].diagnostics;
const withCode = (stdout: string, code: string) => diagnostics(stdout).filter((d) => d.code === code);

after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the bounded reader (readBounded)', () => {
  it('refuses a named pipe at once, without blocking on its open', () => {
    const d = folder();
    assert.throws(() => readBounded(fifo(join(d, 'pipe.json')), { maxBytes: 1024, root: d }), /named pipe \(FIFO\), not a regular file/);
  });
  it('refuses a device and a folder', () => {
    assert.throws(() => readBounded('/dev/zero', { maxBytes: 1024 }), /a device, not a regular file/);
    assert.throws(() => readBounded(folder(), { maxBytes: 1024 }), /a directory, not a regular file/);
  });
  it('refuses a link whose real path is outside the root, and follows it when asked', () => {
    const inside = folder();
    const outside = folder();
    writeFileSync(join(outside, 'secret.tf'), 'x');
    symlinkSync(join(outside, 'secret.tf'), join(inside, 'link.tf'));
    assert.throws(() => readBounded(join(inside, 'link.tf'), { maxBytes: 1024, root: inside }), /real path .* is outside .*--follow-links/);
    assert.equal(readBounded(join(inside, 'link.tf'), { maxBytes: 1024, root: inside, followLinks: true }), 'x');
  });
  it('bounds what is read, not what the file says its size is: /proc/self/pagemap stats as 0 bytes', function () {
    if (!existsSync(PAGEMAP)) this.skip();
    assert.equal(statSync(PAGEMAP).size, 0);
    assert.throws(() => readBounded(PAGEMAP, { maxBytes: 1 << 20 }), /over the limit of 1048576 bytes/);
  });
});

describe('paths named by a file, refused as findings', () => {
  it("a sidecar's terraform: naming a named pipe: a finding at once, the analysis answers", () => {
    const d = folder();
    fifo(join(d, 'plan.json'));
    writeFileSync(join(d, 'w.perf.yaml'), SIDECAR('plan.json'));
    const r = evaluate(d, ['w.perf.yaml']);
    assert.equal(r.status, 1, r.stderr);
    const [f] = withCode(r.stdout, 'terraform-sidecar-plan');
    assert.match(f.message, /plan\.json is refused: a named pipe \(FIFO\), not a regular file/);
    assert.equal(f.line, 2);
  });
  it("a sidecar's terraform: naming /dev/zero is refused before a byte is read (outside the root; a device)", () => {
    const d = folder();
    writeFileSync(join(d, 'w.perf.yaml'), SIDECAR('/dev/zero'));
    const r = evaluate(d, ['w.perf.yaml']);
    assert.match(withCode(r.stdout, 'terraform-sidecar-plan')[0].message, /\/dev\/zero is refused: its real path \/dev\/zero is outside/);
    const followed = evaluate(d, ['w.perf.yaml', '--follow-links']);
    assert.match(withCode(followed.stdout, 'terraform-sidecar-plan')[0].message, /\/dev\/zero is refused: a device, not a regular file/);
  });
  it("a sidecar's plan reached through a link out of the repository: refused, read with --follow-links", () => {
    const d = folder();
    const outside = folder();
    writeFileSync(join(outside, 'plan.json'), PLAN);
    symlinkSync(join(outside, 'plan.json'), join(d, 'plan.json'));
    writeFileSync(join(d, 'w.perf.yaml'), SIDECAR('plan.json'));
    const refused = evaluate(d, ['w.perf.yaml']);
    assert.match(withCode(refused.stdout, 'terraform-sidecar-plan')[0].message, /is outside .*--follow-links/);
    const followed = evaluate(d, ['w.perf.yaml', '--follow-links']);
    assert.deepEqual(withCode(followed.stdout, 'terraform-sidecar-plan'), []);
    // Read as a plain copy of the plan beside the sidecar is.
    const copy = folder();
    writeFileSync(join(copy, 'plan.json'), PLAN);
    writeFileSync(join(copy, 'w.perf.yaml'), SIDECAR('plan.json'));
    assert.equal(followed.stdout, evaluate(copy, ['w.perf.yaml']).stdout);
  });
  it('a .tf link to /proc/self/pagemap in a module: refused (outside the root), and bounded when links are followed', function () {
    if (!existsSync(PAGEMAP)) this.skip();
    const d = folder();
    copyFileSync(join(ROOT, 'test/fixtures/terraform/tfvars/main.tf'), join(d, 'main.tf'));
    symlinkSync(PAGEMAP, join(d, 'zz.tf'));
    const r = evaluate(d, ['main.tf']);
    const [f] = withCode(r.stdout, 'terraform-file-refused');
    assert.match(f.message, /^zz\.tf is not read: its real path .* is outside/);
    const followed = evaluate(d, ['main.tf', '--follow-links']);
    assert.match(withCode(followed.stdout, 'terraform-file-refused')[0].message, /^zz\.tf is not read: over the limit of 67108864 bytes/);
  });
  it("a local module's folder linked out of the repository: checked by its real path, a finding on its source", () => {
    const d = folder();
    const outside = folder();
    writeFileSync(join(outside, 'main.tf'), 'resource "google_compute_disk" "x" {\n  type = "pd-ssd"\n  size = 100\n}\n');
    mkdirSync(join(d, 'modules'));
    symlinkSync(outside, join(d, 'modules', 'disk'));
    const main = 'module "disk" {\n  source = "./modules/disk"\n}\n';
    writeFileSync(join(d, 'main.tf'), main);
    const r = evaluate(d, ['main.tf']);
    const [f] = withCode(r.stdout, 'terraform-file-refused');
    assert.match(f.message, /^module\.disk's resources are not read: \.\/modules\/disk is refused: its real path .* is outside/);
    assert.equal(f.line, 2);
    assert.equal(f.column, main.split('\n')[1].indexOf('"./modules/disk"') + 1);
  });
  it('a --var-file that cannot be read is named (not the module), exit 2, no stack trace', async () => {
    const d = folder();
    copyFileSync(join(ROOT, 'test/fixtures/terraform/tfvars/main.tf'), join(d, 'main.tf'));
    const e = evaluate(d, ['main.tf', '--var-file', 'missing.tfvars']);
    assert.equal(e.status, 2);
    assert.match(e.stderr, /cannot read the --var-file missing\.tfvars: ENOENT/);
    fifo(join(d, 'pipe.tfvars'));
    const l = await lint(['main.tf', '--var-file', 'pipe.tfvars'], { cwd: d });
    assert.equal(l.code, 2);
    assert.match(l.stderr, /cannot read the --var-file pipe\.tfvars: a named pipe \(FIFO\), not a regular file/);
    assert.doesNotMatch(l.stderr, /\n\s+at /);
  });
});

describe('the language server reads through the same reader', () => {
  let s: RawServer;
  afterEach(() => s?.kill());

  it("a sidecar naming a named pipe gets its finding; the server answers (no workspace folder: the file's own)", async () => {
    const d = folder();
    fifo(join(d, 'plan.json'));
    const uri = pathToFileURL(join(d, 'w.perf.yaml')).toString();
    s = new RawServer();
    await s.initialize();
    s.notifyServer('textDocument/didOpen', { textDocument: { uri, languageId: 'storage-perf', version: 1, text: SIDECAR('plan.json') } });
    const r = await s.response(s.request('textDocument/diagnostic', { textDocument: { uri } }));
    const items = (r.result as { items: Array<{ code: string; message: string }> }).items;
    const f = items.find((x) => x.code === 'terraform-sidecar-plan');
    assert.match(f?.message ?? JSON.stringify(items), /named pipe \(FIFO\), not a regular file/);
  });
});

describe("lint and a repository's .vscode/settings.json catalogPath", () => {
  const catalog = readFileSync(join(ROOT, 'catalogs/gcp-2024.json'), 'utf8').replace('"edition": "gcp-2024"', '"edition": "mine"');
  const spec = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8').replace('catalog: gcp-2024', 'catalog: mine');
  const codes = (stdout: string) =>
    (JSON.parse(stdout) as { files: Array<{ diagnostics: ReportDiagnostic[] }> }).files[0].diagnostics.map((x) => x.code);

  it('is ignored (said on stderr) unless --settings names the file', async () => {
    const d = folder();
    mkdirSync(join(d, '.vscode'));
    writeFileSync(join(d, '.vscode', 'settings.json'), '{ "storagePerf.catalogPath": "mine.json" }\n');
    writeFileSync(join(d, 'mine.json'), catalog);
    writeFileSync(join(d, 'a.perf.yaml'), spec);
    const [plain, asked] = await Promise.all([
      lint(['a.perf.yaml', '-f', 'json'], { cwd: d }),
      lint(['a.perf.yaml', '-f', 'json', '--settings', '.vscode/settings.json'], { cwd: d }),
    ]);
    assert.match(plain.stderr, /the catalogPath of \.vscode\/settings\.json \("mine\.json"\) is ignored: .*--settings/);
    assert.ok(codes(plain.stdout).includes('unknown-catalog'), plain.stdout);
    assert.doesNotMatch(asked.stderr, /is ignored/);
    assert.ok(!codes(asked.stdout).includes('unknown-catalog'), asked.stdout);
    // The report names the catalog that is not built in: where it was read and its edition.
    assert.equal((JSON.parse(plain.stdout) as { catalog_files?: unknown }).catalog_files, undefined);
    assert.deepEqual((JSON.parse(asked.stdout) as { catalog_files?: unknown }).catalog_files, [
      { path: join(d, 'mine.json'), edition: 'mine' },
    ]);
  });

  it("evaluate's JSON report and lint's SARIF name a --catalog-file's path and edition (one named like a built-in too)", async () => {
    const d = folder();
    writeFileSync(join(d, 'builtin-name.json'), catalog.replace('"edition": "mine"', '"edition": "gcp-2024"'));
    writeFileSync(join(d, 'a.perf.yaml'), spec.replace('catalog: mine', 'catalog: gcp-2024'));
    const e = evaluate(d, ['a.perf.yaml', '--catalog-file', 'builtin-name.json']);
    assert.deepEqual((JSON.parse(e.stdout) as { catalog_files?: unknown }).catalog_files, [
      { path: 'builtin-name.json', edition: 'gcp-2024' },
    ]);
    assert.equal((JSON.parse(evaluate(d, ['a.perf.yaml']).stdout) as { catalog_files?: unknown }).catalog_files, undefined);
    const l = await lint(['a.perf.yaml', '-f', 'sarif', '--catalog-file', 'builtin-name.json'], { cwd: d });
    const run = (JSON.parse(l.stdout) as { runs: Array<{ properties?: { catalogFiles?: unknown } }> }).runs[0];
    assert.deepEqual(run.properties?.catalogFiles, [{ path: join(d, 'builtin-name.json'), edition: 'gcp-2024' }]);
  });
});
