/**
 * A workload's targets judged against what it reaches: which it misses (said once for figures that read alike), the
 * smallest headroom, and the total IOPS they ask for at its mix and block size.
 */
import { fmt } from '../units';
import type { Targets } from './types';

/** The shortfalls against each target and the smallest headroom (undefined without targets). */
export function judgeTargets(targets: Targets, achieved: Record<keyof Targets, number>): { shortfalls: string[]; headroom?: number } {
  // Shortfalls that read alike (read and write each 1,590 of 2,000,000 IOPS) are said once, for both.
  let alike: Map<string, string[]> | undefined; // made at the first shortfall: most judgements have none
  let headroom: number | undefined;
  // for-in: the targets in the order written, as Object.keys gives them, without an array of them.
  for (const key in targets) {
    const k = key as keyof Targets;
    const want = targets[k];
    if (want === undefined) continue;
    const got = achieved[k];
    const ratio = headroomAt(got, want);
    if (headroom === undefined || ratio < headroom) headroom = ratio;
    if (!missed(got, want)) continue;
    const unit = k.endsWith('iops') ? 'IOPS' : 'MiB/s';
    // Short of the target by less than the rounding shows: more digits, never "322 of 322".
    const shown = fmt(got) === fmt(want) ? fmt(got, 2) : fmt(got);
    const figure = `${shown} of ${fmt(want)} ${unit}`;
    alike ??= new Map();
    alike.set(figure, [...(alike.get(figure) ?? []), TARGET_LABEL[k].replace(` ${unit === 'IOPS' ? 'IOPS' : 'throughput'}`, '')]);
  }
  if (!alike) return { shortfalls: [], headroom };
  const shortfalls = [...alike].map(([figure, labels]) => {
    const what = figure.endsWith('IOPS') ? 'IOPS' : 'throughput';
    return labels.length === 1 ? `${labels[0]} ${what} ${figure}` : `${labels.join(' and ')} ${what} ${figure} each`;
  });
  return { shortfalls, headroom };
}

const TARGET_LABEL: Record<keyof Targets, string> = {
  iops: 'total IOPS',
  read_iops: 'read IOPS',
  write_iops: 'write IOPS',
  mibps: 'total throughput',
  read_mibps: 'read throughput',
  write_mibps: 'write throughput',
};

/** The smallest headroom over the targets, as judgeTargets gives it (undefined without targets). */
export function headroomOf(targets: Targets, achieved: Record<keyof Targets, number>): number | undefined {
  let headroom: number | undefined;
  for (const key in targets) {
    const k = key as keyof Targets;
    const want = targets[k];
    if (want === undefined) continue;
    const ratio = headroomAt(achieved[k], want);
    if (headroom === undefined || ratio < headroom) headroom = ratio;
  }
  return headroom;
}

/** A target is missed only by more than rounding error (1e-6): the one rule judgeTargets and anyMissed share. */
const missed = (got: number, want: number) => !(got + 1e-6 >= want);

/** The share above a target a figure reaches (0: just meets it; any figure exceeds a target of 0 without limit). */
const headroomAt = (got: number, want: number) => (want > 0 ? got / want - 1 : Infinity);

/** Whether judgeTargets finds a shortfall. */
export function anyMissed(targets: Targets, achieved: Record<keyof Targets, number>): boolean {
  for (const key in targets) {
    const k = key as keyof Targets;
    const want = targets[k];
    if (want !== undefined && missed(achieved[k], want)) return true;
  }
  return false;
}

/** The total IOPS a workload's targets ask for, at its mix and block size. */
export function demandIops(t: Targets, rho: number, blockKib: number): number | undefined {
  // The largest ask, kept as they come (no list of them, no closures: this runs for every workload of every
  // candidate a search tries). Math.max pairwise is Math.max of them all, NaN included.
  let most: number | undefined;
  if (t.iops !== undefined) most = larger(most, t.iops);
  if (t.read_iops !== undefined && rho > 0) most = larger(most, t.read_iops / rho);
  if (t.write_iops !== undefined && rho < 1) most = larger(most, t.write_iops / (1 - rho));
  if (t.mibps !== undefined) most = larger(most, (t.mibps * 1024) / blockKib);
  if (t.read_mibps !== undefined && rho > 0) most = larger(most, (t.read_mibps * 1024) / blockKib / rho);
  if (t.write_mibps !== undefined && rho < 1) most = larger(most, (t.write_mibps * 1024) / blockKib / (1 - rho));
  return most;
}

function larger(a: number | undefined, b: number): number {
  return a === undefined ? b : Math.max(a, b);
}
