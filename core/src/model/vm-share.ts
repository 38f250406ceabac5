/**
 * How disks under one per-VM limit (a type's row, Google's limit across persistent disk types, AWS's per-instance
 * limit, network egress) are held to it. Two questions, two answers:
 *  - a disk's figures are what it delivers while the VM's other disks are idle: each disk alone is held to the
 *    limit (`capAlone`), and the limit, where the disks' figures add up to more than it, is stated once for the VM
 *    (`SharedLimit`), never split among disks that nobody uses;
 *  - the workloads are judged together: the disks that carry them share the limit (`capTogether`), what the
 *    workloads' targets ask of each disk first (up to what the disk gives alone), the rest in proportion to what
 *    each could do beyond that. The shares add up to the limit, never more.
 */
import type { Catalog, Machine } from '../catalog';
import type { VmSpec, WorkloadSpec } from '../document/types';
import { fmt } from '../units';
import { ExplainedBound, METRICS, setFigure, type DiskEval, type LimitKind, type Metric, type SharedLimit } from './types';
import { demandIops } from './targets';
import { disksOfName } from './lookups';
import { uncachedShare } from './host-cache';

export type ShareMetric = Metric | 'write_iops_16k';
export const SHARE_METRICS: readonly ShareMetric[] = [...METRICS, 'write_iops_16k'];

/** The unit a figure (or a limit on it) is counted in. */
export function unitOf(m: ShareMetric): 'IOPS' | 'MiB/s' {
  return m.endsWith('mibps') ? 'MiB/s' : 'IOPS';
}

/** What the workloads' targets ask of a disk, per figure; a figure no target asks for is absent. */
export type DiskDemand = Partial<Record<ShareMetric, number>>;

/**
 * What each disk's figures must be for its workloads to reach their targets. A workload spread over several
 * disks asks each in proportion to what it gives alone; workloads on one disk add up (they are taken to run at
 * once, as the disks are). Where a type shares a resource between reads and writes, a workload asks its whole
 * rate of both figures (ρT/R + (1−ρ)T/W ≤ 1 holds at R = W = T); where each direction has its own, its part.
 * Set as each disk's `demand` (left absent on a disk no target asks anything of), which the shares then read.
 */
export function setWorkloadDemands(c: Catalog, vm: VmSpec, disks: DiskEval[], machine?: Machine): void {
  // The disks of each name, gathered once, and only when a workload with a target names one: a scan of them per
  // workload was quadratic on a VM of many of both. Loops, not map/reduce: this runs for every candidate.
  for (const w of vm.workloads) {
    const total = demandIops(w.target, w.read_ratio, w.block_kib);
    if (total === undefined || !(total > 0)) continue;
    const on = w.disk === undefined ? disks : disksOfName(disks, w.disk);
    if (!on.length) continue;
    for (const m of SHARE_METRICS) {
      const want = askOf(c, w, on[0], m, total);
      if (!want) continue;
      let sum = 0;
      for (const d of on) sum += figureOf(d, m);
      for (const d of on) {
        // A host cache's hits ask nothing of the uncached path (./azure).
        const part = (on.length === 1 ? want : sum > 0 ? (want * figureOf(d, m)) / sum : 0) * uncachedShare(c, machine, w, d, m);
        let dd = d.demand;
        if (!dd) d.demand = dd = noDemand();
        dd[m] = (dd[m] ?? 0) + part;
      }
    }
  }
}

/**
 * A disk's demand before any workload asks: every figure present, none asked. Each figure a workload asks is then
 * set on an object of one shape (keys added in the order asked made an object of one of many shapes, each a slow
 * store).
 */
function noDemand(): DiskDemand {
  return { read_iops: undefined, write_iops: undefined, read_mibps: undefined, write_mibps: undefined, write_iops_16k: undefined };
}

function figureOf(d: DiskEval, m: ShareMetric): number {
  return d.figures[m] ?? (m === 'write_iops_16k' ? d.figures.write_iops : 0);
}

/** What a workload at `total` IOPS asks of one figure of its disks. */
function askOf(c: Catalog, w: WorkloadSpec, d: DiskEval, m: ShareMetric, total: number): number {
  const rho = w.read_ratio;
  const bytes = m === 'read_mibps' || m === 'write_mibps';
  // The small-write column counts only writes above the tables' small-write size.
  if (m === 'write_iops_16k' && w.block_kib <= c.io.write_iops_max_kib) return 0;
  if (m === 'write_iops' && w.block_kib > c.io.write_iops_max_kib && d.figures.write_iops_16k !== undefined) return 0;
  const shared = d.type.mix[bytes ? 'throughput' : 'iops'] === 'shared';
  const part = shared ? 1 : m.startsWith('read') ? rho : 1 - rho;
  const ops = total * part;
  return bytes ? (ops * w.block_kib) / 1024 : ops;
}

