/**
 * The limit that binds a workload's total operation rate on its disks (./workload): on one disk the least of its
 * limits at the workload's block size and mix, over several the sum of what each gives, the queue depth over the
 * whole workload. Each limit's sentence is built when read.
 */
import type { Catalog } from '../catalog';
import type { WorkloadSpec } from '../document/types';
import { fmt, formatBlock } from '../units';
import { ioUnits } from './tiers';
import { bound, ExplainedBound, type Bound, type DiskEval, type LimitKind } from './types';

/** A limit on the workload's total operation rate, its sentence built on read. */
export interface Constraint {
  total: number;
  by: LimitKind;
  why: () => string;
  kind: 'iops' | 'bytes' | 'queue';
}

/**
 * The limit on the workload's total operation rate that binds. On one disk: the smallest of the disk's limits (the
 * first of equals). Spread over several: the sum of what each disk gives it at its mix, each disk's own limits and
 * its own rule for sharing reads and writes applied to its part. The queue depth then holds the whole workload.
 */
export function bindingOf(c: Catalog, w: WorkloadSpec, disks: readonly DiskEval[], networkDisks: boolean): Binding | Spread {
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
  const B = w.block_kib;
  // The disk's figures as Bounds, each keeping its sentence for the limit's.
  const f = d.figures;
  const readIops = f.bound('read_iops');
  const readMibps = f.bound('read_mibps');
  const writeMibps = f.bound('write_mibps');
  // Writes above the small-write size have their own IOPS column where the tables give one (gcp-2020: 16 KiB).
  const writeIopsLimit = f.bound(B > c.io.write_iops_max_kib && f.write_iops_16k !== undefined ? 'write_iops_16k' : 'write_iops');
  const least = new Binding(c, w, d.type.mix.table);
  if (c.io.iops_formula === 'harmonic') {
    // Yandex: the per-direction formula already folds in bandwidth; reads and writes share one resource.
    least.shared(harmonicIops(readIops, readMibps, B, 'read'), harmonicIops(writeIopsLimit, writeMibps, B, 'write'), 'iops', 'disk');
  } else {
    // An I/O above the type's counting unit counts as several against its IOPS (Azure: 256 KiB).
    const units = ioUnits(d, B);
    const ri = units > 1 ? perUnits(readIops, units, B) : readIops;
    const wi = units > 1 ? perUnits(writeIopsLimit, units, B) : writeIopsLimit;
    if (d.type.mix.iops === 'shared') least.shared(ri, wi, 'iops', 'iops');
    else least.independent(ri, wi, 'iops');
    const rb = bytesAsOps(readMibps, B);
    const wb = bytesAsOps(writeMibps, B);
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
