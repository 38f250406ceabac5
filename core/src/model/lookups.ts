/**
 * A VM's disks and workloads by disk name, gathered once per list. Checks ask, for each disk, which workloads run
 * on it (and, for each workload, which disk it names): a scan of the other list each time made a VM of many disks
 * and workloads cost their product. The lists are complete when these run (an evaluation or a spec is not added
 * to afterwards); each grouping is kept on its list and goes with it (../attached: a search's candidates are many
 * and short-lived).
 */
import { Attached } from '../attached';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import type { DiskEval, VmEval, WorkloadEval } from './types';

const NONE: readonly never[] = [];

/**
 * Lists this short are scanned, not grouped: a map made and kept on a list of a few disks cost more than the scans it
 * saved (1.4 % of `evaluate` of 10,000 distinct VMs went to keeping it on the list alone). A VM of many disks groups them.
 */
const SCANNED = 8;

function scanned<T>(list: readonly T[], named: (x: T) => boolean): readonly T[] {
  let out: T[] | undefined;
  for (const x of list) if (named(x)) (out ??= []).push(x);
  return out ?? NONE;
}

function grouped<T>(
  memo: Attached<readonly T[], Map<string, T[]>>,
  list: readonly T[],
  names: (x: T) => readonly string[],
): Map<string, T[]> {
  let m = memo.get(list);
  if (m) return m;
  m = new Map();
  for (const x of list)
    for (const n of names(x)) {
      const same = m.get(n);
      if (same) {
        if (same[same.length - 1] !== x) same.push(x); // a workload naming one disk twice is listed once
      } else m.set(n, [x]);
    }
  memo.set(list, m);
  return m;
}

/** `grouped` for items of one name each (no list of names per item). */
function groupedByName<T>(memo: Attached<readonly T[], Map<string, T[]>>, list: readonly T[], name: (x: T) => string): Map<string, T[]> {
  let m = memo.get(list);
  if (m) return m;
  m = new Map();
  for (const x of list) {
    const n = name(x);
    const same = m.get(n);
    if (same) same.push(x);
    else m.set(n, [x]);
  }
  memo.set(list, m);
  return m;
}

const diskSpecs = new Attached<readonly DiskSpec[], Map<string, DiskSpec[]>>('disk specs by name');
/** The VM's disks named `name` in its spec (more than one only with a duplicate name, itself an error). */
export function diskSpecsNamed(vm: VmSpec, name: string): readonly DiskSpec[] {
  if (vm.disks.length <= SCANNED) return scanned(vm.disks, (d) => d.name === name);
  return groupedByName(diskSpecs, vm.disks, (d) => d.name).get(name) ?? NONE;
}

const diskEvals = new Attached<readonly DiskEval[], Map<string, DiskEval[]>>('evaluated disks by name');
/** The evaluated disks named `name`. */
export function disksNamed(e: VmEval, name: string): readonly DiskEval[] {
  return disksOfName(e.disks, name);
}

/**
 * The disks of an evaluation's list named `name` (a workload's `disk`): the evaluation asks this of its list once it
 * is complete (the per-VM shares, then each workload), and the checks reuse the grouping.
 */
export function disksOfName(disks: readonly DiskEval[], name: string): readonly DiskEval[] {
  if (disks.length <= SCANNED) return scanned(disks, (d) => d.spec.name === name);
  return groupedByName(diskEvals, disks, (d) => d.spec.name).get(name) ?? NONE;
}

const workloadEvals = new Attached<readonly WorkloadEval[], Map<string, WorkloadEval[]>>('evaluated workloads by disk');
/** The evaluated workloads that run on disk `name` (among others, for a workload spread over several), in order. */
export function workloadsOn(e: VmEval, name: string): readonly WorkloadEval[] {
  if (e.workloads.length <= SCANNED) return scanned(e.workloads, (w) => w.disks.includes(name));
  return grouped(workloadEvals, e.workloads, (w) => w.disks).get(name) ?? NONE;
}

/** Whether workload `w` runs on disk `name` alone: it names that disk, or names none on a VM of that one disk. */
export function runsOn(vm: VmSpec, w: WorkloadSpec, name: string): boolean {
  return (w.disk ?? (vm.disks.length === 1 ? vm.disks[0].name : undefined)) === name;
}
