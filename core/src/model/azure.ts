/**
 * Disks sold in fixed-size tiers (Azure Premium SSD, Standard SSD, Standard HDD) and a VM's host cache.
 *
 * A tier's figures: the size rounded up to the next tier, or a performance tier set above it, or the tier's
 * performance-plus figures; its price is the tier's. A cache hit on a host-cached disk counts only against the
 * machine's cached limit; a miss and a write count against both it and the uncached path (the disk and the
 * machine's uncached limit), and the two limits add up (the catalog's `host_cache`).
 */
import type { Catalog, CachedLimitRow, Machine, TierRow, TieredDiskType } from '../catalog';
import type { DiskSpec, WorkloadSpec } from '../document/types';
import { fmt, fmtMoney } from '../units';
import { bound, cost, type Bound, type Cost, type DiskEval, type DiskFigures, type Metric } from './types';

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
  const src = `(${c.edition}: ${t.tiers.table})`;
  const io: Bound = bound(iops, 'size', () => `${what}: ${fmt(iops)} IOPS, reads and writes together ${src}`);
  const mb: Bound = bound(mibps, 'size', () => `${what}: ${fmt(mibps)} MiB/s, reads and writes together ${src}`);
  return { read_iops: io, write_iops: io, read_mibps: mb, write_mibps: mb };
}

/** A tiered disk's monthly price: its tier's, in the region; unknown (a gap, never $0) where the catalog has none. */
export function tierCost(c: Catalog, t: TieredDiskType, d: DiskSpec, size: number, region: string): Cost {
  const row = diskTier(t, d, size);
  const p = t.price;
  if (d.redundancy === 'zrs') {
    // The edition's prices are of locally redundant disks; a zone-redundant one costs more, by an amount not sourced.
    const text = `${d.type} ${row?.name ?? ''} ZRS price unknown`.replace('  ', ' ');
    return cost(undefined, false, () => `${c.edition} has no zone-redundant (ZRS) disk prices`, [{ part: 'capacity', text }]);
  }
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
    const base = d.diskOnly[m].value;
    return value > base + 1e-9 ? { value, bucket: Infinity, base, spend: value, onDemand: true } : undefined;
  }
  if (!t.credit_burst || d.size_gib > t.credit_burst.up_to_gib) return undefined;
  const row = diskTier(t, d.spec, d.size_gib);
  const iops = m === 'read_iops' || m === 'write_iops';
  const value = iops ? row?.burst_iops : row?.burst_mibps;
  const base = d.diskOnly[m].value;
  if (value === undefined || !(value > base + 1e-9)) return undefined;
  return { value, bucket: (value - base) * t.credit_burst.seconds, base, spend: value };
}

/** An I/O of `blockKib` counts as this many against a tiered disk's IOPS (Azure: ceil(size / 256 KiB)). */
export function ioUnits(d: DiskEval, blockKib: number): number {
  const unit = d.type.model === 'tiers' ? d.type.io_unit_kib : undefined;
  return unit && blockKib > unit ? Math.ceil(blockKib / unit - 1e-9) : 1;
}

/** The machine's cached limit row; undefined when its series publishes none. */
export function cachedLimit(m: Machine): CachedLimitRow | undefined {
  return m.info.cached_limits?.rows.find((r) => r.machine_types.includes(m.name));
}

/** Whether a disk is host-cached as the spec asks (caching other than none). */
export function hostCached(d: DiskSpec): boolean {
  return d.caching === 'read-only' || d.caching === 'read-write';
}

/**
 * The disks as a workload sees them through the host cache: on a host-cached disk its reads that hit the cache
 * leave the uncached path (the disk and the machine's uncached limit), which then carries only the misses and the
 * writes, so the disk's figures for this workload are its uncached ones over that share; everything the workload
 * does on the cached disks counts against the machine's cached limit, split evenly among them. The two paths add
 * up. Undefined when no disk of the workload is cached or no hit ratio is given.
 */
