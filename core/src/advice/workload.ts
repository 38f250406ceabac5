/**
 * What would make a workload that misses its target meet it: a larger disk, a larger machine of the series,
 * both together, another disk type, larger blocks or a deeper queue (the last two ./workload-changes). Every
 * candidate is checked by evaluating the changed VM (./search).
 */
import { attaches, largerMachines, type Catalog, type Machine } from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { cacheable, cachedLimit, hostCached } from '../model/host-cache';
import { diskPriceOn, evaluateSustained } from '../model/evaluate';
import { effectiveSize, evaluableDisks } from '../model/disks';
import { runsOn } from '../model/lookups';
import type { VmEval, WorkloadEval } from '../model/types';
import {
  cheapestDiskMeeting,
  condition,
  meetsWithHeadroom,
  smallestMachineMeeting,
  smallestSizeMeeting,
  withDisk,
  withWorkload,
  type Condition,
} from './search';
import { ownProvisioned } from './provisioned';
import { shortOn } from './rows';
import { targetRatio } from './least';
import { deeperQueue, depthMeeting, largerBlocks, type BlockSuggestions, type QueueSuggestions, type Search } from './workload-changes';

export type { QueueSuggestions } from './workload-changes';

/**
 * What meets the target: a disk size, a machine, (together) both at once, or another disk type and size; a deeper
 * queue or larger blocks (./workload-changes).
 */
export interface WorkloadSuggestions extends QueueSuggestions, BlockSuggestions {
  disk_size_gib?: number;
  disk?: string;
  disk_type?: string;
  /** With disk_type: what to provision above its defaults. */
  provisioned_iops?: number;
  provisioned_mibps?: number;
  /** With disk_type the disk's own type: the catalog lacks part of that change's price (shown as unknown, never hidden). */
  price_unknown?: boolean;
  machine_type?: string;
  together?: boolean;
  /** Another disk type that meets the target for less than the resize `disk_size_gib` costs. */
  instead?: OtherDisk;
  /**
   * With `price_unknown`: the cheapest disk of another type whose price the catalog knows, that meets the target
   * and may cost more or less than the own change (only its known part is below it).
   */
  alternative?: OtherDisk;
  /** With `together`: the workload's queue depth that goes with the machine and disk change (it alone holds it short there). */
  together_queue_depth?: number;
  /**
   * Host caching (read-only) on the workload's disk meets the target at the workload's cache hit ratio: the disk,
   * and what the workload then reaches (total IOPS and MiB/s).
   */
  caching?: { disk: string; iops: number; mibps: number };
  /** Not searched: the VM's searches had evaluated this many disks already (../advice: `ADVICE_WORK`). */
  unsearched?: number;
}

/** A disk of another type, at a size, with what it provisions above the type's defaults. */
export interface OtherDisk {
  disk_type: string;
  disk_size_gib: number;
  provisioned_iops?: number;
  provisioned_mibps?: number;
}

/**
 * How a VM's searches run: the spec's policy (min_headroom: the least share above its target a workload must
 * reach; 0 without one), and whether its size searches are memoised (../search, `smallestSizeMeeting`).
 */
export interface SearchPolicy {
  minHeadroom: number;
  memoSizes: boolean;
}

/** The search for what makes `r` meet its target; none where it meets it, has none, or the VM has no machine. */
function searchFor(e: VmEval, region: string, r: WorkloadEval, policy: SearchPolicy): Search | undefined {
  // A VM without a machine has no workloads evaluated (its figures are unavailable): nothing to advise.
  if (r.meets_target !== false || !e.machine) return undefined;
  const met = keepingOthers(e, r.spec.name, policy);
  return { c: e.catalog, vm: e.spec, machine: e.machine, region, w: r.spec, met };
}

/**
 * What a deeper queue does for `r`: the part of `suggestForWorkload`'s answer that the queue-depth check reads,
 * without the searches for disks and machines.
 */
