/**
 * What a workload reaches on its disks: at its own block size, read/write mix and queue depth.
 *
 * The total operation rate T is the largest that satisfies every constraint:
 *  - per-direction IOPS at this block size: reads up to the read limit, writes up to the write limit, and
 *    never more bytes than the throughput limits allow (Yandex: the documented harmonic formula instead);
 *  - how reads and writes share the disk: "shared" means the read and write fractions of the budget add up
 *    to at most 1 (Google's simultaneous read/write tables; Yandex's mixed formula), "independent" means
 *    each direction has its own limit;
 *  - Little's law: at most `queue_depth` × (IOPS per outstanding I/O) operations per second.
 * Spread over several disks, T is the sum of what each disk gives at the workload's mix, each by its own limits
 * and its own rule for reads and writes; the queue depth holds the sum.
 */
import type { Catalog } from '../catalog';
import type { WorkloadSpec } from '../document/types';
import { fmt, formatBlock } from '../units';
import { ioUnits } from './tiers';
import {
  bound,
  ExplainedBound,
  type Bound,
  type DiskEval,
  type LimitKind,
  upperBound,
  type Targets,
  type WorkloadBurst,
  type WorkloadEval,
} from './types';

interface Constraint {
  total: number;
  by: LimitKind;
  why: () => string;
  kind: 'iops' | 'bytes' | 'queue';
}

export function evaluateWorkload(c: Catalog, w: WorkloadSpec, disks: readonly DiskEval[]): WorkloadEval {
  const B = w.block_kib;
  const rho = w.read_ratio;
  let networkDisks = false;
  for (const d of disks) if (d.type.model !== 'devices') networkDisks = true;
  const binding = bindingOf(c, w, disks, networkDisks);
  const T = Math.max(0, binding.total);
  const read_iops = rho * T;
  const write_iops = (1 - rho) * T;
  const read_mibps = (read_iops * B) / 1024;
  const write_mibps = (write_iops * B) / 1024;

  const targets = w.target as Targets;
  const achieved = { iops: T, read_iops, write_iops, mibps: read_mibps + write_mibps, read_mibps, write_mibps };
  // The shortfalls' sentences are written when read (a search judges many candidates that miss): here, only
  // whether any target is missed and the headroom, as judgeTargets finds them.
  const judgedHeadroom = headroomOf(targets, achieved);
  const missed = anyMissed(targets, achieved);
  let headroom = judgedHeadroom;
  // Figures that are only upper bounds (./types upperBound: local SSD on fewer vCPUs than the provider measured
  // with, a per-VM limit the edition lacks, a limit shared with a disk of unknown size): a target missed even at
  // them is missed; one met only at them is not judged, since the VM may deliver less and by how much is unknown.
  let unreached: DiskEval['vcpusNeeded'];
  let ceiling: string | undefined;
  for (const d of disks) {
    unreached ??= d.vcpusNeeded;
    ceiling ??= upperBound(d);
  }
  const bounded = ceiling !== undefined;
  let meets = judgedHeadroom !== undefined ? !missed : undefined;
  let unreachedShortfall: DiskEval['vcpusNeeded']; // said among the shortfalls
  if (bounded && headroom !== undefined) {
    if (meets) meets = undefined;
    else if (unreached) unreachedShortfall = unreached;
    headroom = undefined;
  }
  // Small blocks: the IOPS limit binds long before the throughput limit, so a throughput target is out of reach.
  const wantsBytes = targets.mibps !== undefined || targets.read_mibps !== undefined || targets.write_mibps !== undefined;
  const smallBlocks = wantsBytes && missed && binding.kind === 'iops' && B < c.io.throughput_min_kib;
  const demand = demandIops(targets, rho, B) ?? T;
  const r = new WorkloadResult(w, c, B, rho, T, binding, smallBlocks ? achieved.mibps : undefined);
  r.disks = disks.map((d) => d.spec.name);
  r.read_iops = read_iops;
  r.write_iops = write_iops;
  r.read_mibps = read_mibps;
  r.write_mibps = write_mibps;
  r.limited_by = smallBlocks ? 'block_size' : binding.by;
  r.meets_target = meets;
  r.headroom = headroom;
  r.unreachedShortfall = unreachedShortfall;
  if (ceiling !== undefined) r.upperBound = ceiling;
  r.demand_iops = demand;
  r.cpu_vcpus_needed = networkDisks ? (rho * demand) / c.cpu.read_iops_per_vcpu + ((1 - rho) * demand) / c.cpu.write_iops_per_vcpu : 0;
  r.queue_depth_needed = {
    low: Math.max(1, Math.ceil(demand / c.queue.iops_per_outstanding_io.high)),
    high: Math.max(1, Math.ceil(demand / c.queue.iops_per_outstanding_io.low)),
  };
  return r;
}

