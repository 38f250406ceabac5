/**
 * AWS (aws-2025) throughput bursts of st1 and sc1, checked against AWS's own tables and worked examples, and
 * a disk's own bursts as its hover states them.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, hover } from '../../core/src';
import { diskOf, run, specText, vmOf } from '../helpers';

const hdd = (type: string, size: string, machine = 'm6i.32xlarge') =>
  diskOf(run(specText({ provider: 'aws', machine, disks: [{ name: 'd', type, size }] })));

describe('aws-2025: st1 and sc1 burst on throughput credits', () => {
  it("st1: AWS's base and burst table (40 and 250 MiB/s per TiB, burst at most 500)", () => {
    // AWS's table: size (TiB), base (MiB/s), burst (MiB/s).
    const rows: Array<[string, number, number]> = [
      ['128GiB', 5, 31.25], // AWS rounds 31.25 to 31
      ['512GiB', 20, 125],
      ['1TiB', 40, 250],
      ['2TiB', 80, 500],
      ['12TiB', 480, 500],
    ];
    for (const [size, base, burst] of rows) {
      const d = hdd('st1', size);
      assert.equal(d.figures.read_mibps, base, `${size} base`);
      assert.equal(d.burst?.read_mibps?.value, burst, `${size} burst`);
      assert.equal(d.burst?.read_mibps?.ends, 'credits');
    }
    // From 12.5 TiB the base is the 500 MiB/s maximum: nothing to burst to.
    assert.equal(hdd('st1', '12800GiB').burst, undefined);
  });

  it("sc1: AWS's base and burst table (12 and 80 MiB/s per TiB, burst at most 250)", () => {
    const rows: Array<[string, number, number]> = [
      ['1TiB', 12, 80],
      ['3TiB', 36, 240],
      ['3200GiB', 37.5, 250],
      ['16TiB', 192, 250],
    ];
    for (const [size, base, burst] of rows) {
      const d = hdd('sc1', size);
      assert.equal(d.figures.read_mibps, base, `${size} base`);
      assert.equal(d.burst?.read_mibps?.value, burst, `${size} burst`);
    }
  });

  it('a full bucket (1 TiB of credits per TiB) lasts longer than a full scan at the burst rate, as AWS says', () => {
    // 1 TiB st1: 1,048,576 MiB ÷ (250 − 40) MiB/s = 4,993 s; the scan at 250 MiB/s takes 4,194 s (AWS: 1.17 h).
    const one = hdd('st1', '1TiB').burst!.read_mibps!;
    assert.equal(Math.round(one.seconds), 4993);
    assert.ok(one.seconds > 1048576 / 250);
    // 5 TiB st1: bursts at 500 MiB/s; AWS's optimal scan time 10,486 s (2.91 h) fits in the bucket's 5,242,880 ÷ 300.
    const five = hdd('st1', '5TiB').burst!.read_mibps!;
    assert.equal(Math.round(five.seconds), Math.round(5242880 / 300));
    assert.equal(Math.round(5242880 / 500), 10486);
    assert.ok(five.seconds > 10486);
  });

  it("the instance's own limit caps the burst it shares with the volume (m6i.large: 10,000 Mbps = 1,192 MiB/s window)", () => {
    const d = hdd('st1', '4TiB', 'm6i.large');
    // Sustained: m6i.large's 650 Mbps = 77.5 MiB/s caps the 160 MiB/s base; the burst to 500 ends with the window.
    assert.equal(Math.round(d.figures.read_mibps * 10) / 10, 77.5);
    assert.equal(d.burst?.read_mibps?.value, 500);
    assert.equal(d.burst?.read_mibps?.ends, 'window');
  });
});

describe("aws-2025: gp2 bursts on its I/O credits, in IOPS and in throughput (AWS's gp2 rules)", () => {
  const gp2 = (size: string, machine = 'm6i.32xlarge') => hdd('gp2', size, machine);
  const onGp2 = (size: string, machine: string, block: string, target: Record<string, string | number>) =>
    run(
      specText({
        provider: 'aws',
        machine,
        disks: [{ name: 'd', type: 'gp2', size }],
        workloads: [{ name: 'w', disk: 'd', block_size: block, read_ratio: 0.5, target }],
      }),
    );

  it('throughput while bursting: 3,000 I/Os of up to 256 KiB, at most 128 MiB/s up to 170 GiB and 250 MiB/s above', () => {
    // 20 GiB: baseline 100 IOPS and 25 MiB/s; burst 3,000 IOPS and 128 MiB/s (AWS: 170 GiB and smaller, 128 MiB/s).
    const small = gp2('20GiB');
    assert.equal(small.figures.read_mibps, 25);
    assert.equal(small.burst?.read_iops?.value, 3000);
    assert.equal(small.burst?.read_mibps?.value, 128);
    assert.equal(gp2('170GiB').burst?.read_mibps?.value, 128);
    // Between 170 and 334 GiB: "can burst to a maximum throughput of 250 MiB/s".
    assert.equal(gp2('200GiB').figures.read_mibps, 150);
    assert.equal(gp2('200GiB').burst?.read_mibps?.value, 250);
    // From 334 GiB 250 MiB/s is sustained: no throughput burst (IOPS still burst under 1,000 GiB).
    assert.equal(gp2('334GiB').burst?.read_mibps, undefined);
    assert.equal(gp2('334GiB').burst?.read_iops?.value, 3000);
    assert.equal(gp2('1000GiB').burst, undefined);
    // The throughput burst spends the same credits, one per 256 KiB: 5.4 million ÷ (128 × 4 − 100) s at 20 GiB.
    assert.equal(Math.round(small.burst!.read_mibps!.seconds), Math.round(5.4e6 / (128 * 4 - 100)));
  });

  it("a 20 GiB gp2 reaches 3,000 IOPS at 16 KiB while its credits last (1,862 s, AWS's table), not 1,600 held by 25 MiB/s", () => {
    for (const machine of ['m6i.32xlarge', 'm5.large']) {
      const w = vmOf(onGp2('20GiB', machine, '16KiB', { iops: 2500 })).workloads[0];
      assert.equal(Math.round(w.burst!.read_iops + w.burst!.write_iops), 3000, machine);
      // m5.large sustains 77.5 MiB/s and 3,600 IOPS, more than 3,000 at 16 KiB (46.9 MiB/s): its window is not spent.
      assert.equal(w.burst!.ends, 'credits', machine);
      assert.equal(Math.round(w.burst!.seconds), Math.round(5.4e6 / (3000 - 100)), machine);
    }
  });

  it('a throughput target at large blocks: 100 MiB/s on 100 GiB (75 sustained) is met on the burst', () => {
    const w = vmOf(onGp2('100GiB', 'm6i.32xlarge', '256KiB', { throughput: '100MiB/s' })).workloads[0];
    assert.equal(w.meets_target, false);
    assert.equal(w.burst!.read_mibps + w.burst!.write_mibps, 128);
    assert.equal(w.burst!.ends, 'credits');
  });
});

describe('aws-2025: the disk hover states its own burst', () => {
  const at = (type: string, size: string) => {
    const text = specText({ provider: 'aws', machine: 'm6i.32xlarge', disks: [{ name: 'data', type, size }] });
    return hover(analyze(text), text.indexOf('name: data') + 7)!.markdown;
  };

  it('gp2: 3,000 IOPS on its credits (100 GiB: 2,000 s, AWS’s example)', () => {
    assert.match(
      at('gp2', '100GiB'),
      /\*\*Burst\*\* \(the figures above are sustained\):\n\n- read and write IOPS: 3,000 IOPS for 33\.3 min, then 300 \(until its burst credits run out\)/,
    );
  });

  it('st1: 250 MiB/s and 250 of its 1 MiB I/Os a second for 83.2 min, then 40', () => {
    const h = at('st1', '1TiB');
    assert.match(h, /- read and write IOPS: 250 IOPS for 83\.2 min, then 40 \(until its burst credits run out\)/);
    assert.match(h, /- read and write throughput: 250 MiB\/s for 83\.2 min, then 40 \(until its burst credits run out\)/);
  });

  it('gp3 does not burst: no burst line', () => {
    assert.doesNotMatch(at('gp3', '100GiB'), /\*\*Burst\*\*/);
  });
});

describe('aws-2025: the workload hover names a cheaper type before a resize', () => {
  it('400 MiB/s on a 1 TiB st1: gp3 with 400 MiB/s provisioned, or a 10 TiB st1', () => {
    const text = specText({
      provider: 'aws',
      machine: 'm6i.8xlarge',
      disks: [{ name: 'data', type: 'st1', size: '1TiB' }],
      workloads: [{ name: 'scan', pattern: 'sequential', block_size: '1MiB', read_ratio: 1, target: { throughput: '400MiB/s' } }],
    });
    const h = hover(analyze(text), text.indexOf('name: scan') + 7)!.markdown;
    const report = fileReport('x.perf.yaml', analyze(text)).vms[0].workloads[0];
    assert.deepEqual(report.suggestions, {
      disk_size_gib: 10240,
      disk: 'data',
      cheaper_disk: { disk_type: 'gp3', disk_size_gib: 1024, provisioned_throughput_mibps: 400 },
    });
    assert.match(
      h,
      /To meet it: a 1,024 GiB gp3 for `data` with 400 MiB\/s provisioned \(cheaper than the resize\), or resize `data` to 10,240 GiB\./,
    );
  });
});
