/**
 * Disks sold in allocation units (Yandex): the figures grow by whole units of size up to the type's per-disk maximum.
 */
import type { AllocationUnitDiskType, Catalog } from '../catalog';
import { fmt } from '../units';
import { METRICS, type Metric } from './types';
import { DiskFigures, type FigureKey, type FigureSource } from './figures';
import { unitOf } from './vm-share';

/** Yandex allocation units: partial units count as whole ones (Yandex does not say; see docs/model.md). */
export function allocationUnits(t: AllocationUnitDiskType, size: number): number {
  return Math.max(1, Math.ceil(size / t.unit_gib - 1e-9));
}

export function unitFigures(c: Catalog, t: AllocationUnitDiskType, size: number): DiskFigures {
  const n = allocationUnits(t, size);
  const f = new DiskFigures(new UnitSource(c, t, n));
  for (const m of METRICS) {
    const v = t.per_unit[m] * n;
    const cap = t.disk_max[m];
    if (cap !== undefined && cap < v) f.set(m, cap, 'disk');
    else f.set(m, v, 'size');
  }
  return f;
}

/** A disk sold in allocation units: each figure the units' figure, or the type's per-disk maximum ('disk'). */
class UnitSource implements FigureSource {
  constructor(
    private readonly c: Catalog,
    private readonly t: AllocationUnitDiskType,
    private readonly units: number,
  ) {}
  explainFigure(k: FigureKey, value: number): string {
    const { c, t, units: n } = this;
    const m = k as Metric;
    const cap = t.disk_max[m];
    if (cap !== undefined && cap < t.per_unit[m] * n)
      return `${t.label} per-disk maximum ${fmt(t.disk_max[m])} ${unitOf(m)} (${c.edition}: ${t.disk_max.table})`;
    return `${n} allocation unit${n === 1 ? '' : 's'} of ${t.unit_gib} GiB × ${fmt(t.per_unit[m])} ${unitOf(m)} = ${fmt(value)} ${unitOf(m)} (${c.edition}: ${t.per_unit.table})`;
  }
}