/**
 * A workload's evaluation, its sentence built on first read from what it keeps (most evaluations are a search's
 * and never explained). A class with the getter on its prototype: an object literal with a getter is a
 * dictionary of about 1 KB, this about a fifth of it. Spreading one drops `why`: copy it with `workloadAt`.
 */
class WorkloadResult implements WorkloadEval {
  // Declared, not initialised: the evaluation sets each one (an initial [] or {} would be made only to be dropped).
  spec: WorkloadSpec;
  disks!: string[];
  read_iops!: number;
  write_iops!: number;
  read_mibps!: number;
  write_mibps!: number;
  limited_by!: LimitKind;
  meets_target?: boolean;
  headroom?: number;
  /** Said last among the shortfalls: a target missed on local SSD figures the machine's vCPUs do not reach. */
  unreachedShortfall?: { need: number; vcpus: number };
  demand_iops!: number;
  cpu_vcpus_needed!: number;
  queue_depth_needed!: { low: number; high: number };
  declare burst?: WorkloadBurst;
  declare upperBound?: string;
  private text?: string;
  private missedText?: string[];
  constructor(
    spec: WorkloadSpec,
    private readonly c: Catalog,
    private readonly B: number,
    private readonly rho: number,
    private readonly T: number,
    private readonly binding: Constraint,
    private readonly smallBlocksMibps: number | undefined,
  ) {
    this.spec = spec;
  }
  get why(): string {
    return (this.text ??= workloadWhy(this.c, this.B, this.rho, this.T, this.binding, this.smallBlocksMibps));
  }
  get shortfalls(): string[] {
    if (this.missedText) return this.missedText;
    const { read_iops, write_iops, read_mibps, write_mibps } = this;
    const achieved = { iops: this.T, read_iops, write_iops, mibps: read_mibps + write_mibps, read_mibps, write_mibps };
    const out = judgeTargets(this.spec.target as Targets, achieved).shortfalls;
    const u = this.unreachedShortfall;
    if (u) out.push(`its local SSD figures only with ${u.need} vCPUs (the machine has ${u.vcpus})`);
    return (this.missedText = out);
  }
  /** The fields a literal of the same evaluation would have, `why` among them. */
  toJSON() {
    const { spec, disks, read_iops, write_iops, read_mibps, write_mibps, limited_by, why, meets_target, headroom } = this;
    const { shortfalls, demand_iops, cpu_vcpus_needed, queue_depth_needed } = this;
    const burst = 'burst' in this ? { burst: this.burst } : {};
    return {
      ...{ spec, disks, read_iops, write_iops, read_mibps, write_mibps, limited_by, why, meets_target, headroom },
      ...{ shortfalls, demand_iops, cpu_vcpus_needed, queue_depth_needed, ...burst },
    };
  }
}

/** The same evaluation of a workload for another spec of the same content (a replica's). */
export function workloadAt(w: WorkloadEval, spec: WorkloadSpec): WorkloadEval {
  if (!(w instanceof WorkloadResult)) return { ...w, spec };
  const copy = Object.assign(Object.create(WorkloadResult.prototype) as WorkloadResult, w);
  copy.spec = spec;
  return copy;
}

/** "n IOPS at 4 KiB (70% reads): <the binding limit>", and why a throughput target is out of reach at small blocks. */
function workloadWhy(c: Catalog, B: number, rho: number, T: number, binding: Constraint, smallBlocksMibps: number | undefined): string {
  const blk = formatBlock(B);
  const base = `${fmt(T)} IOPS at ${blk} (${fmt(rho * 100)}% reads): ${binding.why()}`;
  if (smallBlocksMibps === undefined) return base;
  return `${base}; at ${blk} per I/O the IOPS limit caps throughput at ${fmt(smallBlocksMibps)} MiB/s (full throughput needs ${formatBlock(c.io.throughput_min_kib)} or larger I/O)`;
}

/**
 * The limit on the workload's total operation rate that binds. On one disk: the smallest of the disk's limits (the
 * first of equals). Spread over several: the sum of what each disk gives it at its mix, each disk's own limits and
 * its own rule for sharing reads and writes applied to its part. The queue depth then holds the whole workload.
 */
function bindingOf(c: Catalog, w: WorkloadSpec, disks: readonly DiskEval[], networkDisks: boolean): Binding | Spread {
  const least =
    disks.length === 1
      ? diskBinding(c, w, disks[0])
      : new Spread(
          disks.map((d) => diskBinding(c, w, d)),
          disks,
        );
  // The queue and CPU guidance is for network disks (milliseconds of latency); local SSDs answer far faster.
  if (w.queue_depth !== undefined && networkDisks) least.queue(w.queue_depth * c.queue.iops_per_outstanding_io.high);
  return least;
}

