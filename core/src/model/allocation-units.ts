/**
 * Disks sold in allocation units (Yandex): the figures grow by whole units of size up to the type's per-disk maximum.
 */
import type { AllocationUnitDiskType, Catalog } from '../catalog';
import { fmt } from '../units';
import { ExplainedBound, METRICS, type DiskFigures, type Metric } from './types';
import { unitOf } from './vm-share';

/** Yandex allocation units: partial units count as whole ones (Yandex does not say; see docs/model.md). */
export function allocationUnits(t: AllocationUnitDiskType, size: number): number {
  return Math.max(1, Math.ceil(size / t.unit_gib - 1e-9));
}

export function unitFigures(c: Catalog, t: AllocationUnitDiskType, size: number): DiskFigures {
  const n = allocationUnits(t, size);
  const out = {} as DiskFigures;
  for (const m of METRICS) {
    const v = t.per_unit[m] * n;
    const cap = t.disk_max[m];
    // Only the Bound of the limit that sets the figure is made (the other would be dropped at once).
    out[m] = cap !== undefined && cap < v ? new UnitBound(cap, 'disk', c, t, m, n) : new UnitBound(v, 'size', c, t, m, n);
  }
  return out;
}

/** A figure of a disk sold in allocation units: the units' figure, or the type's per-disk maximum ('disk'). */
class UnitBound extends ExplainedBound {
  constructor(
    value: number,
    by: 'size' | 'disk',
    private readonly c: Catalog,
    private readonly t: AllocationUnitDiskType,
    private readonly m: Metric,
    private readonly units: number,
  ) {
    super(value, by);
  }
  protected explain(): string {
    const { c, t, m, units: n } = this;
    if (this.by === 'disk') return `${t.label} per-disk maximum ${fmt(t.disk_max[m])} ${unitOf(m)} (${c.edition}: ${t.disk_max.table})`;
    return `${n} allocation unit${n === 1 ? '' : 's'} of ${t.unit_gib} GiB × ${fmt(t.per_unit[m])} ${unitOf(m)} = ${fmt(this.value)} ${unitOf(m)} (${c.edition}: ${t.per_unit.table})`;
  }
}
