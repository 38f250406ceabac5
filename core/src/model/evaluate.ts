/**
 * One VM, evaluated: its disks on its machine, its workloads on its disks. Figures only — what this
 * configuration delivers and which limit binds. What would fix a shortfall is advice (../advice).
 */
import { resolveMachine, type Catalog, type Machine } from '../catalog';
import type { VmSpec } from '../document/types';
import { machineCost } from './cost';
import { catalogBursts, diskBursts, workloadBurst } from './burst';
import { evaluateDisks } from './disks';
import { sumCosts, vmCosts, type DiskEval, type VmEval, type WorkloadEval } from './types';
import { evaluateWorkload } from './workload';

/**
 * The VM on the machine its spec names. When that machine is unknown (missing, misspelt, a vCPU count the
 * series does not offer) no figure is computed: without the machine's per-VM limits every figure would be the
 * disks' own, which looks right and can be several times too high.
 */
export function evaluateVm(c: Catalog, vm: VmSpec, region: string): VmEval {
  const resolved = resolveMachine(c, vm);
  if (!resolved.ok)
    return {
      spec: vm,
      catalog: c,
      disks: [],
      workloads: [],
      unavailable: `${resolved.message}; without the machine's per-VM limits no figure is computed`,
      machine_cost: machineCost(c, undefined, region),
      monthly_cost: undefined,
      monthly_cost_complete: false,
    };
  return evaluateOn(c, vm, resolved.machine, region);
}

/** The VM on a given machine: the searches of ../advice try other machines and disks through this. */
export function evaluateOn(c: Catalog, vm: VmSpec, machine: Machine, region: string): VmEval {
  const { disks, egress } = evaluateDisks(c, vm, machine, region);
  // Only editions with credit buckets or burst windows (AWS) have bursts to look for.
  const bursts = catalogBursts(c) ? diskBursts(c, machine, disks) : undefined;
  for (const [d, b] of bursts ?? []) d.burst = b;
  const workloads: WorkloadEval[] = [];
  for (const w of vm.workloads) {
    const on = disksOf(disks, w.disk);
    if (!on.length) continue;
    const e = evaluateWorkload(c, w, on);
    if (bursts?.size) e.burst = workloadBurst(e, on, bursts, (lifted) => evaluateWorkload(c, w, lifted));
    workloads.push(e);
  }
  const machine_cost = machineCost(c, machine, region);
  // The whole VM, machine and disks: a partial sum stays marked as one (monthly_cost_complete false).
  const total = sumCosts(vmCosts({ machine_cost, disks }));
  return {
    spec: vm,
    catalog: c,
    machine,
    egress,
    disks,
    workloads,
    machine_cost,
    monthly_cost: total.monthly,
    monthly_cost_complete: total.complete,
  };
}

function disksOf(disks: DiskEval[], name: string | undefined): DiskEval[] {
  return name === undefined ? disks : disks.filter((d) => d.spec.name === name);
}
