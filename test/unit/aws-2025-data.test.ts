/**
 * AWS (aws-2025) data beyond the 2023 user guide: the m7i, c7i and r7i EBS limits from AWS's 2024 instance types
 * guide (every size, Mbps converted exactly to MiB/s), checked against the guide's own rows; volume prices in six
 * regions with io2's tiered IOPS price; on-demand instance prices.
 */
import * as assert from 'node:assert/strict';
import { builtinRegistry, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { diskOf, errors, run, specText, vmOf } from '../helpers';

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
    // i3 (its table row has one figure per size, no maximum window)
    ['i3.large', 425, 53.12, 3000],
    ['i3.8xlarge', 7000, 875, 32500],
    ['i3.metal', 19000, 2375, 80000],
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

describe('aws-2025: prices', () => {
  const priced = (disk: Parameters<typeof specText>[0]['disks'][0], region = 'us-east-1', machine = 'm6i.32xlarge') =>
    vmOf(run(specText({ provider: 'aws', region, machine, disks: [disk] })));

  it("io2 IOPS are billed in AWS's tiers: 80,000 IOPS on 1,000 GiB in us-east-1 is $4,170.60 a month", () => {
    // Worked example: 1,000 GiB × $0.125 = $125; the first 32,000 IOPS × $0.065 = $2,080; the next 32,000 ×
    // $0.0455 = $1,456; the last 16,000 × $0.03185 = $509.60. Together $4,170.60.
    const d = priced({ type: 'io2', size: '1000GiB', provisioned_iops: 80000 }).disks[0];
    assert.equal(d.cost.monthly!.toFixed(2), '4170.60');
    assert.equal(d.cost.complete, true);
    assert.equal(d.cost.uncertain, true);
    assert.match(
      d.cost.why,
      /^1,000 GiB × \$0\.125 \+ 32,000 IOPS × \$0\.065 \+ 32,000 IOPS above 32,000 × \$0\.0455 \+ 16,000 IOPS above 64,000 × \$0\.03185 per month = \$4,170\.60 /,
    );
  });

  it('io2 below 32,000 IOPS is billed at the first tier only; io1 keeps one rate at any IOPS', () => {
    // 20,000 × $0.065 + 500 × $0.125 = $1,362.50.
    assert.equal(priced({ type: 'io2', size: '500GiB', provisioned_iops: 20000 }).disks[0].cost.monthly!.toFixed(2), '1362.50');
    // Exactly 32,000: the whole first tier and nothing of the second.
    assert.equal(priced({ type: 'io2', size: '500GiB', provisioned_iops: 32000 }).disks[0].cost.monthly!.toFixed(2), '2142.50');
    // io1 48,000 IOPS: 48,000 × $0.065 + 1,000 × $0.125 = $3,245.
    assert.equal(priced({ type: 'io1', size: '1000GiB', provisioned_iops: 48000 }).disks[0].cost.monthly!.toFixed(2), '3245.00');
  });

  it('volumes are priced in six regions: gp3 500 GiB with 6,000 IOPS in eu-central-1 is $65.60', () => {
    // 500 × $0.0952 + 3,000 IOPS above the included 3,000 × $0.006.
    const d = priced({ type: 'gp3', size: '500GiB', provisioned_iops: 6000 }, 'eu-central-1').disks[0];
    assert.equal(d.cost.monthly!.toFixed(2), '65.60');
    assert.equal(d.cost.complete, true);
    // ap-northeast-1 has the price list's gp3 throughput price, $0.048 per MiB/s-month: 500 × $0.096 + 125 × $0.048.
    const t = priced({ type: 'gp3', size: '500GiB', provisioned_iops: 3000, provisioned_throughput: '250MiB/s' }, 'ap-northeast-1');
    assert.equal(t.disks[0].cost.monthly!.toFixed(2), '54.00');
    for (const [type, region, perGib] of [
      ['gp2', 'us-west-2', 0.1],
      ['st1', 'eu-west-1', 0.05],
      ['sc1', 'ap-southeast-1', 0.018],
    ] as const) {
      const c = priced({ type, size: '1000GiB' }, region).disks[0].cost;
      assert.equal(c.monthly!.toFixed(4), (1000 * perGib).toFixed(4), `${type} in ${region}`);
    }
  });

  it('a price the sources lack is price-unknown, never zero: gp3 throughput in eu-west-1, io2 storage there', () => {
    const t = priced({ type: 'gp3', size: '500GiB', provisioned_iops: 3000, provisioned_throughput: '250MiB/s' }, 'eu-west-1');
    assert.equal(t.disks[0].cost.complete, false);
    assert.equal(t.disks[0].cost.monthly!.toFixed(2), '44.00'); // the capacity alone: 500 × $0.088
    assert.deepEqual(
      t.disks[0].cost.gaps.map((g) => g.part),
      ['throughput'],
    );
    const a = run(
      specText({
        provider: 'aws',
        region: 'eu-west-1',
        machine: 'm6i.xlarge',
        disks: [{ type: 'gp3', size: '500GiB', provisioned_iops: 3000, provisioned_throughput: '250MiB/s' }],
      }),
    );
    assert.ok(a.diagnostics.some((d) => d.code === 'price-unknown' && /throughput/.test(d.message)));
    const io2 = priced({ type: 'io2', size: '100GiB', provisioned_iops: 1000 }, 'eu-west-1').disks[0].cost;
    assert.equal(io2.monthly, undefined);
    assert.equal(io2.complete, false);
  });

  it('instances are priced per type, 730 hours a month: m6i.xlarge in us-east-1 is $0.192 an hour', () => {
    const v = vmOf(run(specText({ provider: 'aws', machine: 'm6i.xlarge', disks: [{ type: 'gp3', size: '100GiB' }] })));
    assert.equal(v.machine_cost.monthly!.toFixed(2), (0.192 * 730).toFixed(2));
    assert.equal(v.machine_cost.uncertain, true);
    assert.match(v.machine_cost.why, /^m6i\.xlarge: \$0\.192 per hour × 730 hours = \$140\.16 /);
    // Instance plus volume: $140.16 + 100 × $0.08.
    assert.equal(v.monthly_cost!.toFixed(2), '148.16');
    assert.equal(v.monthly_cost_complete, true);
  });

  it('an instance type or region without a price leaves the machine price unknown', () => {
    for (const [machine, region] of [
      ['c7i.large', 'us-east-1'],
      ['m6i.xlarge', 'eu-west-1'],
    ]) {
      const v = vmOf(run(specText({ provider: 'aws', region, machine, disks: [{ type: 'gp3', size: '100GiB' }] })));
      assert.equal(v.machine_cost.monthly, undefined, `${machine} in ${region}`);
      assert.equal(v.monthly_cost_complete, false);
    }
  });
});