export function queueSuggestions(e: VmEval, region: string, r: WorkloadEval, policy: SearchPolicy): QueueSuggestions {
  const s = searchFor(e, region, r, policy);
  return s ? deeperQueue(s, e, r) : {};
}

/**
 * What would make `r` meet its target, with the policy's headroom to spare. `queue`: what a deeper queue does, where
 * `queueSuggestions` has found it already (the queue-depth check asks first where this search was not asked for).
 */
export function suggestForWorkload(
  e: VmEval,
  region: string,
  r: WorkloadEval,
  policy: SearchPolicy,
  queue?: QueueSuggestions,
): WorkloadSuggestions {
  const out: WorkloadSuggestions = {};
  const s = searchFor(e, region, r, policy);
  if (!s) return out;
  const { c, vm, machine, w } = s;
  const single = singleDisk(vm, w.disk);
  if (single) ownChange(s, single, out);
  // A machine on which the disk's own figures or the machine's rows surely hold the workload short is not evaluated.
  const bigger = smallestMachineMeeting(c, vm, machine, region, s.met, single && ((m) => shortOn(vm, m, w.name, c, [single.type], e)));
  if (bigger) out.machine_type = bigger.name;
  // Neither: another disk on this machine, else a larger machine with the cheapest disk that meets it there.
  if (single && out.disk_size_gib === undefined && out.machine_type === undefined) {
    otherDiskType(s, e, single, out);
    if (out.disk_type === undefined) machineAndDisk(s, e, machine, single, out);
  }
  // The disk's own change that meets it can cost more than another type (a 10 TiB st1 for 400 MiB/s, where a gp3
  // with provisioned throughput does it for a fifth): that type too, when it surely costs less. Where the own
  // change's price is partly unknown, its known part bounds it from below: only a type cheaper than that is
  // surely cheaper, and a dearer one is never put first for want of a price.
  else if (single && out.disk_size_gib !== undefined && !out.together) {
    const cost = diskPriceOn(c, vm, machine, region, { ...single, ...ownSettings(out) });
    const other: WorkloadSuggestions = {};
    if (cost?.monthly !== undefined) otherDiskType(s, e, single, other, cost.monthly);
    if (other.disk_type !== undefined) out.instead = otherDisk(other);
    else if (out.price_unknown) {
      otherDiskType(s, e, single, other);
      if (other.disk_type !== undefined) out.alternative = otherDisk(other);
    }
  }
  const cached = single && readCache(s, single);
  if (cached) out.caching = cached;
  if (r.limited_by === 'block_size') Object.assign(out, largerBlocks(s, e, single));
  Object.assign(out, queue ?? deeperQueue(s, e, r));
  return out;
}

/**
 * Read-only host caching on the workload's uncached disk, where the size publishes a cached limit, allows host
 * caching, and the disk may use it (../model/host-cache): evaluated at the workload's cache hit ratio (none without one),
 * offered where the target is then met.
 */
function readCache(s: Search, single: DiskSpec): WorkloadSuggestions['caching'] {
  const m = s.machine;
  if (hostCached(single) || !((s.w.cache_hit_ratio ?? 0) > 0) || !s.c.host_cache) return undefined;
  if (m.info.host_caching?.supported === false || !cachedLimit(m)) return undefined;
  const e = evaluateSustained(s.c, withDisk(s.vm, single, { caching: 'read-only' }), m, s.region);
  const d = e.disks.find((x) => x.spec.name === single.name);
  const r = e.workloads.find((x) => x.spec.name === s.w.name);
  if (!d || !r || !cacheable(d) || !s.met(e)) return undefined;
  return { disk: single.name, iops: r.read_iops + r.write_iops, mibps: r.read_mibps + r.write_mibps };
}

function otherDisk(x: WorkloadSuggestions): OtherDisk {
  return {
    disk_type: x.disk_type!,
    disk_size_gib: x.disk_size_gib!,
    provisioned_iops: x.provisioned_iops,
    provisioned_mibps: x.provisioned_mibps,
  };
}

