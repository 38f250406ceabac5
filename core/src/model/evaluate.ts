/**
 * One VM, evaluated: its disks on its machine, its workloads on its disks. Figures only — what this
 * configuration delivers and which limit binds. What would fix a shortfall is advice (../advice).
 */
import { INSTANCE_STORE, refusedSize, resolveMachine, unmodelledOn, type Catalog, type Machine } from '../catalog';
import type { DiskSpec, TemplateRun, VmSpec } from '../document/types';
import { plural } from '../units';
import { cacheViews } from './host-cache';
import { withController } from './disk-controller';
import { diskCost, machineCost } from './cost';
import { aloneBursts, catalogBursts, diskBursts, workloadBurst } from './burst';
import { togetherViews } from './together';
import { diskSpecsNamed, disksOfName } from './lookups';
import { effectiveSize, evaluableDisks, evaluateDisks } from './disks';
import {
  cost,
  sumCosts,
  vmCosts,
  type Cost,
  type DiskEval,
  type PriceGap,
  type UnevaluatedDisk,
  type UnmodelledDisk,
  type VmEval,
  type WorkloadEval,
} from './types';
import { addInstanceStoreDisks, instanceStoreSkip } from './instance-store';
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
  return evaluated(c, vm, withController(resolved.machine, vm.disk_controller), region, true);
}

/**
 * How many disks `evaluateOn` has evaluated in this process: the measure of the advice's work, which evaluates
 * whole VMs (../advice bounds each VM's searches by it). A count, never a time: the answers stay deterministic.
 */
let disksEvaluated = 0;
export function evaluationWork(): number {
  return disksEvaluated;
}

/** The VM on a given machine: the searches of ../advice try other machines and disks through this. */
export function evaluateOn(c: Catalog, vm: VmSpec, machine: Machine, region: string): VmEval {
  return evaluated(c, vm, machine, region, true);
}

/**
 * The VM on a given machine as a search's candidate: its sustained figures, its targets judged and its prices, without
 * the bursts (no `burst` on a disk or a workload). Targets are judged on the sustained figures only (./burst), so
 * what a size, type or provisioning search asks of a candidate is the same; the bursts were 40 % of an AWS
 * candidate's evaluation. A search whose condition reads bursts (a workload met only in a burst window) evaluates
 * with `evaluateOn`.
 */
export function evaluateSustained(c: Catalog, vm: VmSpec, machine: Machine, region: string): VmEval {
  return evaluated(c, vm, machine, region, false);
}

function evaluated(c: Catalog, vm: VmSpec, machine: Machine, region: string, withBursts: boolean): VmEval {
  disksEvaluated += vm.disks.length;
  const { disks, egress, sharedLimits } = evaluateDisks(c, vm, machine, region);
  // Only editions with credit buckets or burst windows (AWS) have bursts to look for; each disk's, alone.
  const bursts = withBursts && catalogBursts(c) ? aloneBursts(c, machine, disks) : undefined;
  for (const [d, b] of bursts ?? []) d.burst = b;
  const unmodelled = unmodelledDisks(c, vm, machine, region);
  const unevaluated = unevaluatedDisks(c, vm, machine, disks, unmodelled);
  // The workloads run at once: on the disks that carry them, the machine's limits are shared (./together).
  const together = togetherViews(c, machine, vm, disks, unevaluated);
  const workloadBursts = bursts && together ? diskBursts(c, machine, [...together.values()]) : bursts;
  // A workload on a disk without figures (instance store, a type not modelled on this machine, a disk without a
  // valid type or size) is not evaluated: figures over its other disks alone would look like its own.
  // An instance store has IOPS figures only: a workload that needs more of it is left out too (./instance-store).
  const withoutFigures = disksWithoutFigures(vm, disks, unmodelled, unevaluated);
  const workloads: WorkloadEval[] = [];
  for (const w of vm.workloads) {
    if (w.invalid !== undefined) continue;
    if (w.disk === undefined ? withoutFigures !== undefined : !!withoutFigures?.has(w.disk)) continue;
    if (instanceStoreSkip(c, vm, w)) continue;
    // A name two disks share names neither (an error on the second name): not the two disks summed.
    if (w.disk !== undefined && diskSpecsNamed(vm, w.disk).length > 1) continue;
    const named = w.disk === undefined ? disks : disksOfName(disks, w.disk);
    if (!named.length) continue;
    const shared = together ? named.map((d) => together.get(d) ?? d) : named;
    // Through a host cache, hits leave the uncached path (./azure); undefined where no disk of it is cached.
    const on = cacheViews(c, machine, w, shared) ?? shared;
    const e = evaluateWorkload(c, w, on);
    if (workloadBursts?.size) e.burst = workloadBurst(e, on, workloadBursts, (lifted) => evaluateWorkload(c, w, lifted));
    workloads.push(e);
  }
  const { machine_cost, total } = machineAndTotal(c, vm, machine, region, { disks, unmodelled, unevaluated });
  // One shape for every evaluation (a part it lacks is undefined, as a reader sees an absent one): spreads of
  // optional parts made each a copy, and an evaluation of one of eight shapes.
  return {
    spec: vm,
    catalog: c,
    machine,
    egress,
    disks,
    sharedLimits,
    unmodelled: unmodelled.length ? unmodelled : undefined,
    unevaluated: unevaluated.length ? unevaluated : undefined,
    workloads,
    machine_cost,
    monthly_cost: total.monthly,
    monthly_cost_complete: total.complete,
  };
}

