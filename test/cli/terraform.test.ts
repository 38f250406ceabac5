/**
 * `storage-perf evaluate|lint plan.json`: a Terraform plan (`terraform show -json PLANFILE`, in the format of
 * https://developer.hashicorp.com/terraform/internals/json-format) read by the real executable; lint through
 * the language server, as an editor would.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReportDiagnostic } from '../../core/src';
import { BIN, lint, ROOT } from '../fixtures/lint-cli';

const PLAN = 'test/fixtures/terraform/plans/gcp.json';
const lineOf = (needle: string) =>
  readFileSync(join(ROOT, PLAN), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1;

const files = (stdout: string) => (JSON.parse(stdout) as { files: Array<{ diagnostics: ReportDiagnostic[] }> }).files;

describe('storage-perf with a Terraform plan', () => {
  it('evaluate: the JSON report names VMs by address, counts ignored types, and exits 1 on the unknown machine', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', PLAN, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    const f = JSON.parse(r.stdout).files[0];
    assert.equal(f.vms[0].name, 'google_compute_instance.db');
    assert.equal(f.vms[0].resource_name, 'db-1');
    assert.deepEqual(f.terraform, {
      resources: 9,
      ignored_resources: 1,
      ignored_types: { google_compute_network: 1 },
      without_instances: [],
    });
    const d = f.diagnostics.find((x: ReportDiagnostic) => x.code === 'unknown-machine-type');
    assert.equal(d.line, lineOf('"n2-standard-7"'));
  });
  it('evaluate (table): says how many resources were ignored', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', PLAN], { cwd: ROOT, encoding: 'utf8' });
    assert.match(r.stdout, /Terraform plan: 9 resources; 1 of other types ignored \(google_compute_network ×1\)/);
  });
  it('lint: the server analyses the plan; findings at their lines of the plan', async () => {
    const r = await lint([PLAN, '--format', 'json'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const all = files(r.stdout).flatMap((f) => f.diagnostics);
    assert.equal(all.find((d) => d.code === 'unknown-machine-type')?.line, lineOf('"n2-standard-7"'));
    assert.equal(all.find((d) => d.code === 'terraform-shared-disk')?.line, lineOf('"address": "google_compute_disk.shared"'));
  });
  it('lint: malformed plan JSON is one error, exit 1', async () => {
    const r = await lint(['-', '--stdin-filename', 'plan.json', '--format', 'json'], { cwd: ROOT, input: '{"format_version": "1.2", ' });
    const all = files(r.stdout).flatMap((f) => f.diagnostics);
    assert.deepEqual(
      all.map((d) => d.code),
      ['terraform-syntax'],
    );
    assert.equal(r.code, 1);
  });
  it('lint: a workload sidecar beside the plan, read through the server; findings on the sidecar', async () => {
    const r = await lint([PLAN.replace('.json', '.perf.yaml'), '--format', 'json'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const all = files(r.stdout).flatMap((f) => f.diagnostics);
    assert.equal(all.find((d) => d.code === 'target-unreachable')?.line, 10);
  });
});

describe('storage-perf with Terraform files', () => {
  const MODULE = 'test/fixtures/terraform/module';
  const tfLine = (file: string, needle: string) =>
    readFileSync(join(ROOT, MODULE, file), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(needle)) + 1;

  it('evaluate FOLDER: the module and its local modules; each finding names its .tf file and line', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', MODULE], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /Terraform module: 13 resources; 1 of other types ignored \(random_shuffle ×1\)/);
    assert.ok(r.stdout.includes(`${MODULE}/main.tf:${tfLine('main.tf', '"n2-standard-7"')}:18: error unknown-machine-type:`));
    assert.ok(
      r.stdout.includes(
        `${MODULE}/modules/db/main.tf:${tfLine('modules/db/main.tf', 'type = "pd-balanced"')}:10: information shared-baseline`,
      ),
    );
  });
  it('evaluate main.tf --format json: its folder is read with it; findings carry their file', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', `${MODULE}/main.tf`, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    const f = JSON.parse(r.stdout).files[0];
    assert.equal(f.vms.length, 6);
    const d = f.diagnostics.find((x: ReportDiagnostic) => x.code === 'unknown-machine-type');
    assert.deepEqual([d.file, d.line], ['main.tf', tfLine('main.tf', '"n2-standard-7"')]);
  });
  it('lint FOLDER of a Terraform module (no spec in it): linted as that module, through the server', async () => {
    const r = await lint(['test/fixtures/terraform/planned', '--format', 'json'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const [f] = JSON.parse(r.stdout).files as Array<{ path: string; diagnostics: ReportDiagnostic[] }>;
    assert.equal(f.path, 'test/fixtures/terraform/planned/main.tf');
    assert.ok(
      f.diagnostics.some((d) => d.code === 'unknown-machine-type'),
      JSON.stringify(f.diagnostics.map((d) => d.code)),
    );
  });
  it("lint FOLDER reports what evaluate FOLDER reports, a called module's findings in its own file with its caller's inputs", async () => {
    // The fixture module without its workload sidecar (a folder with a spec is linted for the spec only).
    const dir = mkdtempSync(join(tmpdir(), 'tf-lint-'));
    try {
      for (const f of ['main.tf', 'variables.tf', 'modules/db/main.tf']) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        copyFileSync(join(ROOT, MODULE, f), join(dir, f));
      }
      const e = spawnSync(process.execPath, [BIN, 'evaluate', dir, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
      const evaluated = (JSON.parse(e.stdout).files[0].diagnostics as ReportDiagnostic[])
        .map((d) => `${d.file}:${d.line}:${d.code}`)
        .sort();
      const r = await lint(['.', '--format', 'json'], { cwd: dir });
      assert.equal(r.code, 1, r.stderr);
      const linted = (JSON.parse(r.stdout).files as Array<{ path: string; diagnostics: ReportDiagnostic[] }>)
        .flatMap((f) => f.diagnostics.map((d) => `${f.path}:${d.line}:${d.code}`))
        .sort();
      assert.ok(
        evaluated.some((x) => x.startsWith('modules/db/main.tf:')),
        evaluated.join(' '),
      );
      assert.deepEqual(linted, evaluated);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('lint FOLDER with a workload sidecar naming the module: the module is linted too, its findings on its .tf lines', async () => {
    const r = await lint([MODULE, '--format', 'json'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const found = (JSON.parse(r.stdout).files as Array<{ path: string; diagnostics: ReportDiagnostic[] }>).map((f) => [
      f.path,
      f.diagnostics.map((d) => d.code),
    ]);
    const paths = found.map(([p]) => p);
    assert.deepEqual(paths, [`${MODULE}/workloads.perf.yaml`, `${MODULE}/main.tf`, `${MODULE}/modules/db/main.tf`]);
    const main = found.find(([p]) => p === `${MODULE}/main.tf`)![1] as string[];
    assert.ok(main.includes('unknown-machine-type'), main.join(' '));
    // One mistake, one finding in the run: the shared baseline of the VM the sidecar names is said on the module's
    // disks only, not again on the sidecar's `vm:` line; the sidecar keeps what its workload brings.
    assert.deepEqual(found[0][1], ['target-unreachable']);
    assert.deepEqual(found[2][1], ['shared-baseline', 'shared-baseline']);
  });
  it('lint of the sidecar alone (its module not linted beside it) keeps its VM findings on its `vm:` line', async () => {
    const r = await lint([`${MODULE}/workloads.perf.yaml`, '--format', 'json'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const [f] = JSON.parse(r.stdout).files as Array<{ path: string; diagnostics: ReportDiagnostic[] }>;
    assert.deepEqual(
      f.diagnostics.map((d) => `${d.line}:${d.code}`),
      ['4:shared-baseline', '4:shared-baseline', '9:target-unreachable'],
    );
  });
  it('evaluate and diff: a volume attached to no VM is priced apart, in the file total; the diff sees it added', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-unattached-'));
    try {
      const app = `resource "aws_instance" "app" {
  instance_type     = "m6i.large"
  availability_zone = "us-east-1a"
  root_block_device {
    volume_type = "gp3"
    volume_size = 50
  }
}
`;
      const volume = `resource "aws_ebs_volume" "archive" {
  availability_zone = "us-east-1a"
  type              = "st1"
  size              = 16000
}
`;
      mkdirSync(join(dir, 'base'));
      mkdirSync(join(dir, 'head'));
      writeFileSync(join(dir, 'base', 'main.tf'), app);
      writeFileSync(join(dir, 'head', 'main.tf'), app + volume);
      const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
      const table = run('evaluate', join(dir, 'head'));
      assert.equal(table.status, 0, table.stderr);
      assert.match(table.stdout, /^Disks attached to no VM \(no figures; priced apart, in the file total\):$/m);
      assert.match(table.stdout, /^aws_ebs_volume\.archive +st1 +16,000 +us-east-1 +\$720\.00$/m);
      // aws_instance.app: m6i.large, $70.08, and its 50 GiB gp3 root volume, $4.00.
      assert.match(table.stdout, /^file total: \$794\.08\/month$/m);
      const diff = run('diff', join(dir, 'base'), join(dir, 'head'));
      assert.match(
        diff.stdout,
        /^No VM changed: 1 disk attached to no VM added, 1 new finding below error, \+\$720\.00\/month; 1 VM unchanged$/m,
      );
      assert.match(diff.stdout, /^ {2}aws_ebs_volume\.archive: added — st1, 16,000 GiB, \$720\.00\/month \(\+\$720\.00\)$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('evaluate a folder without .tf files: cannot be read, exit 2', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', 'docs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read docs: a folder is read as a Terraform module, and this one has no \.tf file/);
    assert.doesNotMatch(r.stderr, /EISDIR/);
  });
});

describe('lint plan.json in CI: findings on the .tf lines the plan comes from', () => {
  const PLANNED = 'test/fixtures/terraform/planned';
  const tf = readFileSync(join(ROOT, PLANNED, 'main.tf'), 'utf8').split('\n');
  const tfLine = (needle: string, from = 0) => tf.findIndex((l, i) => i >= from && l.includes(needle)) + 1;

  it('--format github: each annotation on main.tf, at the attribute it is about', async () => {
    const r = await lint([`${PLANNED}/plan.json`, '--format', 'github'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    assert.ok(
      lines.every((l) => l.includes(`file=${PLANNED}/main.tf,`)),
      r.stdout,
    );
    assert.ok(
      lines.some(
        (l) => l.startsWith(`::error file=${PLANNED}/main.tf,line=${tfLine('"n2-standard-7"')},`) && l.includes('unknown-machine-type'),
      ),
    );
    // A nested block's attribute: boot_disk.initialize_params.type of the web instance.
    const web = tfLine('"web"');
    assert.ok(lines.some((l) => l.includes(`line=${tfLine('type = "pd-extreme"', web)},`) && l.includes('disk-type-not-on-machine')));
  });

  it('--format sarif: results located in main.tf', async () => {
    const r = await lint([`${PLANNED}/plan.json`, '--format', 'sarif'], { cwd: ROOT });
    const sarif = JSON.parse(r.stdout);
    const results = sarif.runs[0].results as Array<{
      ruleId: string;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
    }>;
    const unknown = results.find((x) => x.ruleId === 'unknown-machine-type')!;
    assert.equal(unknown.locations[0].physicalLocation.artifactLocation.uri, `${PLANNED}/main.tf`);
    assert.equal(unknown.locations[0].physicalLocation.region.startLine, tfLine('"n2-standard-7"'));
  });

  it('without .tf files beside the plan, findings stay on the plan', async () => {
    const r = await lint([PLAN, '--format', 'github'], { cwd: ROOT });
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    assert.ok(lines.length > 0 && lines.every((l) => l.includes(`file=${PLAN},`)), r.stdout);
  });
});

describe('a workload sidecar naming .tf files', () => {
  const SIDECAR = 'test/fixtures/terraform/module/workloads.perf.yaml';
  it('evaluate: the VM it names, read from the module, with its workload', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', SIDECAR, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    const f = JSON.parse(r.stdout).files[0];
    assert.deepEqual(
      f.vms.map((v: { name: string }) => v.name),
      ['module.db.google_compute_instance.primary'],
    );
    assert.equal(f.vms[0].workloads[0].name, 'oltp');
    assert.equal(f.diagnostics.find((d: ReportDiagnostic) => d.code === 'target-unreachable')?.line, 9);
  });
  it('lint: the same through the server', async () => {
    const r = await lint([SIDECAR, '--format', 'json'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const all = files(r.stdout).flatMap((f) => f.diagnostics);
    assert.equal(all.find((d) => d.code === 'target-unreachable')?.line, 9);
  });
});

describe('Terraform variable values on the command line', () => {
  const MODULE = 'test/fixtures/terraform/tfvars';
  const vms = (stdout: string) =>
    (JSON.parse(stdout) as { files: Array<{ vms: Array<{ machine_type: string; region?: string; disks: Array<{ size_gib: number }> }> }> })
      .files[0].vms;
  it('evaluate FOLDER: terraform.tfvars beside the .tf files gives the values', () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', MODULE, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const [db] = vms(r.stdout);
    assert.deepEqual([db.machine_type, db.disks[1].size_gib], ['n2-standard-8', 500]);
  });
  it('evaluate --var-file FILE --var NAME=VALUE: after terraform.tfvars, in that order', () => {
    const args = ['evaluate', MODULE, '--format', 'json', '--var-file', `${MODULE}/prod.tfvars`, '--var', 'zone=europe-west4-a'];
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const [db] = vms(r.stdout);
    assert.deepEqual([db.machine_type, db.region, db.disks[1].size_gib], ['n2-standard-16', 'europe-west4', 2000]);
  });
  it('evaluate --var without NAME=VALUE, or --var-file naming a .tf file (blocks, not values): usage error, exit 2', () => {
    for (const bad of [
      ['--var', 'zone'],
      ['--var-file', `${MODULE}/main.tf`],
    ]) {
      const r = spawnSync(process.execPath, [BIN, 'evaluate', MODULE, ...bad], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 2, r.stdout);
    }
  });
  it('--var-file of any name, as Terraform takes it (.json is JSON): evaluate, lint and diff read it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'var-file-'));
    try {
      const json = join(dir, 'tfvars.json');
      const hcl = join(dir, 'prod.vars');
      writeFileSync(json, '{ "machine_type": "n2-standard-16", "disk_size": 2000 }\n');
      writeFileSync(hcl, 'machine_type = "n2-standard-32"\n');
      for (const [file, machine] of [
        [json, 'n2-standard-16'],
        [hcl, 'n2-standard-32'],
      ]) {
        const r = spawnSync(process.execPath, [BIN, 'evaluate', MODULE, '--format', 'json', '--var-file', file], {
          cwd: ROOT,
          encoding: 'utf8',
        });
        assert.equal(r.status, 0, r.stderr);
        assert.equal(vms(r.stdout)[0].machine_type, machine);
      }
      assert.equal(
        vms(
          spawnSync(process.execPath, [BIN, 'evaluate', MODULE, '--format', 'json', '--var-file', json], { cwd: ROOT, encoding: 'utf8' })
            .stdout,
        )[0].disks[1].size_gib,
        2000,
      );
      const d = spawnSync(process.execPath, [BIN, 'diff', MODULE, MODULE, '--var-file', json], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(d.status, 0, d.stderr);
      // lint goes through the server's terraformVarFiles setting: the machine type the file gives is the one checked.
      const bad = join(dir, 'staging-vars.json');
      writeFileSync(bad, '{ "machine_type": "n2-standard-7" }\n');
      const l = await lint([`${MODULE}/main.tf`, '--format', 'json', '--var-file', bad], { cwd: ROOT });
      assert.equal(l.code, 1, l.stderr);
      assert.deepEqual(
        files(l.stdout)
          .flatMap((f) => f.diagnostics)
          .map((x) => x.code),
        ['unknown-machine-type'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a --var-file that does not exist: evaluate, lint and diff name it (not main.tf), exit 2, no stack trace', async () => {
    const missing = `${MODULE}/missing.tfvars`;
    for (const command of ['evaluate', 'diff']) {
      const args = command === 'diff' ? [MODULE, MODULE] : [MODULE];
      const r = spawnSync(process.execPath, [BIN, command, ...args, '--var-file', missing], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 2, r.stdout);
      assert.equal(r.stderr, `storage-perf ${command}: cannot read the --var-file ${missing}: ENOENT\n`);
    }
    const l = await lint([`${MODULE}/main.tf`, '--var-file', missing], { cwd: ROOT });
    assert.equal(l.code, 2, l.stdout);
    assert.equal(l.stderr, `storage-perf lint: cannot read the --var-file ${missing}: ENOENT\n`);
  });
  it('lint --var: the server reads the module with the value given', async () => {
    const r = await lint([`${MODULE}/main.tf`, '--format', 'json', '--var', 'machine_type=n2-standard-7'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      files(r.stdout)
        .flatMap((f) => f.diagnostics)
        .map((d) => [d.code, d.line]),
      [['unknown-machine-type', 3]],
    );
    const plain = await lint([`${MODULE}/main.tf`, '--format', 'json'], { cwd: ROOT });
    assert.equal(plain.code, 0, plain.stdout);
  });
});
