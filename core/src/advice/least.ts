/**
 * The least whole value in a range at which a condition holds, where it holds of every value above once it
 * holds of one (performance never decreases as a disk grows or buys more): the searches of ./search and
 * ./provisioned. The figures are piecewise-linear in the value (per-GiB and per-unit rates up to caps), so the
 * value at which a workload's figures reach its target is computed from the figures of the values already
 * evaluated (in proportion to them, or along the line two of them lie on) rather than found by halving the
 * range: a candidate is evaluated, and its neighbour below, to confirm it is the least. Where a guess does not
 * land (a cap, a condition on other workloads), the range still shrinks as a bisection's would, and after a few
 * guesses the search bisects: the answer is the one a bisection gives, in a few evaluations instead of 15–20.
 */

import type { VmEval } from '../model/types';

/**
 * A condition on an evaluated VM that a search makes hold. One made by `condition` carries a key naming what it
 * asks of which parts ("workload oltp meets its target"), so that the size searches can be memoised: the same
 * condition on the same VM gives the same answer (unless `memo` is false: no other search will ask it). `ratio`
 * (with `need`, the ratio at which it holds) says how near an evaluated VM is to it, for the searches to aim
 * with; the condition itself alone decides. It reads sustained figures, targets and prices, never a burst: the size,
 * type and provisioning searches evaluate their candidates without bursts (../model/evaluate: `evaluateSustained`).
 */
export type Condition = ((e: VmEval) => boolean) & {
  readonly key?: string;
  readonly memo?: boolean;
  /**
   * Workloads whose targets it asks to be met (met, by each): where the catalog's rows show one of them surely short
   * with a disk type on a machine (./rows), a search passes over that type unevaluated.
   */
  readonly met?: readonly string[];
  readonly ratio?: (e: VmEval) => number | undefined;
  readonly need?: number;
  /**
   * Where the condition fails, whether it fails for a part that fails at every larger value of what is searched (a
   * workload on another disk, whose share of a limit the two disks pool only shrinks as the searched disk grows).
   */
  readonly lost?: (e: VmEval) => boolean;
};

export function condition(
  key: string,
  holds: (e: VmEval) => boolean,
  aim?: { ratio: (e: VmEval) => number | undefined; need: number },
  memo = true,
  met?: readonly string[],
  lost?: (e: VmEval) => boolean,
): Condition {
  return Object.assign(holds, {
    key,
    memo,
    ...(aim && { ratio: aim.ratio, need: aim.need }),
    ...(met && { met }),
    ...(lost && { lost }),
  });
}

/**
 * The workloads on a disk all meet their targets (or have none): a condition without a key (never memoised),
 * aimed by their ratios.
 */
export function diskWorkloadsMet(disk: string): Condition {
  const holds = (e: VmEval) => e.workloads.every((x) => !x.disks.includes(disk) || x.meets_target !== false);
  return Object.assign(holds, { ratio: (e: VmEval) => diskTargetRatio(e, disk), need: 1 });
}

/** The least ratio of achieved ÷ wanted over the named workloads' targets (1 + headroom); undefined when one has none. */
export function targetRatio(e: VmEval, names: readonly string[]): number | undefined {
  let least: number | undefined;
  for (const name of names) {
    const h = e.workloads.find((x) => x.spec.name === name)?.headroom;
    if (h === undefined) return undefined;
    if (least === undefined || 1 + h < least) least = 1 + h;
  }
  return least;
}

/** The least ratio of achieved ÷ wanted over the targets of the workloads on a disk (undefined: none judged). */
export function diskTargetRatio(e: VmEval, disk: string): number | undefined {
  let least: number | undefined;
  for (const w of e.workloads)
    if (w.disks.includes(disk) && w.headroom !== undefined && (least === undefined || 1 + w.headroom < least)) least = 1 + w.headroom;
  return least;
}

/** A value of `c` evaluated: whether it holds, and its ratio. */
export function probeOf(c: Condition, e: VmEval): Probe {
  const ok = c(e);
  const ratio = c.ratio?.(e);
  // Only where the figures are judged: at a value the type does not come in, the disk has no figures at all, and the
  // other disks' workloads are evaluated without it (they may miss there and meet at every value it comes in).
  return !ok && ratio !== undefined && c.lost?.(e) ? { ok, ratio, lost: true } : { ok, ratio };
}

/** What one evaluated value says: whether the condition holds, and how far the figures are from it. */
export interface Probe {
  ok: boolean;
  /**
   * The figures as a share of what the condition asks (the least of achieved ÷ wanted over the targets it
   * judges): 1 where they just meet it; undefined where the condition gives none.
   */
  ratio?: number;
  /** It fails for a part that fails at every larger value too (`Condition.lost`). */
  lost?: boolean;
}