/**
 * A VM's price as `evaluateVm` gives it, without its figures (a price needs none): the machine's and every disk's,
 * those without figures included, for a look ahead at a whole spec's price (../analyze). Each disk evaluated is
 * priced as evaluateDisks prices it, in the same order, so that the sum is the same to the last digit.
 */
export function priceVm(c: Catalog, vm: VmSpec, region: string): VmPrices {
  const resolved = resolveMachine(c, vm);
  if (!resolved.ok)
    return { machine_cost: machineCost(c, undefined, region), disks: [], monthly_cost: undefined, monthly_cost_complete: false };
  const machine = withController(resolved.machine, vm.disk_controller);
  const disks: Array<{ spec: DiskSpec; cost: Cost }> = [];
  for (const d of evaluableDisks(c, vm, machine))
    disks.push({ spec: d, cost: diskCost(c, c.disk_types[d.type], d, effectiveSize(c, d, machine)!, region, machine.series) });
  addInstanceStoreDisks(c, machine, vm, disks);
  const unmodelled = unmodelledDisks(c, vm, machine, region);
  const unevaluated = unevaluatedDisks(c, vm, machine, disks, unmodelled);
  const { machine_cost, total } = machineAndTotal(c, vm, machine, region, { disks, unmodelled, unevaluated });
  return { machine_cost, disks, unmodelled, unevaluated, monthly_cost: total.monthly, monthly_cost_complete: total.complete };
}

/** A VM's prices (`priceVm`; an evaluation has them too): each part's, and their sum. */
export interface VmPrices {
  machine_cost: Cost;
  disks: Array<{ cost: Cost }>;
  unmodelled?: Array<{ cost: Cost }>;
  unevaluated?: Array<{ cost: Cost }>;
  monthly_cost?: number;
  monthly_cost_complete: boolean;
}

/** The machine's price (a template's: per instance its groups run, its disks' too) and the whole VM's. */
function machineAndTotal(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  parts: { disks: Array<{ cost: Cost }>; unmodelled: Array<{ cost: Cost }>; unevaluated: Array<{ cost: Cost }> },
): { machine_cost: Cost; total: { monthly?: number; complete: boolean } } {
  let machine_cost = machineCost(c, machine, region, vm.pricing);
  if (vm.template)
    machine_cost = asTemplate(vm.template.runs, machine, machine_cost, [...parts.disks, ...parts.unmodelled, ...parts.unevaluated]);
  // The whole VM, machine and disks: a partial sum stays marked as one (monthly_cost_complete false).
  return { machine_cost, total: sumCosts(vmCosts({ machine_cost, ...parts })) };
}

/**
 * An instance template runs nothing by itself: it is paid per instance a group runs from it. Each part (the
 * machine, every disk) is priced as that many instances of it, nothing when no group runs it; the instances whose
 * number the configuration does not give (a size known only after apply, an autoscaler's range) are what the
 * total lacks, said rather than guessed.
 */
function asTemplate(runs: TemplateRun[], machine: Machine, machineCost: Cost, parts: Array<{ cost: Cost }>): Cost {
  const n = instancesRun(runs);
  for (const p of parts) p.cost = instancesOf(p.cost, n, 'disk');
  const gaps = runs.filter((r) => r.instances === undefined).map(runGap);
  return instancesOf(machineCost, n, machine.name, gaps);
}

/** The instances the groups that run a template run, as far as their number is known. */
function instancesRun(runs: TemplateRun[]): number {
  return runs.reduce((s, r) => s + (r.instances ?? 0), 0);
}

/**
 * A disk's monthly price on the VM as the VM's evaluation gives it (a template's: per instance its groups run),
 * without evaluating the VM: a search prices the candidate it has found to meet its condition, a disk with figures
 * (a price needs none). Undefined for a type the edition does not know.
 */
export function diskPriceOn(c: Catalog, vm: VmSpec, machine: Machine, region: string, d: DiskSpec): Cost | undefined {
  const t = c.disk_types[d.type];
  const size = t && effectiveSize(c, d, machine);
  if (!t || size === undefined) return undefined;
  const one = diskCost(c, t, d, size, region, machine.series);
  return vm.template ? instancesOf(one, instancesRun(vm.template.runs), 'disk') : one;
}

