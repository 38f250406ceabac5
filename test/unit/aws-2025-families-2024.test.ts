/**
 * AWS (aws-2025) instance families taken from the 2024 instance types guide (source it-2024): every family of its
 * Amazon EBS specifications tables the catalog did not have (general purpose, compute, memory and storage
 * optimized, accelerated and HPC families, and the previous-generation ones that are EBS-optimized by default),
 * their vCPUs from the guide's Performance specifications, their instance store from its Instance store
 * specifications, and their prices from the on-demand feed the other families use (A1 and D2 from its previous-generation
 * file; none where the feed has none).
 */
import * as assert from 'node:assert/strict';
import { builtinRegistry, fileReport, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { diskOf, errors, MBPS_IN_MIBPS, run, specText, vmOf } from '../helpers';

const aws = builtinRegistry.get('aws-2025') as Catalog;

describe('aws-2025: the families of the 2024 instance types guide', () => {
  // Rows as the guide prints them: type, vCPUs, baseline Mbps, baseline IOPS (16 KiB I/O), and for the sizes marked 1
  // the maximum Mbps and IOPS they hold 30 minutes a day.
  const rows: Array<[string, number, number, number, number?, number?]> = [
    ['m7i-flex.large', 2, 312, 2500, 10000, 40000],
    ['m7i-flex.8xlarge', 32, 5000, 20000, 10000, 40000],
    ['c7a.medium', 1, 325, 2500, 10000, 40000],
    ['c7a.48xlarge', 192, 40000, 240000],
    ['m7a.metal-48xl', 192, 40000, 240000],
    ['r7a.large', 2, 650, 3600, 10000, 40000],
    ['c6a.large', 2, 650, 3600, 10000, 40000],
    // The 2023 user guide gave 80,000 Mbps: AWS raised the 6in families' EBS limits since.
    ['c6in.32xlarge', 128, 100000, 400000],
    ['x2idn.16xlarge', 64, 40000, 173333],
    ['u-6tb1.metal', 448, 38000, 160000],
    ['z1d.large', 2, 800, 3333, 3170, 13333],
    ['d3.xlarge', 4, 850, 5000, 2800, 15000],
    ['is4gen.medium', 1, 625, 2500, 10000, 40000],
    ['m4.large', 2, 450, 3600],
  ];

  it("each size's EBS limit is the guide's row, Mbps converted exactly to MiB/s, and its vCPUs the guide's", () => {
    for (const [name, vcpus, mbps, iops, maxMbps, maxIops] of rows) {
      const r = resolveMachine(aws, { machine_type: name });
      assert.ok(r.ok, name);
      assert.equal(r.machine.vcpus, vcpus, `${name} vCPUs`);
      const { row, table } = vmLimitRow(aws, r.machine, 'gp3')!;
      assert.equal(table.source, 'it-2024', name);
      assert.equal(row.read_iops, iops, `${name} IOPS`);
      assert.equal(row.write_iops, iops, `${name} write IOPS`);
      assert.ok(Math.abs((row.read_mibps as number) - mbps * MBPS_IN_MIBPS) < 1e-6, `${name} from Mbps`);
      if (maxMbps === undefined) {
        assert.equal(row.burst, undefined, `${name} sustains its only figures`);
      } else {
        assert.equal(row.burst?.read_iops, maxIops, `${name} maximum IOPS`);
        assert.ok(Math.abs((row.burst?.read_mibps as number) - maxMbps * MBPS_IN_MIBPS) < 1e-6, `${name} maximum`);
      }
    }
  });

  it('every family the issue names is modelled, with an EBS row for each size; the ones left are named as not modelled', () => {
    const named =
      'm7i-flex c7a m7a r7a c6a c6id m6id r6id m6in c6in r6in m6gd c6gd r6gd c7gd m7gd r7gd x2idn x2iedn z1d i4g im4gn is4gen d3 r5a r5d r5n m5n c5n c5a x1 x1e u-6tb1 h1 d2';
    for (const family of named.split(' ')) {
      const shapes = aws.machine_series[family]?.shapes;
      assert.ok(shapes, family);
      for (const name of Object.keys(shapes)) {
        const r = resolveMachine(aws, { machine_type: name });
        assert.ok(r.ok && vmLimitRow(aws, r.machine, 'io2'), name);
      }
      assert.ok(!aws.other_series!.series.includes(family), `${family} still in other_series`);
    }
    // Mac instances run on Dedicated Hosts (T2, M3 and the other previous-generation families are modelled since,
    // without EBS limits: aws-2025-previous-gen.test.ts).
    for (const family of ['mac1', 'mac2']) {
      assert.ok(aws.other_series!.series.includes(family), family);
      assert.equal(aws.machine_series[family], undefined, family);
    }
  });

  it('Nitro as the Platform summary gives it: Xen families (m4, x1, d2, h1) are not on the Nitro System', () => {
    for (const f of ['m7i-flex', 'c7a', 'r6id', 'u-6tb1', 'd3', 'i4g']) assert.equal(aws.platform?.series?.[f], true, f);
    for (const f of ['m4', 'x1', 'x1e', 'd2', 'h1']) assert.equal(aws.platform?.series?.[f], false, f);
  });

  it("an m7i-flex.large has figures and the feed's price: a 200 GiB gp3 held to its 312 Mbps baseline, $0.09576 an hour", () => {
    const a = run(specText({ provider: 'aws', machine: 'm7i-flex.large', disks: [{ type: 'gp3', size: '200GiB' }] }));
    assert.deepEqual(errors(a), []);
    const d = diskOf(a);
    assert.ok(Math.abs(d.figures.read_mibps - 312 * MBPS_IN_MIBPS) < 1e-6);
    assert.equal(d.figures.read_iops, 2500);
    assert.equal(d.burst?.read_iops?.seconds, 1800);
    const v = vmOf(a);
    assert.equal(v.machine_cost.monthly, Math.round(0.09576 * 730 * 100) / 100);
    assert.equal(v.monthly_cost_complete, true);
  });

  it('a machine the price feed lacks (hpc6id.32xlarge, u-6tb1.metal) has figures and an unknown price, never a default', () => {
    for (const machine of ['hpc6id.32xlarge', 'u-6tb1.metal']) {
      const a = run(specText({ provider: 'aws', machine, disks: [{ type: 'gp3', size: '100GiB' }] }));
      assert.deepEqual(errors(a), [], machine);
      assert.ok(diskOf(a).figures.read_iops > 0, machine);
      const v = fileReport('x.perf.yaml', a).vms[0];
      assert.equal(v.machine_monthly_cost, null, machine);
      assert.equal(v.monthly_cost_complete, false, machine);
      assert.ok(
        a.diagnostics.some((x) => x.code === 'price-unknown'),
        machine,
      );
    }
  });

  it("A1 and D2 are priced from the feed's previous-generation file: a1.medium $0.0255, d2.xlarge $0.69 an hour", () => {
    assert.equal(aws.machine_prices?.series.a1?.per_type_hour?.['a1.medium']?.['us-east-1'], 0.0255);
    assert.equal(aws.machine_prices?.series.d2?.per_type_hour?.['d2.xlarge']?.['eu-west-1'], 0.735);
    const v = fileReport('x', run(specText({ provider: 'aws', machine: 'd2.xlarge', disks: [{ type: 'gp3', size: '100GiB' }] }))).vms[0];
    assert.equal(v.machine_monthly_cost, Math.round(0.69 * 730 * 100) / 100);
    assert.equal(v.monthly_cost_complete, true);
  });

  it("instance store as the guide gives it: r6id.large's NVMe IOPS; d3.xlarge's HDD volumes listed without IOPS", () => {
    const store = aws.instance_store!;
    assert.deepEqual(
      { ...store.types['r6id.large'] },
      { devices: 1, device_gb: 118, media: 'NVMe SSD', read_iops: 33542, write_iops: 16771 },
    );
    assert.deepEqual(
      { ...store.types['i3en.large'] },
      { devices: 1, device_gb: 1250, media: 'NVMe SSD', read_iops: 42500, write_iops: 32500 },
    );
    assert.equal(store.types['d3.xlarge'], undefined);
    assert.deepEqual({ ...store.unstated?.['d3.xlarge'] }, { devices: 3, device_gb: 1980, media: 'NVMe HDD' });
  });
});