/** Guesses after which the search only bisects: a guess that does not land twice running will not land. */
const GUESSES = 4;

/** Guesses along the line of values that hold, once those from below are spent: two (a search stays near a bisection's count). */
const OK_GUESSES = 2;

/** Figures this far above what is asked at a value that holds say the least is well below it. */
const NEAR = 1.01;

/**
 * The least whole value in [lo, hi] at which `probe` holds (undefined: none), with `need` the ratio that meets.
 * Where it holds at `hi`, it is taken to hold of every value above the least; where it does not, it may still
 * hold lower (`belowFailingTop`).
 */
export function leastValue(lo: number, hi: number, probe: (v: number) => Probe, need = 1): number | undefined {
  lo = Math.ceil(lo);
  hi = Math.floor(hi);
  if (hi < lo) return undefined;
  // The range's least first: where it holds it is the answer, in one evaluation. The searches start their ranges at
  // the least the disk's own figures allow (./rows), which is where most of those that find a value find it.
  const least = probe(lo);
  if (least.ok) return lo;
  if (lo === hi) return undefined;
  const top = probe(hi);
  return top.ok ? leastBelow(lo, hi, top, probe, need, least) : belowFailingTop(lo, hi, top, probe, need, least);
}

/** Off by at most this, a ratio reaches `need`: the conditions' own tests allow as much (a headroom's 1e-9). */
const RATIO_SLACK = 1e-9;

/** Whether the figures a probe aims by reach `need`; false where they are not judged (no ratio). */
export function reaches(p: Probe, need = 1): boolean {
  return p.ratio !== undefined && p.ratio >= need - RATIO_SLACK;
}

/**
 * The least value where the condition fails at `hi`. A disk's figures never fall as it grows or buys more, but
 * another disk's can (a limit they share split by what each gives or asks: AWS's per-instance limit, Google's
 * per-VM limit of a type), so a condition that another disk's workloads keep their targets can fail at the top
 * and hold lower. None where the figures it aims by fall short at the top, or are not judged there (they never
 * fall as the value grows). Else the range's least; else the least value at which the figures reach `need`
 * (nothing below it holds), and from there up, doubling the step, a value that holds, below which the least is
 * searched. Each value is evaluated once. A value that fails for a part that fails at every larger value
 * (`Probe.lost`) ends the search: none above it holds.
 */
function belowFailingTop(lo: number, hi: number, top: Probe, probe: (v: number) => Probe, need: number, least: Probe): number | undefined {
  if (lo >= hi || !reaches(top, need)) return undefined;
  const seen = new Map<number, Probe>([
    [hi, top],
    [lo, least],
  ]);
  const at = (v: number) => {
    let p = seen.get(v);
    if (!p) seen.set(v, (p = probe(v)));
    return p;
  };
  if (least.lost) return undefined;
  const first = leastValue(
    lo,
    hi,
    (v) => {
      const p = at(v);
      return { ok: p.ok || reaches(p, need), ratio: p.ratio };
    },
    need,
  );
  if (first === undefined) return undefined;
  let failAt = first - 1;
  for (let step = 1, v = first; v < hi; v = Math.min(hi, first + step), step *= 2) {
    const p = at(v);
    if (p.ok) return leastBelow(failAt + 1, v, p, at, need);
    // Failing for a part that fails at every larger value: the values still to try would fail too.
    if (p.lost) return undefined;
    failAt = v;
  }
  return undefined;
}

/**
 * The least value in [lo, hi] at which `probe` holds, where it holds at `hi` (`top`) and of every value above the least.
 * `least`: what `lo` gave, where it was probed already.
 */
