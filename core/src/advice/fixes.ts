/**
 * Fixes as the spec sees them: which keys a suggested change sets, and titles that say what it costs or
 * gains. Built from advice (./index) and the model's figures; turned into text edits by ../language/fixes.
 */
import { resolveMachine, type Catalog, type DiskType, type Machine } from '../catalog';
import { fixTypes, type FixData, type FixValue } from '../diagnostics';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import { metricLabel } from '../model/disks';
import { evaluateOn } from '../model/evaluate';
import { gapTexts, METRICS, vmCosts, type DiskEval, type VmEval } from '../model/types';
import { costText, fmt, fmtMoney, formatBlock, formatSize } from '../units';
import type { VmAdvice } from './index';
import { withDisk, withWorkload } from './search';
import type { WorkloadSuggestions } from './workload';

type Value = { path: string; value: string | number };

/** The value that names machine `m` for this VM: its machine_type, or its vcpus where it gives a series. */
export function machineSetting(vm: VmSpec, m: Machine): Value {
  return vm.machine_type !== undefined || vm.series === undefined
    ? { path: `${vm.path}/machine_type`, value: m.name }
    : { path: `${vm.path}/vcpus`, value: m.vcpus };
}

export function setMachine(vm: VmSpec, m: Machine, title: string, preferred = true): FixData {
  return { kind: 'set-value', ...machineSetting(vm, m), title, preferred };
}

/**
 * " (+6,000 read IOPS; +$97.09/month, $194.18/month in all)": the figure a machine change raises most, relative
 * to what it was, and what the VM then costs, machine and disks.
 */
export function gainText(advice: VmAdvice, m: Machine): string {
  const before = advice.evaluation;
  const after = advice.onMachine(m);
  const sum = (e: VmEval, k: (typeof METRICS)[number]) => e.disks.reduce((s, d) => s + d.figures[k], 0);
  const gains = METRICS.map((k) => ({ k, d: sum(after, k) - sum(before, k) })).filter((g) => g.d > 0.5);
  const cost = vmCostChange(before.catalog, before, after);
  if (!gains.length) return ` (${cost})`;
  const best = gains.reduce((a, b) => (b.d / sum(before, b.k) > a.d / sum(before, a.k) ? b : a));
  return ` (+${fmt(best.d)} ${metricLabel(best.k)}; ${cost})`;
}

/**
 * "+$97.09/month, $194.18/month in all": what a change adds to the VM's whole monthly cost (machine and disks)
 * and what it then costs; where a price is missing, only the partial total, said as one.
 */
export function vmCostChange(c: Catalog, before: VmEval, after: VmEval): string {
  const all = costText(after.monthly_cost, after.monthly_cost_complete, gapTexts(vmCosts(after)), c.currency, '/month in all');
  if (!after.monthly_cost_complete || !before.monthly_cost_complete) return all;
  const delta = after.monthly_cost! - before.monthly_cost!;
  return `${delta >= 0 ? '+' : '−'}${fmtMoney(Math.abs(delta), c.currency)}/month, ${all}`;
}

interface TargetSite {
  c: Catalog;
  region: string;
  e: VmEval;
  has(path: string): boolean;
  /** The workload the fixes are for: each title says what it reaches after the change. */
  workload?: string;
}

/** What a target fix changes: the VM's monthly cost, and the figure the workload then reaches. */
function changeText(site: TargetSite, after: VmEval): string {
  const w = site.workload === undefined ? undefined : after.workloads.find((x) => x.spec.name === site.workload);
  const reach = w
    ? `; '${w.spec.name}' then reaches ${fmt(w.read_iops + w.write_iops)} IOPS, ${fmt(w.read_mibps + w.write_mibps)} MiB/s`
    : '';
  return `${vmCostChange(site.c, site.e, after)}${reach}`;
}

/** A fix for a missed target, and the VM it leaves (what it then costs). */
interface Candidate {
  fix: FixData;
  after: VmEval;
}

