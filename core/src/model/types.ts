import type { Catalog, DiskType, Machine, UnmodelledOn } from '../catalog';
import type { DiskSpec, Target, VmSpec, WorkloadSpec } from '../document/types';
import type { Bound, DiskFigures, FigureKey, FigureSource, LimitKind, Metric } from './figures';

// A figure's vocabulary lives with the record that holds a disk's figures (./figures); every module reads it here.
export { METRICS } from './figures';
export type { Bound, DiskFigures, FigureKey, FigureSource, LimitKind, Metric } from './figures';

/** A Bound that can explain a disk's figure too (./figures): its own sentence, whichever figure it is. */
export type SourcedBound = Bound & FigureSource;

/** A Bound whose explanation is built only when read: searches evaluate thousands of configurations. */
export function bound(value: number, by: LimitKind, why: () => string): SourcedBound {
  return new LazyBound(value, by, why);
}

// A class, not an object literal with a getter: instances stay small and fast to create.
/** An explanation built once, on first read, and then kept. */
abstract class LazyText {
  private text?: string;
  constructor(private explain: (() => string) | undefined) {}
  get why(): string {
    if (this.text === undefined) {
      this.text = this.explain!();
      this.explain = undefined;
    }
    return this.text;
  }
}

class LazyBound extends LazyText implements SourcedBound {
  constructor(
    readonly value: number,
    readonly by: LimitKind,
    explain: () => string,
  ) {
    super(explain);
  }
  explainFigure(): string {
    return this.why;
  }
  toJSON() {
    return { value: this.value, by: this.by, why: this.why };
  }
}

/**
 * A Bound whose sentence a subclass builds from the data it keeps, on first read: no closure per figure, for the
 * kinds of figure an evaluation makes many of and seldom explains.
 */
export abstract class ExplainedBound implements SourcedBound {
  // Assigned, not declared as class fields: a declared field is defined on each instance by an initializer that
  // the language server's bundle ran unoptimised, 4-6 % of lint's server (the kinds of figure made most).
  declare readonly value: number;
  declare readonly by: LimitKind;
  declare private text: string | undefined;
  constructor(value: number, by: LimitKind) {
    this.value = value;
    this.by = by;
    this.text = undefined;
  }
  protected abstract explain(): string;
  get why(): string {
    return (this.text ??= this.explain());
  }
  explainFigure(): string {
    return this.why;
  }
  toJSON() {
    return { value: this.value, by: this.by, why: this.why };
  }
}

/**
 * Sets a disk's figure `m` to a lower limit's. A disk starts with one record for its figures and `diskOnly` (most
 * disks keep their own figures: no copy of them); the first figure a limit sets gets `figures` its own.
 */
export function setFigure(d: DiskEval, m: FigureKey, b: SourcedBound): void {
  if (d.figures === d.diskOnly) d.figures = d.diskOnly.copy();
  d.figures.setTo(m, b);
}

/** A figure above the sustained one, and for how long it holds. */
export interface Burst {
  value: number;
  /** Seconds it holds at this level from a full bucket or a fresh window; Infinity for on-demand bursting. */
  seconds: number;
  /**
   * What ends it: the disk's credit bucket or the machine's window; `on-demand`: nothing (Azure's on-demand
   * bursting, billed per burst transaction, has no time limit).
   */
  ends: 'credits' | 'window' | 'on-demand';
  /** The machine's window, where the burst goes above what the machine sustains: above which level, for how long. */
  window?: { above: number; seconds: number };
}

export type DiskBursts = Partial<Record<Metric, Burst>>;

/** A workload's burst: its figures while its disks burst, and the shortest time they hold. */
export interface WorkloadBurst {
  read_iops: number;
  write_iops: number;
  read_mibps: number;
  write_mibps: number;
  seconds: number;
  ends: 'credits' | 'window' | 'on-demand';
}

/** A part of a price the catalog lacks. Each gap is one `price-unknown` finding, on the key it concerns. */
export interface PriceGap {
  /**
   * What is unpriced: a disk's capacity, its provisioned IOPS or throughput, its I/O requests (billed per million:
   * they depend on the workload), the machine, or (a template's) the instances a group runs whose number is not known.
   */
  part: 'capacity' | 'iops' | 'throughput' | 'requests' | 'machine' | 'instances';
  /** A short phrase: "IOPS price unknown in europe-west4". */
  text: string;
}

export interface Cost {
  /** The known part of the monthly price; undefined when no part of it is known. */
  monthly?: number;
  /** Every part is priced: only then is `monthly` the whole price (otherwise it is a lower bound). */
  complete: boolean;
  gaps: PriceGap[];
  /** How the price was composed, and what is missing or uncertain. */
  readonly why: string;
  /** Some price comes from a secondary source rather than the provider's own pages. */
  uncertain: boolean;
}

/**
 * A monthly price is money, so it is kept in cents from the start: a total is then exactly the sum of its parts
 * as every output shows them (two VMs at $72.10 make $144.20, never $144.19).
 */
