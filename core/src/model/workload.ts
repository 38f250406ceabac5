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
 * and its own rule for reads and writes; the queue depth holds the sum (./workload-limits). Targets: ./targets.
 */
import type { Catalog } from '../catalog';
import type { WorkloadSpec } from '../document/types';
import { fmt, formatBlock } from '../units';
import { anyMissed, demandIops, headroomOf, judgeTargets } from './targets';
import { bindingOf, type Constraint } from './workload-limits';
import { upperBound, type DiskEval, type LimitKind, type Targets, type WorkloadBurst, type WorkloadEval } from './types';

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