/**
 * The fixes for a workload that misses its target, cheapest first: every change the advice knows that meets it (a
 * machine and disk together, another disk type, the disk's own change, a larger machine; larger blocks or a deeper
 * queue, which change the workload and are of type `workload`), ranked by what the VM then costs a month (the part
 * the catalog prices, where a price is missing), the smallest edit first where two cost the same. The cheapest of
 * each set of fix types is preferred, so that `lint --fix` applies, of the types it is asked for, the cheapest.
 */
export function targetFixes(site: TargetSite, s: WorkloadSuggestions): FixData[] {
  const { c, e } = site;
  const vm = e.spec;
  // A VM without a machine has no figures, so no target it could be said to miss.
  if (!e.machine) return [];
  const found: Array<Candidate | undefined> = [];
  const disk = s.disk ? vm.disks.find((x) => x.name === s.disk) : undefined;
  const cur = disk && e.disks.find((x) => x.spec.name === disk.name);
  if (s.together && s.machine_type && s.disk_size_gib !== undefined && disk && cur) {
    const target = resolveMachine(c, { machine_type: s.machine_type });
    if (target.ok) found.push(diskFix(site, disk, cur, { ...s, disk_size_gib: s.disk_size_gib }, target.machine, s.together_queue_depth));
  } else if (s.disk_size_gib !== undefined && disk && cur) {
    // Another type that surely does it for less; the disk's own change; where the own change's price is unknown,
    // the cheapest priced type beside it.
    if (s.instead) found.push(diskFix(site, disk, cur, s.instead));
    found.push(diskFix(site, disk, cur, { ...s, disk_size_gib: s.disk_size_gib }));
    if (s.alternative) found.push(diskFix(site, disk, cur, s.alternative));
  }
  if (s.machine_type && !s.together) {
    const target = resolveMachine(c, { machine_type: s.machine_type });
    if (target.ok) {
      const after = evaluateOn(c, vm, target.machine, site.region);
      found.push({ fix: setMachine(vm, target.machine, `Change machine to ${s.machine_type} (${changeText(site, after)})`), after });
    }
  }
  if (s.caching) found.push(cachingFix(site, s.caching.disk));
  found.push(...workloadFixes(site, s));
  return ranked(found.filter((x): x is Candidate => !!x));
}

/** Read-only host caching on the disk: the key set, or added to the disk. */
function cachingFix(site: TargetSite, name: string): Candidate | undefined {
  const { c, e } = site;
  const disk = e.spec.disks.find((x) => x.name === name);
  if (!disk || !e.machine) return undefined;
  const after = evaluateOn(c, withDisk(e.spec, disk, { caching: 'read-only' }), e.machine, site.region);
  const path = `${disk.path}/caching`;
  const where = site.has(path) ? { kind: 'set-value' as const, path } : { kind: 'add-key' as const, path: disk.path, key: 'caching' };
  return { fix: { ...where, value: 'read-only', title: `Set caching: read-only on '${name}' (${changeText(site, after)})` }, after };
}

/** Cheapest first (ties: fewer values set), each the preferred fix where it is the first of its fix types. */
function ranked(found: Candidate[]): FixData[] {
  const monthly = (x: Candidate) => x.after.monthly_cost ?? Infinity;
  const size = (f: FixData) => (f.kind === 'set-values' ? f.values.length : 1);
  const order = found
    .map((x, i) => ({ x, i }))
    .sort((a, b) => {
      const d = monthly(a.x) - monthly(b.x);
      return Math.abs(d) >= 0.005 ? d : size(a.x.fix) - size(b.x.fix) || a.i - b.i;
    });
  const seen = new Set<string>();
  return order.map(({ x }) => {
    const types = fixTypes(x.fix, 'sizing').join();
    const preferred = !seen.has(types);
    seen.add(types);
    return { ...x.fix, preferred };
  });
}

/**
 * What the workload itself could change to meet its target, each evaluated: the smallest larger block size, a
 * deeper queue. Of type `workload`: `lint --fix` applies them only when asked for.
 */
