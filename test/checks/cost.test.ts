/** Capacity and cost (core/src/checks/cost.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, costText, fileReport } from '../../core/src';
import { applyFix, BASE, expectAt, lineChanges, WL } from './helpers';

/** One VM on `machine` in `region`, with one disk 'data' of the given lines. */
const region = (r: string, machine: string, disk: string) =>
  `version: 1\nprovider: gcp\ncatalog: gcp-2024\nregion: ${r}\nvms:\n  - name: db\n    machine_type: ${machine}\n    disks:\n      - name: data\n${disk}`;

describe('checks: cost', () => {
  it('price-unknown on a custom machine type reads its memory from the name and says custom types are not priced', () => {
    const text = BASE.replace('n2-standard-8', 'n2-custom-6-24576');
    const d = expectAt(text, 'price-unknown', 'n2-custom-6-24576');
    assert.equal(
      d.message,
      "gcp-2024 has no custom machine type prices (n2-custom-6-24576: 6 vCPUs, 24 GiB): the VM's total leaves the machine out and is marked partial",
    );
  });
  it('in a region the edition does not price, unknown-region alone says so, and no cost is shown', () => {
    const text = BASE.replace('catalog: gcp-2024\n', 'catalog: gcp-2024\nregion: mars-north1\n');
    expectAt(text, 'unknown-region', 'mars-north1');
    const a = analyze(text);
    assert.ok(!a.diagnostics.some((x) => x.code === 'price-unknown'));
    assert.equal(a.vms[0].monthly_cost, undefined);
    assert.equal(a.monthly_cost, undefined);
    assert.equal(a.monthly_cost_complete, false);
  });
  it('price-unknown on the disk type when the type has no price in the region; the VM total is the machine, marked partial', () => {
    const text = region('europe-west4', 'c4-standard-8', '        type: hyperdisk-balanced\n        size: 100GiB\n');
    const d = expectAt(text, 'price-unknown', 'hyperdisk-balanced');
    assert.match(d.message, /^gcp-2024 has no hyperdisk-balanced price for region europe-west4: 'data' is left out/);
    const a = analyze(text);
    // c4-standard-8 in europe-west4: 8 × $0.0363825 + 30 GiB × $0.0041349 = $0.415107 an hour, × 730.
    assert.equal(a.vms[0].machine_cost.monthly, Math.round(0.415107 * 730 * 100) / 100);
    assert.equal(a.vms[0].monthly_cost_complete, false);
    assert.equal(
      costText(a.monthly_cost, a.monthly_cost_complete, a.monthly_cost_missing, 'USD'),
      'at least $303.03 (hyperdisk-balanced price unknown in europe-west4)',
    );
  });
  it('price-unknown on provisioned_iops where the IOPS price is missing: a 10 TiB pd-extreme with 100,000 IOPS in europe-west4', () => {
    const disk = '        type: pd-extreme\n        size: 10TiB\n        provisioned_iops: 100000\n';
    const text = region('europe-west4', 'n2-standard-64', disk);
    const d = expectAt(text, 'price-unknown', '100000');
    assert.equal(
      d.message,
      "gcp-2024 has no pd-extreme provisioned IOPS price for europe-west4: 'data' costs at least $1,413.12/month, that part left out",
    );
    const a = analyze(text);
    assert.equal(a.diagnostics.filter((x) => x.code === 'price-unknown').length, 1);
    // 10,240 GiB × $0.138 (europe-west4 capacity) = $1,413.12, never shown as the disk's whole price.
    const disk0 = a.vms[0].disks[0].cost;
    assert.equal(disk0.monthly, 1413.12);
    assert.equal(disk0.complete, false);
    assert.match(
      disk0.why,
      /^10,240 GiB × \$0\.138 \+ 100,000 provisioned IOPS \(no price in europe-west4\) per month = at least \$1,413\.12 /,
    );
    const r = fileReport('x.perf.yaml', a);
    assert.equal(r.monthly_cost_complete, false);
    assert.equal(r.vms[0].monthly_cost_complete, false);
    assert.equal(r.vms[0].disks[0].monthly_cost_complete, false);
    assert.deepEqual(r.monthly_cost_missing, ['IOPS price unknown in europe-west4']);
    assert.equal(r.vms[0].disks[0].price_per_read_iops, null);
    // In us-central1 the rate exists ($0.065 per IOPS-month): 10,240 × $0.125 + 100,000 × $0.065 = $7,780.
    const us = analyze(region('us-central1', 'n2-standard-64', disk));
    assert.equal(us.vms[0].disks[0].cost.monthly, 7780);
    assert.equal(us.vms[0].disks[0].cost.complete, true);
    assert.ok(!us.diagnostics.some((x) => x.code === 'price-unknown'));
  });
  it('price-unknown on provisioned_throughput above what Hyperdisk Balanced includes, once per disk', () => {
    const disk =
      '        type: hyperdisk-balanced\n        size: 500GiB\n        provisioned_iops: 6000\n        provisioned_throughput: 400MiB/s\n';
    const text = region('us-central1', 'c4-standard-8', disk);
    const a = analyze(text);
    const found = a.diagnostics.filter((x) => x.code === 'price-unknown').map((x) => text.slice(x.span.start, x.span.end));
    assert.deepEqual(found, ['6000', '400MiB/s']);
    // Capacity is priced (500 GiB × $0.08, a secondary source, so uncertain); the 3,000 IOPS and 260 MiB/s above
    // the included 3,000 IOPS and 140 MiB/s are not.
    const c = a.vms[0].disks[0].cost;
    assert.equal(c.monthly, 40);
    assert.equal(c.uncertain, true);
    assert.deepEqual(
      c.gaps.map((g) => g.text),
      ['IOPS price unknown in us-central1', 'throughput price unknown in us-central1'],
    );
  });
  it('price-unknown on the machine type where the series has no price in the region', () => {
    const text = region('europe-west1', 't2a-standard-8', '        type: pd-balanced\n        size: 100GiB\n');
    const d = expectAt(text, 'price-unknown', 't2a-standard-8');
    assert.match(d.message, /^gcp-2024 has no t2a-standard-8 price for region europe-west1: the VM's total leaves the machine out/);
    const r = fileReport('x', analyze(text));
    assert.equal(r.vms[0].machine_monthly_cost, null);
    assert.equal(r.vms[0].monthly_cost, 10);
    assert.equal(r.vms[0].monthly_cost_complete, false);
  });
  it('an edition without machine prices says so once per file, on the first VM', () => {
    const vm = (n: string) =>
      `  - name: ${n}\n    machine_type: n1-standard-8\n    disks:\n      - name: d\n        type: pd-ssd\n        size: 100GiB\n`;
    const text = `version: 1\nprovider: gcp\ncatalog: gcp-2020\nvms:\n${vm('a')}${vm('b')}`;
    const d = expectAt(text, 'price-unknown', 'n1-standard-8');
    assert.equal(d.message, "gcp-2020 has no machine prices: every VM's total in this file is its disks only, marked partial");
    const a = analyze(text);
    assert.equal(a.diagnostics.filter((x) => x.code === 'price-unknown').length, 1);
    assert.equal(a.monthly_cost_complete, false);
    // When the first VM's machine is unknown (its own error), the note goes to the first VM whose machine is known.
    const first = text.replace('n1-standard-8', 'n1-standard-7');
    expectAt(first, 'price-unknown', 'n1-standard-8');
    assert.equal(analyze(first).diagnostics.filter((x) => x.code === 'price-unknown').length, 1);
  });
  it('overprovisioned on the type when another type is cheaper, with a fix that is never preferred', () => {
    // 3,000 IOPS asked of a 500 GiB pd-ssd ($0.17 × 500 = $85.00) holding 8 GiB of data: pd-balanced's 3,000
    // IOPS baseline (gcp-2024) already gives them on its smallest size, 10 GiB at $0.10 = $1.00.
    const text = WL('        target:\n          iops: 3000\n').replace('size: 500GiB', 'size: 500GiB\n        data_size: 8GiB');
    const d = expectAt(text, 'overprovisioned', 'pd-ssd');
    assert.equal(
      d.message,
      "'data' pays for performance its workloads never use: a 10 GiB pd-balanced disk still meets every target and holds the data and saves $84.00/month ($1.00 instead of $85.00)",
    );
    assert.deepEqual(d.fixes, [
      {
        kind: 'set-values',
        values: [
          { path: '/vms/0/disks/0/type', value: 'pd-balanced' },
          { path: '/vms/0/disks/0/size', value: '10GiB' },
        ],
        title: 'Use a 10 GiB pd-balanced disk (−$84.00/month)',
        preferred: false,
      },
    ]);
  });
  it('overprovisioned only for a disk that declares its data, and never smaller than the data and its growth', () => {
    const asked = WL('        target:\n          iops: 3000\n');
    // No data_size: the 500 GiB may be for the data; nothing to say.
    assert.ok(!analyze(asked).diagnostics.some((d) => d.code === 'overprovisioned'));
    // 250 GiB + 20 % = 300 GiB of pd-balanced at $0.10: $30.00 instead of $85.00.
    const d = expectAt(
      asked.replace('size: 500GiB', 'size: 500GiB\n        data_size: 250GiB\n        growth: 20%'),
      'overprovisioned',
      'pd-ssd',
    );
    assert.match(
      d.message,
      /a 300 GiB pd-balanced disk still meets every target and holds the data and its growth and saves \$55\.00\/month/,
    );
  });
  it('capacity-short: a disk smaller than its data and growth, with a resize', () => {
    // 450 GiB + 20 % = 540 GiB, on a 500 GiB disk.
    const d = expectAt(
      BASE.replace('size: 500GiB', 'size: 500GiB\n        data_size: 450GiB\n        growth: 20%'),
      'capacity-short',
      '500GiB',
    );
    assert.equal(d.message, "'data' holds 500 GiB; its data needs 540 GiB (450 GiB + 20% growth): make it larger");
    assert.deepEqual(
      d.fixes?.map((f) => f.kind === 'set-value' && f.value),
      ['540GiB'],
    );
    assert.ok(
      !analyze(BASE.replace('size: 500GiB', 'size: 500GiB\n        data_size: 450GiB')).diagnostics.some(
        (x) => x.code === 'capacity-short',
      ),
    );
  });
  it('no overprovisioned finding for a disk whose workloads have no target or miss it', () => {
    assert.ok(!analyze(WL('')).diagnostics.some((d) => d.code === 'overprovisioned'));
    assert.ok(!analyze(WL('        target:\n          iops: 90000\n')).diagnostics.some((d) => d.code === 'overprovisioned'));
  });

  it("overprovisioned: the smaller size it offers keeps the spec's min_headroom; applied, nothing else changes", () => {
    // pd-ssd: 30 IOPS per GiB over a 6,000 IOPS baseline. 67 GiB just meets 8,000 IOPS (8,010, 0.1 % to spare),
    // which the policy's 20 % refuses: 9,600 IOPS needs 120 GiB.
    const text = WL('        target:\n          iops: 8000\n')
      .replace('size: 500GiB\n', 'size: 1TiB\n        data_size: 50GiB\n')
      .replace('vms:\n', 'policy:\n  min_headroom: 20%\nvms:\n');
    const d = expectAt(text, 'overprovisioned', '1TiB');
    assert.match(
      d.message,
      /: 120 GiB still meets every target with the policy's 20% headroom and holds the data and saves \$153\.68\/month/,
    );
    assert.equal(d.fixes?.[0].title, 'Use 120 GiB (−$153.68/month)');
    const fixed = applyFix(text, d.fixes![0]);
    assert.deepEqual(lineChanges(text, fixed), { removed: ['        size: 1TiB'], added: ['        size: 120GiB'] });
    const before = analyze(text);
    const after = analyze(fixed);
    assert.ok(after.vms[0].workloads[0].headroom! >= 0.2 - 1e-9, String(after.vms[0].workloads[0].headroom));
    assert.ok(!after.diagnostics.some((x) => x.code === 'headroom-below-policy' || x.code === 'overprovisioned'));
    assert.equal((before.vms[0].disks[0].cost.monthly! - after.vms[0].disks[0].cost.monthly!).toFixed(2), '153.68');
    // Without a policy, the least size that meets the target.
    const bare = analyze(text.replace('policy:\n  min_headroom: 20%\n', ''));
    assert.match(bare.diagnostics.find((x) => x.code === 'overprovisioned')!.message, /: 67 GiB still meets every target and/);
  });

  it('pricing: spot leaves the machine price out, never the on-demand price in its place', () => {
    const text = BASE.replace('    machine_type: n2-standard-8\n', '    machine_type: n2-standard-8\n    pricing: spot\n');
    const d = expectAt(text, 'price-unknown', 'n2-standard-8');
    assert.equal(
      d.message,
      "n2-standard-8 runs as Spot, whose price gcp-2024 does not model (on-demand prices only): the VM's total leaves the machine out and is marked partial",
    );
    const r = fileReport('x', analyze(text));
    assert.deepEqual([r.vms[0].machine_monthly_cost, r.vms[0].monthly_cost, r.monthly_cost_complete], [null, 85, false]);
    assert.equal(fileReport('x', analyze(BASE)).vms[0].machine_monthly_cost, 283.58);
  });
});
