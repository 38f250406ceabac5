/** Capacity and cost (core/src/checks/cost.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { BASE, expectAt, WL } from './helpers';

describe('checks: cost', () => {
  it('price-unknown on the disk type when the region has no price, and the costs left out', () => {
    const text = BASE.replace('catalog: gcp-2024\n', 'catalog: gcp-2024\nregion: mars-north1\n');
    const d = expectAt(text, 'price-unknown', 'pd-ssd');
    assert.match(d.message, /no pd-ssd price for region mars-north1/);
    const a = analyze(text);
    assert.equal(a.vms[0].monthly_cost, undefined);
    assert.equal(a.monthly_cost, undefined);
  });
  it('overprovisioned on the type when another type is cheaper, with a fix that is never preferred', () => {
    // 3,000 IOPS asked of a 500 GiB pd-ssd ($0.17 × 500 = $85.00): pd-balanced's 3,000 IOPS baseline
    // (gcp-2024) already gives them on its smallest size, 10 GiB at $0.10 = $1.00.
    const d = expectAt(WL('        target:\n          iops: 3000\n'), 'overprovisioned', 'pd-ssd');
    assert.equal(
      d.message,
      "'data' pays for performance its workloads never use: a 10GiB pd-balanced disk still meets every target, if the data fits, and saves $84.00/month ($1.00 instead of $85.00)",
    );
    assert.deepEqual(d.fixes, [
      {
        kind: 'set-values',
        values: [
          { path: '/vms/0/disks/0/type', value: 'pd-balanced' },
          { path: '/vms/0/disks/0/size', value: '10GiB' },
        ],
        title: 'Use a 10GiB pd-balanced disk (−$84.00/month)',
        preferred: false,
      },
    ]);
  });
  it('no overprovisioned finding for a disk whose workloads have no target or miss it', () => {
    assert.ok(!analyze(WL('')).diagnostics.some((d) => d.code === 'overprovisioned'));
    assert.ok(!analyze(WL('        target:\n          iops: 90000\n')).diagnostics.some((d) => d.code === 'overprovisioned'));
  });
});
