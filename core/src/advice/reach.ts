/**
 * What a workload reaches on one disk whose figures are bounded from above: the most operations a second its mix
 * and block size get from the figures, by the type's rules for sharing them between reads and writes, and how
 * those compare with its targets. The bounds of ./rows (the machine's rows, the disk's own figures) are judged
 * here. Pure arithmetic on numbers: no catalog look-up but the type's rules and the catalog's I/O constants.
 */
import type { Catalog, DiskType, MixRule } from '../catalog';
import type { Target, WorkloadSpec } from '../document/types';
import type { DiskFigures, Metric } from '../model/types';

/**
 * Figures that bound a disk from above, as numbers: each direction's IOPS and throughput. Write IOPS are the column
 * the workload's block size reads (the small-write column above its size: `writeIopsOf`).
 */
export type Most = Record<Metric, number>;

/** A disk's figures as numbers, its write IOPS the column `w`'s block size reads (../model/workload-limits). */
export function writeIopsOf(c: Catalog, w: WorkloadSpec, f: DiskFigures): Most {
  const big = w.block_kib > c.io.write_iops_max_kib ? f.write_iops_16k : undefined;
  return {
    read_iops: f.read_iops,
    write_iops: big ?? f.write_iops,
    read_mibps: f.read_mibps,
    write_mibps: f.write_mibps,
  };
}

/** Whether reaching at most `most` misses one of the workload's targets (times `need`). */
export function missed(w: WorkloadSpec, most: Record<keyof Target, number>, need: number): boolean {
  // Missed by more than the model's rounding (1e-6) and this arithmetic's, and short by more than the slack with
  // which a search's aim reaches a target (./least `reaches`): the search would stop there too.
  return (Object.keys(most) as Array<keyof Target>).some((k) => {
    const want = w.target[k];
    return want !== undefined && most[k] * (1 + 1e-9) < want * need * (1 - 1e-6) - 1e-6;
  });
}

/** Each target's measure of a workload that runs `T` operations a second (undefined: none, or no bound on it). */
export function measuresOf(w: WorkloadSpec, T: number): Record<keyof Target, number> | undefined {
  if (!Number.isFinite(T)) return undefined;
  const rho = w.read_ratio;
  const B = w.block_kib;
  return {
    iops: T,
    read_iops: rho * T,
    write_iops: (1 - rho) * T,
    mibps: (T * B) / 1024,
    read_mibps: (rho * T * B) / 1024,
    write_mibps: ((1 - rho) * T * B) / 1024,
  };
}

/**
 * The most operations a second a workload reaches on one disk of type `t` whose figures are at most `f`, with reads
 * and writes sharing them by the type's rules as the model shares them (../model/workload-limits `diskBinding`: a
 * limit both directions share, each direction's own, Yandex's formula): a 50/50 mix on a shared IOPS limit reaches
 * the limit, not twice it. The workload's own queue depth holds it too, as the model holds a workload on a network
 * disk (Little's law), whatever the disk and the machine. Still a bound: each rule gives no more as a figure falls.
 * Left out, so that it stays one: an I/O that counts as several against a tier's IOPS (it only lowers them).
 * Undefined where the workload's mix or block size cannot be read.
 */
export function opsOnType(c: Catalog, t: DiskType, w: WorkloadSpec, f: Most): number | undefined {
  const rho = w.read_ratio;
  const B = w.block_kib;
  if (!(rho >= 0 && rho <= 1 && B > 0)) return undefined;
  const queued = w.queue_depth === undefined ? Infinity : w.queue_depth * c.queue.iops_per_outstanding_io.high;
  if (c.io.iops_formula === 'harmonic') {
    const one = (iops: number, mibps: number) => 1 / (1 / iops + B / 1024 / mibps);
    return Math.min(queued, mixed('shared', rho, one(f.read_iops, f.read_mibps), one(f.write_iops, f.write_mibps)));
  }
  const ops = (mibps: number) => (mibps * 1024) / B;
  const disk = Math.min(
    mixed(t.mix.iops, rho, f.read_iops, f.write_iops),
    mixed(t.mix.throughput, rho, ops(f.read_mibps), ops(f.write_mibps)),
  );
  return Math.min(queued, disk);
}

/** The most operations a second of a mix (`rho` reads) under read and write limits `r` and `w`, shared or each its own. */
function mixed(rule: MixRule, rho: number, r: number, w: number): number {
  if (rule === 'shared') return 1 / ((rho > 0 ? rho / r : 0) + (rho < 1 ? (1 - rho) / w : 0));
  return Math.min(rho > 0 ? r / rho : Infinity, rho < 1 ? w / (1 - rho) : Infinity);
}

/** How near `most` comes to a workload's targets (times `need`): the least of reached ÷ asked, to aim a search by. */
export function reachOf(w: WorkloadSpec, most: Record<keyof Target, number>, need: number): number {
  let least = Infinity;
  for (const k of Object.keys(most) as Array<keyof Target>) {
    const want = w.target[k];
    if (want !== undefined && want > 0) least = Math.min(least, most[k] / (want * need));
  }
  return least;
}
