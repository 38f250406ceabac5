/**
 * AWS (aws-2025): EBS volume types from AWS's own figures and worked examples, and each instance type's EBS
 * limit from AWS's EBS-optimized table, its Mbps converted exactly to MiB/s.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, fileReport, hover, largerMachines, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { diskOf, errors, run, specText, vmOf, type DiskInput } from '../helpers';

const aws = builtinRegistry.get('aws-2025') as Catalog;
const onM6i8x = (disks: DiskInput[], machine = 'm6i.8xlarge') => run(specText({ provider: 'aws', machine, disks }));
const figures = (disks: DiskInput[], machine?: string) => {
  const d = diskOf(onM6i8x(disks, machine));
  return [d.figures.read_iops, d.figures.write_iops, d.figures.read_mibps, d.figures.write_mibps];
};
/** AWS's decimal megabits per second in MiB/s: 10^6 / 8 bytes per second each. */
const MBPS_IN_MIBPS = 1e6 / 8 / 2 ** 20;

describe('aws-2025', () => {
  it('is the default edition for provider aws, priced in USD, us-east-1 by default', () => {
    const a = run(specText({ provider: 'aws', machine: 'm6i.xlarge', disks: [{ type: 'gp3', size: '100GiB' }] }));
    assert.equal(a.catalog?.edition, 'aws-2025');
    assert.equal(a.region, 'us-east-1');
    assert.deepEqual(errors(a), []);
  });

  it('1 Mbps is 0.11920929 MiB/s', () => {
    assert.equal(MBPS_IN_MIBPS.toFixed(8), '0.11920929');
  });

  it("instance EBS limits: the table's rows, Mbps and MB/s both converted exactly to the catalog's MiB/s", () => {
    // AWS's rows: type, baseline Mbps, baseline MB/s (128 KiB I/O), baseline IOPS (16 KiB I/O)
    const rows: Array<[string, number, number, number]> = [
      ['m5.large', 650, 81.25, 3600],
      ['m5.24xlarge', 19000, 2375, 80000],
      ['m6i.xlarge', 1250, 156.25, 6000],
      ['m6i.8xlarge', 10000, 1250, 40000],
      ['m6i.32xlarge', 40000, 5000, 160000],
      ['m7g.medium', 315, 39.38, 2500],
      ['c5.2xlarge', 2300, 287.5, 10000],
      ['c7g.16xlarge', 20000, 2500, 80000],
      ['r5b.24xlarge', 60000, 7500, 260000],
      ['i4i.large', 625, 78.12, 2500],
      ['t3.nano', 43, 5.38, 250],
    ];
    for (const [name, mbps, mbs, iops] of rows) {
      const r = resolveMachine(aws, { machine_type: name });
      assert.ok(r.ok, name);
      const row = vmLimitRow(aws, r.machine, 'gp3')!.row;
      assert.equal(row.read_iops, iops, `${name} IOPS`);
      assert.ok(Math.abs((row.read_mibps as number) - mbps * MBPS_IN_MIBPS) < 1e-6, `${name} from Mbps`);
      // The MB/s column is the same bandwidth in decimal megabytes (AWS rounds it to two decimals).
      assert.ok(Math.abs((row.read_mibps as number) - (mbs * 1e6) / 2 ** 20) < 0.01, `${name} from MB/s`);
    }
  });

  it('gp3: 3,000 IOPS and 125 MiB/s included; provisioned up to 500 IOPS per GiB and 0.25 MiB/s per IOPS', () => {
    assert.deepEqual(figures([{ type: 'gp3', size: '1GiB' }]), [3000, 3000, 125, 125]);
    assert.deepEqual(
      figures([{ type: 'gp3', size: '500GiB', provisioned_iops: 16000, provisioned_throughput: '1000MiB/s' }]),
      [16000, 16000, 1000, 1000],
    );
    // The 2025 maximum: 80,000 IOPS from 160 GiB, 2,000 MiB/s (here the instance, 40,000 IOPS, binds IOPS).
    const big = diskOf(
      onM6i8x([{ type: 'gp3', size: '200GiB', provisioned_iops: 80000, provisioned_throughput: '2000MiB/s' }], 'm6i.32xlarge'),
    );
    assert.deepEqual([big.figures.read_iops, big.figures.read_mibps], [80000, 2000]);
  });

  it('gp2: 3 IOPS per GiB with a floor of 100, 16,000 from 5,334 GiB; 0.75 MiB/s per GiB up to 250 from 334 GiB', () => {
    // AWS's table of example sizes: 1 to 33.33 GiB 100 IOPS, 100 GiB 300, 334 GiB 1,002, 750 GiB 2,250, 5,334 GiB 16,000.
    const rows: Array<[number, number, number]> = [
      [20, 100, 25],
      [100, 300, 75],
      [334, 1002, 250],
      [750, 2250, 250],
      [5334, 16000, 250],
    ];
    for (const [size, iops, mibps] of rows) {
      const [ri, wi, rm, wm] = figures([{ type: 'gp2', size: `${size}GiB` }], 'm6i.32xlarge');
      assert.deepEqual([ri, wi], [iops, iops], `${size} GiB IOPS`);
      assert.deepEqual([rm, wm], [mibps, mibps], `${size} GiB MiB/s`);
    }
  });

  it('io1: 0.25 MiB/s per IOPS up to 500 MiB/s at 32,000 IOPS, then 16 KiB per IOPS (48,000 IOPS: 750 MiB/s)', () => {
    assert.deepEqual(figures([{ type: 'io1', size: '1280GiB', provisioned_iops: 1000 }], 'm6i.32xlarge'), [1000, 1000, 250, 250]);
    assert.deepEqual(figures([{ type: 'io1', size: '1280GiB', provisioned_iops: 32000 }], 'm6i.32xlarge'), [32000, 32000, 500, 500]);
    assert.deepEqual(figures([{ type: 'io1', size: '1280GiB', provisioned_iops: 48000 }], 'm6i.32xlarge'), [48000, 48000, 750, 750]);
  });

  it('io2 Block Express: 0.256 MiB/s per IOPS up to 4,000 MiB/s', () => {
    const [ri, , rm] = figures([{ type: 'io2', size: '1000GiB', provisioned_iops: 10000 }], 'r5b.24xlarge');
    assert.deepEqual([ri, rm], [10000, 2560]);
    const [ri2, , rm2] = figures([{ type: 'io2', size: '1000GiB', provisioned_iops: 200000 }], 'r5b.24xlarge');
    assert.deepEqual([ri2, rm2], [200000, 4000]);
  });

  it('st1 and sc1: baseline 40 and 12 MiB/s per TiB, capped at 500 and 250; every I/O counts as 1 MiB', () => {
    assert.deepEqual(figures([{ type: 'st1', size: '1TiB' }]), [40, 40, 40, 40]);
    assert.deepEqual(figures([{ type: 'st1', size: '12.5TiB' }]), [500, 500, 500, 500]);
    assert.deepEqual(figures([{ type: 'sc1', size: '1TiB' }]), [12, 12, 12, 12]);
    assert.deepEqual(figures([{ type: 'sc1', size: '16TiB' }]), [192, 192, 192, 192]);
  });

  it('one EBS limit per instance for all volume types together: each volume alone under it, the limit stated once', () => {
    // m6i.xlarge: 6,000 IOPS sustained. gp3 6,000 + io2 6,000: each delivers its 6,000 while the other is idle, and
    // together they are held to 6,000 (stated once, not split between volumes no workload uses).
    const a = run(
      specText({
        provider: 'aws',
        machine: 'm6i.xlarge',
        disks: [
          { type: 'gp3', size: '100GiB', provisioned_iops: 6000 },
          { type: 'io2', size: '100GiB', provisioned_iops: 6000 },
        ],
      }),
    );
    const v = vmOf(a);
    assert.deepEqual(
      v.disks.map((d) => d.figures.read_iops),
      [6000, 6000],
    );
    const shared = v.sharedLimits!.find((l) => l.metric === 'read_iops')!;
    assert.deepEqual([shared.value, shared.disks, shared.demand, shared.reached], [6000, v.disks.map((d) => d.spec.name), 0, false]);
    assert.match(shared.why, /m6i\.xlarge limit for ebs: 6,000 IOPS/);
    // No volume alone exceeds the IOPS limit (io2's throughput alone does exceed the instance's: that one is said).
    assert.ok(!a.diagnostics.some((d) => d.code === 'capped-by-vcpu' && /IOPS/.test(d.message)), 'no volume alone exceeds the IOPS limit');
  });

  describe("one instance limit shared by the workloads' targets first", () => {
    // m5.2xlarge: 12,000 IOPS. a (gp3, 3,000 included) must give 3,000, b (gp3, 10,000 provisioned) 8,000: 11,000 fit.
    const wl = (name: string, disk: string, iops: number) => ({
      name,
      disk,
      block_size: '4KiB', // small enough that the volumes' 125 MiB/s never binds
      read_ratio: 0.5,
      target: { iops },
    });
    const spec = (workloads: ReturnType<typeof wl>[]) =>
      specText({
        provider: 'aws',
        catalog: 'aws-2025',
        region: 'us-east-1',
        machine: 'm5.2xlarge',
        disks: [
          { name: 'a', type: 'gp3', size: '200GiB' },
          { name: 'b', type: 'gp3', size: '500GiB', provisioned_iops: 10000 },
        ],
        workloads,
      });
    const total = (w: { read_iops: number; write_iops: number }) => w.read_iops + w.write_iops;

    it('targets that fit the instance together are all met, with no machine fix', () => {
      const a = run(spec([wl('wa', 'a', 3000), wl('wb', 'b', 8000)]));
      const v = vmOf(a);
      assert.deepEqual(
        v.workloads.map((w) => [w.spec.name, w.meets_target]),
        [
          ['wa', true],
          ['wb', true],
        ],
      );
      // Each volume alone: its own figures, under the limit. Together, a's workload gets its 3,000 (all a does
      // alone); b's gets 8,000 and the 1,000 left over.
      const [da, db] = v.disks;
      assert.deepEqual([da.figures.read_iops, da.figures.by('read_iops')], [3000, 'provisioned']);
      assert.deepEqual([db.figures.read_iops, db.figures.by('read_iops')], [10000, 'provisioned']);
      const [wa, wb] = v.workloads;
      assert.equal(total(wa), 3000);
      assert.ok(Math.abs(total(wb) - 9000) < 1e-6, String(total(wb)));
      assert.match(wb.why, /8,000 IOPS for its workloads' targets, then 1,000 of the 1,000 left/);
      const limit = v.sharedLimits!.find((l) => l.metric === 'read_iops')!;
      assert.deepEqual([limit.value, limit.demand, limit.reached], [12000, 11000, false]);
      const codes = a.diagnostics.map((d) => d.code);
      assert.ok(!codes.includes('target-unreachable'), codes.join());
      assert.ok(!codes.includes('capped-by-vcpu'), codes.join());
      assert.ok(!codes.includes('instance-limit-only-in-window'), codes.join());
      assert.ok(!a.diagnostics.some((d) => d.fixes?.some((f) => /Change machine/.test(f.title))));
    });

    it('a volume no workload uses is idle: it takes no share, and its own figures are unchanged', () => {
      const text = spec([wl('wb', 'b', 8000)]).replace(
        '    workloads:',
        '      - name: root\n        type: gp3\n        size: 20GiB\n    workloads:',
      );
      const v = vmOf(run(text));
      const iops = Object.fromEntries(v.disks.map((d) => [d.spec.name, d.figures.read_iops]));
      // Alone: a 3,000, b 10,000, root 3,000 (16,000 together, over the 12,000 limit: stated once).
      assert.deepEqual(iops, { a: 3000, b: 10000, root: 3000 });
      // Only b is busy: its workload gets all b does alone, nothing split off to a or root.
      assert.equal(total(v.workloads[0]), 10000);
      assert.equal(v.workloads[0].meets_target, true);
      const limit = v.sharedLimits!.find((l) => l.metric === 'read_iops')!;
      assert.deepEqual([limit.value, limit.disks, limit.demand], [12000, ['a', 'b', 'root'], 8000]);
    });

    it('targets above the instance limit share it in proportion to what they ask, and the machine is said short', () => {
      const a = run(spec([wl('wa', 'a', 3000), wl('wb', 'b', 10000)]));
      const v = vmOf(a);
      const [wa, wb] = v.workloads;
      assert.ok(Math.abs(total(wa) - (12000 * 3000) / 13000) < 1e-6);
      assert.ok(Math.abs(total(wb) - (12000 * 10000) / 13000) < 1e-6);
      assert.match(wa.why, /in proportion to what their workloads' targets ask \(13,000 IOPS in all/);
      // The disks alone are not capped; the targets together ask more of the limit than it gives.
      assert.deepEqual(
        v.disks.map((d) => d.figures.read_iops),
        [3000, 10000],
      );
      const capped = a.diagnostics.find((d) => d.code === 'capped-by-vcpu')!;
      assert.equal(capped.severity, 'warning');
      assert.match(capped.message, /holds a and b together ≤ 12,000 read and write IOPS; their targets ask 13,000, more than it/);
    });
  });

  it('sizes marked * in the table are held to their baseline (the maximum holds 30 minutes a day)', () => {
    // m6i.xlarge: baseline 1,250 Mbps (149 MiB/s), maximum 10,000 Mbps; a 1,000 MiB/s gp3 gets the baseline.
    const d = diskOf(
      run(
        specText({
          provider: 'aws',
          machine: 'm6i.xlarge',
          disks: [{ type: 'gp3', size: '500GiB', provisioned_iops: 4000, provisioned_throughput: '1000MiB/s' }],
        }),
      ),
    );
    assert.ok(Math.abs(d.figures.read_mibps - 1250 * MBPS_IN_MIBPS) < 1e-6);
    assert.equal(d.figures.by('read_mibps'), 'vm');
  });

  it('larger machines of a family are its later sizes, t3.small to t3.large though both have 2 vCPUs', () => {
    const r = resolveMachine(aws, { machine_type: 't3.small' });
    assert.ok(r.ok);
    assert.deepEqual(
      largerMachines(r.machine).map((m) => m.name),
      ['t3.medium', 't3.large', 't3.xlarge', 't3.2xlarge'],
    );
  });

  it("the disk hover names the type once: AWS's label already holds it", () => {
    const text = specText({ provider: 'aws', machine: 'm6i.xlarge', disks: [{ name: 'data', type: 'gp3', size: '100GiB' }] });
    const h = hover(analyze(text), text.indexOf('name: data') + 7)!;
    assert.match(h.markdown, /Disk data\*\* — General Purpose SSD \(gp3\), 100 GiB on m6i\.xlarge/);
  });

  it('a misspelt type names the AWS pattern and the closest type', () => {
    const r = resolveMachine(aws, { machine_type: 'm6i.xlarj' });
    assert.ok(!r.ok);
    assert.match(r.message, /names are <family>\.<size>/);
    assert.equal(r.fix, 'm6i.xlarge');
  });
});

describe('aws-2025: figures that hold for a while', () => {
  const gp2 = (size: string, machine = 'm6i.32xlarge', target = 'iops: 3000') =>
    run(
      specText({
        provider: 'aws',
        machine,
        disks: [{ name: 'd', type: 'gp2', size }],
        workloads: [{ name: 'w', block_size: '16KiB', read_ratio: 0.7, target: Object.fromEntries([target.split(': ')]) }],
      }),
    );

  it("gp2: AWS's burst durations at 3,000 IOPS from a full bucket of 5.4 million credits", () => {
    // AWS's table: 1 to 33.33 GiB 1,862 s; 100 GiB 2,000 s; 334 GiB 2,703 s; 750 GiB 7,200 s.
    const rows: Array<[string, number, number]> = [
      ['20GiB', 100, 1862],
      ['100GiB', 300, 2000],
      ['334GiB', 1002, 2703],
      ['750GiB', 2250, 7200],
    ];
    for (const [size, base, seconds] of rows) {
      const d = diskOf(gp2(size));
      assert.equal(d.figures.read_iops, base, `${size} baseline`);
      assert.equal(d.burst?.read_iops?.value, 3000, `${size} burst`);
      assert.equal(Math.round(d.burst!.read_iops!.seconds), seconds, `${size} seconds`);
      assert.equal(d.burst!.read_iops!.ends, 'credits');
    }
    // From 1,000 GiB the baseline is 3,000 or more: nothing to burst to.
    assert.equal(diskOf(gp2('1000GiB')).burst, undefined);
  });

  it("a workload's sustained figure meets or misses its target; the burst is said beside it", () => {
    const a = gp2('100GiB', 'm6i.32xlarge', 'iops: 2000');
    const w = vmOf(a).workloads[0];
    assert.equal(Math.round(w.read_iops + w.write_iops), 300);
    assert.equal(w.meets_target, false);
    assert.equal(Math.round(w.burst!.read_iops + w.burst!.write_iops), 3000);
    assert.equal(Math.round(w.burst!.seconds), 2000);
    const report = fileReport('x.perf.yaml', a).vms[0].workloads[0];
    assert.equal(report.burst?.summary, '3,000 IOPS for 33.3 min, then 300');
    const text = specText({
      provider: 'aws',
      machine: 'm6i.32xlarge',
      disks: [{ name: 'd', type: 'gp2', size: '100GiB' }],
      workloads: [{ name: 'w', block_size: '16KiB', read_ratio: 0.7, target: { iops: 2000 } }],
    });
    assert.match(
      hover(analyze(text), text.indexOf('name: w') + 6)!.markdown,
      /\*\*Burst\*\*: 3,000 IOPS for 33\.3 min, then 300 \(until the burst credits run out\)/,
    );
    assert.equal(report.burst?.seconds, 2000);
    assert.equal(report.meets_target, false);
  });

  it("an instance's EBS maximum holds 30 minutes (m6i.xlarge: 10,000 Mbps, then 1,250)", () => {
    const a = run(
      specText({
        provider: 'aws',
        machine: 'm6i.xlarge',
        disks: [{ name: 'd', type: 'gp3', size: '500GiB', provisioned_iops: 4000, provisioned_throughput: '1000MiB/s' }],
        workloads: [{ name: 'scan', pattern: 'sequential', block_size: '1MiB', read_ratio: 1, target: { throughput: '500MiB/s' } }],
      }),
    );
    const d = diskOf(a);
    assert.equal(d.burst?.read_mibps?.value, 1000); // the volume's own 1,000 under the instance's 1,192
    assert.equal(d.burst?.read_mibps?.seconds, 1800);
    assert.equal(d.burst?.read_mibps?.ends, 'window');
    const w = fileReport('x.perf.yaml', a).vms[0].workloads[0];
    assert.equal(w.meets_target, false);
    assert.equal(w.burst?.summary, '1,000 MiB/s for 30 min, then 149');
    // A size without a window (m6i.8xlarge sustains its maximum) has no burst.
    const big = run(
      specText({
        provider: 'aws',
        machine: 'm6i.8xlarge',
        disks: [{ type: 'gp3', size: '500GiB', provisioned_iops: 4000, provisioned_throughput: '1000MiB/s' }],
      }),
    );
    assert.equal(diskOf(big).burst, undefined);
  });

  it('editions without buckets or windows say nothing of bursts', () => {
    const a = run(specText({ machine: 'n2-standard-8', disks: [{ type: 'pd-ssd', size: '500GiB' }] }));
    assert.equal(diskOf(a).burst, undefined);
    assert.equal('burst' in fileReport('x.perf.yaml', a).vms[0].disks[0], false);
  });
});