export interface Shares {
  values: number[];
  /** Why each disk got its share, without the limit itself ("3,000 for its workloads' targets ..."). */
  why: (i: number, unit: string) => string;
}

/**
 * The cap shared by disks that could do `alone` each and whose workloads ask `asked` each (0: no target).
 * Demand first, each disk's up to what it does alone; the rest in proportion to what each could do beyond it.
 */
export function shareCap(cap: number, alone: number[], asked: number[]): Shares {
  return new Split(
    cap,
    alone,
    alone.map((a, i) => Math.min(a, asked[i] ?? 0)),
  );
}

/** A cap shared out, with why each disk got its share built on read (a class: no closure per cap that binds). */
class Split implements Shares {
  readonly values: number[];
  private readonly wanted: number;
  private readonly left: number;
  /** No target asks anything; targets ask the whole cap or more; they ask less, and the rest is shared. */
  private readonly mode: 'alone' | 'demand' | 'rest';
  constructor(
    cap: number,
    alone: number[],
    private readonly demand: number[],
  ) {
    let wanted = 0;
    for (const x of demand) wanted += x;
    this.wanted = wanted;
    this.left = cap - wanted;
    this.mode = wanted <= 0 ? 'alone' : wanted >= cap ? 'demand' : 'rest';
    if (wanted <= 0) {
      let total = 0;
      for (const a of alone) total += a;
      this.values = alone.map((a) => (total > 0 ? (a * cap) / total : 0));
    } else if (wanted >= cap) {
      this.values = demand.map((x) => (x * cap) / wanted);
    } else {
      let roomTotal = 0;
      for (let i = 0; i < alone.length; i++) roomTotal += alone[i] - demand[i];
      const left = this.left;
      this.values = demand.map((x, i) => x + (roomTotal > 0 ? (left * (alone[i] - demand[i])) / roomTotal : 0));
    }
  }
  why(i: number, unit: string): string {
    const { demand, wanted, values, left, mode } = this;
    if (mode === 'alone')
      return demand.length > 1
        ? ' in proportion to what each could do alone, as if all were busy at once (no workload target on them says otherwise)'
        : '';
    if (demand.length === 1) return '';
    if (mode === 'demand')
      return demand[i] > 0
        ? ` in proportion to what their workloads' targets ask (${fmt(wanted)} ${unit} in all; this disk's: ${fmt(demand[i])})`
        : `; their workloads' targets ask ${fmt(wanted)} ${unit} in all, which leaves nothing to this disk, whose workloads have none`;
    return `: ${fmt(demand[i])} ${unit} for ${demand[i] > 0 ? "its workloads' targets" : 'targets (its workloads have none)'}, then ${fmt(values[i] - demand[i])} of the ${fmt(left)} left after all targets, in proportion to what each disk could do beyond its own`;
  }
}

/**
 * Holds the disks' figure `m` to `cap` together, each disk to its share (`shareCap`, with the demands of its
 * workloads' targets), and explains each capped figure with `why(disk, value, shareWhy)`. `weight` is what one unit
 * of the figure counts against the cap (network egress counts a write by its replication). A disk whose share
 * is all it does alone keeps its own limit as the one that binds. True when the cap binds.
 */
export function capTogether(
  members: DiskEval[],
  m: ShareMetric,
  cap: number,
  by: LimitKind,
  why: (d: DiskEval, value: number, shareWhy: (unit: string) => string) => string,
  weight?: (d: DiskEval) => number,
): boolean {
  if (!exceeds(members, m, cap, weight)) return false;
  // A cap binds about 25 times per VM a search evaluates: one pass over the disks (a filter and three maps were).
  // Lists of their final length (a push onto an empty list reserves room for 17).
  let n = 0;
  for (const d of members) if (d.figures[m] !== undefined) n++;
  const capped = n === members.length ? members : members.filter((d) => d.figures[m] !== undefined);
  const alone = new Array<number>(n);
  const demand = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const d = capped[i];
    const k = weight ? weight(d) : 1;
    alone[i] = d.figures[m]! * k;
    demand[i] = Math.min(alone[i], (d.demand?.[m] ?? 0) * k);
  }
  const shares = new Split(cap, alone, demand);
  for (let i = 0; i < capped.length; i++) {
    const d = capped[i];
    if (shares.values[i] >= alone[i] - 1e-9) continue;
    setFigure(d, m, new ShareBound(shares.values[i] / (weight ? weight(d) : 1), by, d, i, shares, why));
  }
  return true;
}

