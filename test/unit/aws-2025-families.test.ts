/**
 * AWS (aws-2025) instance families that real Terraform uses beyond the first fifteen: m5a, m5d, m6a, m6g, c5d,
 * c6g, r6g, t3a, t4g and i3en, from the EBS-optimized instance table of the 2023 user guide (Mbps converted exactly
 * to MiB/s), their vCPUs from the same guide, and their prices from the on-demand feed the other families use.
 */
import * as assert from 'node:assert/strict';
import { builtinRegistry, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { diskOf, errors, run, specText, vmOf } from '../helpers';

const aws = builtinRegistry.get('aws-2025') as Catalog;
/** AWS's decimal megabits per second in MiB/s: 10^6 / 8 bytes per second each. */
const MBPS_IN_MIBPS = 1e6 / 8 / 2 ** 20;
const FAMILIES = ['m5a', 'm5d', 'm6a', 'm6g', 'c5d', 'c6g', 'r6g', 't3a', 't4g', 'i3en'];

describe('aws-2025: m5a, m5d, m6a, m6g, c5d, c6g, r6g, t3a, t4g and i3en', () => {
  // The table's rows as AWS prints them: type, vCPUs (hardware specifications), baseline Mbps, baseline IOPS (16 KiB
  // I/O), and for the sizes marked * the maximum Mbps and IOPS they hold 30 minutes a day.
  const rows: Array<[string, number, number, number, number?, number?]> = [
    ['m5a.large', 2, 650, 3600, 2880, 16000],
    ['m5a.24xlarge', 96, 13750, 60000],
    ['m5d.xlarge', 4, 1150, 6000, 4750, 18750],
    ['m5d.metal', 96, 19000, 80000],
    ['m6a.large', 2, 650, 3600, 10000, 40000],
    ['m6a.48xlarge', 192, 40000, 240000],
    ['m6g.medium', 1, 315, 2500, 4750, 20000],
    ['m6g.16xlarge', 64, 19000, 80000],
    ['c5d.2xlarge', 8, 2300, 10000, 4750, 20000],
    ['c5d.18xlarge', 72, 19000, 80000],
    ['c6g.large', 2, 630, 3600, 4750, 20000],
    ['c6g.metal', 64, 19000, 80000],
    ['r6g.xlarge', 4, 1188, 6000, 4750, 20000],
    ['r6g.8xlarge', 32, 9500, 40000],
    ['t3a.nano', 2, 45, 250, 2085, 11800],
    ['t3a.2xlarge', 8, 695, 4000, 2780, 15700],
    ['t4g.small', 2, 174, 1000, 2085, 11800],
    ['t4g.xlarge', 4, 695, 4000, 2780, 15700],
    // AWS prints 72.10 MB/s beside 576 Mbps (576 / 8 = 72.0): the bandwidth is what the catalog converts.
    ['i3en.large', 2, 576, 3000, 4750, 20000],
    ['i3en.24xlarge', 96, 19000, 80000],
  ];

  it("each size's EBS limit is the table's row, Mbps converted exactly to MiB/s, and its vCPUs the guide's", () => {
    for (const [name, vcpus, mbps, iops, maxMbps, maxIops] of rows) {
      const r = resolveMachine(aws, { machine_type: name });
      assert.ok(r.ok, name);
      assert.equal(r.machine.vcpus, vcpus, `${name} vCPUs`);
      const { row, table } = vmLimitRow(aws, r.machine, 'gp3')!;
      assert.equal(table.source, 'ug-ebs-optimized', name);
      assert.equal(row.read_iops, iops, `${name} IOPS`);
      assert.equal(row.write_iops, iops, `${name} write IOPS`);
      assert.ok(Math.abs((row.read_mibps as number) - mbps * MBPS_IN_MIBPS) < 1e-6, `${name} from Mbps`);
      assert.ok(Math.abs((row.write_mibps as number) - mbps * MBPS_IN_MIBPS) < 1e-6, `${name} write from Mbps`);
      if (maxMbps === undefined) {
        assert.equal(row.burst, undefined, `${name} sustains its only figures`);
      } else {
        assert.equal(row.burst?.read_iops, maxIops, `${name} maximum IOPS`);
        assert.ok(Math.abs((row.burst?.read_mibps as number) - maxMbps * MBPS_IN_MIBPS) < 1e-6, `${name} maximum`);
      }
    }
  });

  it('every size of each family has its EBS row, a price in every region and the Nitro System; none is named as not modelled', () => {
    for (const family of FAMILIES) {
      const shapes = aws.machine_series[family]?.shapes;
      assert.ok(shapes && Object.keys(shapes).length >= 7, family);
      for (const name of Object.keys(shapes)) {
        const r = resolveMachine(aws, { machine_type: name });
        assert.ok(r.ok && vmLimitRow(aws, r.machine, 'io2'), name);
        const hourly = aws.machine_prices!.series[family].per_type_hour![name];
        assert.deepEqual(Object.keys(hourly ?? {}).sort(), [...aws.regions].sort(), `${name} prices`);
      }
      assert.equal(aws.platform?.series?.[family], true, `${family} on Nitro`);
      assert.ok(!aws.other_series!.series.includes(family), `${family} still in other_series`);
    }
  });

  it('a t4g.small has figures and a price: a 500 GiB gp3 held to its baseline 174 Mbps, $0.0168 an hour in us-east-1', () => {
    const a = run(specText({ provider: 'aws', machine: 't4g.small', disks: [{ type: 'gp3', size: '500GiB' }] }));
    assert.deepEqual(errors(a), []);
    const d = diskOf(a);
    assert.ok(Math.abs(d.figures.read_mibps - 174 * MBPS_IN_MIBPS) < 1e-6);
    assert.equal(d.figures.by('read_mibps'), 'vm');
    assert.equal(d.figures.read_iops, 1000);
    assert.equal(d.burst?.read_mibps?.seconds, 1800);
    const v = vmOf(a);
    assert.equal(v.machine_cost.monthly, Math.round(0.0168 * 730 * 100) / 100);
    assert.equal(v.monthly_cost_complete, true);
  });

  it("prices are the feed's: m6g.large $0.077 and i3en.large $0.226 an hour in us-east-1", () => {
    for (const [machine, hourly] of [
      ['m6g.large', 0.077],
      ['i3en.large', 0.226],
    ] as const) {
      const v = vmOf(run(specText({ provider: 'aws', machine, disks: [{ type: 'gp3', size: '100GiB' }] })));
      assert.equal(v.machine_cost.monthly, Math.round(hourly * 730 * 100) / 100, machine);
    }
  });
});
