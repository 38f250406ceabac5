/**
 * `storage-perf diff --base-ref REF` of a Terraform module in a working tree where `terraform init` has run: the
 * base, a copy of the module at REF, reads the downloaded modules whose calls have the same source and version at
 * REF; a call whose version changed is not read at REF, said so, and the head's VMs of it are not called added; a
 * downloaded folder linked out of the repository is refused by the reader.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { DiffRecord } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');

const vm = (name: string, machine: string) =>
  `resource "google_compute_instance" "${name}" {\n  name         = "${name}"\n  machine_type = "${machine}"\n  zone         = "europe-west4-a"\n  boot_disk {\n    initialize_params {\n      type = "pd-ssd"\n      size = 100\n    }\n  }\n}\n`;
const SOURCE = 'terraform-google-modules/vm/google';
const call = (version: string) => `module "web" {\n  source  = "${SOURCE}"\n  version = "${version}"\n}\n`;

/** `modules.json` as `terraform init` writes it: the root module, `web` and the call in it, `web.extra`. */
const modulesJson = (version: string) =>
  JSON.stringify({
    Modules: [
      { Key: '', Source: '', Dir: '.' },
      { Key: 'web', Source: `registry.terraform.io/${SOURCE}`, Version: version, Dir: '.terraform/modules/web' },
      { Key: 'web.extra', Source: 'app.terraform.io/acme/vm/google', Version: '1.0.0', Dir: '.terraform/modules/web.extra' },
    ],
  });