function workloadFixes(site: TargetSite, s: WorkloadSuggestions): Candidate[] {
  const { c, e } = site;
  const w = e.spec.workloads.find((x) => x.name === site.workload);
  if (!w || !e.machine) return [];
  const set = (key: string, value: string | number, title: string, change: Partial<WorkloadSpec>): Candidate => {
    const after = evaluateOn(c, withWorkload(e.spec, w, change), e.machine!, site.region);
    const path = `${w.path}/${key}`;
    const where = site.has(path) ? { kind: 'set-value' as const, path } : { kind: 'add-key' as const, path: w.path, key };
    return { fix: { ...where, value, title: `${title} (${changeText(site, after)})`, type: 'workload' }, after };
  };
  const out: Candidate[] = [];
  if (s.block_kib !== undefined)
    out.push(
      set('block_size', formatBlock(s.block_kib), `Use ${formatBlock(s.block_kib)} blocks for '${w.name}'`, { block_kib: s.block_kib }),
    );
  if (s.queue_depth !== undefined)
    out.push(set('queue_depth', s.queue_depth, `Set queue depth to ${s.queue_depth} for '${w.name}'`, { queue_depth: s.queue_depth }));
  return out;
}

/** A disk as a suggestion leaves it: its size, and its type and provisioned amounts where the suggestion gives a type. */
interface DiskChange {
  disk_size_gib: number;
  disk_type?: string;
  provisioned_iops?: number;
  provisioned_mibps?: number;
}

/**
 * One fix that leaves the disk as `change` says, on machine `m` as well when given: the values it sets (a type, a
 * size, provisioned amounts; a provisioned key the new type does not take removed) and a title that says each
 * of them, with what the VM then costs and the workload reaches (a missing price said as such).
 */
function diskFix(site: TargetSite, disk: DiskSpec, cur: DiskEval, change: DiskChange, m?: Machine, depth?: number): Candidate | undefined {
  const { c, e } = site;
  const workload = depth !== undefined ? e.spec.workloads.find((w) => w.name === site.workload) : undefined;
  const type = change.disk_type ?? disk.type;
  const resize = Math.abs(change.disk_size_gib - cur.size_gib) > 1e-9;
  const values: FixValue[] = m ? [machineSetting(e.spec, m)] : [];
  if (type !== disk.type) values.push({ path: `${disk.path}/type`, value: type });
  // A size the spec does not write yet (the type's default, or local SSD's devices) is added: a disk of a sized
  // type needs it written even where it equals what the devices made.
  const size = formatSize(change.disk_size_gib);
  const sizedType = c.disk_types[type]?.model !== 'devices';
  const unwritten = type !== disk.type && sizedType && !site.has(`${disk.path}/size`);
  if (resize || unwritten)
    values.push(site.has(`${disk.path}/size`) ? { path: `${disk.path}/size`, value: size } : { path: disk.path, key: 'size', value: size });
  // What only devices take (their count and interface) goes with them.
  if (type !== disk.type && sizedType)
    for (const key of ['count', 'interface'])
      if (site.has(`${disk.path}/${key}`)) values.push({ path: `${disk.path}/${key}`, remove: true });
  // What it provisions: on another type, each amount it gives; on the disk's own type, those it changes.
  const bought = change.disk_type === undefined ? {} : type !== disk.type ? change : changedAmounts(disk, change);
  if (change.disk_type !== undefined) values.push(...provisionedValues(disk, site.has, bought, c.disk_types[type]));
  if (values.length === 0) return undefined;
  const amounts = boughtText(bought, '').replace(/ provisioned$/, '');
  // Only what changes is said: a machine change that leaves the disk as it is names no resize.
  const what =
    type !== disk.type
      ? `switch '${disk.name}' to ${type}${resize || unwritten ? `, ${formatSize(change.disk_size_gib)}` : ''}${boughtText(bought)}${removedText(values)}`
      : amounts
        ? `provision ${amounts} on '${disk.name}'${resize ? `, resized to ${formatSize(change.disk_size_gib)}` : ''}`
        : resize
          ? `resize '${disk.name}' to ${formatSize(change.disk_size_gib)}`
          : '';
  const settings = {
    type,
    size_gib: change.disk_size_gib,
    ...(change.disk_type !== undefined ? { provisioned_iops: change.provisioned_iops, provisioned_mibps: change.provisioned_mibps } : {}),
  };
  let changed = withDisk(e.spec, disk, settings);
  if (workload && depth !== undefined) {
    values.push({ path: `${workload.path}/queue_depth`, value: depth });
    changed = { ...changed, workloads: changed.workloads.map((w) => (w === workload ? { ...w, queue_depth: depth } : w)) };
  }
  const after = evaluateOn(c, changed, m ?? e.machine!, site.region);
  const deeper = workload ? ` and queue depth ${depth} for '${workload.name}'` : '';
  const title = m
    ? `Change machine to ${m.name}${what ? `${deeper ? ', ' : ' and '}${what}` : ''}${deeper}`
    : what[0].toUpperCase() + what.slice(1);
  return { fix: { kind: 'set-values', values, title: `${title} (${changeText(site, after)})` }, after };
}

