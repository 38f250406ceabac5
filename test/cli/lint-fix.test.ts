/**
 * `storage-perf lint --fix` and `--fix-dry-run`, run as a user runs them: preferred quick fixes applied until
 * nothing changes, comments and formatting kept, idempotent, atomic writes; and suppression comments end to end.
 */
import * as assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../core/src';
import { CLEAN, lint, STUB_SERVERS, tree, WARN, type CliRun } from '../fixtures/lint-cli';

const ok = (r: CliRun, code: number) =>
  assert.equal(r.code, code, `exit ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);

/**
 * Fixable findings of several kinds, with comments everywhere: settings with no effect on pd-ssd (removed), a
 * misspelt key beside the real one (removed, not renamed into a duplicate), and a misspelt key whose fix and the
 * missing-size fix would each add `size` (applied one at a time; the rename then needs a second fix, as 0.5GiB is
 * below pd-balanced's minimum).
 */
const FIXABLE = `# Storage for the orders service.
version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db          # primary
    machine_type: n2-standard-16
    disks:
      - name: data
        type: pd-ssd    # fast one
        size: 500GiB
        count: 2        # leftover from local-ssd days
        interface: nvme
      - name: logs
        type: pd-standard
        sise: 200GiB
        size: 200GiB    # the real one
      - name: scratch
        type: pd-balanced
        sizee: 0.5GiB     # too small, once spelt right

    # the end
`;

const comments = (text: string) =>
  text
    .split('\n')
    .map((l) => /#.*$/.exec(l)?.[0])
    .filter((c): c is string => !!c);
const fixable = (text: string) =>
  analyze(text)
    .diagnostics.filter((d) => d.fixes?.some((f) => f.preferred))
    .map((d) => d.code);

describe('storage-perf lint --fix', function () {
  this.timeout(60000);

  it('--fix-dry-run prints the diff of what --fix writes, and writes nothing', async () => {
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    const before = statSync(join(dir, 'a.perf.yaml')).mtimeMs;
    // With a JSON report on stdout the diff goes to stderr, followed by the summary line.
    const dry = await lint(['a.perf.yaml', '--fix-dry-run', '-f', 'json'], { cwd: dir });
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), FIXABLE);
    assert.equal(statSync(join(dir, 'a.perf.yaml')).mtimeMs, before);
    JSON.parse(dry.stdout);
    assert.match(dry.stderr, /^--- a\/a\.perf\.yaml\n\+\+\+ b\/a\.perf\.yaml\n@@ /);
    const patch = dry.stderr.slice(0, dry.stderr.trimEnd().lastIndexOf('\n') + 1);
    assert.match(dry.stderr.slice(patch.length), /; fixes would change 1 file\n$/);
    const fixed = await lint(['a.perf.yaml', '--fix', '-f', 'json'], { cwd: dir });
    const written = readFileSync(join(dir, 'a.perf.yaml'), 'utf8');
    assert.notEqual(written, FIXABLE);
    assert.equal(applyPatch(FIXABLE, patch), written);
    assert.equal(fixed.code, dry.code);
    assert.deepEqual(
      JSON.parse(fixed.stdout).files,
      JSON.parse(dry.stdout).files.map((f: object) => ({ ...f, fixed: true })),
    );
  });

  it('applies the preferred fixes until none is left, keeping every comment, and is idempotent', async () => {
    const dir = tree({ 'a.perf.yaml': FIXABLE, 'b.perf.yaml': FIXABLE.replace('orders', 'payments'), 'clean.perf.yaml': CLEAN });
    const cleanBefore = statSync(join(dir, 'clean.perf.yaml')).mtimeMs;
    // Every kind of fix, the design changes included (0.5GiB raised to pd-balanced's documented minimum).
    const first = await lint(['.', '--fix', '--fix-type', 'problem,sizing', '-f', 'json'], { cwd: dir });
    const text = readFileSync(join(dir, 'a.perf.yaml'), 'utf8');
    const lines = text.split('\n');
    // what the fixes did
    assert.ok(!lines.some((l) => /^\s+(count|interface|sise|sizee):/.test(l)), text);
    assert.equal(lines.filter((l) => /^\s+size:/.test(l)).length, 3, text);
    assert.ok(lines.includes('        size: 200GiB    # the real one'), text);
    // the misspelt key renamed, then raised to pd-balanced's minimum, its comment kept
    assert.match(text, /- name: scratch\n {8}type: pd-balanced\n {8}size: 10GiB {5}# too small, once spelt right\n/);
    assert.deepEqual(fixable(text), [], 'no preferred fix is left');
    assert.ok(!analyze(text).diagnostics.some((d) => d.code === 'yaml-duplicate-key'));
    // what they kept: every comment that is not on a removed line, and the formatting of untouched lines
    const removed = ['# leftover from local-ssd days'];
    assert.deepEqual(
      comments(text),
      comments(FIXABLE).filter((c) => !removed.includes(c)),
    );
    for (const l of FIXABLE.split('\n')) if (!/(count|interface|sise|sizee):/.test(l)) assert.ok(lines.includes(l), `lost: ${l}`);
    assert.equal(readFileSync(join(dir, 'b.perf.yaml'), 'utf8'), text.replace('orders', 'payments'), 'concurrent files fixed alike');
    assert.equal(statSync(join(dir, 'clean.perf.yaml')).mtimeMs, cleanBefore, 'a file without fixes is not rewritten');
    const report = JSON.parse(first.stdout);
    assert.equal(report.summary.fixed, 2);
    assert.match(first.stderr, /; fixed 2 files$/m);
    // the report is of the fixed text, which has nothing left to say: exit 0 although the original had errors
    assert.deepEqual(analyze(text).diagnostics, []);
    assert.deepEqual(report.files.find((f: { path: string }) => f.path === 'a.perf.yaml').diagnostics, []);
    assert.ok(analyze(FIXABLE).diagnostics.some((d) => d.severity === 'error'));
    ok(first, 0);

    const mtime = statSync(join(dir, 'a.perf.yaml')).mtimeMs;
    const second = await lint(['.', '--fix', '--fix-type', 'problem,sizing', '-f', 'json'], { cwd: dir });
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), text);
    assert.equal(statSync(join(dir, 'a.perf.yaml')).mtimeMs, mtime);
    assert.equal(JSON.parse(second.stdout).summary.fixed, 0);
    assert.equal(second.code, first.code);
    const dry = await lint(['.', '--fix-dry-run', '--fix-type', 'problem,sizing'], { cwd: dir });
    assert.doesNotMatch(dry.stdout, /^--- a\//m, 'nothing left to change');
  });

  it('fixes that never settle leave the file unchanged (exit 2), whether they cycle or keep growing', async () => {
    const dir = tree({ 'a.perf.yaml': 'a: 1\n' });
    const server = ['--server-command', JSON.stringify([process.execPath, join(STUB_SERVERS, 'fix-never-settles.js')])];
    const [cycle, grow] = await Promise.all([
      lint(['a.perf.yaml', '--fix', ...server], { cwd: dir, env: { FIX_MODE: 'cycle' } }),
      lint(['a.perf.yaml', '--fix-dry-run', ...server], { cwd: dir, env: { FIX_MODE: 'grow' } }),
    ]);
    ok(cycle, 2);
    assert.match(cycle.stderr, /a\.perf\.yaml: quick fixes undo each other; the file was left unchanged/);
    ok(grow, 2);
    assert.match(grow.stderr, /a\.perf\.yaml: quick fixes did not settle after \d+ rounds; the file was left unchanged/);
    assert.doesNotMatch(grow.stdout, /^--- a\//m, 'no diff is offered for fixes that do not settle');
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), 'a: 1\n');
    assert.deepEqual(readdirSync(dir), ['a.perf.yaml']);
  });

  it('by default --fix corrects what is written and leaves the design alone; --fix-type sizing changes it and says what it costs', async () => {
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    const r = await lint(['a.perf.yaml', '--fix'], { cwd: dir });
    const text = readFileSync(join(dir, 'a.perf.yaml'), 'utf8');
    // Corrections: the misspelt keys renamed (the repeated one removed), the settings pd-ssd has no use for removed.
    assert.ok(!/^\s+(count|interface|sise|sizee):/m.test(text), text);
    assert.match(text, /- name: scratch\n {8}type: pd-balanced\n {8}size: 0.5GiB +# too small, once spelt right\n/);
    // The design is the user's: a disk below the type's minimum is an error to decide on, not a size to pick.
    assert.ok(text.includes('machine_type: n2-standard-16'));
    ok(r, 1);
    assert.match(r.stdout, /size-out-of-range/);
    assert.doesNotMatch(r.stdout + r.stderr, /design change/);

    const sized = await lint(['a.perf.yaml', '--fix', '--fix-type', 'sizing'], { cwd: dir });
    ok(sized, 0);
    assert.match(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), /size: 10GiB {5}# too small, once spelt right/);
    // The 5 GiB disk cannot be created, so it has no price to take a change from: the title gives the total after.
    assert.match(sized.stdout, /^a\.perf\.yaml: design change: Set size to 10GiB \(the file then \$[\d,.]+\/month\)$/m);
  });

  it('--fix writes a read ratio with one clear reading (70 → 0.7) and leaves one that reads several ways (1.5) to the user', async () => {
    const workload = (name: string, ratio: string) =>
      `      - name: ${name}\n        disk: data\n        block_size: 8KiB\n        read_ratio: ${ratio}\n`;
    const spec = `${CLEAN}    workloads:\n${workload('clear', '70')}${workload('unclear', '1.5')}`;
    const dir = tree({ 'a.perf.yaml': spec });
    const r = await lint(['a.perf.yaml', '--fix', '-f', 'json'], { cwd: dir });
    ok(r, 1);
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), spec.replace('read_ratio: 70', 'read_ratio: 0.7'));
    const left = JSON.parse(r.stdout).files[0].diagnostics;
    assert.deepEqual(
      left.map((d: { code: string; line: number }) => [d.code, d.line]),
      [['out-of-range', spec.split('\n').indexOf('        read_ratio: 1.5') + 1]],
    );
  });

  it("a type switch keeps the size the new type takes, and each design change's total is the written file's", async () => {
    // pd-extreme needs 64 vCPUs on N2 and at least 500 GiB: the type is what has to change, and pd-ssd takes 200 GiB.
    // Its size fix (pd-extreme's 500 GiB) and the switch were once applied in one round: a 500 GiB pd-ssd, printed
    // with totals of neither change alone. The order the spec writes the keys in does not matter.
    const disk = (keys: string[]) => `      - name: data\n${keys.map((k) => `        ${k}\n`).join('')}`;
    const spec = (keys: string[]) =>
      `version: 1\nprovider: gcp\ncatalog: gcp-2024\nvms:\n  - name: db\n    machine_type: n2-standard-8\n    disks:\n${disk(keys)}`;
    const typeFirst = spec(['type: pd-extreme', 'size: 200GiB', 'provisioned_iops: 10000']);
    const sizeFirst = spec(['size: 200GiB', 'type: pd-extreme', 'provisioned_iops: 10000']);
    // Two VMs, each with a disk below its type's minimum: one change each, and the last one's total is the file's.
    const tiny = (vm: string) =>
      `  - name: ${vm}\n    machine_type: n2-standard-8\n    disks:\n      - name: data\n        type: pd-balanced\n        size: 0.5GiB\n`;
    const two = `version: 1\nprovider: gcp\ncatalog: gcp-2024\nvms:\n${tiny('a')}${tiny('b')}`;
    const dir = tree({ 'a.perf.yaml': typeFirst, 'b.perf.yaml': sizeFirst, 'c.perf.yaml': two });
    const r = await lint(['.', '--fix', '--fix-type', 'problem,sizing'], { cwd: dir });
    ok(r, 0);
    const written = readFileSync(join(dir, 'c.perf.yaml'), 'utf8');
    assert.equal(written, two.replaceAll('size: 0.5GiB', 'size: 10GiB'));
    // (While the other VM's disk has no price, the file has no whole total: the first says what its VM then costs.)
    const said = [...r.stdout.matchAll(/^c\.perf\.yaml: design change: (.*)$/gm)].map((m) => m[1]);
    assert.match(said[0], /^Set size to 10GiB \('a' then \$[\d,.]+\/month\)$/);
    assert.equal(said.length, 2, r.stdout);
    const total = /^Set size to 10GiB \(the file then \$([\d,.]+)\/month\)$/.exec(said[1]);
    assert.equal(analyze(written).monthly_cost!.toFixed(2), total?.[1].replace(/,/g, ''), said[1]);
    for (const [file, keys] of [
      ['a.perf.yaml', ['type: pd-ssd', 'size: 200GiB']],
      ['b.perf.yaml', ['size: 200GiB', 'type: pd-ssd']],
    ] as const) {
      const written = readFileSync(join(dir, file), 'utf8');
      // The switch, and the provisioned IOPS pd-ssd has no use for removed; the size as it was.
      assert.equal(written, spec([...keys]));
      const changes = [...r.stdout.matchAll(new RegExp(`^${file.replace('.', '\\.')}: design change: (.*)$`, 'gm'))].map((m) => m[1]);
      assert.equal(changes.length, 1, r.stdout);
      // (A disk the provider refuses has no price today: the title gives the total after the change alone.)
      const total = /^Use pd-ssd \(the file then \$([\d,.]+)\/month\)$/.exec(changes[0]);
      assert.ok(total, changes[0]);
      assert.equal(analyze(written).monthly_cost!.toFixed(2), total[1].replace(/,/g, ''));
    }
  });

  it('--fix-type sizing applies the cheapest machine and disk change; a change of block size or queue depth only with workload', async () => {
    // 400 MiB/s of 8 KiB reads at queue depth 32 on a 1,000 GiB pd-ssd of n2-standard-8, which holds it to 15,000
    // IOPS. The hardware for 51,200 IOPS (n2-standard-32, 1,507 GiB, +$936.95/month) needs a queue of 64 too; 32 KiB
    // blocks reach the target at no cost. Once, --fix-type sizing applied the redesign and its queue depth.
    const spec = `${CLEAN.replace('n2-standard-16', 'n2-standard-8').replace('500GiB', '1000GiB')}    workloads:
      - name: scan
        disk: data
        pattern: random
        block_size: 8KiB
        read_ratio: 1
        queue_depth: 32
        target:
          throughput: 400MiB/s
`;
    const dir = tree({ 'sizing.perf.yaml': spec, 'workload.perf.yaml': spec, 'both.perf.yaml': spec });
    const run = (file: string, types: string) => lint([file, '--fix', '--fix-type', types], { cwd: dir });
    const [sizing, workload, both] = await Promise.all([
      run('sizing.perf.yaml', 'sizing'),
      run('workload.perf.yaml', 'workload'),
      run('both.perf.yaml', 'sizing,workload'),
    ]);
    // No change of machine and disks alone meets it: nothing is applied, and the finding stays.
    ok(sizing, 1);
    assert.equal(readFileSync(join(dir, 'sizing.perf.yaml'), 'utf8'), spec);
    assert.doesNotMatch(sizing.stdout, /design change/);
    assert.match(sizing.stdout, /target-unreachable/);
    // Asked for workload changes, alone or with sizing: the cheapest of them all, the block size.
    for (const [file, r] of [
      ['workload.perf.yaml', workload],
      ['both.perf.yaml', both],
    ] as const) {
      const written = readFileSync(join(dir, file), 'utf8');
      assert.equal(written, spec.replace('block_size: 8KiB', 'block_size: 32KiB'), file);
      assert.match(
        r.stdout,
        new RegExp(`^${file.replace('.', '\\.')}: design change: Use 32KiB blocks for 'scan' \\(\\+\\$0\\.00/month,`, 'm'),
      );
      assert.equal(analyze(written).vms[0].workloads[0].meets_target, true);
    }
  });

  it('--fix-type takes problem, sizing and workload, with --fix or --fix-dry-run only', async () => {
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    const bad = await lint(['a.perf.yaml', '--fix', '--fix-type', 'layout'], { cwd: dir });
    ok(bad, 2);
    assert.match(bad.stderr, /unknown fix type 'layout' \(problem, sizing or workload\)/);
    const alone = await lint(['a.perf.yaml', '--fix-type', 'sizing'], { cwd: dir });
    ok(alone, 2);
    assert.match(alone.stderr, /--fix-type goes with --fix or --fix-dry-run/);
  });

  it('a fixed file keeps its permissions, whatever the umask', async () => {
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    chmodSync(join(dir, 'a.perf.yaml'), 0o664);
    const r = await lint(['a.perf.yaml', '--fix', '--fix-type', 'problem,sizing'], { cwd: dir, shellPrefix: 'umask 022' });
    ok(r, 0);
    assert.notEqual(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), FIXABLE);
    assert.equal((statSync(join(dir, 'a.perf.yaml')).mode & 0o7777).toString(8), '664');
  });

  it('a write that fails leaves the file whole and no temporary file behind (exit 2)', async () => {
    // Big enough that writing it goes past a small file-size limit, which makes the write fail half-way.
    const big = FIXABLE + Array.from({ length: 200 }, (_, i) => `# padding comment ${i} to make the file long enough\n`).join('');
    const dir = tree({ 'a.perf.yaml': big });
    const r = await lint(['a.perf.yaml', '--fix'], { cwd: dir, shellPrefix: 'ulimit -f 8' });
    ok(r, 2);
    assert.match(r.stderr, /cannot write the fixes to a\.perf\.yaml: EFBIG/);
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), big);
    assert.deepEqual(readdirSync(dir), ['a.perf.yaml']);
  });
});

