/**
 * What the disks that carry the VM's workloads deliver while those workloads run at once: the machine's limits
 * shared among them (./vm-share: the targets' asks first, the rest by what each could still add), from each disk's
 * own figures. A disk no workload uses is idle and takes no share. Only the workloads read these figures: each
 * disk's own (`VmEval.disks`) are what it delivers while the others are idle.
 */
import { vmLimitGroup, vmLimitRow, type Catalog, type Machine } from '../catalog';
import type { VmSpec } from '../document/types';
import type { DiskEval, UnevaluatedDisk } from './types';
import { applyMachineLimits } from './vm-limits';

/**
 * Each busy disk's figures while the workloads run together, as a copy of the disk with those figures; undefined
 * where they are the disks' own (fewer than two busy disks, and no busy disk of unknown size under one limit).
 */
export function togetherViews(
  c: Catalog,
  machine: Machine,
  vm: VmSpec,
  disks: DiskEval[],
  unevaluated: UnevaluatedDisk[],
): Map<DiskEval, DiskEval> | undefined {
  if (!vm.workloads.length) return undefined;
  const isBusy = busyTest(vm);
  const busy = disks.filter((d) => isBusy(d.spec.name));
  const unsized = unevaluated.filter(
    (u) => c.disk_types[u.spec.type] && c.disk_types[u.spec.type].model !== 'devices' && isBusy(u.spec.name),
  );
  if (busy.length < 2 && !(busy.length && unsized.length)) return undefined;
  // Each view starts from the disk's own figures, with everything else the disk has (a copy: the disk keeps its own).
  const views = busy.map((d) => ({ ...d, figures: d.diskOnly }));
  applyMachineLimits(c, machine, vm, views, { alone: false });
  markSharedWithUnsized(c, machine, views, unsized);
  const out = new Map<DiskEval, DiskEval>();
  for (let i = 0; i < busy.length; i++) out.set(busy[i], views[i]);
  return out;
}

/**
 * Whether a disk of this name is busy: some workload of the VM names it, or one names none (it runs on every disk).
 * Every workload the spec names runs, one whose values are in error too: its disk is not idle. One pass over the
 * workloads, not one per disk: a VM of thousands of disks and workloads is evaluated many times by the advice.
 */
function busyTest(vm: VmSpec): (name: string) => boolean {
  const named = new Set<string>();
  for (const w of vm.workloads) {
    if (w.disk === undefined) return () => true;
    named.add(w.disk);
  }
  return (name) => named.has(name);
}

/**
 * A busy disk whose per-VM limit also covers a busy disk without a valid size: its share of the limit is unknown,
 * so its figures while the workloads run together (the limit as if it were its and its peers' alone) are upper bounds.
 */
function markSharedWithUnsized(c: Catalog, machine: Machine, views: DiskEval[], unsized: UnevaluatedDisk[]): void {
  if (!unsized.length) return;
  const across = c.limit_across_types?.types ?? [];
  // The first such disk of each limit group, and of the types under the limit across types (by its place).
  const firstOfGroup = new Map<string, number>();
  let firstAcross: number | undefined;
  unsized.forEach((u, i) => {
    const group = vmLimitGroup(c, machine, u.spec.type);
    if (!firstOfGroup.has(group)) firstOfGroup.set(group, i);
    if (firstAcross === undefined && across.includes(u.spec.type)) firstAcross = i;
  });
  for (const d of views) {
    if (d.type.model === 'devices' || !vmLimitRow(c, machine, d.typeName)) continue;
    const inGroup = firstOfGroup.get(vmLimitGroup(c, machine, d.typeName));
    const inAcross = across.includes(d.typeName) ? firstAcross : undefined;
    const at = Math.min(inGroup ?? Infinity, inAcross ?? Infinity);
    if (at !== Infinity) d.sharesLimitWith = unsized[at].spec.name;
  }
}