export function toCents(monthly: number): number {
  return Math.round(monthly * 100) / 100;
}

export function cost(monthly: number | undefined, uncertain: boolean, why: () => string, gaps: PriceGap[] = []): Cost {
  return new LazyCost(monthly === undefined ? undefined : toCents(monthly), uncertain, why, gaps);
}

class LazyCost extends LazyText implements Cost {
  readonly complete: boolean;
  constructor(
    readonly monthly: number | undefined,
    readonly uncertain: boolean,
    explain: () => string,
    readonly gaps: PriceGap[],
  ) {
    super(explain);
    this.complete = gaps.length === 0 && monthly !== undefined;
  }
  toJSON() {
    return { monthly: this.monthly, complete: this.complete, uncertain: this.uncertain, why: this.why };
  }
}

/** The sum of several prices: the known parts added up, complete only when every one is. */
export function sumCosts(costs: Cost[]): { monthly?: number; complete: boolean } {
  // A loop, not filter/reduce/every: this prices every candidate a search tries. The same sum, in the same order.
  let sum = 0;
  let known = false;
  let complete = true;
  for (const x of costs) {
    if (x.monthly !== undefined) {
      sum += x.monthly;
      known = true;
    }
    if (!x.complete) complete = false;
  }
  return { monthly: known ? toCents(sum) : undefined, complete };
}

/** The distinct phrases of what several prices lack, for "at least $X (...)". */
export function gapTexts(costs: Cost[]): string[] {
  // Asked of every VM's prices, which mostly lack nothing: a loop, and a set only for a price that lacks something.
  let texts: Set<string> | undefined;
  for (const x of costs) for (const g of x.gaps) (texts ??= new Set()).add(g.text);
  return texts ? [...texts] : [];
}

/**
 * A disk's figure as anything may show or add it: undefined where the provider gives none (instance store's
 * throughput, held internally as no limit at all), never that placeholder.
 */
export function knownFigure(d: DiskEval, k: Metric): number | undefined {
  return d.throughputUnknown && (k === 'read_mibps' || k === 'write_mibps') ? undefined : d.figures[k];
}

/** Workloads of the spec the evaluation left out: on a disk without figures, or on a disk the VM does not have. */
export function workloadsLeftOut(e: Pick<VmEval, 'spec' | 'workloads'>): WorkloadSpec[] {
  const evaluated = new Set(e.workloads.map((w) => w.spec));
  return e.spec.workloads.filter((w) => !evaluated.has(w));
}

/** Every price of a VM: its machine's and its disks', those without figures included. */
export function vmCosts(e: {
  machine_cost: Cost;
  disks: Array<{ cost: Cost }>;
  unmodelled?: Array<{ cost: Cost }>;
  unevaluated?: Array<{ cost: Cost }>;
}): Cost[] {
  // One list of its final length (a push onto a short list makes room for 17).
  const out = new Array<Cost>(1 + e.disks.length + (e.unmodelled?.length ?? 0) + (e.unevaluated?.length ?? 0));
  let i = 0;
  out[i++] = e.machine_cost;
  for (const d of e.disks) out[i++] = d.cost;
  for (const d of e.unmodelled ?? []) out[i++] = d.cost;
  for (const d of e.unevaluated ?? []) out[i++] = d.cost;
  return out;
}

/** A disk of a type the edition does not model on this machine (catalog `unmodelled_on`): its price, and why no figures. */
export interface UnmodelledDisk {
  spec: DiskSpec;
  unmodelled: UnmodelledOn;
  cost: Cost;
}

/**
 * A disk the spec gives no usable type or size for (the finding on that value says what is wrong): listed
 * without figures, its price unknown, so that no total reads as complete without it.
 */
export interface UnevaluatedDisk {
  spec: DiskSpec;
  /** "disk 'data' has no valid size": also the phrase the totals name as what they lack. */
  why: string;
  cost: Cost;
}

export interface DiskEval {
  spec: DiskSpec;
  typeName: string;
  type: DiskType;
  /** The size performance is computed from (local SSD: devices × device size). */
  size_gib: number;
  figures: DiskFigures;
  /** Figures before per-VM limits and egress, for "the machine caps this disk" explanations. */
  diskOnly: DiskFigures;
  cost: Cost;
  /**
   * The names of the disks of this type on this VM that share one baseline, this one among them: one array for
   * them all (a list of the others per disk made a VM of N such disks hold N² names). Empty without a baseline.
   */
  baselineGroup: readonly string[];
  /**
   * False when the machine is unknown, or the catalog has no per-VM row for the disk's type on it: the
   * figures are then the disk's own, and the VM may deliver less. Local SSD counts as known (its table is
   * per VM already).
   */
  vmLimitKnown: boolean;
  /**
   * Why the disk has no throughput figure (AWS instance store: its IOPS are documented, its throughput is not); its
   * throughput figures are then unbounded placeholders that no workload is evaluated against.
   */
  throughputUnknown?: string;
  /** What the workloads' targets ask of each figure (none: no target on this disk); shared limits serve it first. */
  demand?: Partial<Record<Metric | 'write_iops_16k', number>>;
  /** Figures above the sustained ones that hold for a while (a credit bucket, a machine's window); absent: none. */
  burst?: DiskBursts;
  /**
   * The vCPUs the provider documents for reaching the figures (local SSD), when the machine has fewer: the
   * figures are then the table's, not reached on this machine, and targets on them are not met.
   */
  vcpusNeeded?: { need: number; why: string; machine: string; vcpus: number };
  /**
   * A disk without a valid size that one per-VM limit covers with this one: its share of the limit is unknown,
   * so this disk's figures (the limit as if it were this disk's and its peers' alone) are upper bounds.
   */
  sharesLimitWith?: string;
}