/**
 * Each limit of one disk on the workload's total operation rate, the least kept. Each is offered as it is found, its
 * sentence built on read: a list of every limit, each with its explanation, was most of what an evaluation allocated.
 */
function diskBinding(c: Catalog, w: WorkloadSpec, d: DiskEval): Binding {
  const f = d.figures;
  const B = w.block_kib;
  // Writes above the small-write size have their own IOPS column where the tables give one (gcp-2020: 16 KiB).
  const writeIopsLimit = B > c.io.write_iops_max_kib && f.write_iops_16k ? f.write_iops_16k : f.write_iops;
  const least = new Binding(c, w, d.type.mix.table);
  if (c.io.iops_formula === 'harmonic') {
    // Yandex: the per-direction formula already folds in bandwidth; reads and writes share one resource.
    least.shared(
      harmonicIops(f.read_iops, f.read_mibps, B, 'read'),
      harmonicIops(writeIopsLimit, f.write_mibps, B, 'write'),
      'iops',
      'disk',
    );
  } else {
    // An I/O above the type's counting unit counts as several against its IOPS (Azure: 256 KiB).
    const units = ioUnits(d, B);
    const ri = units > 1 ? perUnits(f.read_iops, units, B) : f.read_iops;
    const wi = units > 1 ? perUnits(writeIopsLimit, units, B) : writeIopsLimit;
    if (d.type.mix.iops === 'shared') least.shared(ri, wi, 'iops', 'iops');
    else least.independent(ri, wi, 'iops');
    const rb = bytesAsOps(f.read_mibps, B);
    const wb = bytesAsOps(f.write_mibps, B);
    if (d.type.mix.throughput === 'shared') least.shared(rb, wb, 'bytes', 'throughput');
    else least.independent(rb, wb, 'bytes');
  }
  return least;
}

/**
 * A workload spread over several disks: what each gives it, added up; the limit that binds is the largest part's
 * (or the queue depth, over the whole workload).
 */
