/**
 * AWS (aws-2025) data beyond the 2023 user guide: the m7i, c7i and r7i EBS limits from AWS's 2024 instance types
 * guide (every size, Mbps converted exactly to MiB/s), checked against the guide's own rows; volume prices in six
 * regions with io2's tiered IOPS price; on-demand instance prices.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, CatalogRegistry, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { diskOf, errors, MBPS_IN_MIBPS, run, specText, vmOf } from '../helpers';

const aws = builtinRegistry.get('aws-2025') as Catalog;

describe('aws-2025: m7i, c7i and r7i, i3, and the i4i sizes the 2023 guide lacks', () => {
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
    // i4i's 12xlarge and 24xlarge, which the 2023 user guide does not list (one figure per size)
    ['i4i.12xlarge', 15000, 1875, 60000],
    ['i4i.24xlarge', 30000, 3750, 120000],
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
    assert.ok(Math.abs(d.figures.read_mibps - 650 * MBPS_IN_MIBPS) < 1e-6);
    assert.equal(d.figures.by('read_mibps'), 'vm');
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
      assert.equal(c.monthly, Math.round(1000 * perGib * 100) / 100, `${type} in ${region}`);
    }
  });

  it("every region has gp3's throughput price and io2's: 250 MiB/s in eu-west-1 and io2's tiers there, as AWS's feed gives them", () => {
    // 500 × $0.088 + 125 MiB/s above the included 125 × $0.044 (the feed's $45.056 per GiBps-month ÷ 1,024).
    const t = priced({ type: 'gp3', size: '500GiB', provisioned_iops: 3000, provisioned_throughput: '250MiB/s' }, 'eu-west-1');
    assert.equal(t.disks[0].cost.monthly!.toFixed(2), '49.50');
    assert.equal(t.disks[0].cost.complete, true);
    // 1,000 GiB × $0.138 + 32,000 × $0.072 + 32,000 × $0.0504 + 16,000 × $0.03528 = $4,619.28: the feed's own tier
    // prices, not the pricing page's rounded $0.050 and $0.035.
    const io2 = priced({ type: 'io2', size: '1000GiB', provisioned_iops: 80000 }, 'eu-west-1').disks[0].cost;
    assert.equal(io2.monthly!.toFixed(2), '4619.28');
    assert.equal(io2.complete, true);
  });

  it('a price the catalog lacks is price-unknown, never zero: gp3 throughput and io2 storage removed from eu-west-1', () => {
    const gp3 = aws.disk_types.gp3.price!;
    const io2 = aws.disk_types.io2.price!;
    const without = (table: Record<string, number> | undefined) =>
      Object.fromEntries(Object.entries(table ?? {}).filter(([r]) => r !== 'eu-west-1'));
    const lacking: Catalog = {
      ...aws,
      edition: 'aws-2025-lacking',
      disk_types: {
        ...aws.disk_types,
        gp3: { ...aws.disk_types.gp3, price: { ...gp3, per_mibps_month: without(gp3.per_mibps_month) } },
        io2: { ...aws.disk_types.io2, price: { ...io2, per_gib_month: without(io2.per_gib_month) } },
      },
    };
    const registry = new CatalogRegistry([...builtinRegistry.editions().map((e) => builtinRegistry.get(e)!), lacking]);
    const priceIn = (disk: Parameters<typeof specText>[0]['disks'][0]) =>
      analyze(specText({ provider: 'aws', catalog: 'aws-2025-lacking', region: 'eu-west-1', machine: 'm6i.32xlarge', disks: [disk] }), {
        registry,
      });
    const t = priceIn({ type: 'gp3', size: '500GiB', provisioned_iops: 3000, provisioned_throughput: '250MiB/s' });
    const d = vmOf(t).disks[0];
    assert.equal(d.cost.complete, false);
    assert.equal(d.cost.monthly!.toFixed(2), '44.00'); // the capacity alone: 500 × $0.088
    assert.deepEqual(
      d.cost.gaps.map((g) => g.part),
      ['throughput'],
    );
    assert.ok(t.diagnostics.some((x) => x.code === 'price-unknown' && /throughput/.test(x.message)));
    const io2Cost = vmOf(priceIn({ type: 'io2', size: '100GiB', provisioned_iops: 1000 })).disks[0].cost;
    assert.equal(io2Cost.monthly, undefined);
    assert.equal(io2Cost.complete, false);
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

  it('instances are priced in all six regions, the 2024 families too: m6i.xlarge in eu-west-1, c7i.large and r7i.metal-48xl', () => {
    for (const [machine, region, hourly] of [
      ['m6i.xlarge', 'eu-west-1', 0.214],
      ['m6i.xlarge', 'ap-northeast-1', 0.248],
      ['c7i.large', 'us-east-1', 0.08925],
      ['r7i.metal-48xl', 'eu-central-1', 15.3216],
      ['i4i.12xlarge', 'ap-southeast-1', 4.937],
    ] as const) {
      const v = vmOf(run(specText({ provider: 'aws', region, machine, disks: [{ type: 'gp3', size: '100GiB' }] })));
      assert.equal(v.machine_cost.monthly, Math.round(hourly * 730 * 100) / 100, `${machine} in ${region}`);
      assert.equal(v.monthly_cost_complete, true, `${machine} in ${region}`);
    }
  });

  it("an instance type without a price leaves the machine price unknown, never a neighbour's", () => {
    const series = aws.machine_prices!.series;
    const lacking: Catalog = {
      ...aws,
      edition: 'aws-2025-lacking',
      machine_prices: {
        ...aws.machine_prices!,
        series: { ...series, c7i: { per_type_hour: { ...series.c7i.per_type_hour, 'c7i.large': {} } } },
      },
    };
    const registry = new CatalogRegistry([...builtinRegistry.editions().map((e) => builtinRegistry.get(e)!), lacking]);
    const a = analyze(
      specText({ provider: 'aws', catalog: 'aws-2025-lacking', machine: 'c7i.large', disks: [{ type: 'gp3', size: '100GiB' }] }),
      {
        registry,
      },
    );
    const v = vmOf(a);
    assert.equal(v.machine_cost.monthly, undefined);
    assert.equal(v.monthly_cost_complete, false);
    assert.ok(a.diagnostics.some((d) => d.code === 'price-unknown' && /c7i\.large/.test(d.message)));
  });
});
