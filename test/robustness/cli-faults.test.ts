/**
 * Files the commands cannot read, or read as something other than UTF-8 text: `evaluate` and `lint` exit 2 with
 * the path and the reason for the first, and report an `encoding` finding for the second. (Crashing and
 * hanging language servers, write failures under --fix and missing paths are covered by test/cli/lint*.)
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lint } from '../fixtures/lint-cli';
import { garbage } from './hostile-inputs';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');
const EXAMPLE = join(ROOT, 'examples/storage.perf.yaml');
// Root reads files whatever their mode: permission tests only mean something for other users.
const isRoot = process.getuid?.() === 0;

function evaluate(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, 'evaluate', ...args], { cwd, encoding: 'utf8', timeout: 20000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('files the commands cannot read, or that are not UTF-8', function () {
  this.timeout(30000);
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-files-'));
  copyFileSync(EXAMPLE, join(dir, 'ok.perf.yaml'));
  mkdirSync(join(dir, 'folder.perf.yaml'));
  writeFileSync(
    join(dir, 'latin1.perf.yaml'),
    Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n'), readFileSync(EXAMPLE)]),
  );
  writeFileSync(join(dir, 'binary.perf.yaml'), garbage(4096));
  writeFileSync(
    join(dir, 'utf16.perf.yaml'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(EXAMPLE, 'utf8'), 'utf16le')]),
  );
  writeFileSync(
    join(dir, 'utf16be.perf.yaml'),
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(readFileSync(EXAMPLE, 'utf8'), 'utf16le').swap16()]),
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('evaluate: a directory, a missing file and a path through a file → exit 2 naming each, the readable ones reported', () => {
    const r = evaluate(['ok.perf.yaml', 'folder.perf.yaml', 'missing.perf.yaml', 'ok.perf.yaml/x.perf.yaml', '--format', 'json'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read folder\.perf\.yaml: a folder is read as a Terraform module, and this one has no \.tf file/);
    assert.match(r.stderr, /cannot read missing\.perf\.yaml: ENOENT/);
    assert.match(r.stderr, /cannot read ok\.perf\.yaml\/x\.perf\.yaml: ENOTDIR/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(
      JSON.parse(r.stdout).files.map((f: { path: string }) => f.path),
      ['ok.perf.yaml'],
    );
  });

  it('evaluate: a file without read permission → exit 2 with EACCES', function () {
    if (isRoot) this.skip(); // as root every file is readable; the EISDIR/ENOTDIR cases above take the same path
    const f = join(dir, 'secret.perf.yaml');
    copyFileSync(EXAMPLE, f);
    chmodSync(f, 0o000);
    const r = evaluate([f], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read .*secret\.perf\.yaml: EACCES/);
  });

  it('evaluate: Latin-1, binary and UTF-16 files are reported with an encoding finding; exit 1 for the errors', () => {
    // The binary and UTF-16 files' encoding findings are errors: the report is whole, and the exit status says so.
    const r = evaluate(['latin1.perf.yaml', 'binary.perf.yaml', 'utf16.perf.yaml', '--format', 'json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const files = JSON.parse(r.stdout).files as Array<{
      path: string;
      diagnostics: Array<{ code: string; severity: string; message: string; line: number; column: number }>;
    }>;
    const enc = (p: string) => files.find((f) => f.path === p)!.diagnostics.find((d) => d.code === 'encoding')!;
    assert.deepEqual([enc('latin1.perf.yaml').severity, enc('latin1.perf.yaml').line, enc('latin1.perf.yaml').column], ['warning', 1, 6]);
    assert.equal(enc('binary.perf.yaml').severity, 'error');
    assert.match(enc('utf16.perf.yaml').message, /UTF-16/);
    // A UTF-16 file, either byte order, has that one finding: no YAML error about its NUL bytes as well.
    const be = evaluate(['utf16be.perf.yaml', '--format', 'json'], dir);
    for (const f of [...files, ...JSON.parse(be.stdout).files].filter((x) => x.path.startsWith('utf16')))
      assert.deepEqual(
        f.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message]),
        [['encoding', 'this file is UTF-16 text: save it as UTF-8']],
        f.path,
      );
    // The Latin-1 file is otherwise a good spec, and is evaluated; alone it exits 0.
    assert.equal(evaluate(['latin1.perf.yaml'], dir).code, 0);
    assert.equal(files.find((f) => f.path === 'latin1.perf.yaml')!.diagnostics.filter((d) => d.code === 'capped-by-vcpu').length, 1);
  });

  it('lint: a path through a file → exit 2 with the reason, no report', async () => {
    const r = await lint(['ok.perf.yaml/x.perf.yaml', '-f', 'json'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read ok\.perf\.yaml\/x\.perf\.yaml: ENOTDIR/);
    assert.equal(r.stdout, '');
  });

  it('lint: a file without read permission → exit 2 with EACCES', async function () {
    if (isRoot) this.skip(); // as root every file is readable
    const f = join(dir, 'secret2.perf.yaml');
    copyFileSync(EXAMPLE, f);
    chmodSync(f, 0o000);
    const r = await lint([f, '-f', 'json'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /EACCES/);
  });

  it('lint: binary and UTF-16 files fail with an encoding error, a Latin-1 one warns', async () => {
    const r = await lint(['latin1.perf.yaml', 'binary.perf.yaml', 'utf16.perf.yaml', '-f', 'compact', '--fail-on', 'error'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^latin1\.perf\.yaml:1:6: warning encoding: /m);
    assert.match(r.stdout, /^binary\.perf\.yaml:\d+:\d+: error encoding: .*binary/m);
    assert.match(r.stdout, /^utf16\.perf\.yaml:\d+:\d+: error encoding: .*UTF-16/m);
  });
});