/** A disk's share of a cap, explained on read (no closure per disk). */
class ShareBound extends ExplainedBound {
  constructor(
    value: number,
    by: LimitKind,
    private readonly d: DiskEval,
    private readonly i: number,
    private readonly shares: Shares,
    private readonly whyOf: (d: DiskEval, value: number, shareWhy: (unit: string) => string) => string,
  ) {
    super(value, by);
  }
  protected explain(): string {
    return this.whyOf(this.d, this.value, (unit) => this.shares.why(this.i, unit));
  }
}

/**
 * Whether the disks' figure `m` (each times its weight) adds up to more than `cap`: the test every per-VM limit
 * makes first, and that most do not pass. Without arrays or closures, so that a caller can make its sentence's
 * parts only for a cap that binds.
 */
export function exceeds(members: DiskEval[], m: ShareMetric, cap: number, weight?: (d: DiskEval) => number): boolean {
  let sum = 0;
  for (const d of members) {
    const f = d.figures[m];
    if (f !== undefined) sum += f * (weight ? weight(d) : 1);
  }
  return !(sum <= cap + 1e-9); // as the share's own test reads it, NaN included
}

/**
 * How a limit is applied in one pass over a VM's disks: to each disk alone, recording in `shared` the limits that
 * several disks' figures exceed together; or shared among the disks that carry the workloads, which run at once.
 */
export type LimitMode = { alone: true; shared: SharedLimit[] } | { alone: false };

/** What a limit's sentence needs: its name and source, without any share ("n2-standard-8 limit for pd-ssd ... (table)"). */
export interface LimitText {
  /** The limit and its value, with the table it comes from. */
  limit: () => string;
  /** The unit the limit is counted in ("IOPS", "MiB/s", "MiB/s of egress"). */
  unit: string;
  /** Why a disk alone is held to it, where that sentence is not the limit's own (egress: the disk's multiplier). */
  alone?: (d: DiskEval, value: number) => string;
}

/**
 * Holds each disk alone to `cap` (what one unit of its figure counts against the cap: `weight`), and states the
 * cap once in `shared` where two or more disks' figures exceed it together. True when the cap binds a disk alone.
 */
export function capAlone(
  shared: SharedLimit[],
  members: DiskEval[],
  m: ShareMetric,
  cap: number,
  by: 'vm' | 'egress',
  text: LimitText,
  weight?: (d: DiskEval) => number,
): boolean {
  if (!exceeds(members, m, cap, weight)) return false;
  let n = 0;
  let asked = 0;
  for (const d of members) {
    const f = d.figures[m];
    if (f === undefined) continue;
    n++;
    asked += Math.min(f, d.demand?.[m] ?? 0) * (weight ? weight(d) : 1);
  }
  // The names only for a limit that is stated (a disk alone over it is the common case).
  if (n > 1 && m !== 'write_iops_16k') {
    const names = new Array<string>(n);
    let i = 0;
    for (const d of members) if (d.figures[m] !== undefined) names[i++] = d.spec.name;
    shared.push(new StatedLimit(m, by, cap, text, names, asked));
  }
  let binds = false;
  for (const d of members) {
    const f = d.figures[m];
    if (f === undefined) continue;
    const value = cap / (weight ? weight(d) : 1);
    if (f <= value + 1e-9) continue;
    binds = true;
    setFigure(d, m, new AloneBound(value, by, d, text));
  }
  return binds;
}

/** A disk alone held to a limit, explained on read (no closure per disk). */
class AloneBound extends ExplainedBound {
  constructor(
    value: number,
    by: LimitKind,
    private readonly d: DiskEval,
    private readonly limit: LimitText,
  ) {
    super(value, by);
  }
  protected explain(): string {
    const t = this.limit;
    return t.alone ? t.alone(this.d, this.value) : t.limit();
  }
}

/** A limit several disks share, stated once; its sentence built on read. */
class StatedLimit implements SharedLimit {
  readonly reached: boolean;
  private text?: string;
  constructor(
    readonly metric: Metric,
    readonly by: 'vm' | 'egress',
    readonly value: number,
    private readonly limitText: LimitText,
    readonly disks: string[],
    readonly demand: number,
  ) {
    this.reached = demand > value + 1e-9;
  }
  get unit(): string {
    return this.limitText.unit;
  }
  get why(): string {
    return (this.text ??= this.limitText.limit());
  }
  toJSON() {
    const { metric, by, value, unit, disks, demand, reached, why } = this;
    return { metric, by, value, unit, disks, demand, reached, why };
  }
}
