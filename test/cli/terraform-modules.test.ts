/**
 * The real executable on a repository whose root modules call their modules from elsewhere in it (`envs/prod`
 * calling `../../modules/vm`): `lint` lists the called module's findings under its own file, `evaluate` names the
 * file in its report, `--root` widens where sources are read, and `diff --base-ref` reads the called module as it
 * is at the revision; a plan's findings are placed on the called module's lines.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DiffRecord, ReportDiagnostic } from '../../core/src';
import { BIN, lint } from '../fixtures/lint-cli';

const VM = (machine: string) =>
  `resource "google_compute_instance" "vm" {\n  name         = "vm"\n  machine_type = "${machine}"\n  zone         = "europe-west4-a"\n  boot_disk {\n    initialize_params {\n      type = "pd-ssd"\n      size = 100\n    }\n  }\n}\n`;

interface LintFile {
  path: string;
  diagnostics: ReportDiagnostic[];
}

describe('storage-perf on modules called from elsewhere in the repository', () => {
  let base: string;
  let repo: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const run = (args: string[], cwd = repo) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'sp-tf-modules-'));
    repo = join(base, 'repo');
    mkdirSync(repo);
    git('init', '-q');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    write('modules/vm/main.tf', VM('n2-standard-7'));
    write('envs/prod/main.tf', 'module "vm" {\n  source = "../../modules/vm"\n}\n');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("lint envs/prod: the module's finding is listed under modules/vm/main.tf, at its line", async () => {
    const r = await lint(['envs/prod', '--format', 'json'], { cwd: repo });
    assert.equal(r.code, 1, r.stderr);
    const files = (JSON.parse(r.stdout) as { files: LintFile[] }).files;
    const module = files.find((f) => f.path === 'modules/vm/main.tf');
    assert.ok(module, JSON.stringify(files.map((f) => f.path)));
    const d = module.diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.line, 3);
    assert.match(d.message, /^module\.vm\.google_compute_instance\.vm: /);
  });

  it("lint plan.json --format github: a plan's finding in module.vm sits on ../../modules/vm's line", async () => {
    const resource = {
      address: 'module.vm.google_compute_instance.vm',
      mode: 'managed',
      type: 'google_compute_instance',
      name: 'vm',
      values: {
        name: 'vm',
        machine_type: 'n2-standard-7',
        zone: 'europe-west4-a',
        boot_disk: [{ initialize_params: [{ type: 'pd-ssd', size: 100 }] }],
      },
    };
    const plan = {
      format_version: '1.2',
      planned_values: { root_module: { child_modules: [{ address: 'module.vm', resources: [resource] }] } },
    };
    write('envs/prod/plan.json', JSON.stringify(plan, null, 2));
    const r = await lint(['envs/prod/plan.json', '--format', 'github'], { cwd: repo });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^::error file=modules\/vm\/main\.tf,line=3,.*title=storage-perf unknown-machine-type::module\.vm\.google_compute_instance\.vm: /m,
    );
  });

  it("evaluate envs/prod: the report names the module's file relative to the root module", () => {
    const r = run(['evaluate', 'envs/prod', '--format', 'json']);
    assert.equal(r.status, 1, r.stderr);
    const d = (JSON.parse(r.stdout).files[0].diagnostics as ReportDiagnostic[]).find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.file, '../../modules/vm/main.tf');
    assert.equal(d.line, 3);
  });

  it('--root: a source outside the repository is refused on its line, and read when --root holds it', async () => {
    mkdirSync(join(base, 'shared'));
    writeFileSync(join(base, 'shared', 'main.tf'), VM('n2-standard-4'));
    write('envs/dev/main.tf', 'module "shared" {\n  source = "../../../shared"\n}\n');
    const refused = await lint(['envs/dev', '--format', 'json'], { cwd: repo });
    assert.equal(refused.code, 1, refused.stderr);
    const all = (JSON.parse(refused.stdout) as { files: LintFile[] }).files.flatMap((f) => f.diagnostics);
    const d = all.find((x) => x.code === 'terraform-file-refused')!;
    assert.ok(d, JSON.stringify(all));
    assert.equal(d.line, 2);
    assert.match(d.message, /--root/);
    const read = run(['evaluate', 'envs/dev', '--root', '..', '--format', 'json']);
    assert.equal(read.status, 0, read.stderr);
    assert.deepEqual(
      JSON.parse(read.stdout).files[0].vms.map((v: { name: string }) => v.name),
      ['module.shared.google_compute_instance.vm'],
    );
    const linted = await lint(['envs/dev', '--root', '..', '--format', 'json'], { cwd: repo });
    assert.equal(linted.code, 0, linted.stdout);
  });

  it('--root that is not a folder is a usage error (exit 2)', () => {
    const r = run(['evaluate', 'envs/prod', '--root', 'envs/prod/main.tf']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--root takes a folder, and envs\/prod\/main\.tf is not one/);
  });

  it('diff --base-ref: the called module as it is at the revision, so its VM is changed, not added', () => {
    write('modules/vm/main.tf', VM('n2-standard-4'));
    git('add', '-A');
    git('commit', '-qm', 'base');
    write('modules/vm/main.tf', VM('n2-standard-8'));
    const r = run(['diff', '--base-ref', 'HEAD', 'envs/prod', '--format', 'json']);
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    const vms = (JSON.parse(r.stdout) as DiffRecord).vms;
    assert.deepEqual(
      vms.map((v) => [v.name, v.change, v.machine_type.before, v.machine_type.after]),
      [['module.vm.google_compute_instance.vm', 'changed', 'n2-standard-4', 'n2-standard-8']],
    );
  });
});
