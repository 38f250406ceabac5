/**
 * The command outside a clone: the packed CLI (scripts/pack-cli.mjs) installed into an empty project, as a user
 * installs it, lints and evaluates with its own bundled language server and catalogs.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

describe('the packed CLI, installed outside the clone', function () {
  this.timeout(180000);
  let dir: string;
  let project: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-pack-'));
    const packed = spawnSync(process.execPath, [join(ROOT, 'scripts/pack-cli.mjs'), dir], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = packed.stdout.trim().split('\n').pop()!;
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "a-user-project", "private": true }\n');
    // The package has no dependencies: it installs without a registry.
    const installed = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, encoding: 'utf8' });
    assert.equal(installed.status, 0, installed.stderr);
    copyFileSync(join(ROOT, 'examples/storage.perf.yaml'), join(project, 'storage.perf.yaml'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (bin: string, args: string[]) =>
    spawnSync(process.execPath, [join(project, 'node_modules/storage-perf-cli/bin', bin), ...args], { cwd: project, encoding: 'utf8' });

  it('says its version, lints with its bundled server and evaluates with its bundled catalogs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(run('storage-perf.js', ['--version']).stdout, `storage-perf ${pkg.version}\n`);
    const lint = run('storage-perf.js', ['lint', 'storage.perf.yaml', '-f', 'compact']);
    assert.equal(lint.status, 0, lint.stderr);
    assert.match(lint.stdout, /^storage\.perf\.yaml:10:5: warning capped-by-vcpu: /m);
    const evaluate = run('storage-perf.js', ['evaluate', 'storage.perf.yaml', '--format', 'json']);
    assert.equal(evaluate.status, 0, evaluate.stderr);
    assert.equal(JSON.parse(evaluate.stdout).files[0].vms[0].disks[0].read_iops, 15000);
  });

  it('its language server answers an editor (here lint, pointed at the installed server command)', () => {
    const server = JSON.stringify([
      process.execPath,
      join(project, 'node_modules/storage-perf-cli/bin/storage-perf-language-server.js'),
      '--stdio',
    ]);
    const lint = run('storage-perf.js', ['lint', 'storage.perf.yaml', '-f', 'compact', '--server-command', server]);
    assert.equal(lint.status, 0, lint.stderr);
    assert.match(lint.stdout, /capped-by-vcpu/);
  });

  it('reads .tf files with the HCL parser it ships (WebAssembly beside its bundles), in evaluate and lint', () => {
    copyFileSync(join(ROOT, 'test/fixtures/terraform/planned/main.tf'), join(project, 'main.tf'));
    const evaluate = run('storage-perf.js', ['evaluate', 'main.tf', '--format', 'json']);
    assert.equal(evaluate.status, 1, evaluate.stderr);
    const f = JSON.parse(evaluate.stdout).files[0];
    assert.equal(f.vms.length, 2);
    assert.ok(f.diagnostics.some((d: { code: string }) => d.code === 'unknown-machine-type'));
    const lint = run('storage-perf.js', ['lint', 'main.tf', '-f', 'compact']);
    assert.equal(lint.status, 1, lint.stderr);
    assert.match(lint.stdout, /^main\.tf:12:18: error unknown-machine-type: /m);
  });
});
