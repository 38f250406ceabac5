/** Targets and headroom (core/src/checks/targets.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze, applyEdits, fixEdits, fixTypesOf, type FixData } from '../../core/src';
import { MESSAGE_LENGTH } from '../../core/src/diagnostics';
import { applyFix, BASE, expectAt, find, lineChanges, WL } from './helpers';

/** A 500 GiB Hyperdisk Balanced on c3-standard-88, whose per-VM row gcp-2024 lacks, with an 8 KiB workload's IOPS target. */
const c3Hyperdisk = (iops: number, more = '') => `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
    machine_type: c3-standard-88
    disks:
      - name: data
        type: hyperdisk-balanced
        size: 500GiB
${more}    workloads:
      - name: oltp
        disk: data
        block_size: 8KiB
        read_ratio: 0.7
        target:
          iops: ${iops}
`;

describe('checks: targets', () => {
  it('target-unreachable on the target key, with resize and machine fixes', () => {
    const d = expectAt(WL('        target:\n          iops: 20000\n'), 'target-unreachable', 'target');
    assert.ok(d.fixes?.some((f) => f.kind === 'set-value' && f.value === 'n2-standard-16'));
  });
  it('queue-depth-too-low with a fix', () => {
    const d = expectAt(WL('        queue_depth: 4\n        target:\n          iops: 12000\n'), 'queue-depth-too-low', '4');
    assert.ok(d.fixes?.[0].kind === 'set-value' && Number(d.fixes[0].value) >= 15);
  });
  it('cpu-insufficient', () => {
    const text =
      BASE.replace('n2-standard-8', 'n2-standard-2') +
      '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1\n        target:\n          iops: 15000\n';
    const d = expectAt(text, 'cpu-insufficient', 'machine_type');
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /\(1 per 2,000 reads, 1 per 2,500 writes\); n2-standard-2 has 2 vCPUs$/);
  });
  it("cpu-insufficient says whose rule it is where the edition borrows another provider's, as information", () => {
    // aws-2025 states no CPU cost of EBS I/O; its catalog reuses Google's rule as guidance.
    const text =
      'version: 1\nprovider: aws\nvms:\n  - name: db\n    machine_type: m6i.large\n    disks:\n      - name: data\n        type: io2\n        size: 500GiB\n        provisioned_iops: 20000\n' +
      '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1\n        target:\n          iops: 15000\n';
    const d = expectAt(text, 'cpu-insufficient', 'machine_type');
    assert.equal(d.severity, 'information');
    assert.match(
      d.message,
      /by Google's rule \(1 per 2,000 reads, 1 per 2,500 writes; aws-2025 has none of its own\); m6i\.large has 2 vCPUs$/,
    );
  });
  it('block-size-too-small', () => {
    const d = expectAt(
      WL('        target:\n          throughput: 400MiB/s\n').replace('block_size: 8KiB', 'block_size: 4k'),
      'block-size-too-small',
      '4k',
    );
    assert.match(d.message, /KiB/);
  });
  it('sequential-merge hint', () => {
    expectAt(WL('        pattern: sequential\n'), 'sequential-merge', 'sequential');
  });
  it('headroom-below-policy: a target met with less room than the policy asks', () => {
    // n2-standard-8 holds the 500 GiB pd-ssd to 15,000 IOPS: a 13,000 IOPS target is met with 15.4 % to spare.
    const met = WL('        target:\n          iops: 13000\n');
    assert.ok(!analyze(met).diagnostics.some((d) => d.code === 'headroom-below-policy'), 'no policy, no finding');
    const policy = (p: string) => met.replace('vms:\n', `policy:\n  min_headroom: ${p}\nvms:\n`);
    const d = expectAt(policy('20%'), 'headroom-below-policy', 'target');
    assert.equal(d.message, "workload 'w' meets its target with 15.4% to spare; the policy asks for 20%");
    assert.ok(!analyze(policy('0.1')).diagnostics.some((x) => x.code === 'headroom-below-policy'));
  });

  it('target-unreachable: another type at the same size comes first, though another workload of the disk misses its own target', () => {
    // Found by the invariant suite: a 10 GiB pd-standard with two workloads, both missing; for the first, a resize
    // to 854 GiB ($34.16) was the only fix, because every other type was refused for leaving the second one short
    // (as the resize does too). A 10 GiB pd-balanced meets the first for $1.00.
    const text =
      BASE.replace('type: pd-ssd', 'type: pd-standard').replace('size: 500GiB', 'size: 10GiB').replace('n2-standard-8', 'n1-standard-1') +
      '    workloads:\n' +
      '      - name: small\n        disk: data\n        block_size: 4k\n        read_ratio: 0\n        target:\n          write_throughput: 5MiB/s\n' +
      '      - name: large\n        disk: data\n        block_size: 4k\n        read_ratio: 0\n        target:\n          write_throughput: 47MiB/s\n';
    const d = analyze(text).diagnostics.find((x) => x.code === 'target-unreachable' && x.path === '/vms/0/workloads/0/target')!;
    const preferred = d.fixes!.find((f) => f.preferred)!;
    assert.match(preferred.title, /^Switch 'data' to pd-balanced \(\+\$0\.60\/month/);
    const after = analyze(applyFix(text, preferred));
    assert.ok(!after.diagnostics.some((x) => x.code === 'target-unreachable' && x.path === '/vms/0/workloads/0/target'));
    assert.deepEqual(lineChanges(text, applyFix(text, preferred)), {
      removed: ['        type: pd-standard'],
      added: ['        type: pd-balanced'],
    });
  });
  it('target-unreachable: a switch from local SSD to a persistent disk writes its size and takes away count and interface', () => {
    // Found by the invariant suite: the switch set the type only, so the disk was left with no size (no figures)
    // and with the device keys a persistent disk does not take.
    const text = [
      'version: 1',
      'provider: gcp',
      'catalog: gcp-2020',
      'vms:',
      '  - name: db',
      '    machine_type: n1-standard-16',
      '    disks:',
      '      - name: data',
      '        type: local-ssd',
      '        count: 1',
      '        interface: scsi',
      '    workloads:',
      '      - name: scan',
      '        disk: data',
      '        pattern: sequential',
      '        block_size: 1m',
      '        read_ratio: 1',
      '        target:',
      '          read_throughput: 500MiB/s',
      '',
    ].join('\n');
    const fix = find(analyze(text), 'target-unreachable').fixes!.find((f) => f.preferred)!;
    assert.match(fix.title, /^Switch 'data' to pd-ssd, (\d+)GiB, without count and interface /);
    const after = applyFix(text, fix);
    assert.deepEqual(lineChanges(text, after), {
      removed: ['        type: local-ssd', '        count: 1', '        interface: scsi'],
      added: ['        type: pd-ssd', `        size: ${/pd-ssd, (\d+GiB)/.exec(fix.title)![1]}`],
    });
    const b = analyze(after);
    assert.equal(b.vms[0].workloads[0].meets_target, true);
    assert.ok(!b.diagnostics.some((x) => x.code === 'target-unreachable' || x.code === 'not-applicable'));
  });
  it('target-unreachable: a machine and disk change that the queue depth would still hold short sets the depth too', () => {
    // Found by the invariant suite: the search left the workload's queue depth out, so 'change machine and resize'
    // was offered for a workload at queue depth 1, and applied, the target was still missed.
    const text =
      BASE.replace('size: 500GiB', 'size: 10GiB').replace('n2-standard-8', 'n1-standard-1') +
      '    workloads:\n      - name: w\n        disk: data\n        block_size: 4k\n        read_ratio: 0.9\n        queue_depth: 1\n        target:\n          write_throughput: 5MiB/s\n';
    const d = find(analyze(text), 'target-unreachable');
    assert.match(d.message, /and queue depth \d+$/);
    const fix = d.fixes!.find((f) => f.preferred)!;
    assert.match(fix.title, /^Change machine to n1-standard-\d+, resize 'data' to \d+GiB and queue depth (\d+) for 'w' /);
    const after = analyze(applyFix(text, fix));
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.ok(!after.diagnostics.some((x) => x.code === 'target-unreachable'));
  });
  it('target-unreachable: a machine and queue depth change that leaves the disk as it is names no resize', () => {
    // The 1,000 GiB pd-ssd gives the 32,000 IOPS the target asks on n2-standard-32; the queue of 16 holds it short.
    const text =
      BASE.replace('size: 500GiB', 'size: 1000GiB') +
      '    workloads:\n      - name: scan\n        disk: data\n        block_size: 8KiB\n        read_ratio: 1\n        queue_depth: 16\n        target:\n          throughput: 250MiB/s\n';
    const d = find(analyze(text), 'target-unreachable');
    assert.doesNotMatch(d.message, /resize/);
    assert.match(d.message, / — use n2-standard-32 and queue depth 64$/);
    const fix = d.fixes!.find((f) => /^Change machine/.test(f.title))!;
    assert.match(fix.title, /^Change machine to n2-standard-32 and queue depth 64 for 'scan' \(/);
    // Applied, it changes the machine and the depth, nothing else, and meets the target.
    const fixed = applyFix(text, fix);
    assert.equal(fixed, text.replace('n2-standard-8', 'n2-standard-32').replace('queue_depth: 16', 'queue_depth: 64'));
    assert.equal(analyze(fixed).vms[0].workloads[0].meets_target, true);
  });
  it('target-unreachable: its fixes come cheapest first, the cheapest of each fix type preferred; larger blocks are a workload fix', () => {
    // 400 MiB/s of 8 KiB reads: n2-standard-8 holds the pd-ssd to 15,000 IOPS (117 MiB/s). The hardware that gives
    // 51,200 IOPS also needs a deeper queue than 32; 32 KiB blocks reach the target at no cost.
    const text =
      BASE.replace('size: 500GiB', 'size: 1000GiB') +
      '    workloads:\n      - name: scan\n        disk: data\n        block_size: 8KiB\n        read_ratio: 1\n        queue_depth: 32\n        target:\n          throughput: 400MiB/s\n';
    const a = analyze(text);
    const d = find(a, 'target-unreachable');
    assert.deepEqual(
      d.fixes!.map((f) => [f.title.replace(/ \(.*/, ''), fixTypesOf(d.code, f).join(), f.preferred]),
      [
        ["Use 32KiB blocks for 'scan'", 'workload', true],
        ["Change machine to n2-standard-32, resize 'data' to 1507GiB and queue depth 64 for 'scan'", 'sizing,workload', true],
      ],
    );
    // Each meets the target when applied, and the first costs nothing.
    const monthly = (f: FixData) => {
      const after = analyze(applyFix(text, f));
      assert.equal(after.vms[0].workloads[0].meets_target, true, f.title);
      return after.vms[0].monthly_cost!;
    };
    assert.equal(monthly(d.fixes![0]), a.vms[0].monthly_cost);
    assert.ok(monthly(d.fixes![1]) > a.vms[0].monthly_cost! + 900);
    // block-size-too-small offers the same block size, as a workload fix, not preferred: target-unreachable ranks it.
    const block = find(a, 'block-size-too-small').fixes!;
    assert.deepEqual(
      block.map((f) => [fixTypesOf('block-size-too-small', f).join(), !!f.preferred]),
      [['workload', false]],
    );
  });
  it("target-unreachable: a spec without a headroom policy is not given the size another spec's policy needed", () => {
    // Found by the invariant suite: the size searches are memoised across analyses by what they ask, and the key of
    // the search for another disk type left out the headroom; after a spec asking 50% headroom, the same VM
    // without a policy was told to switch to a 32 GiB pd-balanced where a 10 GiB one meets its target.
    const vm = readFileSync(resolve(__dirname, '../../../test/fixtures/invariants/headroom-memo.perf.yaml'), 'utf8');
    const preferred = (text: string) =>
      analyze(text)
        .diagnostics.find((d) => d.code === 'target-unreachable' && d.path === '/vms/0/workloads/0/target')!
        .fixes!.find((f) => f.preferred)!.title;
    const withPolicy = vm.replace('vms:\n', 'policy:\n  min_headroom: 50%\nvms:\n');
    assert.match(preferred(withPolicy), /^Switch 'd0' to pd-balanced, \d+GiB /);
    assert.match(preferred(vm), /^Switch 'd0' to pd-balanced \(/);
  });
  it('target-unreachable: provisioned gp3 throughput before a 10 TiB st1, when it costs less', () => {
    const text = `version: 1
provider: aws
vms:
  - name: etl
    machine_type: m6i.8xlarge
    disks:
      - name: data
        type: st1
        size: 1TiB
    workloads:
      - name: scan
        disk: data
        pattern: sequential
        block_size: 1MiB
        read_ratio: 1
        target:
          throughput: 400MiB/s
`;
    const d = expectAt(text, 'target-unreachable', 'target');
    // st1 needs 400 ÷ 40 MiB/s per TiB = 10 TiB ($460.80 a month); a 1 TiB gp3 with 400 MiB/s provisioned:
    // 1,024 GiB × $0.08 + 275 MiB/s × $0.04 = $92.92.
    assert.match(d.message, /a 1 TiB gp3 disk with 400 MiB\/s provisioned for 'data' or resize 'data' to 10 TiB/);
    assert.deepEqual(
      d.fixes?.map((f) => [f.title.replace(/ \(.*/, ''), f.preferred]),
      [
        ["Switch 'data' to gp3, 400 MiB/s provisioned", true],
        ["Resize 'data' to 10TiB", false],
      ],
    );
    // With m6i.8xlarge's on-demand price ($1.536/h × 730 h = $1,121.28) and the 1 TiB st1's $46.08 today.
    assert.match(d.fixes![0].title, /\(\+\$46\.84\/month, \$1,214\.20\/month in all;/);
    assert.match(d.fixes![1].title, /\(\+\$414\.72\/month, \$1,582\.08\/month in all;/);
    const fixed = applyEdits(text, fixEdits(text, analyze(text).parsed.tree, d.fixes![0]));
    assert.equal(
      fixed,
      text.replace('type: st1', 'type: gp3').replace('size: 1TiB\n', 'size: 1TiB\n        provisioned_throughput: 400MiB/s\n'),
    );
    assert.equal(analyze(fixed).vms[0].workloads[0].meets_target, true);
  });

  it('block-size-too-small: the block size it offers is evaluated, and meets the target when applied', () => {
    const text = WL('        target:\n          throughput: 400MiB/s\n').replace('block_size: 8KiB', 'block_size: 4k');
    const d = expectAt(text, 'block-size-too-small', '4k');
    assert.match(d.message, /; 32KiB blocks would reach the target \(469 MiB\/s\)$/);
    assert.equal(d.fixes?.length, 1);
    assert.equal(d.fixes![0].title, "Use 32KiB blocks ('w' then reaches 469 MiB/s)");
    const fixed = applyFix(text, d.fixes![0]);
    assert.deepEqual(lineChanges(text, fixed), { removed: ['        block_size: 4k'], added: ['        block_size: 32KiB'] });
    const after = analyze(fixed);
    const w = after.vms[0].workloads[0];
    assert.equal(w.meets_target, true);
    assert.equal(Math.round(w.read_mibps + w.write_mibps), 469);
    assert.ok(!after.diagnostics.some((x) => x.code === 'block-size-too-small' || x.code === 'target-unreachable'));
  });

  it('block-size-too-small: no block size promised where none reaches the target (the MiB/s limit binds first)', () => {
    // A 100 GiB pd-balanced gives 168 MiB/s: 400 MiB/s at 128 KiB (3,200 IOPS, within its 3,600) was promised
    // from the IOPS alone. Evaluated, no block size up to 1 MiB reaches it.
    const text = WL('        target:\n          throughput: 400MiB/s\n')
      .replace('block_size: 8KiB', 'block_size: 4k')
      .replace('type: pd-ssd', 'type: pd-balanced')
      .replace('size: 500GiB', 'size: 100GiB');
    const d = expectAt(text, 'block-size-too-small', '4k');
    assert.doesNotMatch(d.message, /would reach the target/);
    assert.match(d.message, /no larger block size reaches the target: at 1MiB it reaches [\d.]+ MiB\/s$/);
    assert.deepEqual(d.fixes, []);
    const at1m = analyze(text.replace('block_size: 4k', 'block_size: 1MiB')).vms[0].workloads[0];
    assert.equal(at1m.meets_target, false);
    assert.ok(d.message.endsWith(`${Math.round(at1m.read_mibps + at1m.write_mibps)} MiB/s`), d.message);
  });

  it('queue-depth-too-low: its fix, applied, meets the target and changes only the queue depth', () => {
    const text = WL('        queue_depth: 4\n        target:\n          iops: 12000\n');
    const d = expectAt(text, 'queue-depth-too-low', '4');
    // A workload fix, not preferred here: target-unreachable offers the same depth and ranks it with its other fixes.
    assert.deepEqual(
      d.fixes!.map((f) => [fixTypesOf(d.code, f).join(), !!f.preferred]),
      [['workload', false]],
    );
    const own = d.fixes![0];
    assert.equal(own.kind, 'set-value');
    const same = find(analyze(text), 'target-unreachable').fixes!.find((f) => f.kind === 'set-value' && f.path === own.path);
    assert.equal(same?.kind === 'set-value' && same.value, own.value);
    const fixed = applyFix(text, d.fixes![0]);
    assert.deepEqual(lineChanges(text, fixed), {
      removed: ['        queue_depth: 4'],
      added: [`        queue_depth: ${d.fixes![0].kind === 'set-value' ? d.fixes![0].value : '?'}`],
    });
    const after = analyze(fixed);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.ok(!after.diagnostics.some((x) => x.code === 'queue-depth-too-low' || x.code === 'target-unreachable'));
  });

  it('a queue-bound miss names its bound; no queue depth is asked for that the disks and machine would cap anyway', () => {
    // n2-standard-8 holds the 500 GiB pd-ssd to 15,000 IOPS: 500,000 is out of reach at any depth.
    const text = WL('        queue_depth: 16\n        target:\n          iops: 500000\n');
    const miss = expectAt(text, 'target-unreachable', 'target');
    assert.equal(miss.message, "workload 'w' reaches total IOPS 12,800 of 500,000 IOPS, bound by the queue depth");
    const d = expectAt(text, 'queue-depth-too-low', '16');
    assert.equal(
      d.message,
      'queue depth 16 allows at most 12,800 IOPS (800 per outstanding I/O, gcp-2024); a depth of 19 reaches the 15,000 IOPS the disks and machine cap it at, still short of the target',
    );
    assert.deepEqual(d.fixes, []);
    // Deep enough already for all the hardware gives: the queue is not what holds it, so no finding.
    const deep = analyze(text.replace('queue_depth: 16', 'queue_depth: 40'));
    assert.ok(!deep.diagnostics.some((x) => x.code === 'queue-depth-too-low'));
    assert.match(find(deep, 'target-unreachable').message, /bound by the machine's per-VM limit$/);
  });

  it("a type switch's title and edit agree: a provisioned amount the new type does not take is removed, not claimed", () => {
    const text = c3Hyperdisk(60000, '        provisioned_throughput: 140MiB/s\n');
    const d = expectAt(text, 'target-unreachable', 'target');
    const fix = d.fixes?.find((f) => /pd-ssd/.test(f.title));
    assert.ok(fix, d.fixes?.map((f) => f.title).join(' | '));
    // A title once said "… 140 MiB/s provisioned" for a type that provisions no throughput: the key stayed,
    // without effect, and lint --fix then removed it as not-applicable.
    assert.match(
      fix.title,
      /^Switch 'data' to pd-ssd, 1800GiB, without provisioned_throughput \(\+\$266\.00\/month, \$3,543\.82\/month in all;/,
    );
    const fixed = applyFix(text, fix);
    assert.deepEqual(lineChanges(text, fixed), {
      removed: ['        type: hyperdisk-balanced', '        size: 500GiB', '        provisioned_throughput: 140MiB/s'],
      added: ['        type: pd-ssd', '        size: 1800GiB'],
    });
    const after = analyze(fixed);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.equal(after.vms[0].monthly_cost?.toFixed(2), '3543.82');
    assert.ok(!after.diagnostics.some((x) => x.code === 'not-applicable' || x.code === 'target-unreachable'));
  });

  it('target-unreachable: a target met only at figures that are upper bounds (the per-VM limit unknown) is never what advice offers', () => {
    // c3-standard-88 has no per-VM Hyperdisk Balanced row in gcp-2024: more provisioned IOPS on 'data' reach 60,000
    // at the volume's own limits, but the VM may hold it below, so "provision 60,000 IOPS" would claim a target met
    // that nobody knows is met. Only pd-ssd, whose c3 row is known, is offered.
    const text = c3Hyperdisk(20000);
    const d = expectAt(text, 'target-unreachable', 'target');
    assert.deepEqual(
      d.fixes?.map((f) => f.title.replace(/ \(.*/, '')),
      ["Switch 'data' to pd-ssd"],
    );
  });

  it("target-unreachable: the resize it offers meets the target with the spec's min_headroom", () => {
    // pd-ssd: 30 IOPS per GiB over a 6,000 IOPS baseline: 9,000 IOPS at 100 GiB, 10,800 (9,000 + 20 %) at 160 GiB.
    const text = WL('        target:\n          iops: 9000\n')
      .replace('size: 500GiB', 'size: 50GiB')
      .replace('vms:\n', 'policy:\n  min_headroom: 20%\nvms:\n');
    const d = expectAt(text, 'target-unreachable', 'target');
    const resize = d.fixes?.find((f) => f.title.startsWith("Resize 'data'"));
    assert.ok(resize, d.fixes?.map((f) => f.title).join(' | '));
    assert.match(resize.title, /^Resize 'data' to 160GiB \(/);
    const fixed = applyFix(text, resize);
    assert.deepEqual(lineChanges(text, fixed), { removed: ['        size: 50GiB'], added: ['        size: 160GiB'] });
    const after = analyze(fixed);
    assert.ok(!after.diagnostics.some((x) => x.code === 'target-unreachable' || x.code === 'headroom-below-policy'));
    assert.match(
      analyze(text.replace('policy:\n  min_headroom: 20%\n', '')).diagnostics.find((x) => x.code === 'target-unreachable')!.message,
      /resize 'data' to 100 GiB/,
    );
  });

  it('target-unreachable with a machine change: the disk on that machine is the cheapest that meets it, of any type it attaches', () => {
    const text = `version: 1
provider: aws
vms:
  - name: web
    machine_type: t3.nano
    disks:
      - name: root
        type: gp2
        size: 20GiB
    workloads:
      - name: app
        disk: root
        block_size: 16KiB
        read_ratio: 0.5
        target:
          iops: 2000
`;
    // t3.nano caps EBS at 250 IOPS, and a 20 GiB gp2 gives 100: it was told to resize to 667 GiB (2,001 IOPS at 3
    // per GiB, $66.70 a month) and use t3.medium, where a 20 GiB gp3 gives 3,000 IOPS for $1.60.
    const d = expectAt(text, 'target-unreachable', 'target');
    assert.match(d.message, /— a 20 GiB gp3 disk for 'root' and use t3\.medium$/);
    assert.equal(d.fixes?.length, 1);
    const fix = d.fixes![0];
    assert.equal(
      fix.title,
      "Change machine to t3.medium and switch 'root' to gp3 (+$26.17/month, $31.97/month in all; 'app' then reaches 2,000 IOPS, 31.3 MiB/s)",
    );
    const fixed = applyFix(text, fix);
    assert.deepEqual(lineChanges(text, fixed), {
      removed: ['    machine_type: t3.nano', '    disks:', '      - name: root', '        type: gp2'],
      added: ['    machine_type: t3.medium', '    disks:', '      - name: root', '        type: gp3'],
    });
    const after = analyze(fixed);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.equal(after.vms[0].monthly_cost?.toFixed(2), '31.97');
    assert.ok(!after.diagnostics.some((x) => x.code === 'target-unreachable'));
    // The resize it used to offer, on the same machine, costs more.
    const resized = analyze(text.replace('t3.nano', 't3.medium').replace('size: 20GiB', 'size: 667GiB'));
    assert.equal(resized.vms[0].workloads[0].meets_target, true);
    assert.ok(resized.vms[0].monthly_cost! > after.vms[0].monthly_cost!);
  });

  it('target-unreachable: with no price for provisioned IOPS, raising them is offered first, its price said unknown', () => {
    // On C4D, whose per-VM Hyperdisk Balanced row gcp-2024 has (on C3 the figures would be upper bounds, and a
    // target met at them is not judged met), and which attaches no Persistent Disk.
    const text = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
    machine_type: c4d-standard-16
    disks:
      - name: data
        type: hyperdisk-balanced
        size: 500GiB
    workloads:
      - name: oltp
        disk: data
        block_size: 8KiB
        read_ratio: 0.7
        target:
          iops: 20000
`;
    // gcp-2024 prices Hyperdisk Balanced's capacity only: raising its IOPS was never offered (its price could not be
    // computed), and lint --fix --fix-type sizing switched the disk to another type instead.
    const d = expectAt(text, 'target-unreachable', 'target');
    assert.match(d.message, /— provision 20,000 IOPS and 157 MiB\/s on 'data' \(price unknown\)$/);
    assert.deepEqual(
      d.fixes?.map((f) => [f.title.replace(/ \(.*/, ''), f.preferred]),
      [["Provision 20,000 IOPS and 157 MiB/s on 'data'", true]],
    );
    assert.match(
      d.fixes![0].title,
      /\(at least \$591\.85\/month in all \(IOPS price unknown in us-central1; throughput price unknown in us-central1\);/,
    );
    const fixed = applyFix(text, d.fixes![0]);
    assert.deepEqual(lineChanges(text, fixed), {
      removed: [],
      added: ['        provisioned_throughput: 157MiB/s', '        provisioned_iops: 20000'],
    });
    const after = analyze(fixed);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.equal(after.vms[0].disks[0].typeName, 'hyperdisk-balanced');
    assert.equal(after.vms[0].monthly_cost_complete, false);
    assert.ok(!after.diagnostics.some((x) => x.code === 'target-unreachable'));
  });
  it("a resize never trades another disk's met target for this one (the per-VM baseline of a type is pooled by size)", () => {
    // Found by the invariant suite (seed 7): growing d0 took d2's share of pd-ssd's baseline, and w0 missed.
    // (Sizes at Google's 10 GiB minimum: d2 gets 3,000 of the 6,000 baseline + 300, which w0's 3,000 needs.)
    const text = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: vm0
    machine_type: e2-highcpu-8
    disks:
      - name: d0
        type: pd-ssd
        size: 10GiB
      - name: d2
        type: pd-ssd
        size: 10GiB
    workloads:
      - name: w0
        disk: d2
        pattern: random
        block_size: 4k
        read_ratio: 0
        target:
          iops: 3000
      - name: w2
        disk: d0
        pattern: random
        block_size: 4k
        read_ratio: 0.5
        target:
          read_iops: 50
          write_iops: 2916
`;
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable' && /'w2'/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join(' | '));
    assert.ok(d.fixes?.length, 'a fix is offered');
    for (const fix of d.fixes ?? []) {
      const after = analyze(applyEdits(text, fixEdits(text, a.parsed.tree, fix)));
      const w0 = after.vms[0].workloads.find((w) => w.spec.name === 'w0');
      assert.notEqual(w0?.meets_target, false, `${fix.title} makes w0 miss`);
    }
  });
  it('target-unreachable: where the disks share a per-instance limit, a type whose defaults meet the target is not dropped for failing at its most', () => {
    // Found by the invariant suite (seed 4711): c6a.2xlarge's EBS limit is shared by what the workloads ask (w2
    // spans both disks); gp3 with its most IOPS and throughput took d0's share and w0 missed, so gp3 was dropped
    // and a 45 GiB gp2 ($4.50) was offered first, where a 10 GiB gp3 at its defaults ($0.80) meets the same targets.
    const text = `version: 1
provider: aws
catalog: aws-2025
vms:
  - name: vm1
    machine_type: c6a.2xlarge
    disks:
      - name: d0
        type: gp2
        size: 16384GiB
      - name: d1
        type: io1
        size: 10GiB
    workloads:
      - name: w0
        disk: d0
        pattern: random
        block_size: 64k
        read_ratio: 0.9
        target:
          write_throughput: 5MiB/s
      - name: w1
        disk: d1
        pattern: random
        block_size: 4k
        read_ratio: 0.5
        target:
          read_iops: 50
          write_iops: 50
      - name: w2
        pattern: random
        block_size: 4k
        read_ratio: 0
        target:
          write_throughput: 1488MiB/s
`;
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable' && /'w1'/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join(' | '));
    assert.match(d.message, /— a 10 GiB gp3 disk for 'd1' or /);
    const first = d.fixes!.find((f) => f.preferred)!;
    assert.match(first.title, /^Switch 'd1' to gp3 \(−\$6\.95\/month, \$1,862\.58\/month in all;/);
    const fixed = applyEdits(text, fixEdits(text, a.parsed.tree, first));
    assert.equal(fixed, text.replace('type: io1', 'type: gp3'));
    const after = analyze(fixed).vms[0].workloads.map((w) => [w.spec.name, w.meets_target]);
    assert.deepEqual(after, [
      ['w0', true],
      ['w1', true],
      ['w2', false],
    ]);
  });

  it("target-unreachable: where the most throughput takes another disk's share, the least the disk's own figures allow is found", () => {
    // Found by comparing the cores on the aws-2025 fleet: r6in.2xlarge's EBS limit is shared by what the busy disks
    // ask. gp3 with its most throughput (1,000 MiB/s) took d0's share from w0, and with its least (125 MiB/s) w2 fell
    // short, so gp3 was dropped and an io2 with 2,434 IOPS ($195.59 a month) was offered, where a gp3 with the
    // 623 MiB/s that w2 asks ($43.84) meets every target.
    const text = `version: 1
provider: aws
catalog: aws-2025
vms:
  - name: vm7770
    machine_type: r6in.2xlarge
    disks:
      - name: d0
        type: gp2
        size: 4453GiB
      - name: d1
        type: gp2
        size: 299GiB
    workloads:
      - name: w0
        disk: d0
        pattern: random
        block_size: 64KiB
        read_ratio: 0.3
        queue_depth: 32
        target:
          iops: 1243
      - name: w1
        disk: d1
        pattern: sequential
        block_size: 1MiB
        read_ratio: 0.5
        queue_depth: 32
        target:
          throughput: 180MiB/s
      - name: w2
        disk: d1
        pattern: sequential
        block_size: 4MiB
        read_ratio: 1
        queue_depth: 32
        target:
          throughput: 623MiB/s
`;
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable' && /'w2'/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join(' | '));
    assert.match(d.message, /— a 299 GiB gp3 disk with 623 MiB\/s for 'd1'$/);
    const first = d.fixes!.find((f) => f.preferred)!;
    assert.match(first.title, /^Switch 'd1' to gp3, 623 MiB\/s provisioned \(\+\$13\.94\/month, \$998\.18\/month in all;/);
    const fixed = applyEdits(text, fixEdits(text, a.parsed.tree, first));
    const after = analyze(fixed).vms[0];
    assert.equal(after.disks.find((x) => x.spec.name === 'd1')?.typeName, 'gp3');
    assert.deepEqual(
      after.workloads.map((w) => [w.spec.name, w.meets_target]),
      [
        ['w0', true],
        ['w1', true],
        ['w2', true],
      ],
    );
  });

  it('target-unreachable: provisioned amounts between the least and the most are found where neither end meets the target', () => {
    // Found by comparing the cores on a generated aws-2025 fleet: gp3 'd1' carries two workloads, and m6gd.2xlarge's
    // EBS limit is shared by what the busy disks ask. With the most throughput d1 took d2's share from w0; with the
    // least (125 MiB/s) w1 fell short. So the disk's own change was dropped, and a larger machine (+$173.71 a month)
    // was offered with it, where 3,502 IOPS and 166 MiB/s on this machine meet every target for $90.26 a month less.
    const text = `version: 1
provider: aws
catalog: aws-2025
vms:
  - name: vm8981
    machine_type: m6gd.2xlarge
    disks:
      - name: d0
        type: gp2
        size: 184GiB
      - name: d1
        type: gp3
        size: 1914GiB
        provisioned_iops: 21881
      - name: d2
        type: gp2
        size: 10235GiB
    workloads:
      - name: w0
        disk: d2
        pattern: sequential
        block_size: 256KiB
        read_ratio: 0.7
        queue_depth: 128
        target:
          throughput: 70MiB/s
      - name: w1
        disk: d1
        pattern: random
        block_size: 64KiB
        read_ratio: 0.5
        queue_depth: 4
        target:
          iops: 2645
      - name: w2
        disk: d1
        pattern: random
        block_size: 16KiB
        read_ratio: 0.5
        queue_depth: 128
        target:
          iops: 3502
`;
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable' && /'w1'/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join(' | '));
    assert.match(d.message, /— provision 3,502 IOPS and 166 MiB\/s on 'd1'$/);
    const first = d.fixes!.find((f) => f.preferred)!;
    assert.match(first.title, /^Provision 3,502 IOPS and 166 MiB\/s on 'd1' \(−\$90\.26\/month,/);
    const fixed = applyEdits(text, fixEdits(text, a.parsed.tree, first));
    const after = analyze(fixed).vms[0];
    assert.equal(after.machine?.name, 'm6gd.2xlarge');
    assert.deepEqual(
      after.workloads.map((w) => [w.spec.name, w.meets_target]),
      [
        ['w0', true],
        ['w1', true],
        ['w2', true],
      ],
    );
  });

  it("target-unreachable: a resize whose largest size takes another disk's share of the per-VM limit is still found", () => {
    // Found comparing a fleet's suggestions: d1 at pd-ssd's largest size takes d0's share of g2-standard-12's
    // pd-ssd limit and w0 misses, so no resize of d1 was found and a 727 GiB pd-balanced ($72.70) was offered;
    // 192 GiB of pd-ssd ($32.64) meets w1's target with w0 still meeting its own.
    const text = readFileSync(resolve(__dirname, '../../../test/fixtures/invariants/shared-limit-resize.perf.yaml'), 'utf8');
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable' && /'w1'/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join(' | '));
    assert.match(d.message, /— resize 'd1' to 192 GiB$/);
    const fixed = applyEdits(
      text,
      fixEdits(
        text,
        a.parsed.tree,
        d.fixes!.find((f) => f.preferred)!,
      ),
    );
    assert.deepEqual(
      analyze(fixed).vms[0].workloads.map((w) => w.meets_target),
      [true, true],
    );
    // The least: a GiB less misses.
    const less = analyze(fixed.replace('size: 192GiB', 'size: 191GiB'));
    assert.equal(less.vms[0].workloads[1].meets_target, false);
  });

  it("headroom-below-policy never reads as meeting the policy: 9.95% is said as such, not '10%' (seed 555)", () => {
    // The target was 457 MiB/s when a workload spread over disks was judged on their summed figures; it reaches
    // 390.9 MiB/s as the sum of what each disk gives it, so the target keeps the case's 9.95 %.
    const text = `version: 1
provider: aws
catalog: aws-2025
policy:
  min_headroom: 10%
vms:
  - name: vm1
    machine_type: m5.16xlarge
    disks:
      - name: d0
        type: gp2
        size: 16384GiB
      - name: d3
        type: st1
        size: 3226GiB
      - name: d1
        type: sc1
        size: 125GiB
      - name: d2
        type: gp3
        size: 1GiB
    workloads:
      - name: w0
        pattern: random
        block_size: 128KiB
        read_ratio: 0
        target:
          throughput: 355.55MiB/s
`;
    const a = analyze(text);
    const h = a.vms[0].workloads[0].headroom!;
    assert.ok(h < 0.1 && h > 0.099, `${h}`);
    const d = find(a, 'headroom-below-policy');
    assert.equal(d.message, "workload 'w0' meets its target with 9.95% to spare; the policy asks for 10%");
  });

  it('target-unreachable: where its ways to meet the target make the message too long, the first is said, and each is a fix', () => {
    // Found by the invariant suite (seed 99, 1,000 runs): two ways made 241 characters.
    const text = `version: 1
provider: aws
catalog: aws-2023
region: ap-southeast-1
vms:
  - name: vm0
    machine_type: m7g.4xlarge
    disks:
      - name: d0
        type: gp3
        size: 1GiB
    workloads:
      - name: w0
        pattern: random
        block_size: 64k
        read_ratio: 0.3
        target:
          read_iops: 1201
          write_iops: 1401
`;
    const d = expectAt(text, 'target-unreachable', 'target');
    assert.ok(d.message.length <= MESSAGE_LENGTH, `${d.message.length}: ${d.message}`);
    assert.equal(
      d.message,
      "workload 'w0' reaches read IOPS 600 of 1,201 IOPS, write IOPS 1,400 of 1,401 IOPS, bound by the provisioned performance — provision 4,004 IOPS and 251 MiB/s on 'd0' (price unknown)",
    );
    const titles = (d.fixes ?? []).map((f) => f.title);
    assert.equal(titles.length, 2, titles.join(' | '));
    assert.match(titles[0], /^Provision 4,004 IOPS and 251 MiB\/s on 'd0'/);
    assert.match(titles[1], /^Switch 'd0' to io1, 1280GiB, 4,004 IOPS provisioned/);
  });

  it("target-unreachable: a switch keeps the policy's headroom of a workload over several disks that keeps it today (seed 5)", () => {
    // Found by the invariant suite (seed 5 at 1,000 runs): gp3 at its default 3,000 IOPS in place of a 1,004 GiB gp2
    // (3,012 IOPS) took w1, spread over both disks, from 10.1 % to 9.8 % headroom, under the spec's 10 %.
    const text = `version: 1
provider: aws
catalog: aws-2025
policy:
  min_headroom: 10%
vms:
  - name: vm0
    machine_type: c5d.24xlarge
    disks:
      - name: d0
        type: gp3
        size: 1GiB
      - name: d1
        type: gp2
        size: 1004GiB
    workloads:
      - name: w0
        disk: d1
        pattern: random
        block_size: 256k
        read_ratio: 0
        target:
          iops: 1001
      - name: w1
        pattern: random
        block_size: 4k
        read_ratio: 0
        target:
          iops: 5462
`;
    const before = analyze(text).vms[0].workloads.find((w) => w.spec.name === 'w1')!;
    assert.ok(before.headroom! >= 0.1, String(before.headroom));
    const d = expectAt(text, 'target-unreachable', 'target');
    const after = analyze(applyFix(text, d.fixes![0])).vms[0].workloads;
    assert.equal(after.find((w) => w.spec.name === 'w0')?.meets_target, true);
    const w1 = after.find((w) => w.spec.name === 'w1')!;
    assert.ok(w1.headroom! >= 0.1 - 1e-9, `w1's headroom after the fix: ${w1.headroom}`);
  });

  it('target-unreachable: no fix makes another workload of the disk miss a target that is not judged today', () => {
    // m3-ultramem-128 has no per-VM Hyperdisk Extreme row: w1's target on d0 is not judged (upper bounds). A
    // pd-balanced d0 would meet w0's and make w1 miss its own, so it is not offered (a VM of the test fleet).
    const text = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: vm
    machine_type: m3-ultramem-128
    disks:
      - name: d0
        type: hyperdisk-extreme
        size: 8028GiB
      - name: d1
        type: pd-extreme
        size: 5326GiB
        provisioned_iops: 105895
    workloads:
      - name: w0
        disk: d0
        block_size: 16KiB
        read_ratio: 0.7
        queue_depth: 256
        target:
          iops: 29213
      - name: w1
        disk: d0
        pattern: sequential
        block_size: 1MiB
        read_ratio: 0.5
        queue_depth: 64
        target:
          throughput: 3318MiB/s
`;
    const a = analyze(text);
    assert.deepEqual(
      a.vms[0].workloads.map((w) => w.meets_target),
      [false, undefined],
    );
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable' && x.message.includes("'w0'"));
    assert.ok(d);
    for (const fix of d.fixes ?? []) {
      const w1 = analyze(applyFix(text, fix)).vms[0].workloads.find((w) => w.spec.name === 'w1');
      assert.notEqual(w1?.meets_target, false, `${fix.title} makes w1 miss`);
    }
    assert.doesNotMatch(d.message, /pd-balanced/);
  });
});
