/**
 * Disks sold in fixed-size tiers (Azure Premium SSD, Standard SSD and Standard HDD): a tier's figures are those of
 * the size rounded up to the next tier, or of a performance tier set above it, or the tier's performance-plus ones;
 * its price is the tier's; a small tier bursts on credits; an I/O larger than the type's unit counts as several.
 */
import type { Catalog, TierRow, TieredDiskType } from '../catalog';
import type { DiskSpec } from '../document/types';
import { fmt, fmtMoney } from '../units';
import { cost, type Cost, type DiskEval, type Metric } from './types';
import { DiskFigures, type FigureKey, type FigureSource } from './figures';

/** The tier a size falls in: the first whose size holds it; undefined above the largest. */
export function sizeTier(t: TieredDiskType, size: number): TierRow | undefined {
  return t.tiers.rows.find((r) => size <= r.size_gib + 1e-9);
}

/** The performance tiers a disk of this size tier may be set to (above its own); empty when none. */
export function tierUpgrades(t: TieredDiskType, own: TierRow): TierRow[] {
  const rule = t.tier_upgrades?.rows.find((r) => r.from.includes(own.name));
  if (!rule) return [];
  const rows = t.tiers.rows;
  const from = rows.indexOf(own);
  const to = rows.findIndex((r) => r.name === rule.up_to);
  return to > from ? rows.slice(from + 1, to + 1) : [];
}

/** The tier whose figures and price the disk has: a valid `tier:` above its size's own, else its size's. */
export function diskTier(t: TieredDiskType, d: DiskSpec, size: number): TierRow | undefined {
  const own = sizeTier(t, size);
  if (!own || d.tier === undefined) return own;
  return tierUpgrades(t, own).find((r) => r.name === d.tier) ?? own;
}

/** Whether performance plus applies to the disk: asked for, of a size that may enable it, on a tier that has it. */
function plusApplies(t: TieredDiskType, d: DiskSpec, size: number, row: TierRow): boolean {
  return !!d.performance_plus && !!t.performance_plus && size >= t.performance_plus.min_gib && row.plus_iops !== undefined;
}

export function tierFigures(c: Catalog, t: TieredDiskType, d: DiskSpec, size: number): DiskFigures {
  const row = diskTier(t, d, size)!;
  const plus = plusApplies(t, d, size, row);
  const iops = plus ? row.plus_iops! : row.iops;
  const mibps = plus ? row.plus_mibps! : row.mibps;
  const how =
    row.size_gib + 1e-9 < size || d.tier === row.name
      ? `performance tier ${row.name}`
      : `${fmt(size, 2)} GiB rounded up to ${row.name} (${fmt(row.size_gib)} GiB)`;
  const what = `${t.label.split(' (')[0]} ${how}${plus ? ' with performance plus' : ''}`;
  const f = new DiskFigures(new TierSource(what, `(${c.edition}: ${t.tiers.table})`));
  f.set('read_iops', iops, 'size');
  f.set('write_iops', iops, 'size');
  f.set('read_mibps', mibps, 'size');
  f.set('write_mibps', mibps, 'size');
  return f;
}

/** A tier's figures, read and write alike: "Premium SSD P30: 5,000 IOPS, reads and writes together (table)". */
class TierSource implements FigureSource {
  constructor(
    private readonly what: string,
    private readonly src: string,
  ) {}
  explainFigure(m: FigureKey, value: number): string {
    return `${this.what}: ${fmt(value)} ${m.endsWith('iops') ? 'IOPS' : 'MiB/s'}, reads and writes together ${this.src}`;
  }
}

/**
 * A tiered disk's monthly price: its tier's, in the region; unknown (a gap, never $0) where the catalog has none. A
 * zone-redundant disk is priced by `diskCost` (./cost.ts), which every caller goes through.
 */
export function tierCost(c: Catalog, t: TieredDiskType, d: DiskSpec, size: number, region: string): Cost {
  const row = diskTier(t, d, size);
  const p = t.price;
  const price = row && p?.per_tier_month?.[row.name]?.[region];
  if (!row || !p || price === undefined) {
    const text = `${d.type} ${row?.name ?? ''} price unknown in ${region}`.replace('  ', ' ');
    return cost(undefined, false, () => `${c.edition} has no ${row?.name ?? d.type} price for region ${region}`, [
      { part: 'capacity', text },
    ]);
  }
  return cost(
    price,
    !!p.uncertain,
    () =>
      `${row.name} per month: ${fmtMoney(price, c.currency)} (${c.edition}: ${p.table}${p.uncertain ? '; uncertain: a secondary source' : ''})`,
  );
}

/**
 * A tiered disk's own credit burst: its tier's burst figure while the bucket lasts. The bucket is taken as what a
 * full-rate burst spends in the stated window ((burst − baseline) × seconds): the pages give the window, not the size.
 */
export function tierOwnBurst(
  d: DiskEval,
  m: Metric,
): { value: number; bucket: number; base: number; spend: number; onDemand?: boolean } | undefined {
  const t = d.type;
  if (t.model !== 'tiers') return undefined;
  const od = t.on_demand_burst;
  if (od && d.spec.bursting === 'on-demand' && d.size_gib >= od.min_gib) {
    // On-demand bursting: the type's burst figures with no time limit (an endless bucket), billed per transaction.
    const value = m === 'read_iops' || m === 'write_iops' ? od.iops : od.mibps;
    const base = d.diskOnly[m];
    return value > base + 1e-9 ? { value, bucket: Infinity, base, spend: value, onDemand: true } : undefined;
  }
  if (!t.credit_burst || d.size_gib > t.credit_burst.up_to_gib) return undefined;
  const row = diskTier(t, d.spec, d.size_gib);
  const iops = m === 'read_iops' || m === 'write_iops';
  const value = iops ? row?.burst_iops : row?.burst_mibps;
  const base = d.diskOnly[m];
  if (value === undefined || !(value > base + 1e-9)) return undefined;
  return { value, bucket: (value - base) * t.credit_burst.seconds, base, spend: value };
}

/** An I/O of `blockKib` counts as this many against a tiered disk's IOPS (Azure: ceil(size / 256 KiB)). */
export function ioUnits(d: DiskEval, blockKib: number): number {
  const unit = d.type.model === 'tiers' ? d.type.io_unit_kib : undefined;
  return unit && blockKib > unit ? Math.ceil(blockKib / unit - 1e-9) : 1;
}
