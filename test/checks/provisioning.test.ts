/** Provisioned performance (core/src/checks/provisioning.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, EvaluationCache, fixEdits, type FixData } from '../../core/src';
import { expectAt } from './helpers';

/** An AWS instance with one gp3 volume and a sequential 1 MiB read workload wanting `target`. */
const GP3 = (disk: string, target = 'throughput: 400MiB/s') => `version: 1
provider: aws
vms:
  - name: etl
    machine_type: m6i.8xlarge
    disks:
      - name: data
        type: gp3
        size: 1TiB
${disk}    workloads:
      - name: scan
        disk: data
        pattern: sequential
        block_size: 1MiB
        read_ratio: 1
        target:
          ${target}
`;

describe('checks: provisioning', () => {
  it('throughput-at-baseline: gp3 left at its included 125 MiB/s under 1 MiB reads, fixed with the price of 400 MiB/s', () => {
    const d = expectAt(GP3(''), 'throughput-at-baseline', 'type');
    assert.match(d.message, /runs at the 125 MiB\/s gp3 includes, and 'scan' \(1,024 KiB blocks\) needs 400/);
    // us-east-1: (400 − 125) MiB/s × $0.04 = $11.00 a month.
    assert.deepEqual(
      d.fixes?.map((f) => [f.kind, f.title]),
      [['add-key', 'Provision 400 MiB/s (+$11.00/month)']],
    );
  });

  it('the fix stops at what the provisioned IOPS allow (0.25 MiB/s per IOPS), and says so', () => {
    const d = expectAt(GP3('', 'throughput: 1000MiB/s'), 'throughput-at-baseline', 'type');
    assert.match(d.message, /3,000 provisioned IOPS allow at most 750 MiB\/s/);
    assert.equal(d.fixes?.[0].title, 'Provision 750 MiB/s (+$25.00/month)');
  });

  it('nothing when throughput is provisioned, the target is met, or the blocks are small', () => {
    const none = (text: string) =>
      assert.equal(analyze(text).diagnostics.filter((x) => x.code === 'throughput-at-baseline').length, 0, text);
    none(GP3('        provisioned_throughput: 125MiB/s\n'));
    none(GP3('', 'throughput: 100MiB/s'));
    none(GP3('').replace('block_size: 1MiB', 'block_size: 4KiB').replace('throughput: 400MiB/s', 'iops: 2000'));
  });

  describe('provisioned-above-vm-limit', () => {
    const ONE = (disk: string) => `version: 1
provider: aws
vms:
  - name: db
    machine_type: m6i.xlarge
    disks:
      - name: data
${disk}`;
    const applyFix = (text: string, f: FixData) => applyEdits(text, fixEdits(text, analyze(text).parsed.tree, f));
    const diskCost = (text: string) => analyze(text).vms[0].disks[0].cost.monthly!;

    it('io2 at 100,000 IOPS on m6i.xlarge (6,000 sustained): $4,292.60 a month above it, fixed at 6,000', () => {
      // us-east-1, 100 GiB io2: 100 × $0.125 + 32,000 × $0.065 + 32,000 × $0.0455 + 36,000 × $0.03185 = $4,695.10;
      // at 6,000 IOPS: 12.50 + 6,000 × $0.065 = $402.50.
      const text = ONE('        type: io2\n        size: 100GiB\n        provisioned_iops: 100000\n');
      assert.equal(Math.round(diskCost(text) * 100) / 100, 4695.1);
      const d = expectAt(text, 'provisioned-above-vm-limit', '100000');
      assert.equal(d.severity, 'warning');
      assert.equal(
        d.message,
        'data: 100,000 IOPS provisioned; m6i.xlarge sustains 6,000 for all its disks: $4,292.60/month pays for what it cannot use; 30 minutes a day it reaches 40,000 IOPS and 1,192 MiB/s',
      );
      assert.deepEqual(
        d.fixes?.map((f) => f.title),
        ['Provision 6,000 IOPS (−$4,292.60/month)'],
      );
      const fixed = applyFix(text, d.fixes![0]);
      assert.equal(fixed, text.replace('provisioned_iops: 100000', 'provisioned_iops: 6000'));
      const after = analyze(fixed);
      assert.ok(!after.diagnostics.some((x) => x.code === 'provisioned-above-vm-limit'));
      assert.equal(Math.round(diskCost(fixed) * 100) / 100, 402.5);
      // The disk delivers what it did: the machine's 6,000.
      assert.equal(after.vms[0].disks[0].figures.read_iops, 6000);
    });

    it('gp3 at 250 MiB/s on m6i.xlarge (1,250 Mbps = 149.01 MiB/s sustained): 150 usable, (250 − 150) × $0.04 = $4.00 a month', () => {
      const text = ONE('        type: gp3\n        size: 500GiB\n        provisioned_throughput: 250MiB/s\n');
      const d = expectAt(text, 'provisioned-above-vm-limit', '250MiB/s');
      assert.match(d.message, /^data: 250 MiB\/s provisioned; m6i\.xlarge sustains 149 for all its disks: \$4\.00\/month/);
      assert.deepEqual(
        d.fixes?.map((f) => f.title),
        ['Provision 150 MiB/s (−$4.00/month)'],
      );
      const fixed = applyFix(text, d.fixes![0]);
      assert.equal(fixed, text.replace('250MiB/s', '150MiB/s'));
      const after = analyze(fixed);
      assert.ok(!after.diagnostics.some((x) => x.code === 'provisioned-above-vm-limit'));
      assert.equal(Math.round((diskCost(text) - diskCost(fixed)) * 100) / 100, 4);
      // Still held at the machine's 149 MiB/s, as before the fix.
      assert.equal(after.vms[0].disks[0].figures.read_mibps, analyze(text).vms[0].disks[0].figures.read_mibps);
    });

    it('analysed again with the same cache (the next edit, the other side of a diff): the same saving, not $0.00', () => {
      // The second VM's disk is the first's text (a merge key): its findings are not memoised with it, so its checks
      // run again on the evaluation the cache keeps, whose disks are those of the first analysis.
      const text = `${ONE('      - &data\n        name: data\n        type: io2\n        size: 100GiB\n        provisioned_iops: 100000\n')
        .replace('m6i.xlarge', 'm6i.8xlarge')
        .replace('      - name: data\n', '')}  - name: small\n    machine_type: m6i.xlarge\n    disks:\n      - <<: *data\n`;
      const cache = new EvaluationCache();
      const said = (a: ReturnType<typeof analyze>) =>
        a.diagnostics
          .filter((x) => x.code === 'provisioned-above-vm-limit')
          .map((x) => [x.message, ...(x.fixes ?? []).map((f) => f.title)]);
      const first = said(analyze(text, { cache }));
      assert.ok(
        first.some(([m]) => /^VM 'small': data: 100,000 IOPS provisioned; m6i\.xlarge sustains 6,000 .*: \$4,292\.60\/month/.test(m)),
        JSON.stringify(first),
      );
      assert.deepEqual(said(analyze(text, { cache })), first);
    });

    it('nothing at or under what the machine sustains, nor on a machine that sustains it (m6i.8xlarge: 40,000)', () => {
      const text = ONE('        type: io2\n        size: 100GiB\n        provisioned_iops: 6000\n');
      assert.ok(!analyze(text).diagnostics.some((x) => x.code === 'provisioned-above-vm-limit'));
      const big = ONE('        type: io2\n        size: 100GiB\n        provisioned_iops: 40000\n').replace('m6i.xlarge', 'm6i.8xlarge');
      assert.ok(!analyze(big).diagnostics.some((x) => x.code === 'provisioned-above-vm-limit'));
    });
  });
});
