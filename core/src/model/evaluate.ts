/** One VM, evaluated: its disks on its machine, its workloads on its disks, and what would fix a shortfall. */
import { largerMachines, resolveMachine, type Catalog, type DiskType, type Machine } from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { allocationUnits, evaluateDisks } from './disks';
import type { DiskEval, VmEval, WorkloadEval } from './types';
import { evaluateWorkload } from './workload';

export function evaluateVm(c: Catalog, vm: VmSpec, region: string, opts: { suggestions?: boolean } = {}): VmEval {
  const resolved = resolveMachine(c, vm);
  const machine = resolved.ok ? resolved.machine : undefined;
  return evaluateOn(c, vm, machine, region, opts.suggestions ?? true);
}

function evaluateOn(c: Catalog, vm: VmSpec, machine: Machine | undefined, region: string, suggest: boolean): VmEval {
  const { disks, egress } = evaluateDisks(c, vm, machine, region);
  const workloads: WorkloadEval[] = [];
  for (const w of vm.workloads) {
    const on = disksOf(disks, w.disk);
    if (!on.length) continue;
    const r = evaluateWorkload(c, w, on);
    const suggestions: WorkloadEval['suggestions'] = {};
    if (suggest && r.meets_target === false) {
      const single = singleDisk(vm, w.disk);
      if (single) {
        const size = smallestSizeMeeting(c, vm, machine, region, single, (e) => e.workloads.find((x) => x.spec.name === w.name)?.meets_target === true);
        if (size !== undefined) { suggestions.disk_size_gib = size; suggestions.disk = single.name; }
      }
      if (machine) {
        const bigger = smallestMachineMeeting(c, vm, machine, region, (e) => e.workloads.find((x) => x.spec.name === w.name)?.meets_target === true);
        if (bigger) suggestions.machine_type = bigger.name;
      }
      // Neither a larger disk nor a larger machine alone: the smallest machine of the series on which some size
      // of the disk meets the target. The workload's own queue depth is left out of this search: it is the
      // host's setting, with a fix of its own, not something the hardware buys.
      if (single && machine && suggestions.disk_size_gib === undefined && suggestions.machine_type === undefined) {
        const hardware = { ...vm, workloads: vm.workloads.map((x) => (x === w ? { ...x, queue_depth: undefined } : x)) };
        const met = (e: VmEval) => e.workloads.find((x) => x.spec.name === w.name)?.meets_target === true;
        // When the hardware as it is would do, the queue depth alone is short: no machine to suggest.
        if (!met(evaluateOn(c, hardware, machine, region, false))) {
          for (const m of largerMachines(machine)) {
            // Never smaller than the disk is: the data on it has to fit.
            const size = smallestSizeMeeting(c, hardware, m, region, single, met, Infinity, single.size_gib ?? 0);
            if (size === undefined) continue;
            Object.assign(suggestions, { machine_type: m.name, disk_size_gib: size, disk: single.name, together: true });
            break;
          }
        }
      }
      // Still nothing: another disk type, the cheapest that meets the target without failing the disk's other
      // workloads, on this machine.
      if (single && suggestions.disk_size_gib === undefined && suggestions.machine_type === undefined) {
        const current = disks.find((d) => d.spec === single);
        const others = vm.workloads.filter((x) => x !== w && (x.disk === single.name || (x.disk === undefined && vm.disks.length === 1)));
        const ok = (e: VmEval) => e.workloads.find((x) => x.spec.name === w.name)?.meets_target === true &&
          others.every((o) => e.workloads.find((x) => x.spec.name === o.name)?.meets_target !== false);
        // Not smaller than the disk is: the data on it has to fit.
        const other = current && cheapestDiskMeeting(c, vm, machine, region, current, ok, Infinity, current.size_gib);
        if (other && other.type !== single.type) Object.assign(suggestions, { disk: single.name, disk_type: other.type, disk_size_gib: other.size_gib });
      }
      if (r.limited_by === 'block_size') {
        const t = w.target;
        const wantMibps = Math.max(t.mibps ?? 0, (t.read_mibps ?? 0) / Math.max(w.read_ratio, 1e-9), (t.write_mibps ?? 0) / Math.max(1 - w.read_ratio, 1e-9));
        const total = r.read_iops + r.write_iops;
        if (total > 0 && wantMibps > 0) suggestions.block_kib = 2 ** Math.ceil(Math.log2((wantMibps * 1024) / total));
      }
      if (r.limited_by === 'queue_depth') suggestions.queue_depth = Math.min(r.queue_depth_needed.low * 2, Math.max(r.queue_depth_needed.low, c.queue.max_useful_depth));
    }
    workloads.push(Object.assign(r, { suggestions })); // assign, not spread: keeps `why` lazy
  }
  const costs = disks.map((d) => d.cost.monthly);
  const monthly_cost = costs.every((x) => x !== undefined) ? costs.reduce<number>((s, x) => s + (x ?? 0), 0) : undefined;
  return { spec: vm, catalog: c, machine, egress, disks, workloads, monthly_cost };
}

function disksOf(disks: DiskEval[], name: string | undefined): DiskEval[] {
  return name === undefined ? disks : disks.filter((d) => d.spec.name === name);
}

function singleDisk(vm: VmSpec, name: string | undefined): DiskSpec | undefined {
  if (name !== undefined) return vm.disks.find((d) => d.name === name);
  return vm.disks.length === 1 ? vm.disks[0] : undefined;
}

