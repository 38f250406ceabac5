/**
 * Provisioned IOPS and throughput (pd-extreme, Hyperdisk): the range a disk of a given size accepts, and what
 * it gets when the spec asks for a value or none. Shared by the figures (disks.ts) and the price (cost.ts).
 */

export interface ProvisionedRange {
  min: number;
  max: number;
  default?: number;
  min_per_gib?: number;
  max_per_gib?: number;
  max_at_least?: number;
}

/** The provisioned amounts the type allows for a disk of this size (lo ≤ hi, even where the table says otherwise). */
export function provisionedBounds(r: ProvisionedRange, size: number): { lo: number; hi: number } {
  const lo = Math.max(r.min, r.min_per_gib !== undefined ? r.min_per_gib * size : 0);
  const perGib = r.max_per_gib !== undefined ? Math.max(r.max_per_gib * size, r.max_at_least ?? 0) : Infinity;
  const hi = Math.min(r.max, perGib);
  return { lo: Math.min(lo, hi), hi };
}

/** The provisioned amount a disk gets: what the spec asks (or the default), clamped into the allowed range. */
export function provisionedValue(r: ProvisionedRange, asked: number | undefined, size: number): number {
  const { lo, hi } = provisionedBounds(r, size);
  const v = asked ?? r.default ?? lo;
  return Math.max(lo, Math.min(hi, v));
}