/** The provisioned amounts of `change` that differ from what the disk writes today (those equal to it are no change). */
function changedAmounts(disk: DiskSpec, change: DiskChange): Pick<DiskChange, 'provisioned_iops' | 'provisioned_mibps'> {
  return {
    provisioned_iops: change.provisioned_iops !== disk.provisioned_iops ? change.provisioned_iops : undefined,
    provisioned_mibps: change.provisioned_mibps !== disk.provisioned_mibps ? change.provisioned_mibps : undefined,
  };
}

/** ", 6,000 IOPS and 400 MiB/s provisioned": what a switch provisions, or nothing. */
export function boughtText(b: { provisioned_iops?: number; provisioned_mibps?: number }, lead = ', '): string {
  const parts = [
    b.provisioned_iops !== undefined ? `${fmt(b.provisioned_iops)} IOPS` : '',
    b.provisioned_mibps !== undefined ? `${fmt(b.provisioned_mibps)} MiB/s` : '',
  ];
  const said = parts.filter(Boolean);
  return said.length ? `${lead}${said.join(' and ')} provisioned` : '';
}

/**
 * The values that provision IOPS and throughput on a disk: each set where the spec writes its key already, else
 * added to the disk. Nothing for an amount left out. With `onto`, the type the disk changes to: a provisioned
 * amount the spec writes and that type does not take is removed (it would have no effect there), so that the
 * change leaves the disk as its title says.
 */
export function provisionedValues(
  disk: DiskSpec,
  has: (path: string) => boolean,
  b: { provisioned_iops?: number; provisioned_mibps?: number },
  onto?: DiskType,
): FixValue[] {
  const out: FixValue[] = [];
  const put = (key: string, value: string | number) =>
    out.push(has(`${disk.path}/${key}`) ? { path: `${disk.path}/${key}`, value } : { path: disk.path, key, value });
  if (b.provisioned_iops !== undefined) put('provisioned_iops', b.provisioned_iops);
  if (b.provisioned_mibps !== undefined) put('provisioned_throughput', `${b.provisioned_mibps}MiB/s`);
  if (onto) {
    const takes = { provisioned_iops: false, provisioned_throughput: false };
    if (onto.model === 'provisioned') {
      takes.provisioned_iops = !!onto.provisioned.iops;
      takes.provisioned_throughput = !!onto.provisioned.mibps;
    }
    for (const key of ['provisioned_iops', 'provisioned_throughput'] as const) {
      if (!takes[key] && has(`${disk.path}/${key}`)) out.push({ path: `${disk.path}/${key}`, remove: true });
    }
  }
  return out;
}

/** ", without provisioned_throughput": the keys a change removes, for its title; nothing when it removes none. */
export function removedText(values: FixValue[]): string {
  const keys = values.flatMap((v) => ('remove' in v ? [v.path.slice(v.path.lastIndexOf('/') + 1)] : []));
  return keys.length ? `, without ${keys.join(' and ')}` : '';
}