/**
 * Why the disk's figures are only upper bounds, in a few words shown beside them ("≤ 50,000 (VM limit unknown)");
 * undefined when they are what the VM delivers.
 */
export function upperBound(d: DiskEval): string | undefined {
  if (d.vcpusNeeded) return `needs ${d.vcpusNeeded.need} vCPUs`;
  if (d.sharesLimitWith) return `VM limit shared with '${d.sharesLimitWith}'`;
  if (!d.vmLimitKnown) return 'VM limit unknown';
  // A type whose figures the provider gives only as ranges: they are the top of each range.
  if (d.type.model === 'scaled' && d.type.figure_range) return d.type.figure_range.words;
  return undefined;
}

/**
 * A limit of the machine that several disks share (a type's per-VM row, a limit across types, network egress):
 * stated once for the VM, since each disk's figures are what it delivers while the others are idle. Recorded
 * where the disks' figures together exceed it.
 */
export interface SharedLimit {
  metric: Metric;
  /** 'vm': a per-VM limit of the machine; 'egress': its network egress, which disk writes cross. */
  by: 'vm' | 'egress';
  /** The limit, in `unit`. */
  value: number;
  /** "IOPS", "MiB/s", or "MiB/s of egress" (each disk's writes counted by its write multiplier). */
  unit: string;
  /** The disks under it whose figures together exceed it. */
  disks: string[];
  /** What the workloads' stated targets ask of it together (0: no target on these disks). */
  demand: number;
  /** Whether that demand is more than the limit: then the targets cannot all be met at once. */
  reached: boolean;
  /** The limit, its value and its table ("n2-standard-8 limit for pd-ssd: 15,000 IOPS (gcp-2024: ...)"). */
  readonly why: string;
}

export interface EgressInfo {
  cap_gbps: number;
  cap_mibps: number;
  other_mibps: number;
  /** Network MiB/s left for disk writes (before the write multiplier). */
  budget_mibps: number;
  multiplier: { zonal: number; regional: number };
  binds: boolean;
}

/** A workload's targets, in IOPS and MiB/s. */
export type Targets = Target;

export interface WorkloadEval {
  spec: WorkloadSpec;
  disks: string[];
  read_iops: number;
  write_iops: number;
  read_mibps: number;
  write_mibps: number;
  limited_by: LimitKind;
  why: string;
  meets_target?: boolean;
  /** achieved / target − 1 for the tightest target (negative: short of it). */
  headroom?: number;
  shortfalls: string[];
  /** Total IOPS the application must drive: its target, or what the disks allow. */
  demand_iops: number;
  cpu_vcpus_needed: number;
  queue_depth_needed: { low: number; high: number };
  /** What the workload reaches while its disks burst, and for how long; targets are judged without it. */
  burst?: WorkloadBurst;
  /**
   * Why its figures are only upper bounds (those of the first of its disks whose figures are, as they run with the
   * VM's other workloads: a limit shared with a busy disk of unknown size counts here); absent: they are delivered.
   */
  upperBound?: string;
}

export interface VmEval {
  spec: VmSpec;
  catalog: Catalog;
  /** Undefined exactly when `unavailable` says why. */
  machine?: Machine;
  /** Why this VM has no figures (its machine is unknown); its disks and workloads are then empty. */
  unavailable?: string;
  egress?: EgressInfo;
  /**
   * Each disk's figures: what it delivers on this machine while the VM's other disks are idle. The workloads are
   * judged together: they run at once, sharing the limits below.
   */
  disks: DiskEval[];
  /** The machine's limits that several disks share, each stated once (absent: none). */
  sharedLimits?: SharedLimit[];
  /** Disks of a type the edition does not model on this machine: priced, without figures (not in `disks`). */
  unmodelled?: UnmodelledDisk[];
  /** Disks without a type the edition knows or without a valid size: no figures, no price (not in `disks`). */
  unevaluated?: UnevaluatedDisk[];
  workloads: WorkloadEval[];
  /** What the machine costs a month (on demand). */
  machine_cost: Cost;
  /** Machine plus disks: the known part; the whole only when `monthly_cost_complete`. */
  monthly_cost?: number;
  monthly_cost_complete: boolean;
}