function instancesOf(one: Cost, n: number, what: string, more: PriceGap[] = []): Cost {
  if (n === 0) return cost(0, false, () => `a template runs no ${what} by itself: it is paid per instance a group runs`, more);
  const gaps = [...one.gaps, ...more];
  if (one.monthly === undefined) return cost(undefined, one.uncertain, () => one.why, gaps);
  return cost(one.monthly * n, one.uncertain, () => `${plural(n, 'instance')} × ${one.why}`, gaps);
}

function runGap(r: TemplateRun): PriceGap {
  const a = r.autoscaler;
  const range = a && (a.min !== undefined || a.max !== undefined) ? `${a.min ?? '?'}–${a.max ?? '?'} ` : '';
  const text = a
    ? `the ${range}instances ${a.address} scales ${r.group} to`
    : `the instances ${r.group} runs (${r.unknown ?? 'number unknown'})`;
  return { part: 'instances', text };
}

/** Disks whose type the edition does not model on this machine, each with its price (a price needs no figures). */
function unmodelledDisks(c: Catalog, vm: VmSpec, machine: Machine, region: string): UnmodelledDisk[] {
  const out: UnmodelledDisk[] = [];
  for (const d of vm.disks) {
    const t = c.disk_types[d.type];
    const why = d.invalid === undefined && unmodelledOn(t, machine);
    if (!why) continue;
    const size = effectiveSize(c, d, machine);
    const gap = { part: 'capacity' as const, text: `disk '${d.name}' has no size` };
    out.push({
      spec: d,
      unmodelled: why,
      cost: size ? diskCost(c, t, d, size, region, machine.series, false) : cost(undefined, false, () => gap.text, [gap]),
    });
  }
  return out;
}

/**
 * The VM's disks that got no figures for want of a type the edition knows or of a valid size (the finding on
 * that value says what is wrong): listed with the reason and an unknown price, never dropped from the totals.
 */
function unevaluatedDisks(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  disks: Array<{ spec: DiskSpec }>,
  unmodelled: UnmodelledDisk[],
): UnevaluatedDisk[] {
  const out: UnevaluatedDisk[] = [];
  // Most VMs have every disk evaluated: then none is unevaluated, and no set of them is made.
  if (disks.length === vm.disks.length && everyPlaced(vm, disks, unmodelled)) return out;
  const placed = new Set<DiskSpec>();
  for (const x of disks) placed.add(x.spec);
  for (const u of unmodelled) placed.add(u.spec);
  for (const d of vm.disks) {
    if (placed.has(d)) continue;
    if (d.type === INSTANCE_STORE && !c.disk_types[d.type]) continue; // listed as the instance's store
    // An error on a value it is evaluated from, or (Terraform) a value known only after apply: said as such.
    const invalid = d.invalid;
    if (invalid !== undefined) {
      out.push({ spec: d, why: invalid, cost: cost(undefined, false, () => invalid, [{ part: 'capacity', text: invalid }]) });
      continue;
    }
    const why = !d.type
      ? `disk '${d.name}' has no type`
      : !c.disk_types[d.type]
        ? `disk '${d.name}' has a type ${c.edition} does not know`
        : d.size_gib !== undefined && refusedSize(c.disk_types[d.type], d.size_gib, d.replication)
          ? `disk '${d.name}' has a size ${d.type} does not come in`
          : c.disk_types[d.type].model === 'devices'
            ? `${machine.name} does not take disk '${d.name}' as written`
            : `disk '${d.name}' has no valid size`;
    out.push({ spec: d, why, cost: cost(undefined, false, () => why, [{ part: 'capacity', text: why }]) });
  }
  return out;
}

/**
 * Whether the evaluated disks are the VM's disks, in order and none unmodelled: then every disk is placed. False is
 * only a reason to look closer.
 */
function everyPlaced(vm: VmSpec, disks: Array<{ spec: DiskSpec }>, unmodelled: UnmodelledDisk[]): boolean {
  if (unmodelled.length) return false;
  for (let i = 0; i < disks.length; i++) if (disks[i].spec !== vm.disks[i]) return false;
  return true;
}

/**
 * The names of the VM's disks without figures: an instance store the evaluation left out, a type not modelled on
 * this machine, a disk without a valid type or size. Undefined when there are none (as on most VMs: no set then).
 */
function disksWithoutFigures(
  vm: VmSpec,
  disks: DiskEval[],
  unmodelled: UnmodelledDisk[],
  unevaluated: UnevaluatedDisk[],
): Set<string> | undefined {
  let out: Set<string> | undefined;
  let evaluated: Set<DiskSpec> | undefined;
  for (const d of vm.disks)
    if (d.type === INSTANCE_STORE && !(evaluated ??= new Set(disks.map((x) => x.spec))).has(d)) (out ??= new Set()).add(d.name);
  for (const u of unmodelled) (out ??= new Set()).add(u.spec.name);
  for (const u of unevaluated) (out ??= new Set()).add(u.spec.name);
  return out;
}