/**
 * The disk's own change: the smallest size of its type that meets the target, or for a type sold by provisioned
 * performance, the least IOPS and throughput of it that do (its price may be unknown: `price_unknown`).
 */
function ownChange(s: Search, single: DiskSpec, out: WorkloadSuggestions): void {
  const size = smallestSizeMeeting(s.c, s.vm, s.machine, s.region, single, s.met);
  if (size !== undefined) {
    Object.assign(out, { disk_size_gib: size, disk: single.name });
    // A tier without a price (Azure's P60 and up in azure-2026): said so, and a priced type looked for beside it.
    const cost = diskPriceOn(s.c, s.vm, s.machine, s.region, { ...single, size_gib: size });
    if (cost && !cost.complete) out.price_unknown = true;
    return;
  }
  const own = ownProvisioned(s.c, s.vm, s.machine, s.region, single, s.met);
  if (!own) return;
  Object.assign(out, {
    disk: single.name,
    disk_type: single.type,
    disk_size_gib: own.size_gib,
    provisioned_iops: own.provisioned_iops,
    provisioned_mibps: own.provisioned_mibps,
    ...(own.unpriced ? { price_unknown: true } : {}),
  });
}

/** The disk settings a suggestion writes: its size, and its type and provisioned amounts where it gives them. */
function ownSettings(x: WorkloadSuggestions): Partial<DiskSpec> {
  return {
    size_gib: x.disk_size_gib,
    ...(x.disk_type !== undefined
      ? { type: x.disk_type, provisioned_iops: x.provisioned_iops, provisioned_mibps: x.provisioned_mibps }
      : {}),
  };
}

/**
 * Neither the disk's own change nor a larger machine alone: the smallest machine of the series on which some disk
 * meets the target, and on it the cheapest disk that does, of any type the machine attaches (a gp3 at the same
 * size before a gp2 thirty times larger); a size of the disk's own type where no disk is wholly priced. The
 * workload's own queue depth is left out of this search: it is the host's setting, with a fix of its own, not
 * something the hardware buys.
 */
function machineAndDisk(s: Search, e: VmEval, machine: Machine, single: DiskSpec, out: WorkloadSuggestions): void {
  const hardware = withWorkload(s.vm, s.w, { queue_depth: undefined });
  // When the hardware as it is would do, the queue depth alone is short: no machine to suggest. (A workload without a
  // queue depth of its own misses its target on the hardware as it is: that is why it is searched for.)
  // Where the rows and the disk's own figures say the hardware misses it too (./rows), it is not evaluated to know.
  if (
    s.w.queue_depth !== undefined &&
    !shortOn(hardware, machine, s.w.name, s.c, [single.type], e) &&
    s.met(evaluateSustained(s.c, hardware, machine, s.region))
  )
    return;
  const ok = diskCondition({ ...s, vm: hardware }, e, single);
  for (const m of largerMachines(machine)) {
    // No disk of any type it could become meets the target under this machine's rows (./rows): none is searched for.
    if (shortOn(hardware, m, s.w.name, s.c, typesOn(s.c, m, single))) continue;
    // Only a disk the model evaluates on `m` (../model/disks `evaluableDisks`); never smaller than it is: the data
    // on it has to fit.
    const evaluable = evaluableDisks(s.c, hardware, m).includes(single);
    const best = evaluable
      ? cheapestDiskMeeting(s.c, hardware, m, s.region, single, ok, { minSize: effectiveSize(s.c, single, m)! })
      : undefined;
    const size = best ? best.size_gib : smallestSizeMeeting(s.c, hardware, m, s.region, single, s.met, Infinity, single.size_gib ?? 0);
    if (size === undefined) continue;
    const change: Partial<DiskSpec> = { size_gib: size };
    // Another type, or the disk's own with more provisioned: written as a type (the same one) and its amounts.
    if (best && (best.type !== single.type || best.provisioned_iops !== undefined || best.provisioned_mibps !== undefined))
      Object.assign(change, { type: best.type, provisioned_iops: best.provisioned_iops, provisioned_mibps: best.provisioned_mibps });
    // The workload's own queue depth may still hold it short on that hardware: then the depth that reaches it
    // there goes with the change (one fix must meet the target), and without such a depth there is no fix.
    let depth: number | undefined;
    if (s.w.queue_depth !== undefined && !s.met(evaluateSustained(s.c, withDisk(s.vm, single, change), m, s.region))) {
      depth = depthMeeting(s, withDisk(s.vm, single, change), m);
      if (depth === undefined) continue;
    }
    Object.assign(out, { machine_type: m.name, disk_size_gib: size, disk: single.name, together: true });
    if (change.type !== undefined)
      Object.assign(out, {
        disk_type: change.type,
        provisioned_iops: change.provisioned_iops,
        provisioned_mibps: change.provisioned_mibps,
      });
    if (depth !== undefined) out.together_queue_depth = depth;
    return;
  }
}

