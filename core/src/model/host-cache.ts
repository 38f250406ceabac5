/**
 * A VM's host cache (Azure): a cache hit on a host-cached disk counts only against the machine's cached limit; a
 * miss and a write count against both it and the uncached path (the disk and the machine's uncached limit), and
 * the two limits add up (the catalog's `host_cache`).
 */
import type { Catalog, CachedLimitRow, Machine } from '../catalog';
import type { DiskSpec, WorkloadSpec } from '../document/types';
import { fmt } from '../units';
import { bound, type DiskEval, type Metric } from './types';

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
  const out = disks.map((d) => ({ ...d, figures: d.figures.copy() }));
  for (const k of ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'] as const) {
    const unit = k.endsWith('iops') ? 'IOPS' : 'MiB/s';
    const capTotal = row ? (k.endsWith('iops') ? row.iops : row.mibps) : Infinity;
    let freed = 0;
    for (const d of out) {
      if (!hostCached(d.spec) || !cacheable(d)) continue;
      const own = d.figures.bound(k);
      const lifted = onDisk > 0 ? own.value / onDisk : Infinity;
      const value = Math.min(lifted, capTotal / n);
      if (!Number.isFinite(value)) continue;
      // What the disk leaves unused of its share of the uncached path, for the workload's uncached disks.
      if (own.by === 'vm') freed += Math.max(0, own.value - value * onDisk);
      d.figures.setTo(
        k,
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
            ),
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
  const held = disks.filter((d) => !hostCached(d.spec) && d.figures.by(k) === 'vm' && d.diskOnly[k] > d.figures[k]);
  for (let i = 0; i < held.length && freed > 1e-9; i++) {
    const d = held[i];
    const was = d.figures.bound(k);
    const value = Math.min(d.diskOnly[k], was.value + freed / (held.length - i));
    freed -= value - was.value;
    const own = d.diskOnly.bound(k);
    d.figures.setTo(
      k,
      bound(
        value,
        value >= own.value ? own.by : 'vm',
        () => `${fmt(value)} ${unit}: the uncached limit the cached disks leave (${path}); ${was.why}`,
      ),
    );
  }
}

/** Host caching applies to the disk's type at its size (Azure: Premium SSD, Standard SSD and HDD under 4 TiB). */
export function cacheable(d: { type: { host_caching?: { below_gib: number } }; size_gib: number }): boolean {
  const hc = d.type.host_caching;
  return !!hc && d.size_gib < hc.below_gib;
}
