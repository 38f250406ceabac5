/** `storage-perf diff`, run as a user runs it: the real executable in a child process, on files and on git. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DiffRecord } from '../../core/src';
import { fleet, HDD, SSD, spec, vm } from '../fixtures/diff-specs';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');

function cli(args: string[], cwd = ROOT, env?: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: env && { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A new git repository in a temporary folder, and a runner of git in it that fails the test on an error. */
function gitRepo(): { repo: string; git: (...args: string[]) => string } {
  const repo = mkdtempSync(join(tmpdir(), 'storage-perf-diff-git-'));
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  git('init', '-q');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  return { repo, git };
}

describe('storage-perf diff', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-diff-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The two texts written as files, and diff run on them. */
  function diff(base: string, head: string, ...args: string[]) {
    writeFileSync(join(dir, 'base.perf.yaml'), base);
    writeFileSync(join(dir, 'head.perf.yaml'), head);
    return cli(['diff', join(dir, 'base.perf.yaml'), join(dir, 'head.perf.yaml'), ...args]);
  }
  const record = (r: { stdout: string }) => JSON.parse(r.stdout) as DiffRecord;

  it('a machine change that moves the binding limit: shown with the limits, exit 0', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-32', SSD)));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^1 VM changed: .*\/month; 0 VMs unchanged\n/);
    assert.match(r.stdout, /disk data: read IOPS +15,000 \(vm\) +21,000 \(size\) +limit vm → size/);
    const j = record(diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-32', SSD)), '--format', 'json'));
    assert.equal(j.vms[0].disks[0].figures.read_iops.limit_changed, true);
  });

  it('a disk type change that misses a target: now missed, by how much; exit 1', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-8', 'type: pd-balanced\nsize: 500GiB')));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /1 target now missed/);
    // pd-balanced 500 GiB: 3,000 + 6 × 500 = 6,000 IOPS against 12,000: half of it.
    assert.match(r.stdout, /workload oltp: target +met \(\+\d[\d.]*%\) +missed \(-50%\) +now missed/);
    assert.match(r.stdout, /\+ error target-unreachable: workload 'oltp'/);
  });

  it('a resize with its cost change, in the table and the JSON', () => {
    const base = spec(vm('db', 'n2-standard-8', SSD)),
      head = spec(vm('db', 'n2-standard-8', 'type: pd-ssd\nsize: 1000GiB'));
    const r = diff(base, head);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /disk data: per month +\$85\.00 +\$170\.00 +\+\$85\.00/);
    const j = record(diff(base, head, '--format', 'json'));
    assert.equal(j.monthly_cost.delta, 85);
    assert.equal(j.vms[0].monthly_cost.disks.delta, 85);
  });

  it('a VM added and one removed; a renamed disk removed and added', () => {
    const keep = vm('web', 'n2-standard-4', 'type: pd-balanced\nsize: 100GiB', 1000);
    const j = record(diff(spec(keep + vm('old', 'n2-standard-8', SSD)), spec(keep + vm('new', 'n2-standard-8', SSD)), '--format', 'json'));
    assert.deepEqual(
      j.vms.map((v) => [v.name, v.change]),
      [
        ['new', 'added'],
        ['old', 'removed'],
      ],
    );
    assert.equal(j.counts.vms_unchanged, 1);
    const renamed = record(
      diff(
        spec(vm('db', 'n2-standard-8', SSD)),
        spec(vm('db', 'n2-standard-8', SSD).replace('name: data', 'name: pg')),
        '--format',
        'json',
      ),
    );
    assert.deepEqual(
      renamed.vms[0].disks.map((d) => [d.name, d.change]),
      [
        ['pg', 'added'],
        ['data', 'removed'],
      ],
    );
  });

  it("the summary's counts are the JSON's: changed, added, removed and unchanged VMs apart", () => {
    const keep = vm('web', 'n2-standard-4', 'type: pd-balanced\nsize: 100GiB', 1000);
    const base = spec(keep + vm('db', 'n2-standard-8', SSD) + vm('old', 'n2-standard-8', SSD)),
      head = spec(keep + vm('db', 'n2-standard-32', SSD) + vm('new', 'n2-standard-8', SSD));
    const j = record(diff(base, head, '--format', 'json'));
    assert.deepEqual([j.counts.vms_changed, j.counts.vms_added, j.counts.vms_removed, j.counts.vms_unchanged], [1, 1, 1, 1]);
    const line = diff(base, head).stdout.split('\n')[0];
    assert.equal(line, j.summary);
    /** The summary's count of VMs of a kind: "1 VM changed, 1 added, 1 removed: …; 1 VM unchanged". */
    const said = (kind: string) => Number(new RegExp(`(\\d+)(?: VMs?)? ${kind}\\b`).exec(line)?.[1] ?? 0);
    assert.deepEqual(
      ['changed', 'added', 'removed', 'unchanged'].map(said),
      [j.counts.vms_changed, j.counts.vms_added, j.counts.vms_removed, j.counts.vms_unchanged],
      line,
    );
    assert.equal(j.vms.length, j.counts.vms_changed + j.counts.vms_added + j.counts.vms_removed);
  });

  it('findings past the per-file cap are compared too: 221 missed targets cut to 117 is no new error, exit 0', () => {
    const r = diff(fleet(221, 0), fleet(221, 104), '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const j = record(r);
    assert.deepEqual([j.counts.findings_appeared, j.counts.errors_appeared, j.counts.targets_now_met], [0, 0, 104]);
    assert.equal(j.vms.flatMap((v) => v.findings.gone).filter((f) => f.code === 'target-unreachable').length, 104);
    // The other way round, 104 targets now missed and their findings new: every one, not the first 100 of them.
    const back = record(diff(fleet(221, 104), fleet(221, 0), '--format', 'json'));
    assert.deepEqual([back.counts.targets_now_missed, back.counts.errors_appeared], [104, 104]);
  });

  it('a price unknown on one side: the change is unknown, never $0.00', () => {
    const extreme = 'type: pd-extreme\nsize: 1000GiB\nprovisioned_iops: 20000';
    const r = diff(spec(vm('db', 'n2-standard-64', SSD), 'europe-west4'), spec(vm('db', 'n2-standard-64', extreme), 'europe-west4'));
    assert.match(r.stdout, /monthly cost change unknown \(IOPS price unknown in europe-west4\)/);
    assert.match(r.stdout, /disk data: per month +\$\d[\d,.]* +at least \$\d[\d,.]* +unknown/);
  });

  it('a base that does not parse: a clear error naming it, exit 2', () => {
    const r = diff('version: 1\nprovider: gcp\nvms:\n  - name: [db\n', spec(vm('db', 'n2-standard-8', SSD)));
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^storage-perf diff: the base, .*base\.perf\.yaml, does not parse: line \d+: .*\(yaml-syntax\)\n$/);
    const missing = cli(['diff', join(dir, 'nothing.perf.yaml'), join(dir, 'head.perf.yaml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the base, .*nothing\.perf\.yaml: /);
  });

  it('--fail-on warning fails on a warning that appeared; usage errors exit 2', () => {
    // A smaller machine: the VM now caps the disk (a warning), the target still met.
    const base = spec(vm('db', 'n2-standard-32', SSD, 5000)),
      head = spec(vm('db', 'n2-standard-8', SSD, 5000));
    assert.equal(diff(base, head).code, 0);
    assert.equal(diff(base, head, '--fail-on', 'warning').code, 1);
    assert.equal(diff(head, base, '--fail-on', 'warning').code, 0, 'a warning gone fails nothing');
    assert.equal(diff(base, head, '--fail-on', 'fatal').code, 2);
    assert.equal(diff(base, head, '--format', 'html').code, 2);
    assert.equal(cli(['diff', 'examples/storage.perf.yaml']).code, 2);
    const help = cli(['diff', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--base-ref REF/);
    assert.match(cli(['--help']).stdout, /diff BASE HEAD/);
  });

  it('--base-ref: the base from git at a revision, the head from the disk, no checkout', function () {
    this.timeout(60000);
    const { repo, git } = gitRepo();
    try {
      cpSync(join(ROOT, 'test/fixtures/terraform/module'), join(repo, 'infra'), { recursive: true });
      cpSync(join(ROOT, 'test/fixtures/terraform/plans'), join(repo, 'plans'), { recursive: true });
      writeFileSync(join(repo, 'infra/specs.perf.yaml'), spec(vm('db', 'n2-standard-8', SSD)));
      git('add', '-A');
      git('commit', '-qm', 'base');
      // The head: a larger disk in the spec, a larger machine in the module.
      writeFileSync(join(repo, 'infra/specs.perf.yaml'), spec(vm('db', 'n2-standard-8', 'type: pd-ssd\nsize: 1000GiB')));
      const main = readFileSync(join(repo, 'infra/main.tf'), 'utf8');
      const machine = /machine_type\s*=\s*"([^"]+)"/.exec(main);
      assert.ok(machine, 'the fixture module names a machine type');
      writeFileSync(join(repo, 'infra/main.tf'), main.replace(machine[0], machine[0].replace(machine[1], 'n2-standard-32')));
      const r = cli(['diff', '--base-ref', 'HEAD', 'specs.perf.yaml', '--format', 'json'], join(repo, 'infra'));
      assert.equal(r.code, 0, r.stderr);
      const j = record(r);
      assert.equal(j.base.ref, 'HEAD');
      assert.equal(j.monthly_cost.delta, 85);
      // A module folder: its .tf files as git has them, read as evaluate reads the folder.
      const m = cli(['diff', '--base-ref', 'HEAD', 'infra', '--format', 'json'], repo);
      assert.equal(m.code === 0 || m.code === 1, true, m.stderr);
      const mj = record(m);
      assert.ok(
        mj.vms.some((v) => v.machine_type.before === machine[1] && v.machine_type.after === 'n2-standard-32'),
        JSON.stringify(mj.vms.map((v) => [v.name, v.machine_type])),
      );
      // A workload sidecar: the plan it names beside it, as it is at REF too.
      const plan = join(repo, 'plans/gcp.json');
      writeFileSync(plan, readFileSync(plan, 'utf8').replace('"machine_type": "n2-standard-8"', '"machine_type": "n2-standard-16"'));
      const s = cli(['diff', '--base-ref', 'HEAD', 'plans/gcp.perf.yaml', '--format', 'json'], repo);
      assert.ok(s.code === 0 || s.code === 1, s.stderr);
      assert.deepEqual(
        record(s)
          .vms.filter((v) => v.machine_type.before !== v.machine_type.after)
          .map((v) => [v.name, v.machine_type]),
        [['google_compute_instance.db', { before: 'n2-standard-8', after: 'n2-standard-16' }]],
      );
      assert.equal(git('status', '--porcelain').split('\n').filter(Boolean).length, 3, 'the working files are as they were');
      const bad = cli(['diff', '--base-ref', 'no-such-ref', 'specs.perf.yaml'], join(repo, 'infra'));
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^storage-perf diff: cannot read the base, specs\.perf\.yaml at no-such-ref: /);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('--base-ref: a spec the change adds is all its VMs added, one it deletes all removed; exit by the usual rule', function () {
    this.timeout(60000);
    const { repo, git } = gitRepo();
    try {
      writeFileSync(join(repo, 'old.perf.yaml'), spec(vm('db', 'n2-standard-32', SSD)));
      mkdirSync(join(repo, 'gone'));
      writeFileSync(join(repo, 'gone/deep.perf.yaml'), spec(vm('x', 'n2-standard-32', SSD)));
      git('add', '-A');
      git('commit', '-qm', 'base');
      // The change: a new spec (one target met, one missed), the old one and a whole folder deleted.
      writeFileSync(join(repo, 'new.perf.yaml'), spec(vm('a', 'n2-standard-32', SSD) + vm('b', 'n2-standard-32', HDD)));
      rmSync(join(repo, 'old.perf.yaml'));
      rmSync(join(repo, 'gone'), { recursive: true });
      const run = (path: string, ...args: string[]) => cli(['diff', '--base-ref', 'HEAD', path, ...args], repo);

      const added = run('new.perf.yaml', '--format', 'json');
      assert.equal(added.code, 1, `b's target is now missed: ${added.stderr}`);
      const a = record(added);
      assert.deepEqual([a.base.exists, a.head.exists, a.base.vms], [false, true, 0]);
      assert.deepEqual(
        a.vms.map((v) => [v.name, v.change]),
        [
          ['a', 'added'],
          ['b', 'added'],
        ],
      );
      assert.deepEqual([a.counts.vms_added, a.counts.vms_removed, a.counts.vms_changed, a.counts.targets_now_missed], [2, 0, 0, 1]);
      assert.equal(a.monthly_cost.delta, a.head.monthly_cost.amount);
      assert.match(
        run('new.perf.yaml').stdout,
        /^New file, 2 VMs added: 1 target now missed, .*\nbase new\.perf\.yaml at HEAD \(not there\) → /,
      );
      // With the spec's target met, the same added file exits 0.
      writeFileSync(join(repo, 'new.perf.yaml'), spec(vm('a', 'n2-standard-32', SSD)));
      assert.equal(run('new.perf.yaml').code, 0);

      const deleted = run('old.perf.yaml', '--format', 'json');
      assert.equal(deleted.code, 0, deleted.stderr);
      const d = record(deleted);
      assert.deepEqual([d.base.exists, d.head.exists], [true, false]);
      assert.deepEqual(
        d.vms.map((v) => [v.name, v.change]),
        [['db', 'removed']],
      );
      assert.equal(d.monthly_cost.delta, -d.base.monthly_cost.amount!);
      assert.match(run('old.perf.yaml').stdout, /^Deleted file, 1 VM removed: /);
      // A spec in a folder the change deleted whole: read from git from the nearest folder still on the disk.
      const deep = run('gone/deep.perf.yaml', '--format', 'json');
      assert.equal(deep.code, 0, deep.stderr);
      assert.deepEqual(
        record(deep).vms.map((v) => [v.name, v.change]),
        [['x', 'removed']],
      );

      // A Terraform module folder the change adds: every VM of it added.
      cpSync(join(ROOT, 'test/fixtures/terraform/module'), join(repo, 'infra'), { recursive: true });
      const module = run('infra', '--format', 'json');
      assert.ok(module.code === 0 || module.code === 1, module.stderr);
      const m = record(module);
      assert.ok(m.vms.length > 0 && m.vms.every((v) => v.change === 'added'));
      assert.equal(m.vms.length, m.head.vms);

      // Neither at REF nor on the disk, or a revision git does not know: exit 2, as before.
      const neither = run('nothing.perf.yaml');
      assert.equal(neither.code, 2);
      assert.match(neither.stderr, /nothing\.perf\.yaml is neither at HEAD nor on the disk/);
      const bad = cli(['diff', '--base-ref', 'no-such-ref', 'new.perf.yaml'], repo);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^storage-perf diff: cannot read the base, new\.perf\.yaml at no-such-ref: /);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
  it('--base-ref: a tree holding entries named .. is refused, and nothing is written outside the temporary folder', function () {
    this.timeout(60000);
    const { repo, git } = gitRepo();
    const temp = mkdtempSync(join(tmpdir(), 'storage-perf-diff-tmp-'));
    try {
      cpSync(join(ROOT, 'test/fixtures/terraform/module'), join(repo, 'infra'), { recursive: true });
      git('add', '-A');
      git('commit', '-qm', 'head');
      // A tree git would never make, built by hand: infra/../../evil.tf beside the module's files.
      const blob = spawnSync('git', ['hash-object', '-w', '--stdin'], {
        cwd: repo,
        input: 'resource "x" "y" {}\n',
        encoding: 'utf8',
      }).stdout.trim();
      const mktree = (lines: string) => spawnSync('git', ['mktree'], { cwd: repo, input: lines, encoding: 'utf8' }).stdout.trim();
      const inner = mktree(`100644 blob ${blob}\tevil.tf\n`);
      const up = mktree(`040000 tree ${inner}\t..\n`);
      const infra = git('rev-parse', 'HEAD:infra').trim();
      const entries = git('ls-tree', infra);
      const withDots = mktree(`${entries}040000 tree ${up}\t..\n`);
      const root = mktree(`040000 tree ${withDots}\tinfra\n`);
      const base = git('commit-tree', root, '-m', 'hostile').trim();
      assert.match(git('ls-tree', '-r', '--name-only', base), /infra\/\.\.\/\.\.\/evil\.tf/);
      const r = cli(['diff', '--base-ref', base, 'infra'], repo, { TMPDIR: temp });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /holds an entry named '\.\.\/\.\.\/evil\.tf', which would be written outside its folder: refused/);
      assert.ok(!existsSync(join(temp, 'evil.tf')), 'nothing written outside the temporary folder');
      assert.deepEqual(readdirSync(temp), [], 'the temporary folder is removed');
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