/** The types a disk may take on machine `m` in the searches for a cheaper or other disk (./search, ./provisioned): its own and those `m` attaches. */
function typesOn(c: Catalog, m: Machine, disk: DiskSpec): string[] {
  const sold = (t: string) => c.disk_types[t].model !== 'devices';
  return [disk.type, ...Object.keys(c.disk_types).filter((t) => t !== disk.type && sold(t) && attaches(m, t))];
}

/**
 * The workload's target met with the headroom, and every other workload of the VM that meets its target today
 * still meeting it, with the policy's headroom where it has that today: a disk's resize can take another disk's share of a limit they pool (Google's per-VM baseline
 * of a type, split by size), and a fix is never to trade one target for another. The key names them: searches
 * are memoised by it across VMs.
 */
export function keepingOthers(e: VmEval, name: string, { minHeadroom, memoSizes }: SearchPolicy): Condition {
  const met = e.workloads.filter((x) => x.meets_target === true && x.spec.name !== name);
  // Those that keep the policy's headroom today keep it (a switch that gives a disk a few IOPS less can take a
  // workload over several disks below it); the others keep meeting their targets.
  const policy = (x: WorkloadEval) => minHeadroom > 0 && meetsWithHeadroom(e, x.spec.name, minHeadroom);
  const keep = met.filter((x) => !policy(x)).map((x) => x.spec.name);
  const keepPolicy = met.filter(policy).map((x) => x.spec.name);
  const others = [
    keep.length ? `; ${keep.map((n) => `'${n}'`).join(', ')} keep meeting theirs` : '',
    keepPolicy.length ? `; ${keepPolicy.map((n) => `'${n}'`).join(', ')} keep the headroom` : '',
  ].join('');
  // Met, not merely not missed: on a machine whose per-VM limit is unknown a target met today would not be judged.
  const meets = (x: VmEval, n: string) => x.workloads.find((y) => y.spec.name === n)?.meets_target === true;
  const roomy = (x: VmEval, n: string) => meetsWithHeadroom(x, n, minHeadroom);
  // The part that only fails more as the workload's own disk grows or buys more (./least: `Condition.lost`).
  const away = onOtherDisk(e, name);
  const [keepAway, policyAway] = [keep.filter(away), keepPolicy.filter(away)];
  return condition(
    `workload ${name} meets its target with ${minHeadroom} to spare${others}`,
    (x) => roomy(x, name) && keep.every((n) => meets(x, n)) && keepPolicy.every((n) => roomy(x, n)),
    { ratio: (x) => targetRatio(x, [name]), need: 1 + Math.max(0, minHeadroom) },
    memoSizes,
    [name],
    keepAway.length || policyAway.length ? (x) => keepAway.some((n) => !meets(x, n)) || policyAway.some((n) => !roomy(x, n)) : undefined,
  );
}