describe('storage-perf lint: suppression comments', function () {
  this.timeout(60000);

  it('silence the named finding, and an unknown code is itself a finding', async () => {
    const suppressed = WARN.replace(
      '    machine_type:',
      '    # storage-perf-disable-next-line capped-by-vcpu -- the standby takes reads\n    machine_type:',
    );
    const typo = WARN.replace('    machine_type:', '    # storage-perf-disable-next-line caped-by-vcpu\n    machine_type:');
    const fileWide = `# storage-perf-disable capped-by-vcpu -- reviewed\n${WARN}`;
    const dir = tree({ 'plain.perf.yaml': WARN, 'suppressed.perf.yaml': suppressed, 'typo.perf.yaml': typo, 'file.perf.yaml': fileWide });
    const r = await lint(['.', '-f', 'json', '--fail-on', 'warning'], { cwd: dir });
    ok(r, 1);
    const by = Object.fromEntries(
      JSON.parse(r.stdout).files.map(
        (f: { path: string; diagnostics: Array<{ code: string; line: number; column: number; message: string }> }) => [
          f.path,
          f.diagnostics,
        ],
      ),
    );
    assert.deepEqual(
      by['plain.perf.yaml'].map((d: { code: string }) => d.code),
      ['capped-by-vcpu'],
    );
    assert.deepEqual(by['suppressed.perf.yaml'], []);
    assert.deepEqual(by['file.perf.yaml'], []);
    const t = by['typo.perf.yaml'];
    assert.deepEqual(t.map((d: { code: string }) => d.code).sort(), ['capped-by-vcpu', 'unknown-suppression']);
    const u = t.find((d: { code: string }) => d.code === 'unknown-suppression');
    assert.equal(u.line, 6);
    assert.equal(typo.split('\n')[5].slice(u.column - 1, u.column - 1 + 'caped-by-vcpu'.length), 'caped-by-vcpu');
    assert.match(u.message, /did you mean 'capped-by-vcpu'/);
    // a suppressed file passes even --fail-on warning
    ok(await lint(['suppressed.perf.yaml', '--fail-on', 'warning'], { cwd: dir }), 0);
  });

  it('--fix leaves a suppressed finding alone', async () => {
    const kept = CLEAN + '        # storage-perf-disable-next-line not-applicable -- set for the migration script\n        count: 2\n';
    const fixable = CLEAN + '        count: 2\n';
    const dir = tree({ 'kept.perf.yaml': kept, 'fixable.perf.yaml': fixable });
    ok(await lint(['.', '--fix'], { cwd: dir }), 0);
    assert.equal(readFileSync(join(dir, 'kept.perf.yaml'), 'utf8'), kept);
    assert.equal(readFileSync(join(dir, 'fixable.perf.yaml'), 'utf8'), CLEAN);
  });
});
