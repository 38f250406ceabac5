/**
 * Prices: machines by series and region, disks by region, explanations with the catalog's unit prices as they
 * stand, and partial totals that never read as whole ones. Figures are Google's on-demand prices as the Cloud
 * Billing SKU export of 2026-07-30 gives them (the catalog's sources pricing-catalog and vm-pricing).
 */
import * as assert from 'node:assert/strict';
import { analyze, BUILTIN_CATALOGS, costText, fileReport, hover, plural, type Analysis } from '../../core/src';
import { streamedAnalysis } from '../../core/src/analyze';
import { evaluateVm, priceVm, type VmPrices } from '../../core/src/model/evaluate';
import { vmCosts } from '../../core/src/model/types';
import type { VmSpec } from '../../core/src/document/types';
import { distinctFleet, type FleetEdition } from '../../bench/fleet';

const gcp = BUILTIN_CATALOGS.find((c) => c.edition === 'gcp-2024')!;

const spec = (machine: string, disk = '        type: pd-ssd\n        size: 500GiB\n', region = 'us-central1') =>
  `version: 1\nprovider: gcp\ncatalog: gcp-2024\nregion: ${region}\nvms:\n  - name: db\n    machine_type: ${machine}\n    disks:\n      - name: data\n${disk}`;

const machineMonthly = (a: Analysis) => a.vms[0].machine_cost.monthly;

