/**
 * AWS (aws-2025) data added from AWS's 2024 instance types guide: the m7i, c7i and r7i EBS limits (every size, Mbps
 * converted exactly to MiB/s), checked against the guide's own rows.
 */
import * as assert from 'node:assert/strict';
import { builtinRegistry, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { diskOf, errors, run, specText } from '../helpers';

const aws = builtinRegistry.get('aws-2025') as Catalog;
/** AWS's decimal megabits per second in MiB/s: 10^6 / 8 bytes per second each. */
const MBPS_IN_MIBPS = 1e6 / 8 / 2 ** 20;

describe('aws-2025: m7i, c7i and r7i', () => {
  // The guide's Amazon EBS specifications rows: type, baseline Mbps, baseline MB/s (128 KiB I/O), baseline IOPS
  // (16 KiB I/O), and for the sizes marked 1 the maximum Mbps and IOPS they hold 30 minutes a day.
  const rows: Array<[string, number, number, number, number?, number?]> = [
    ['m7i.large', 650, 81.25, 3600, 10000, 40000],
    ['m7i.xlarge', 1250, 156.25, 6000, 10000, 40000],
    ['m7i.2xlarge', 2500, 312.5, 12000, 10000, 40000],
    ['m7i.4xlarge', 5000, 625, 20000, 10000, 40000],
    ['m7i.8xlarge', 10000, 1250, 40000],
    ['m7i.12xlarge', 15000, 1875, 60000],
    ['m7i.16xlarge', 20000, 2500, 80000],
    ['m7i.24xlarge', 30000, 3750, 120000],
    ['m7i.48xlarge', 40000, 5000, 240000],
    ['m7i.metal-24xl', 30000, 3750, 120000],
    ['m7i.metal-48xl', 40000, 5000, 240000],
    ['c7i.large', 650, 81.25, 3600, 10000, 40000],
    ['c7i.4xlarge', 5000, 625, 20000, 10000, 40000],
    ['c7i.8xlarge', 10000, 1250, 40000],
    ['c7i.48xlarge', 40000, 5000, 240000],
    ['c7i.metal-24xl', 30000, 3750, 120000],
    ['r7i.xlarge', 1250, 156.25, 6000, 10000, 40000],
    ['r7i.12xlarge', 15000, 1875, 60000],
    ['r7i.24xlarge', 30000, 3750, 120000],
    ['r7i.metal-48xl', 40000, 5000, 240000],
  ];

  it("each size's EBS limit is the guide's row, Mbps and MB/s both converted exactly to MiB/s", () => {
    for (const [name, mbps, mbs, iops, maxMbps, maxIops] of rows) {
      const r = resolveMachine(aws, { machine_type: name });
      assert.ok(r.ok, name);
      const { row, table } = vmLimitRow(aws, r.machine, 'gp3')!;
      assert.equal(table.source, 'it-2024', name);
      assert.equal(row.read_iops, iops, `${name} IOPS`);
      assert.equal(row.write_iops, iops, `${name} write IOPS`);
      assert.ok(Math.abs((row.read_mibps as number) - mbps * MBPS_IN_MIBPS) < 1e-6, `${name} from Mbps`);
      assert.ok(Math.abs((row.read_mibps as number) - (mbs * 1e6) / 2 ** 20) < 0.01, `${name} from MB/s`);
      if (maxMbps === undefined) {
        assert.equal(row.burst, undefined, `${name} sustains its only figures`);
      } else {
        assert.equal(row.burst?.read_iops, maxIops, `${name} maximum IOPS`);
        assert.ok(Math.abs((row.burst?.read_mibps as number) - maxMbps * MBPS_IN_MIBPS) < 1e-6, `${name} maximum`);
      }
    }
  });

  it('every size of the three families has a row and its vCPUs', () => {
    for (const family of ['m7i', 'c7i', 'r7i']) {
      const shapes = aws.machine_series[family].shapes!;
      assert.equal(Object.keys(shapes).length, 11, family);
      assert.equal(shapes[`${family}.48xlarge`], 192);
      assert.equal(shapes[`${family}.metal-24xl`], 96);
      for (const name of Object.keys(shapes)) {
        const r = resolveMachine(aws, { machine_type: name });
        assert.ok(r.ok && vmLimitRow(aws, r.machine, 'io2'), name);
      }
    }
  });

  it('an m7i.large holds a 1,000 MiB/s gp3 to its baseline 650 Mbps (77.49 MiB/s)', () => {
    const a = run(
      specText({
        provider: 'aws',
        machine: 'm7i.large',
        disks: [{ type: 'gp3', size: '500GiB', provisioned_iops: 4000, provisioned_throughput: '1000MiB/s' }],
      }),
    );
    assert.deepEqual(errors(a), []);
    const d = diskOf(a);
    assert.ok(Math.abs(d.figures.read_mibps.value - 650 * MBPS_IN_MIBPS) < 1e-6);
    assert.equal(d.figures.read_mibps.by, 'vm');
    assert.equal(d.burst?.read_mibps?.seconds, 1800);
  });
});
