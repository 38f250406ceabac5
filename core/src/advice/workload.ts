/**
 * What would make a workload that misses its target meet it: a larger disk, a larger machine of the series,
 * both together, another disk type, larger blocks or a deeper queue. Every candidate is checked by
 * evaluating the changed VM (./search).
 */
import { largerMachines, type Catalog, type Machine } from '../catalog';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import { evaluateOn } from '../model/evaluate';
import type { VmEval, WorkloadEval } from '../model/types';
import {
  cheapestDiskMeeting,
  condition,
  meetsWithHeadroom,
  smallestMachineMeeting,
  smallestSizeMeeting,
  withDisk,
  type Condition,
} from './search';

/** What meets the target: a disk size, a machine, (together) both at once, or another disk type and size. */
export interface WorkloadSuggestions {
  disk_size_gib?: number;
  disk?: string;
  disk_type?: string;
  /** With disk_type: what to provision above its defaults. */
  provisioned_iops?: number;
  provisioned_mibps?: number;
  machine_type?: string;
  together?: boolean;
  /** Another disk type that meets the target for less than the resize `disk_size_gib` costs. */
  instead?: { disk_type: string; disk_size_gib: number; provisioned_iops?: number; provisioned_mibps?: number };
  /** The smallest larger block size at which the model says the target is met. */
  block_kib?: number;
  /** With block_kib: the total MiB/s the workload then reaches. */
  block_mibps?: number;
  /** No larger block size meets it: what the largest useful one reaches (total MiB/s). */
  block_reach?: { block_kib: number; mibps: number };
  /** A queue depth at which the model says the target is met (the hardware reaches it; the queue does not). */
  queue_depth?: number;
  /**
   * The queue holds the workload below what the hardware gives, and the hardware misses the target too: the depth
   * at which the queue stops binding, and the IOPS the hardware then caps it at. No depth meets the target.
   */
  queue_reach?: { queue_depth: number; iops: number };
}

interface Search {
  c: Catalog;
  vm: VmSpec;
  machine: Machine;
  region: string;
  w: WorkloadSpec;
  met: Condition;
}

/** What would make `r` meet its target, with `minHeadroom` to spare (the spec's policy; 0: just meet it). */
export function suggestForWorkload(e: VmEval, region: string, r: WorkloadEval, minHeadroom = 0): WorkloadSuggestions {
  const out: WorkloadSuggestions = {};
  // A VM without a machine has no workloads evaluated (its figures are unavailable): nothing to advise.
  if (r.meets_target !== false || !e.machine) return out;
  const machine = e.machine;
  const c = e.catalog;
  const vm = e.spec;
  const w = r.spec;
  const s: Search = {
    c,
    vm,
    machine,
    region,
    w,
    met: condition(`workload ${w.name} meets its target with ${minHeadroom} to spare`, (x) => meetsWithHeadroom(x, w.name, minHeadroom)),
  };
  const single = singleDisk(vm, w.disk);
  if (single) {
    const size = smallestSizeMeeting(c, vm, machine, region, single, s.met);
    if (size !== undefined) {
      out.disk_size_gib = size;
      out.disk = single.name;
    }
  }
  const bigger = smallestMachineMeeting(c, vm, machine, region, s.met);
  if (bigger) out.machine_type = bigger.name;
  if (single && out.disk_size_gib === undefined && out.machine_type === undefined) machineAndSize(s, machine, single, out);
  if (single && out.disk_size_gib === undefined && out.machine_type === undefined) otherDiskType(s, e, single, out);
  // A resize that meets it can cost more than another type (a 10 TiB st1 for 400 MiB/s, where a gp3 with
  // provisioned throughput does it for a fifth): that type too, when cheaper.
  else if (single && out.disk_size_gib !== undefined && !out.together) {
    const resized = evaluateOn(c, withDisk(vm, single, { size_gib: out.disk_size_gib }), machine, region);
    const cost = resized.disks.find((d) => d.spec.name === single.name)?.cost;
    const other: WorkloadSuggestions = {};
    if (cost?.complete && cost.monthly !== undefined) otherDiskType(s, e, single, other, cost.monthly);
    if (other.disk_type !== undefined)
      out.instead = {
        disk_type: other.disk_type,
        disk_size_gib: other.disk_size_gib!,
        provisioned_iops: other.provisioned_iops,
        provisioned_mibps: other.provisioned_mibps,
      };
  }
  if (r.limited_by === 'block_size') Object.assign(out, largerBlocks(s));
  Object.assign(out, deeperQueue(s, e, r));
  return out;
}

/**
 * Neither a larger disk nor a larger machine alone: the smallest machine of the series on which some size of
 * the disk meets the target. The workload's own queue depth is left out of this search: it is the host's
 * setting, with a fix of its own, not something the hardware buys.
 */