function withDisk(vm: VmSpec, disk: DiskSpec, change: Partial<DiskSpec>): VmSpec {
  return { ...vm, disks: vm.disks.map((d) => (d === disk ? { ...d, ...change } : d)) };
}

/** The smallest size (whole GiB, or whole allocation units) of this disk for which `ok` holds of the VM. */
export function smallestSizeMeeting(c: Catalog, vm: VmSpec, machine: Machine | undefined, region: string, disk: DiskSpec, ok: (e: VmEval) => boolean, maxSize = Infinity, minSize = 0): number | undefined {
  const t = c.disk_types[disk.type];
  if (!t || (t.model !== 'scaled' && t.model !== 'allocation-units')) return undefined;
  const step = t.model === 'allocation-units' ? t.unit_gib : 1;
  const meets = (size: number) => ok(evaluateOn(c, withDisk(vm, disk, { size_gib: size }), machine, region, false));
  // Performance never decreases with size, so bisect over whole steps.
  let lo = Math.ceil(Math.max(t.size_gib.min, minSize) / step);
  let hi = Math.floor(Math.min(t.size_gib.max, maxSize) / step);
  if (hi < lo || !meets(hi * step)) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (meets(mid * step)) hi = mid; else lo = mid + 1;
  }
  const size = lo * step;
  if (t.model === 'allocation-units') return allocationUnits(t, size) * t.unit_gib;
  return size;
}

/** The smallest larger machine of the same series (and family) for which `ok` holds. */
export function smallestMachineMeeting(c: Catalog, vm: VmSpec, machine: Machine, region: string, ok: (e: VmEval) => boolean): Machine | undefined {
  for (const m of largerMachines(machine)) {
    if (ok(evaluateOn(c, vm, m, region, false))) return m;
  }
  return undefined;
}

/**
 * Paying for performance no workload uses: the cheapest disk (same type smaller, or another type) on which
 * every workload of this disk still meets its target. Only for disks whose workloads all have targets.
 */
export interface CheaperDisk { type: string; size_gib: number; monthly: number; saving: number }

export function cheaperDisk(c: Catalog, vm: VmSpec, machine: Machine | undefined, region: string, current: DiskEval): CheaperDisk | undefined {
  const disk = current.spec;
  const mine = vm.workloads.filter((w) => w.disk === disk.name || (w.disk === undefined && vm.disks.length === 1));
  if (!mine.length || current.cost.monthly === undefined) return undefined;
  const now = current.cost.monthly;
  const allMet = (e: VmEval) => mine.every((w) => e.workloads.find((x) => x.spec.name === w.name)?.meets_target === true);
  const best = cheapestDiskMeeting(c, vm, machine, region, current, allMet, now);
  return best && now - best.monthly > 0.005 ? { ...best, saving: now - best.monthly } : undefined;
}

/**
 * The cheapest disk of a type the machine can attach (and, for a redundant disk, a redundant type) that makes
 * `ok` hold, costing less than `below` a month; the disk keeps its name, so its workloads stay on it.
 */
export function cheapestDiskMeeting(c: Catalog, vm: VmSpec, machine: Machine | undefined, region: string, current: DiskEval, ok: (e: VmEval) => boolean, below = Infinity, minSize = 0): { type: string; size_gib: number; monthly: number } | undefined {
  const disk = current.spec;
  let best: { type: string; size_gib: number; monthly: number } | undefined;
  // Never trade away redundancy, and only offer types the machine can attach.
  const redundant = current.type.replicated !== false;
  const candidates = Object.entries(c.disk_types).filter(([name, t]) =>
    (t.model === 'scaled' || t.model === 'allocation-units') && (!redundant || t.replicated !== false) &&
    (name === disk.type || !machine?.info.disk_types || machine.info.disk_types.includes(name)) &&
    (disk.replication !== 'regional' || (t.replication ?? []).includes('regional')));
  // A disk costs at least its size times the per-GiB price: sizes above the one that costs what the best disk
  // so far costs cannot do better, so each search stops there. Cheapest per GiB first, so that the bound
  // tightens early and dearer types are mostly ruled out by a single evaluation.
  const perGibOf = (t: DiskType) => t.price && (disk.replication === 'regional' && t.price.regional_per_gib_month ? t.price.regional_per_gib_month : t.price.per_gib_month)[region];
  const priced = candidates.map(([name, t]) => ({ name, perGib: perGibOf(t) })).filter((x): x is { name: string; perGib: number } => !!x.perGib).sort((a, b) => a.perGib - b.perGib);
  for (const { name, perGib } of priced) {
    const spec = { ...disk, type: name };
    const variant = { ...vm, disks: vm.disks.map((d) => (d === disk ? spec : d)) };
    const size = smallestSizeMeeting(c, variant, machine, region, spec, ok, (best?.monthly ?? below) / perGib, minSize);
    if (size === undefined) continue;
    const e = evaluateOn(c, withDisk(vm, disk, { type: name, size_gib: size }), machine, region, false);
    const monthly = e.disks.find((d) => d.spec.name === disk.name)?.cost.monthly;
    if (monthly === undefined || monthly >= below) continue;
    if (!best || monthly < best.monthly) best = { type: name, size_gib: size, monthly };
  }
  return best;
}

/** Evaluates a VM on another machine of its series (for "which machine lifts the cap" questions). */
export function evaluateOnMachine(c: Catalog, vm: VmSpec, m: Machine, region: string): VmEval {
  return evaluateOn(c, vm, m, region, false);
}