function leastBelow(lo: number, hi: number, top: Probe, probe: (v: number) => Probe, need: number, least?: Probe): number {
  // Invariant: the condition holds at `okAt` and not at `failAt` (lo - 1 stands for "below the range").
  let okAt = hi;
  // The values that hold, highest first, where their figures are judged: a guess may aim by them too.
  const oks: Point[] = top.ratio !== undefined && Number.isFinite(top.ratio) ? [{ v: hi, ratio: top.ratio }] : [];
  let failAt = lo - 1;
  const fails: Point[] = [];
  let guesses = 0;
  let step = 0;
  let stepped = false;
  // The ratio of the last value evaluated, while it is the highest that fails.
  let nearRatio: number | undefined;
  // The range's least first: a condition that holds at both ends holds throughout (the searches for a cheaper
  // type at a given size mostly end there). Then guesses, each that holds followed by the value below it.
  let next: number | undefined = lo;
  let okGuesses = 0;
  while (failAt + 1 < okAt) {
    let v: number | undefined = next;
    let guessed = false;
    if (v === undefined || !(v > failAt && v < okAt)) {
      let g = guesses < GUESSES ? guess(fails, oks, need) : undefined;
      // A guess at or below a value that fails says the figures are not what fails: bisect from here on. With no
      // value short of the target yet, values that hold on a cap's flat top give none: bisect until they do.
      if (g !== undefined && g <= failAt) g = undefined;
      if (g !== undefined) guesses++;
      else if (fails.length) guesses = GUESSES;
      // Guesses from below spent (on a flat stretch: a disk's least baseline), the values a bisection found to hold
      // still aim, along their own line, a few times more.
      if (g === undefined && okGuesses < OK_GUESSES) {
        g = okLine(oks, need);
        if (g !== undefined && g <= failAt) g = undefined;
        if (g !== undefined) okGuesses++;
      }
      guessed = g !== undefined;
      // Values that fell just short, or figures that reach the target where the condition still fails (figures
      // that bend towards the target, as a share of a mix does; whole allocation units): the least is most
      // likely just above, so step up from there, doubling, before halving the range.
      if (!guessed && !step && !stepped && nearRatio !== undefined && nearRatio >= 0.9 * need) step = 1;
      v = g !== undefined ? Math.min(okAt - 1, g) : step && failAt + step < okAt ? failAt + step : Math.floor((failAt + okAt) / 2);
      if (!guessed && step) {
        stepped = true;
        step = failAt + step < okAt ? step * 2 : 0;
      }
    }
    next = undefined;
    // Only the first value tried can be `lo`: every later one is above a value that fails.
    const p = least && v === lo ? least : probe(v);
    if (p.ok) {
      okAt = v;
      if (p.ratio !== undefined && Number.isFinite(p.ratio)) oks.push({ v, ratio: p.ratio });
      step = 0;
      nearRatio = undefined;
      // A guess that holds with figures well above what is asked landed high: the line from the highest value that
      // fails to it aims closer than the value below it. One that holds near `need` is the least, or just above it.
      if (guessed && !(p.ratio !== undefined && Number.isFinite(p.ratio) && p.ratio > need * NEAR && fails.length)) next = v - 1;
    } else {
      failAt = v;
      nearRatio = p.ratio;
      // Figures that reach what is asked where the condition still fails: something else binds (another
      // workload's target), and the figures cannot aim the search. Figures not judged (a size below the type's
      // least) say nothing either way.
      if (p.ratio === undefined) continue;
      if (!Number.isFinite(p.ratio) || p.ratio >= need) guesses = GUESSES;
      else fails.push({ v, ratio: p.ratio });
    }
  }
  return okAt;
}

interface Point {
  v: number;
  ratio: number;
}

/** In proportion to a value that falls short: where the figures grow with the value from nothing. */
function proportional(b: Point, need: number): number | undefined {
  return b.ratio > 0 && b.v > 0 ? Math.ceil((b.v * need) / b.ratio - 1e-9) : undefined;
}

/**
 * Along the line through the two lowest values that hold, where they lie on one that falls towards the target (not
 * a cap's flat top): where values short of it say nothing (none yet, or a flat stretch of them).
 */
function okLine(oks: Point[], need: number): number | undefined {
  const k = oks.length;
  if (k < 2) return undefined;
  const [a, b] = [oks[k - 1], oks[k - 2]];
  return b.ratio > a.ratio + 1e-9 ? along(a, b, need) : undefined;
}

/** The least whole value at which the line through `p` and `q` (of different ratios) reaches `need`. */
function along(p: Point, q: Point, need: number): number {
  return Math.ceil(p.v + ((need - p.ratio) * (q.v - p.v)) / (q.ratio - p.ratio) - 1e-9);
}

/**
 * The least whole value at which the figures reach `need`, from the values that fall short: along the line
 * through the two highest (a linear piece of the figures); where those two are equal (a flat stretch), along the
 * line of the two lowest that hold; else in proportion to the highest. Where that lands
 * at or above the least value known to hold, along the line from the highest short of it to that value (the
 * caller then tries the value just below, which confirms the least).
 */
function guess(fails: Point[], oks: Point[], need: number): number | undefined {
  const n = fails.length;
  const k = oks.length;
  if (!n) return okLine(oks, need);
  const ok = k ? oks[k - 1] : undefined;
  const b = fails[n - 1];
  let g: number | undefined;
  if (n >= 2 && b.ratio > fails[n - 2].ratio) {
    g = along(b, fails[n - 2], need);
  } else if (n >= 2) g = okLine(oks, need) ?? proportional(b, need);
  else g = proportional(b, need);
  // Not to a value on a cap's flat top (the two lowest that hold give the same figures): the figures reach the cap
  // somewhere below it, and a line to it aims too high.
  const flat = k >= 2 && Math.abs(oks[k - 2].ratio - oks[k - 1].ratio) <= 1e-9;
  if (ok && !flat && (g === undefined || g >= ok.v) && ok.ratio > b.ratio) g = along(b, ok, need);
  return g;
}