describe('storage-perf diff --base-ref: modules terraform init downloaded', () => {
  let repo: string;
  let outside: string;
  const write = (base: string, path: string, text: string) => {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  };
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  /** What `terraform init` lays out in the working tree for `web` at `version` (the module's VM on `machine`). */
  const init = (version: string, machine: string) => {
    write(
      repo,
      'infra/.terraform/modules/web/main.tf',
      `module "extra" {\n  source = "app.terraform.io/acme/vm/google"\n}\n${vm('web', machine)}`,
    );
    write(repo, 'infra/.terraform/modules/web.extra/main.tf', vm('extra', 'n2-standard-2'));
    write(repo, 'infra/.terraform/modules/modules.json', modulesJson(version));
  };
  const diff = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, 'diff', '--base-ref', 'HEAD', 'infra', ...args], { cwd: repo, encoding: 'utf8' });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return r.stdout;
  };
  const record = () => JSON.parse(diff('--format', 'json')) as DiffRecord;
  const MODULE_VMS = ['module.web.google_compute_instance.web', 'module.web.module.extra.google_compute_instance.extra'];

  beforeEach(function () {
    this.timeout(30000);
    repo = mkdtempSync(join(tmpdir(), 'storage-perf-diff-mods-'));
    outside = mkdtempSync(join(tmpdir(), 'storage-perf-diff-mods-out-'));
    git('init', '-q');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    write(repo, '.gitignore', '.terraform/\n');
    write(repo, 'infra/main.tf', `${call('1.0.0')}${vm('db', 'n2-standard-8')}`);
    git('add', '-A');
    git('commit', '-qm', 'base');
  });
  afterEach(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('same source and version at REF: the base reads the downloaded modules too, and no VM of them is added', function () {
    this.timeout(60000);
    init('1.0.0', 'n2-standard-4');
    // The change: a larger machine for the root module's VM only.
    write(repo, 'infra/main.tf', `${call('1.0.0')}${vm('db', 'n2-standard-16')}`);
    const r = record();
    assert.equal(r.base.vms, 3, 'the base reads the root VM and both downloaded modules');
    assert.equal(r.head.vms, 3);
    assert.equal(r.base.unread_modules, undefined);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.change]),
      [['google_compute_instance.db', 'changed']],
    );
    assert.deepEqual([r.counts.vms_added, r.counts.vms_base_unread, r.counts.vms_unchanged], [0, 0, 2]);
    assert.equal(r.base.monthly_cost.complete, true, r.base.monthly_cost.missing.join('; '));
    assert.notEqual(r.monthly_cost.delta, null);
    assert.deepEqual(r.findings.gone, [], 'the base says nothing of terraform init');
    assert.doesNotMatch(diff(), /\badded\b/);
  });

  it('a version changed at the head: the base does not read the call, says so, and its VMs are not called added', function () {
    this.timeout(60000);
    write(repo, 'infra/main.tf', `${call('2.0.0')}${vm('db', 'n2-standard-8')}`);
    init('2.0.0', 'n2-standard-4');
    const r = record();
    assert.equal(r.base.vms, 1, 'the base reads only the root VM');
    assert.deepEqual(r.base.unread_modules, [
      {
        module: 'module.web',
        why: `its version is "1.0.0" at HEAD and "2.0.0" in the working tree; the working tree's .terraform/modules holds what terraform init downloaded for the latter`,
      },
    ]);
    // The base keeps its own finding on the call.
    const said = r.findings.gone.find((f) => f.code === 'terraform-unknown-value');
    assert.ok(said, JSON.stringify(r.findings));
    assert.match(said.message, /module\.web's resources are not read: .*run `terraform init`/);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.change, v.base_unread?.slice(0, 'module.web: its version is'.length)]).sort(),
      MODULE_VMS.map((n) => [n, 'added', 'module.web: its version is']),
    );
    assert.deepEqual([r.counts.vms_added, r.counts.vms_base_unread, r.counts.vms_unchanged], [0, 2, 1]);
    assert.match(r.summary, /^2 VMs not read at base: /);
    assert.equal(r.monthly_cost.delta, null, 'the base total is partial: the change is unknown');
    const table = diff();
    assert.match(
      table,
      /the base at HEAD could not read module\.web: its version is "1\.0\.0" at HEAD and "2\.0\.0".*; its 2 VMs in the head are listed as "not read at base"$/m,
    );
    assert.match(table, /VM module\.web\.google_compute_instance\.web: not read at base — n2-standard-4, monthly cost change unknown/);
    assert.doesNotMatch(table, /\badded\b/);
    const markdown = diff('--format', 'markdown');
    assert.match(markdown, /\| `module\.web\.google_compute_instance\.web` +\| not read at base /);
    assert.doesNotMatch(markdown, /\badded\b/);
  });

  it('a call the change removes: the base cannot read it and says so; no VM is marked, the others compare', function () {
    this.timeout(60000);
    write(repo, 'infra/old.tf', 'module "old" {\n  source  = "acme/old/google"\n  version = "0.1.0"\n}\n');
    git('add', '-A');
    git('commit', '-qm', 'an old module');
    rmSync(join(repo, 'infra/old.tf'));
    init('1.0.0', 'n2-standard-4');
    const r = record();
    assert.deepEqual(r.base.unread_modules, [
      {
        module: 'module.old',
        why: "the working tree does not call it, so its .terraform/modules does not hold it; run on the base's plan JSON to compare it",
      },
    ]);
    assert.equal(r.base.vms, 3, 'the root VM and the downloaded modules the change left alone');
    assert.deepEqual([r.vms.length, r.counts.vms_base_unread, r.counts.vms_unchanged], [0, 0, 3]);
    assert.match(diff(), /^the base at HEAD could not read module\.old: the working tree does not call it, .*compare it$/m);
  });

  it('a downloaded folder linked out of the repository is refused by the reader: neither side reads its VM', function () {
    this.timeout(60000);
    init('1.0.0', 'n2-standard-4');
    rmSync(join(repo, 'infra/.terraform/modules/web'), { recursive: true });
    write(outside, 'main.tf', vm('web', 'n2-standard-4'));
    symlinkSync(outside, join(repo, 'infra/.terraform/modules/web'), 'dir');
    const r = record();
    const unread = r.base.unread_modules ?? [];
    assert.deepEqual(
      unread.map((u) => u.module),
      ['module.web'],
    );
    assert.match(unread[0].why, /^its folder \.terraform\/modules\/web in the working tree is refused: .*outside/);
    assert.equal(r.base.vms, 1, 'the base reads only the root VM');
    assert.ok(!r.vms.some((v) => v.name.startsWith('module.web.')), JSON.stringify(r.vms.map((v) => v.name)));
    // The head refuses it as well, on its source.
    assert.ok(r.findings.appeared.some((f) => f.code === 'terraform-file-refused' && /module\.web/.test(f.message)));
  });
});
