/**
 * The workload's own changes that meet its target, each evaluated: a deeper queue (Little's law) and larger blocks.
 * ./workload offers them beside the changes of the disk and the machine, and asks `depthMeeting` for the depth that
 * goes with a larger machine.
 */
import type { Catalog, Machine } from '../catalog';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import { evaluateSustained } from '../model/evaluate';
import type { VmEval, WorkloadEval } from '../model/types';
import type { Condition } from './least';
import { shortOn } from './rows';
import { withWorkload } from './search';

/** One workload's search (./workload): its VM, machine and region, and the condition that it meets its target and the others keep theirs. */
export interface Search {
  c: Catalog;
  vm: VmSpec;
  machine: Machine;
  region: string;
  w: WorkloadSpec;
  met: Condition;
}

/** What a deeper queue does for a workload. */
export interface QueueSuggestions {
  /** A queue depth at which the model says the target is met (the hardware reaches it; the queue does not). */
  queue_depth?: number;
  /**
   * The queue holds the workload below what the hardware gives, and the hardware misses the target too: the depth
   * at which the queue stops binding, and the IOPS the hardware then caps it at. No depth meets the target.
   */
  queue_reach?: { queue_depth: number; iops: number };
}

/** What larger blocks do for a workload. */
export interface BlockSuggestions {
  /** The smallest larger block size at which the model says the target is met. */
  block_kib?: number;
  /** With block_kib: the total MiB/s the workload then reaches. */
  block_mibps?: number;
  /** No larger block size meets it: what the largest useful one reaches (total MiB/s). */
  block_reach?: { block_kib: number; mibps: number };
}

/** The depth the guidance gives for a demand: in the providers' range for it, as deep as the guidance finds useful. */
function guidedDepth(s: Search, need: WorkloadEval['queue_depth_needed']): number {
  return Math.min(Math.max(need.low, Math.min(need.high, s.c.queue.max_useful_depth)), 65536);
}

/** The queue depth the guidance gives for the workload's demand on `vm` (on machine `m`), where the target is met at it. */
export function depthMeeting(s: Search, vm: VmSpec, m: Machine): number | undefined {
  // By name: `vm` is a changed copy (another disk, no queue depth), whose workload objects are not `s.w`.
  const at = (depth: number) => ({ ...vm, workloads: vm.workloads.map((x) => (x.name === s.w.name ? { ...x, queue_depth: depth } : x)) });
  const r = evaluateSustained(s.c, vm, m, s.region).workloads.find((x) => x.spec.name === s.w.name);
  if (!r) return undefined;
  const want = guidedDepth(s, r.queue_depth_needed);
  return s.met(evaluateSustained(s.c, at(want), m, s.region)) ? want : undefined;
}

/**
 * A queue depth too low for the target (Little's law), evaluated: a deeper queue is offered only when the hardware
 * meets the target (the workload evaluated without its queue depth) and the target is met at that depth; a depth
 * in the providers' range for the demand, as deep as the guidance finds useful. Where the hardware misses the
 * target anyway, no depth is offered: only where the queue binds below the hardware, the depth that stops it.
 */
export function deeperQueue(s: Search, e: VmEval, r: WorkloadEval): QueueSuggestions {
  const qd = s.w.queue_depth;
  const perIo = s.c.queue.iops_per_outstanding_io.high;
  const network = e.disks.some((d) => r.disks.includes(d.spec.name) && d.type.model !== 'devices');
  if (qd === undefined || !network || qd * perIo >= r.demand_iops - 1e-6) return {};
  const withDepth = (depth: number | undefined) => withWorkload(s.vm, s.w, { queue_depth: depth });
  const hardware = evaluateSustained(s.c, withDepth(undefined), s.machine, s.region);
  if (!s.met(hardware)) {
    const h = hardware.workloads.find((y) => y.spec.name === s.w.name);
    const iops = h ? h.read_iops + h.write_iops : 0;
    return qd * perIo < iops - 1e-6 ? { queue_reach: { queue_depth: Math.ceil(iops / perIo), iops } } : {};
  }
  const want = guidedDepth(s, r.queue_depth_needed);
  return s.met(evaluateSustained(s.c, withDepth(want), s.machine, s.region)) ? { queue_depth: want } : {};
}

/**
 * Larger blocks, each evaluated: the smallest power of two above the workload's block size at which it meets its
 * target, up to the block size at which the provider's throughput figures hold (no larger block gains more);
 * when none does, what the largest reaches. A block size is never promised from arithmetic alone: the IOPS
 * limit gives way to a throughput limit as the blocks grow. `single`: the workload's one disk, where it runs on one
 * (./workload `singleDisk`); only then can the rows rule a size out.
 */
export function largerBlocks(s: Search, own: VmEval, single: DiskSpec | undefined): BlockSuggestions {
  const top = Math.max(1024, s.c.io.throughput_min_kib);
  let last: WorkloadEval | undefined;
  let lastBlock = 0;
  for (let b = 2 ** Math.floor(Math.log2(s.w.block_kib) + 1); b <= top; b *= 2) {
    const vm = withWorkload(s.vm, s.w, { block_kib: b });
    // Surely short at this size by the rows and the disk's own figures (./rows): not evaluated. The largest is, for
    // what it reaches.
    if (b * 2 <= top && single && shortOn(vm, s.machine, s.w.name, s.c, [single.type], own)) continue;
    const e = evaluateSustained(s.c, vm, s.machine, s.region);
    last = e.workloads.find((y) => y.spec.name === s.w.name);
    lastBlock = b;
    if (last && s.met(e)) return { block_kib: b, block_mibps: last.read_mibps + last.write_mibps };
  }
  return last ? { block_reach: { block_kib: lastBlock, mibps: last.read_mibps + last.write_mibps } } : {};
}