export function cacheViews(c: Catalog, m: Machine, w: WorkloadSpec, disks: readonly DiskEval[]): DiskEval[] | undefined {
  const h = w.cache_hit_ratio ?? 0;
  const hc = c.host_cache;
  if (!hc || h <= 0 || m.info.host_caching?.supported === false) return undefined;
  const n = disks.filter((d) => hostCached(d.spec) && cacheable(d)).length;
  if (!n) return undefined;
  // Of every operation, the share the uncached path still sees: the misses of reads and every write.
  const onDisk = w.read_ratio * (1 - h) + (1 - w.read_ratio);
  const row = cachedLimit(m);
  const table = m.info.cached_limits?.table;
  const path = `host cache at a ${fmt(h * 100)} % hit ratio: hits count only against the cached limit, misses and writes against both (${c.edition}: ${hc.table})`;
  const out = disks.map((d) => ({ ...d, figures: { ...d.figures } }));
  for (const k of ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'] as const) {
    const unit = k.endsWith('iops') ? 'IOPS' : 'MiB/s';
    const capTotal = row ? (k.endsWith('iops') ? row.iops : row.mibps) : Infinity;
    let freed = 0;
    for (const d of out) {
      if (!hostCached(d.spec) || !cacheable(d)) continue;
      const own = d.figures[k];
      const lifted = onDisk > 0 ? own.value / onDisk : Infinity;
      const value = Math.min(lifted, capTotal / n);
      if (!Number.isFinite(value)) continue;
      // What the disk leaves unused of its share of the uncached path, for the workload's uncached disks.
      if (own.by === 'vm') freed += Math.max(0, own.value - value * onDisk);
      d.figures[k] =
        lifted <= capTotal / n
          ? bound(
              value,
              own.by,
              () =>
                `${fmt(own.value)} ${unit} on the uncached path carries ${fmt(onDisk * 100)} % of the operations, so ${fmt(value)} ${unit} in all; ${path}; ${own.why}`,
            )
          : bound(
              value,
              'vm',
              () =>
                `${m.name} cached limit ${fmt(capTotal)} ${unit}${n > 1 ? `, split among ${n} cached disks` : ''} (${c.edition}: ${table}); ${path}`,
            );
    }
    giveUncached(out, k, freed, unit, path);
  }
  return out;
}

/**
 * Of what a workload asks of a disk's figure, the share its uncached path carries (the disk and the machine's
 * uncached limit): 1 but on a host-cached disk with a hit ratio, where the hits leave it. Of a figure reads and
 * writes share, the misses and the writes, r(1−h) + (1−r), as of the operations; of reads alone, the misses (1−h).
 */
export function uncachedShare(c: Catalog, m: Machine | undefined, w: WorkloadSpec, d: DiskEval, metric: string): number {
  const h = w.cache_hit_ratio ?? 0;
  if (!m || !c.host_cache || h <= 0 || m.info.host_caching?.supported === false || !hostCached(d.spec) || !cacheable(d)) return 1;
  const bytes = metric.endsWith('mibps');
  if (d.type.mix[bytes ? 'throughput' : 'iops'] === 'shared') return w.read_ratio * (1 - h) + (1 - w.read_ratio);
  return metric.startsWith('read') ? 1 - h : 1;
}

/** The uncached disks that a shared uncached limit holds get what the cached disks leave of it, up to their own figures. */
function giveUncached(disks: DiskEval[], k: Metric, freed: number, unit: string, path: string): void {
  const held = disks.filter((d) => !hostCached(d.spec) && d.figures[k].by === 'vm' && d.diskOnly[k].value > d.figures[k].value);
  for (let i = 0; i < held.length && freed > 1e-9; i++) {
    const d = held[i];
    const was = d.figures[k];
    const value = Math.min(d.diskOnly[k].value, was.value + freed / (held.length - i));
    freed -= value - was.value;
    const own = d.diskOnly[k];
    d.figures[k] = bound(
      value,
      value >= own.value ? own.by : 'vm',
      () => `${fmt(value)} ${unit}: the uncached limit the cached disks leave (${path}); ${was.why}`,
    );
  }
}

/** Host caching applies to the disk's type at its size (Azure: Premium SSD, Standard SSD and HDD under 4 TiB). */
export function cacheable(d: { type: { host_caching?: { below_gib: number } }; size_gib: number }): boolean {
  const hc = d.type.host_caching;
  return !!hc && d.size_gib < hc.below_gib;
}

const withControllers = new WeakMap<Machine, Map<string, Machine>>();
/**
 * The machine with the disk controller whose limits apply (Azure Ebsv5: NVMe and SCSI differ): the spec's, where the
 * size offers it, else the size's own (NVMe for the sizes offered with NVMe only, else the series' default).
 */
export function withController(m: Machine, asked: 'scsi' | 'nvme' | undefined): Machine {
  const ctl = m.info.controllers;
  if (!ctl) return m;
  const own = ctl.nvme_only?.includes(m.name) ? 'nvme' : ctl.default;
  const controller = asked && ctl.offered.includes(asked) && !ctl.nvme_only?.includes(m.name) ? asked : own;
  if (controller === m.controller) return m;
  let byController = withControllers.get(m);
  if (!byController) withControllers.set(m, (byController = new Map()));
  let out = byController.get(controller);
  if (!out) byController.set(controller, (out = { ...m, controller }));
  return out;
}
