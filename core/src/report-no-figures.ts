/**
 * The parts of the JSON report (./report.ts) that have no figures: the disks and workloads of a VM whose machine is
 * unknown, disks of a type the edition does not model on the machine or without a valid type or size, instance
 * store, workloads left out; and the fields every object of the report writes alike.
 */
import { INSTANCE_STORE, instanceStoreOf, unstatedInstanceStoreOf } from './catalog';
import type { DiskSpec, WorkloadSpec } from './document/types';
import { instanceStoreSkip } from './model/instance-store';
import { diskSpecsNamed } from './model/lookups';
import { effectiveSize } from './model/disks';
import type { UnevaluatedDisk, UnmodelledDisk, VmEval } from './model/types';
import { fmt } from './units';
import type { DiskReport, WorkloadReport } from './report-types';

export const r2 = (x: number) => Math.round(x * 100) / 100;
export const money = (x: number | undefined) => (x === undefined ? null : r2(x));

/**
 * `r` with a Terraform resource's `name` (`resource_name`, beside the address the spec names it by) and a VM's own
 * region after its `name`, where it has them: the same object where it has neither (a spec's VMs and disks).
 */
export function afterName<T extends { name: string; resource_name?: string; region?: string }>(
  r: T,
  resourceName: string | undefined,
  region?: string,
): T {
  if (resourceName === undefined && region === undefined) return r;
  const head: { name: string; resource_name?: string; region?: string } = { name: r.name };
  if (resourceName !== undefined) head.resource_name = resourceName;
  if (region !== undefined) head.region = region;
  // `r`'s own name takes the place the head's has: first.
  return { ...head, ...r };
}

// A VM whose machine is unknown: its disks and workloads are listed as written, every figure null, so that a
// consumer of the JSON cannot mistake a figure without the machine's limits for a real one.
const NO_FIGURES = { read_iops: null, write_iops: null, read_mibps: null, write_mibps: null, limited_by: null, explanation: null };

/** A disk listed without figures: as the spec names it, with its size and price where known and why. */
function withoutFigures(d: DiskSpec, size: number | null, price: { monthly: number | null; complete: boolean; why: string }): DiskReport {
  const r: DiskReport = {
    name: d.name,
    type: d.type,
    size_gib: size,
    ...NO_FIGURES,
    monthly_cost: price.monthly,
    monthly_cost_complete: price.complete,
    cost_explanation: price.why,
    price_per_read_iops: null,
    vm_limit_known: false,
    upper_bound: null,
  };
  return afterName(r, d.resource_name);
}

export function unavailableDisks(v: VmEval): DiskReport[] {
  return v.spec.disks.map((d) => withoutFigures(d, d.size_gib ?? null, { monthly: null, complete: false, why: v.unavailable! }));
}

/**
 * A disk of a type the edition does not model on the machine: priced, without figures (the finding says why); its
 * size as it is priced (local SSD: its devices on that machine).
 */
export function unmodelledDiskReport(v: VmEval, u: UnmodelledDisk): DiskReport {
  const size = effectiveSize(v.catalog, u.spec, v.machine);
  return withoutFigures(u.spec, size ?? null, { monthly: money(u.cost.monthly), complete: u.cost.complete, why: u.cost.why });
}

/** A disk without a valid type or size: named as written, without figures or price; `cost_explanation` says why. */
export function unevaluatedDiskReport(u: UnevaluatedDisk): DiskReport {
  return withoutFigures(u.spec, null, { monthly: null, complete: false, why: `${u.why}: no figures and no price` });
}

/**
 * The VM's instance-store disks: listed like every disk the spec names, without figures (AWS gives no throughput
 * for them; the finding says what it documents), and priced at nothing of their own: the instance's price
 * includes them.
 */
export function instanceStoreDisks(v: VmEval): DiskReport[] {
  if (!v.spec.disks.some((d) => d.type === INSTANCE_STORE)) return [];
  // Figures or not (AWS states no IOPS for some), an instance store the catalog lists is part of the instance's price.
  const store = instanceStoreOf(v.catalog, v.machine) ?? unstatedInstanceStoreOf(v.catalog, v.machine);
  const unstated = store && !('documented' in store) ? '; AWS states no IOPS for it: no figures' : '';
  const evaluated = new Set(v.disks.map((x) => x.spec));
  return v.spec.disks
    .filter((d) => d.type === INSTANCE_STORE && !evaluated.has(d))
    .map((d) =>
      withoutFigures(d, store ? r2(store.sizeGib) : (d.size_gib ?? null), {
        monthly: store ? 0 : null,
        complete: !!store,
        why: store
          ? `part of ${v.machine!.name}'s price: its instance store, ${store.row.devices} × ${fmt(store.row.device_gb)} GB ${store.row.media} (${store.cited})${unstated}`
          : `${v.machine?.name ?? 'the machine'} has no instance store in ${v.catalog.edition}`,
      }),
    );
}

/** Why a workload has no figures: an error in its spec, the VM's machine, or its disk's. */
function leftOutReason(v: VmEval, w: WorkloadSpec): string {
  if (w.invalid !== undefined) return `not evaluated: ${w.invalid}`;
  if (v.unavailable !== undefined) return v.unavailable;
  const named = w.disk === undefined ? undefined : diskSpecsNamed(v.spec, w.disk).length;
  if (named === 0) return `not evaluated: this VM has no disk named '${w.disk}'`;
  if (named !== undefined && named > 1) return `not evaluated: ${named} disks of this VM are named '${w.disk}'`;
  const store = instanceStoreSkip(v.catalog, v.spec, w);
  if (store) return `not evaluated: ${store}`;
  return `not evaluated: ${w.disk !== undefined ? `disk '${w.disk}' has` : 'a disk of this VM has'} no figures`;
}

export function unavailableWorkloads(v: VmEval, workloads = v.spec.workloads): WorkloadReport[] {
  return workloads.map((w) => ({
    name: w.name,
    disks: w.disk !== undefined ? [w.disk] : v.spec.disks.map((d) => d.name),
    target: w.target,
    ...NO_FIGURES,
    explanation: leftOutReason(v, w),
    meets_target: null,
    headroom: null,
    upper_bound: null,
    cpu_vcpus_needed: null,
    queue_depth_needed: null,
    suggestions: {},
  }));
}