/**
 * Whether a workload runs on one disk other than workload `name`'s (never, where `name` runs over every disk), on a
 * VM of two disks under the machine's limits. That disk's figures never rise as this one's disk grows (a limit the
 * two share goes more to the larger; ../model/vm-share), so once such a workload misses its target, it misses at
 * every larger value: a size or provisioning search stops there (./least). A workload over several disks, or on
 * this one's, may gain. So may one on a VM of three such disks: as this disk grows, a third that shares a limit with
 * it gets less of that limit, asks less of another limit it shares with the other disk, and leaves the other more
 * (gcp-2024: two pd-ssd disks pool the type's per-VM limit by size, and a pd-standard disk beside them gains as one
 * of them grows). Local SSD devices share no limit with the others (no per-VM row, no egress): they are not counted.
 */
function onOtherDisk(e: VmEval, name: string): (n: string) => boolean {
  const own = e.spec.workloads.find((w) => w.name === name)?.disk;
  // A disk of a type the catalog does not know is counted: nothing says what it shares.
  const limited = e.spec.disks.filter((d) => e.catalog.disk_types[d.type]?.model !== 'devices').length;
  if (limited > 2) return () => false;
  return (n) => {
    const d = e.spec.workloads.find((w) => w.name === n)?.disk;
    return own !== undefined && d !== undefined && d !== own;
  };
}

/**
 * The target met, and no other workload of the disk made to miss its own: those met today stay met (`s.met` asks
 * it of every workload of the VM), and one not judged today (its figures upper bounds) is not made to miss.
 */
function diskCondition(s: Search, e: VmEval, single: DiskSpec): Condition {
  // Not the workloads that miss their targets today: one that misses its own already is no reason to refuse a
  // type that meets this one (the disk's own resize is not held to it either).
  const missing = new Set(e.workloads.filter((x) => x.meets_target === false).map((x) => x.spec.name));
  const others = s.vm.workloads.filter((x) => x.name !== s.w.name && !missing.has(x.name) && runsOn(s.vm, x, single.name));
  // The key says exactly what is asked (the headroom, and which workloads must keep their targets): size searches
  // are memoised by it across VMs that differ in this disk's size, and so in which workloads meet theirs.
  return condition(
    `${s.met.key}; of disk ${single.name}, ${others.map((o) => `'${o.name}'`).join(', ') || 'no other workload'} keeps meeting its own`,
    (x) => s.met(x) && others.every((o) => x.workloads.find((y) => y.spec.name === o.name)?.meets_target !== false),
    s.met.ratio && { ratio: s.met.ratio, need: s.met.need ?? 1 },
    s.met.memo,
    s.met.met,
    // The workloads this adds run on the searched disk: they gain as it grows, and are no part of what is lost.
    s.met.lost,
  );
}

/** Still nothing: another disk type, the cheapest that meets the target without failing the disk's other workloads, on this machine. */
function otherDiskType(s: Search, e: VmEval, single: DiskSpec, out: WorkloadSuggestions, below = Infinity): void {
  const current = e.disks.find((d) => d.spec === single);
  const ok = diskCondition(s, e, single);
  // Not smaller than the disk is: the data on it has to fit. Of another type only: the disk's own change (a size of its
  // type, or its provisioning, ./provisioned `ownProvisioned`) was searched first, with a condition this one implies,
  // over these sizes; no size of its own type is offered here (it found none, or found one no dearer).
  const other =
    current && cheapestDiskMeeting(s.c, s.vm, s.machine, s.region, single, ok, { below, minSize: current.size_gib, others: true });
  if (other)
    Object.assign(out, {
      disk: single.name,
      disk_type: other.type,
      disk_size_gib: other.size_gib,
      provisioned_iops: other.provisioned_iops,
      provisioned_mibps: other.provisioned_mibps,
    });
}

function singleDisk(vm: VmSpec, name: string | undefined): DiskSpec | undefined {
  if (name !== undefined) return vm.disks.find((d) => d.name === name);
  return vm.disks.length === 1 ? vm.disks[0] : undefined;
}