function machineAndSize(s: Search, machine: Machine, single: DiskSpec, out: WorkloadSuggestions): void {
  const hardware = { ...s.vm, workloads: s.vm.workloads.map((x) => (x === s.w ? { ...x, queue_depth: undefined } : x)) };
  // When the hardware as it is would do, the queue depth alone is short: no machine to suggest.
  if (s.met(evaluateOn(s.c, hardware, machine, s.region))) return;
  for (const m of largerMachines(machine)) {
    // Never smaller than the disk is: the data on it has to fit.
    const size = smallestSizeMeeting(s.c, hardware, m, s.region, single, s.met, Infinity, single.size_gib ?? 0);
    if (size === undefined) continue;
    Object.assign(out, { machine_type: m.name, disk_size_gib: size, disk: single.name, together: true });
    return;
  }
}

/** Still nothing: another disk type, the cheapest that meets the target without failing the disk's other workloads, on this machine. */
function otherDiskType(s: Search, e: VmEval, single: DiskSpec, out: WorkloadSuggestions, below = Infinity): void {
  const current = e.disks.find((d) => d.spec === single);
  const others = s.vm.workloads.filter((x) => x !== s.w && (x.disk === single.name || (x.disk === undefined && s.vm.disks.length === 1)));
  const ok = condition(
    `workload ${s.w.name} meets its target, no other workload of disk ${single.name} misses its own`,
    (x) => s.met(x) && others.every((o) => x.workloads.find((y) => y.spec.name === o.name)?.meets_target !== false),
  );
  // Not smaller than the disk is: the data on it has to fit.
  const other = current && cheapestDiskMeeting(s.c, s.vm, s.machine, s.region, current, ok, below, current.size_gib);
  if (other && other.type !== single.type)
    Object.assign(out, {
      disk: single.name,
      disk_type: other.type,
      disk_size_gib: other.size_gib,
      provisioned_iops: other.provisioned_iops,
      provisioned_mibps: other.provisioned_mibps,
    });
}

/**
 * A queue depth too low for the target (Little's law), evaluated: a deeper queue is offered only when the hardware
 * meets the target (the workload evaluated without its queue depth) and the target is met at that depth; a depth
 * in the providers' range for the demand, as deep as the guidance finds useful. Where the hardware misses the
 * target anyway, no depth is offered: only where the queue binds below the hardware, the depth that stops it.
 */
function deeperQueue(s: Search, e: VmEval, r: WorkloadEval): Pick<WorkloadSuggestions, 'queue_depth' | 'queue_reach'> {
  const qd = s.w.queue_depth;
  const perIo = s.c.queue.iops_per_outstanding_io.high;
  const network = e.disks.some((d) => r.disks.includes(d.spec.name) && d.type.model !== 'devices');
  if (qd === undefined || !network || qd * perIo >= r.demand_iops - 1e-6) return {};
  const withDepth = (depth: number | undefined) => ({
    ...s.vm,
    workloads: s.vm.workloads.map((x) => (x === s.w ? { ...x, queue_depth: depth } : x)),
  });
  const hardware = evaluateOn(s.c, withDepth(undefined), s.machine, s.region);
  if (!s.met(hardware)) {
    const h = hardware.workloads.find((y) => y.spec.name === s.w.name);
    const iops = h ? h.read_iops + h.write_iops : 0;
    return qd * perIo < iops - 1e-6 ? { queue_reach: { queue_depth: Math.ceil(iops / perIo), iops } } : {};
  }
  const need = r.queue_depth_needed;
  const want = Math.min(Math.max(need.low, Math.min(need.high, s.c.queue.max_useful_depth)), 65536);
  return s.met(evaluateOn(s.c, withDepth(want), s.machine, s.region)) ? { queue_depth: want } : {};
}

/**
 * Larger blocks, each evaluated: the smallest power of two above the workload's block size at which it meets its
 * target, up to the block size at which the provider's throughput figures hold (no larger block gains more);
 * when none does, what the largest reaches. A block size is never promised from arithmetic alone: the IOPS
 * limit gives way to a throughput limit as the blocks grow.
 */
function largerBlocks(s: Search): Pick<WorkloadSuggestions, 'block_kib' | 'block_mibps' | 'block_reach'> {
  const top = Math.max(1024, s.c.io.throughput_min_kib);
  let last: WorkloadEval | undefined;
  let lastBlock = 0;
  for (let b = 2 ** Math.floor(Math.log2(s.w.block_kib) + 1); b <= top; b *= 2) {
    const vm = { ...s.vm, workloads: s.vm.workloads.map((x) => (x === s.w ? { ...x, block_kib: b } : x)) };
    const e = evaluateOn(s.c, vm, s.machine, s.region);
    last = e.workloads.find((y) => y.spec.name === s.w.name);
    lastBlock = b;
    if (last && s.met(e)) return { block_kib: b, block_mibps: last.read_mibps + last.write_mibps };
  }
  return last ? { block_reach: { block_kib: lastBlock, mibps: last.read_mibps + last.write_mibps } } : {};
}

function singleDisk(vm: VmSpec, name: string | undefined): DiskSpec | undefined {
  if (name !== undefined) return vm.disks.find((d) => d.name === name);
  return vm.disks.length === 1 ? vm.disks[0] : undefined;
}
