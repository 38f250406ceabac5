/** Targets met only while bursting (core/src/checks/bursts.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, fixEdits, type FixData } from '../../core/src';
import { expectAt, sameAgain, withReplica } from './helpers';

/** One AWS instance, one volume, one random 16 KiB workload (70% reads) wanting `iops`. */
const AWS = (machine: string, disk: string, iops: number) => `version: 1
provider: aws
vms:
  - name: db
    machine_type: ${machine}
    disks:
      - name: data
${disk}    workloads:
      - name: oltp
        disk: data
        pattern: random
        block_size: 16KiB
        read_ratio: 0.7
        target:
          iops: ${iops}
`;
const GP2 = (iops: number, size = '100GiB') => AWS('m6i.8xlarge', `        type: gp2\n        size: ${size}\n`, iops);
/** The text with a fix applied, as the editor applies it. */
const applyFix = (text: string, f: FixData) => applyEdits(text, fixEdits(text, analyze(text).parsed.tree, f));
const codes = (text: string) => analyze(text).diagnostics.map((d) => d.code);

describe('checks: bursts', () => {
  it("gp2-out-of-burst: AWS's formula at the workload's rate, and gp3 (3,000 IOPS at any size) for $2 a month less", () => {
    // AWS's worked example: 100 GiB, baseline 300, burst 3,000: 5.4 million ÷ (3,000 − 300) = 2,000 s.
    const d = expectAt(GP2(3000), 'gp2-out-of-burst', 'gp2');
    assert.equal(
      d.message,
      "'oltp' meets its target on data only on burst credits: at 3,000 IOPS they last 33.3 min (5,400,000 ÷ (3,000 − 300) s), then 300 IOPS (100 GiB gp2); gp3 sustains it",
    );
    // us-east-1: gp2 100 GiB × $0.10 = $10.00; gp3 100 GiB × $0.08 = $8.00.
    assert.deepEqual(
      d.fixes?.map((f) => f.title),
      ["Switch 'data' to gp3 (−$2.00/month)"],
    );
    // At 2,000 IOPS the same bucket lasts 5.4 million ÷ 1,700 = 3,176 s.
    assert.match(
      expectAt(GP2(2000), 'gp2-out-of-burst', 'gp2').message,
      /at 2,000 IOPS they last 52\.9 min \(5,400,000 ÷ \(2,000 − 300\) s\)/,
    );
  });

  it('gp2-out-of-burst where the burst meets the target only with its throughput burst (20 GiB: 128 MiB/s, not 25)', () => {
    // 2,500 IOPS at 16 KiB need 39 MiB/s: above the 25 MiB/s baseline, within the 128 MiB/s a 20 GiB gp2 bursts to.
    const d = expectAt(GP2(2500, '20GiB'), 'gp2-out-of-burst', 'gp2');
    assert.match(d.message, /at 2,500 IOPS they last 37\.5 min \(5,400,000 ÷ \(2,500 − 100\) s\), then 100 IOPS \(20 GiB gp2\)/);
    // A throughput target: 100 MiB/s at 256 KiB on 100 GiB (75 sustained, 128 while bursting).
    const big = GP2(0, '100GiB').replace('block_size: 16KiB', 'block_size: 256KiB').replace('iops: 0', 'throughput: 100MiB/s');
    expectAt(big, 'gp2-out-of-burst', 'gp2');
  });

  it('gp2-out-of-burst analysed again with the same cache (the next edit, the other side of a diff) still names gp3', () => {
    const said = sameAgain(withReplica(GP2(3000), 'm6i.4xlarge'), 'gp2-out-of-burst');
    assert.ok(
      said.some(([m]) => /^VM 'db2': .*; gp3 sustains it$/.test(m)),
      JSON.stringify(said),
    );
  });

  it('the fix changes only the type, and the fixed spec sustains the target', () => {
    const text = GP2(3000);
    const d = expectAt(text, 'gp2-out-of-burst', 'gp2');
    const fixed = applyFix(text, d.fixes![0]);
    assert.equal(fixed, text.replace('type: gp2', 'type: gp3'));
    const after = analyze(fixed);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.ok(!after.diagnostics.some((x) => x.code === 'gp2-out-of-burst' || x.code === 'target-unreachable'));
  });

  it('500 GiB (baseline 1,500): gp3 for $10 a month less, its included 3,000 IOPS enough for anything the burst meets', () => {
    // 500 GiB: baseline 1,500, burst 3,000; a target of 2,800 at 16 KiB is met on the burst only.
    const d = expectAt(GP2(2800, '500GiB'), 'gp2-out-of-burst', 'gp2');
    assert.equal(d.fixes?.[0].title, "Switch 'data' to gp3 (−$10.00/month)");
  });

  it('nothing when the baseline meets the target, or the burst does not either', () => {
    assert.ok(!codes(GP2(250)).includes('gp2-out-of-burst'));
    // 3,500 IOPS: more than gp2's burst of 3,000.
    assert.ok(!codes(GP2(3500)).includes('gp2-out-of-burst'));
    // 1 TiB and larger: a baseline of 3,000 or more, no burst.
    assert.ok(!codes(GP2(3500, '1TiB')).includes('gp2-out-of-burst'));
  });

  it("instance-limit-only-in-window: m6i.xlarge's 6,000 IOPS baseline, 40,000 for 30 minutes; m6i.2xlarge sustains 12,000", () => {
    const text = AWS('m6i.xlarge', '        type: gp3\n        size: 500GiB\n        provisioned_iops: 10000\n', 7000);
    const d = expectAt(text, 'instance-limit-only-in-window', 'machine_type');
    // gp3's included 125 MiB/s holds 16 KiB I/O to 8,000 IOPS in the window.
    assert.equal(
      d.message,
      "'oltp' meets its target only in m6i.xlarge's EBS burst window, 30 minutes a day (8,000 IOPS for 30 min, then 6,000); m6i.2xlarge sustains it",
    );
    // us-east-1 on demand: m6i.xlarge $0.192/h, m6i.2xlarge $0.384/h, × 730 h; the volume $75.00 either way.
    assert.equal(d.fixes?.[0].title, 'Change machine to m6i.2xlarge (+$140.16/month, $355.32/month in all)');
    // Priced in the spec's region: eu-central-1 on demand, m6i.xlarge $0.23/h and m6i.2xlarge $0.46/h × 730 h; the
    // volume 500 × $0.0952 + 7,000 IOPS above the included 3,000 × $0.006 = $89.60.
    const frankfurt = expectAt(
      text.replace('provider: aws\n', 'provider: aws\nregion: eu-central-1\n'),
      'instance-limit-only-in-window',
      'machine_type',
    );
    assert.equal(frankfurt.fixes?.[0].title, 'Change machine to m6i.2xlarge (+$167.90/month, $425.40/month in all)');
    const after = analyze(applyFix(text, d.fixes![0]));
    assert.equal(after.vms[0].workloads[0].meets_target, true);
  });

  it('instance-limit-only-in-window judges the workloads together: its fix sustains each, and leaves no finding behind', () => {
    // AWS's table: t3.nano 43 Mbps (5.1 MiB/s) sustained, 2,085 Mbps (248.6 MiB/s) for 30 minutes. 'w0' needs 50 × 256 KiB
    // = 12.5 MiB/s (t3.small's 174 Mbps, 20.7 MiB/s, sustain it); 'w1' 50 reads at 30% of its mix: 167 IOPS, 41.7 MiB/s,
    // above t3.medium's 347 Mbps (41.4 MiB/s) and within t3.large's 695 (82.9). A fix to t3.small, for 'w0' alone,
    // left 'w1' met only in t3.small's window: the same finding again.
    const text = `version: 1
provider: aws
catalog: aws-2023
vms:
  - name: vm0
    machine_type: t3.nano
    disks:
      - name: d0
        type: gp2
        size: 1GiB
      - name: d1
        type: gp3
        size: 1GiB
    workloads:
      - name: w0
        pattern: random
        block_size: 256k
        read_ratio: 0
        target:
          iops: 50
      - name: w1
        pattern: random
        block_size: 256k
        read_ratio: 0.3
        target:
          read_iops: 50
          write_iops: 50
`;
    const found = analyze(text).diagnostics.filter((x) => x.code === 'instance-limit-only-in-window');
    assert.equal(found.length, 1, found.map((x) => x.message).join(' | '));
    const d = expectAt(text, 'instance-limit-only-in-window', 'machine_type');
    const after = analyze(applyFix(text, d.fixes![0]));
    assert.ok(
      !after.diagnostics.some((x) => x.code === 'instance-limit-only-in-window'),
      after.diagnostics.map((x) => x.message).join(' | '),
    );
    assert.deepEqual(
      after.vms[0].workloads.map((w) => [w.spec.name, w.meets_target]),
      [
        ['w0', true],
        ['w1', true],
      ],
    );
    assert.equal(
      d.message,
      "'w0' and 'w1' meet their targets only in t3.nano's EBS burst window, 30 minutes a day ('w0': 994 IOPS for 30 min, then 20.5); t3.large sustains them",
    );
    // us-east-1 on demand: t3.nano $0.0052/h ($3.80/month), t3.large $0.0832/h ($60.74); the volumes $0.10 + $0.08.
    assert.equal(d.fixes?.map((f) => f.title).join(), 'Change machine to t3.large (+$56.94/month, $60.92/month in all)');
    // More than two: the first and how many more.
    const three = `${text}      - name: w2\n        block_size: 256k\n        read_ratio: 0\n        target:\n          iops: 40\n`;
    assert.match(
      expectAt(three, 'instance-limit-only-in-window', 'machine_type').message,
      /^'w0' and 2 more workloads meet their targets only in t3\.nano's EBS burst window, 30 minutes a day \('w0': 994 IOPS for 30 min, then [\d.]+\); t3\.large sustains them$/,
    );
  });

  it('nothing on a size that sustains its maximum, or when the window does not meet the target either', () => {
    assert.ok(
      !codes(AWS('m6i.8xlarge', '        type: gp3\n        size: 500GiB\n        provisioned_iops: 10000\n', 7000)).includes(
        'instance-limit-only-in-window',
      ),
    );
    assert.ok(
      !codes(AWS('m6i.xlarge', '        type: gp3\n        size: 500GiB\n        provisioned_iops: 10000\n', 9000)).includes(
        'instance-limit-only-in-window',
      ),
    );
  });
});