describe('prices', () => {
  it('machines are priced per vCPU and per GiB, 730 hours a month: n2-standard-8 in us-central1 is $0.388472 an hour', () => {
    const a = analyze(spec('n2-standard-8'));
    // 8 × $0.031611 + 32 GiB × $0.004237 = $0.388472 an hour; × 730 = $283.58456. With 500 GiB of pd-ssd ($85.00).
    // $0.388472 × 730 = $283.58456, kept in cents: a total is the sum of its parts as shown.
    assert.equal(machineMonthly(a), 283.58);
    assert.equal(a.vms[0].monthly_cost, 368.58);
    assert.equal(a.vms[0].monthly_cost_complete, true);
    assert.equal(
      a.vms[0].machine_cost.why,
      'n2-standard-8: (8 vCPUs × $0.031611 + 32 GiB × $0.004237) per hour × 730 hours = $283.58 (gcp-2024: On-demand machine prices, USD per hour, 2026-07-30; 730 hours a month)',
    );
    const r = fileReport('x', a);
    assert.equal(r.vms[0].machine_monthly_cost, 283.58);
    assert.equal(r.vms[0].disks_monthly_cost, 85);
    assert.equal(r.vms[0].monthly_cost, 368.58);
    assert.equal(r.monthly_cost_complete, true);
    assert.deepEqual(r.monthly_cost_missing, []);
  });

  it('one vCPU is "1 vCPU"; N1 memory is 3.75 GiB per vCPU: n1-standard-1 is $0.04749975 an hour', () => {
    const a = analyze(spec('n1-standard-1', '        type: pd-standard\n        size: 10GiB\n'));
    assert.match(a.vms[0].machine_cost.why, /^n1-standard-1: \(1 vCPU × \$0\.031611 \+ 3\.75 GiB × \$0\.004237\) per hour/);
    assert.equal(machineMonthly(a), Math.round(0.04749975 * 730 * 100) / 100);
    assert.equal(plural(1, 'disk'), '1 disk');
    assert.equal(plural(2, 'disk'), '2 disks');
  });

  it('prices differ by region: n2-standard-8 in europe-west4 is $0.427664 an hour, pd-ssd $0.187 per GiB-month', () => {
    const a = analyze(spec('n2-standard-8', undefined, 'europe-west4'));
    // 8 × $0.034802 + 32 × $0.004664 = $0.427664.
    assert.equal(machineMonthly(a), Math.round(0.427664 * 730 * 100) / 100);
    assert.equal(a.vms[0].disks[0].cost.monthly!.toFixed(2), '93.50');
  });

  it('one machine keeps its price by region and by pricing, whichever an analysis asks first', () => {
    // A machine's price is made once per region and pricing of a catalog and shared by every analysis after: Spot
    // first must not leave the on-demand VMs unpriced, nor one region's price go to another.
    const spot = (region: string) => spec('n2-standard-8\n    pricing: spot', undefined, region);
    const [a, b, c, d] = [
      spot('us-central1'),
      spec('n2-standard-8'),
      spec('n2-standard-8', undefined, 'europe-west4'),
      spot('europe-west4'),
    ].map((text) => analyze(text).vms[0].machine_cost);
    assert.equal(a.monthly, undefined);
    assert.equal(b.monthly, 283.58);
    assert.equal(c.monthly, Math.round(0.427664 * 730 * 100) / 100);
    assert.equal(d.monthly, undefined);
    assert.match(b.why, /\$0\.031611/);
    assert.match(c.why, /\$0\.034802/);
  });

  it('shared-core E2 types are priced per type: e2-micro is $0.0083764275 an hour', () => {
    const a = analyze(spec('e2-micro', '        type: pd-standard\n        size: 10GiB\n'));
    assert.equal(a.vms[0].machine_cost.why.split(' (')[0], 'e2-micro: $0.0083764275 per hour × 730 hours = $6.11');
    assert.equal(fileReport('x', a).monthly_cost, 6.51);
  });

  it('explanations keep unit prices as the catalog states them: $0.125 and $0.065, not $0.13 and $0.07', () => {
    const a = analyze(spec('n2-standard-64', '        type: pd-extreme\n        size: 1000GiB\n        provisioned_iops: 20000\n'));
    assert.match(a.vms[0].disks[0].cost.why, /^1,000 GiB × \$0\.125 \+ 20,000 IOPS × \$0\.065 per month = \$1,425\.00 /);
    assert.match(analyze(spec('n2-standard-8')).vms[0].disks[0].cost.why, /^500 GiB × \$0\.17 per month = \$85\.00 /);
  });

  it('local SSD on C4 is Titanium SSD at its own rate ($0.16 per GiB-month in us-central1), not the classic $0.08', () => {
    const lssd = '        type: local-ssd\n        count: 1\n';
    assert.equal(analyze(spec('c4-standard-8-lssd', lssd)).vms[0].disks[0].cost.monthly, 375 * 0.16);
    assert.equal(analyze(spec('n2-standard-8', lssd)).vms[0].disks[0].cost.monthly, 375 * 0.08);
    // No C4D Titanium SSD rate for europe-north1: a gap, never the classic rate in its place.
    const north = analyze(spec('c4d-standard-8-lssd', lssd, 'europe-north1')).vms[0].disks[0].cost;
    assert.equal(north.monthly, undefined);
    assert.deepEqual(
      north.gaps.map((g) => g.text),
      ['local-ssd price unknown in europe-north1'],
    );
  });

  it('a partial total reads "at least": in the hover of the VM and of the file', () => {
    const text = spec(
      'n2-standard-64',
      '        type: pd-extreme\n        size: 10TiB\n        provisioned_iops: 100000\n',
      'europe-west4',
    );
    const a = analyze(text);
    const onVm = hover(a, text.indexOf('name: db') + 7)!.markdown;
    // n2-standard-64 in europe-west4: (64 × $0.034802 + 256 × $0.004664) × 730 = $2,497.56; the disk's capacity $1,413.12.
    assert.match(onVm, /· at least \$3,910\.68\/month \(IOPS price unknown in europe-west4\) ·/);
    assert.match(onVm, /\| ≥ \$1,413\.12 \|/);
    const onFile = hover(a, text.indexOf('vms'))!.markdown;
    assert.match(onFile, /\*\*1 VM\*\*, at least \$3,910\.68\/month \(IOPS price unknown in europe-west4\) for machines and disks/);
    assert.equal(costText(100, false, [], 'USD', '/month'), 'at least $100.00/month');
    assert.equal(costText(undefined, false, ['x'], 'USD'), 'unknown (x)');
  });

  it('a larger machine that lifts the cap says what the VM then costs, machine included', () => {
    const a = analyze(spec('n2-standard-8'));
    const d = a.diagnostics.find((x) => x.code === 'capped-by-vcpu')!;
    // n2-standard-16: 16 × $0.031611 + 64 × $0.004237 = $0.776944 an hour, × 730 = $567.17; + $85.00 of pd-ssd.
    // Against today's $368.58 ($283.58 + $85.00) as shown: +$283.59.
    assert.equal(d.fixes?.[0].title, 'Change machine to n2-standard-16 (+6,000 read IOPS; +$283.59/month, $652.17/month in all)');
  });

  it('at least twelve regions in the US, Europe and Asia, each with disk and machine prices', () => {
    assert.ok(gcp.regions.length >= 12, gcp.regions.join());
    for (const area of ['us-', 'europe-', 'asia-']) assert.ok(gcp.regions.filter((r) => r.startsWith(area)).length >= 3, area);
    for (const r of gcp.regions) {
      for (const t of ['pd-standard', 'pd-balanced', 'pd-ssd', 'pd-extreme', 'hyperdisk-extreme', 'local-ssd'])
        assert.ok(gcp.disk_types[t].price?.per_gib_month[r] !== undefined, `${t} in ${r}`);
      for (const s of ['n1', 'n2', 'n2d', 'e2', 'c3', 'n4'])
        assert.ok(gcp.machine_prices?.series[s].per_vcpu_hour?.[r] !== undefined, `${s} in ${r}`);
    }
  });

  it('Yandex has no machine prices: the total is the disks, marked partial, said once per file', () => {
    const vm = (n: string) =>
      `  - name: ${n}\n    series: standard-v3\n    vcpus: 8\n    disks:\n      - name: d\n        type: network-ssd\n        size: 512GiB\n`;
    const a = analyze(`version: 1\nprovider: yandex\nvms:\n${vm('a')}${vm('b')}`);
    assert.equal(a.diagnostics.filter((x) => x.code === 'price-unknown').length, 1);
    const r = fileReport('x', a);
    assert.equal(r.monthly_cost_complete, false);
    assert.deepEqual(r.monthly_cost_missing, ['machine price unknown']);
    assert.equal(r.vms[1].machine_monthly_cost, null);
    assert.equal(a.monthly_cost, a.vms[0].disks[0].cost.monthly! * 2);
  });
});