class Spread implements Constraint {
  total: number;
  by: LimitKind;
  kind: Constraint['kind'];
  private queued = false;
  private readonly top: Binding;
  constructor(
    private readonly parts: Binding[],
    private readonly disks: readonly DiskEval[],
  ) {
    let sum = 0;
    let top = parts[0];
    for (const p of parts) {
      sum += Math.max(0, p.total);
      if (p.total > top.total) top = p;
    }
    this.total = sum;
    this.top = top;
    this.by = top.by;
    this.kind = top.kind;
  }
  queue(total: number): void {
    if (!(total < this.total)) return;
    this.total = total;
    this.by = 'queue_depth';
    this.kind = 'queue';
    this.queued = true;
  }
  why(): string {
    if (this.queued) return this.top.queueWhy();
    const each = this.parts.map((p, i) => `'${this.disks[i].spec.name}' ${fmt(Math.max(0, p.total))}`).join(' + ');
    return `sum over ${this.disks.length} disks, each at its own limits: ${each}; the largest part: ${this.top.why()}`;
  }
}

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
function headroomOf(targets: Targets, achieved: Record<keyof Targets, number>): number | undefined {
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
function anyMissed(targets: Targets, achieved: Record<keyof Targets, number>): boolean {
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

/** An IOPS limit when each operation counts as `units` of it. */
function perUnits(b: Bound, units: number, blockKib: number): Bound {
  return bound(b.value / units, b.by, () => `${b.why}; each ${formatBlock(blockKib)} I/O counts as ${units}`);
}

function bytesAsOps(b: Bound, blockKib: number): Bound {
  return new OpsOfBytes((b.value * 1024) / blockKib, b, blockKib);
}

/** A throughput limit as operations at one block size. */
class OpsOfBytes extends ExplainedBound {
  constructor(
    value: number,
    private readonly bytes: Bound,
    private readonly blockKib: number,
  ) {
    super(value, bytes.by);
  }
  protected explain(): string {
    const b = this.bytes;
    return `${fmt(b.value)} MiB/s ÷ ${formatBlock(this.blockKib)} = ${fmt(this.value)} IOPS; ${b.why}`;
  }
}

/** Yandex's documented actual-IOPS formula for one request size: 1 / (1/MaxIOPS + size/MaxBandwidth). */
export function harmonicIops(iops: Bound, mibps: Bound, blockKib: number, dir: string): Bound {
  const iopsTerm = 1 / iops.value;
  const bytesTerm = blockKib / 1024 / mibps.value;
  return new HarmonicBound(1 / (iopsTerm + bytesTerm), iops, mibps, iopsTerm >= bytesTerm, blockKib, dir);
}

class HarmonicBound extends ExplainedBound {
  constructor(
    value: number,
    private readonly iops: Bound,
    private readonly mibps: Bound,
    private readonly iopsBind: boolean,
    private readonly blockKib: number,
    private readonly dir: string,
  ) {
    super(value, iopsBind ? iops.by : mibps.by);
  }
  protected explain(): string {
    const blk = formatBlock(this.blockKib);
    return `${this.dir} IOPS at ${blk}: 1 / (1/${fmt(this.iops.value)} + ${blk} ÷ ${fmt(this.mibps.value)} MiB/s) = ${fmt(this.value)}; ${(this.iopsBind ? this.iops : this.mibps).why}`;
  }
}

/**
 * The least of the limits offered so far (the first of equals, as a reduce over a list of them kept it), with
 * what its sentence needs: the figure that binds (or the larger part of a shared limit) and which rule shares it.
 */
class Binding implements Constraint {
  total = NaN;
  by: LimitKind = 'size';
  kind: Constraint['kind'] = 'iops';
  private offered = false;
  /** The figure that binds, or the larger part of a limit reads and writes share. */
  private figure?: Bound;
  /** How reads and writes share it (none: one direction's own figure binds), or the queue depth. */
  private rule: 'none' | 'disk' | 'iops' | 'throughput' | 'queue' = 'none';
  private read?: Bound;
  private write?: Bound;
  constructor(
    private readonly c: Catalog,
    private readonly w: WorkloadSpec,
    private readonly table: string,
  ) {}
  private beats(total: number): boolean {
    return !this.offered || total < this.total;
  }
  private set(total: number, by: LimitKind, kind: Constraint['kind']): void {
    this.offered = true;
    this.total = total;
    this.by = by;
    this.kind = kind;
  }
  /** Reads and writes share one limit: the fractions of it they use add up to at most 1. */
  shared(r: Bound, w: Bound, kind: 'iops' | 'bytes', rule: 'disk' | 'iops' | 'throughput'): void {
    const rho = this.w.read_ratio;
    // A direction the workload does not use costs nothing, even where its figure is 0 (a share with nothing left).
    const rTerm = rho > 0 ? rho / r.value : 0;
    const wTerm = rho < 1 ? (1 - rho) / w.value : 0;
    const total = 1 / (rTerm + wTerm);
    if (!this.beats(total)) return;
    this.figure = rTerm >= wTerm ? r : w;
    this.set(total, this.figure.by, kind);
    this.rule = rho === 1 || rho === 0 ? 'none' : rule;
    this.read = r;
    this.write = w;
  }
  /** Each direction has its own limit. */
  independent(r: Bound, w: Bound, kind: 'iops' | 'bytes'): void {
    const rho = this.w.read_ratio;
    if (rho > 0) this.alone(r, r.value / rho, kind);
    if (rho < 1) this.alone(w, w.value / (1 - rho), kind);
  }
  private alone(b: Bound, total: number, kind: 'iops' | 'bytes'): void {
    if (!this.beats(total)) return;
    this.set(total, b.by, kind);
    this.figure = b;
    this.rule = 'none';
  }
  /** Little's law: at most the queue depth × the IOPS one outstanding I/O gives. */
  queue(total: number): void {
    if (!this.beats(total)) return;
    this.set(total, 'queue_depth', 'queue');
    this.rule = 'queue';
  }
  /** Little's law's sentence: the queue depth × the IOPS one outstanding I/O gives. */
  queueWhy(): string {
    const { c, w } = this;
    const per = c.queue.iops_per_outstanding_io.high;
    const qd = w.queue_depth!;
    return `queue depth ${qd} × at most ${per} IOPS per outstanding I/O = ${fmt(qd * per)} IOPS (Little's law; ${c.edition}: ${c.queue.table})`;
  }
  why(): string {
    const { c, w, rule } = this;
    const rho = w.read_ratio;
    if (rule === 'queue') return this.queueWhy();
    if (rule === 'none') return this.figure!.why;
    const shares =
      rule === 'disk'
        ? `reads and writes share the disk: 1 / (${fmt(rho)}/${fmt(this.read!.value)} + ${fmt(1 - rho)}/${fmt(this.write!.value)})`
        : `reads and writes share the ${rule === 'iops' ? 'IOPS' : 'throughput'} limit (${c.edition}: ${this.table})`;
    return `${shares}; the larger part: ${this.figure!.why}`;
  }
}