describe('a price without figures', () => {
  const parts = (p: VmPrices) => vmCosts(p).map((x) => [x.monthly, x.complete, x.uncertain, x.why, x.gaps.map((g) => g.text)]);
  for (const edition of ['gcp-2024', 'aws-2025', 'yandex-2025', 'azure-2026'] as const)
    it(`${edition}: priceVm gives every part's price and the sum an evaluation gives, for VMs and templates`, () => {
      const s = streamedAnalysis(distinctFleet(edition as FleetEdition, 300, 5).text);
      let priced = 0;
      for (const e of s.vms()) {
        const c = s.analysis.catalog!;
        const region = e.spec.region ?? s.analysis.region!;
        const template = { ...e.spec, template: { runs: [{ group: 'g', instances: 2 }, { group: 'h' }] } } as VmSpec;
        for (const vm of [e.spec, template]) {
          const want = evaluateVm(c, vm, region);
          const got = priceVm(c, vm, region);
          assert.deepEqual(parts(got), parts(want), `${vm.name}`);
          assert.deepEqual([got.monthly_cost, got.monthly_cost_complete], [want.monthly_cost, want.monthly_cost_complete], vm.name);
          if (want.monthly_cost !== undefined) priced++;
        }
      }
      assert.ok(priced > 0, 'no VM priced');
    });
});
