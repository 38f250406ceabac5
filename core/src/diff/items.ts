/** A VM's disks and workloads compared, as their reports state them (figures, limits, verdicts, prices). */
import type { DiskReport, UnattachedDiskReport, VmReport, WorkloadReport } from '../report';
import type { Target } from '../document/types';
import { toCents } from '../model/types';
import type {
  Change,
  DiskDiff,
  DiskFigure,
  FigureChange,
  ItemChange,
  Money,
  MoneyChange,
  TargetStatus,
  UnattachedDiskDiff,
  WorkloadDiff,
} from './types';

export const FIGURES: DiskFigure[] = ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'];

export const change = <T>(before: T | null | undefined, after: T | null | undefined): Change<T> => ({
  before: before ?? null,
  after: after ?? null,
});

export function money(amount: number | null, complete: boolean, missing: string[] = []): Money {
  return { amount, complete, missing };
}

/** After − before in cents; unknown (null) when a side that exists is not wholly priced. A side absent costs 0. */
export function moneyChange(before: Money | null, after: Money | null): MoneyChange {
  const known = (m: Money | null) => (m === null ? 0 : m.complete && m.amount !== null ? m.amount : undefined);
  const b = known(before),
    a = known(after);
  return { before, after, delta: a === undefined || b === undefined ? null : toCents(a - b) };
}

const sameMoney = (x: Money | null, y: Money | null) =>
  x === y || (!!x && !!y && x.amount === y.amount && x.complete === y.complete && x.missing.join('\n') === y.missing.join('\n'));

export const moneyChanged = (m: MoneyChange) => !sameMoney(m.before, m.after);

const diskMoney = (d: DiskReport | undefined) => (d ? money(d.monthly_cost, d.monthly_cost_complete) : null);

function figure(b: DiskReport | undefined, a: DiskReport | undefined, k: DiskFigure): FigureChange {
  const lb = b?.limited_by?.[k] ?? null,
    la = a?.limited_by?.[k] ?? null;
  const fb = b?.[k] ?? null,
    fa = a?.[k] ?? null;
  return {
    before: fb,
    after: fa,
    limited_by: change(lb, la),
    limit_changed: lb !== null && la !== null && fb !== null && fa !== null && lb !== la,
  };
}

/** A disk's change; undefined when nothing its report shows of it changed. */
export function diskDiff(b: DiskReport | undefined, a: DiskReport | undefined): DiskDiff | undefined {
  const kind: ItemChange = !b ? 'added' : !a ? 'removed' : 'changed';
  const figures = {} as DiskDiff['figures'];
  for (const k of FIGURES) figures[k] = figure(b, a, k);
  const out: DiskDiff = {
    name: (a ?? b)!.name,
    change: kind,
    type: change(b?.type, a?.type),
    size_gib: change(b?.size_gib, a?.size_gib),
    figures,
    upper_bound: change(b?.upper_bound, a?.upper_bound),
    monthly_cost: moneyChange(diskMoney(b), diskMoney(a)),
  };
  if (kind !== 'changed') return out;
  const same =
    out.type.before === out.type.after &&
    out.size_gib.before === out.size_gib.after &&
    out.upper_bound.before === out.upper_bound.after &&
    FIGURES.every((k) => figures[k].before === figures[k].after && figures[k].limited_by.before === figures[k].limited_by.after) &&
    !moneyChanged(out.monthly_cost);
  return same ? undefined : out;
}

/** A disk attached to no VM: its change; undefined when its type, size and price are the same. */
export function unattachedDiff(b: UnattachedDiskReport | undefined, a: UnattachedDiskReport | undefined): UnattachedDiskDiff | undefined {
  const price = (d: UnattachedDiskReport | undefined) => (d ? money(d.monthly_cost, d.monthly_cost_complete) : null);
  const out: UnattachedDiskDiff = {
    name: (a ?? b)!.name,
    change: !b ? 'added' : !a ? 'removed' : 'changed',
    type: change(b?.type, a?.type),
    size_gib: change(b?.size_gib, a?.size_gib),
    monthly_cost: moneyChange(price(b), price(a)),
  };
  if (out.change !== 'changed') return out;
  const same = out.type.before === out.type.after && out.size_gib.before === out.size_gib.after && !moneyChanged(out.monthly_cost);
  return same ? undefined : out;
}

export function targetStatus(w: WorkloadReport | undefined): TargetStatus | null {
  if (!w) return null;
  if (!Object.values(w.target).some((x) => x !== undefined)) return 'no target';
  return w.meets_target === null ? 'not judged' : w.meets_target ? 'met' : 'missed';
}

const TARGET_KEYS = ['iops', 'read_iops', 'write_iops', 'mibps', 'read_mibps', 'write_mibps'] as const;

/** A workload's targets, the keys it sets in one order: two that ask the same are the same JSON. */
function targetValues(w: WorkloadReport | undefined): Target | null {
  if (!w) return null;
  const out: Target = {};
  for (const k of TARGET_KEYS) if (w.target[k] !== undefined) out[k] = w.target[k];
  return out;
}

const sum = (x: number | null, y: number | null) => (x === null || y === null ? null : Math.round((x + y) * 10) / 10);

function verdict(before: TargetStatus | null, after: TargetStatus | null): WorkloadDiff['verdict'] {
  if (after === 'missed') return before === 'missed' ? 'still missed' : 'now missed';
  if (after === 'met') return before === 'missed' ? 'now met' : before === 'met' ? 'still met' : 'other';
  return 'other';
}

/** A workload's change; undefined when its figures, limit and verdict are the same. */
export function workloadDiff(b: WorkloadReport | undefined, a: WorkloadReport | undefined): WorkloadDiff | undefined {
  const target = change(targetStatus(b), targetStatus(a));
  const out: WorkloadDiff = {
    name: (a ?? b)!.name,
    change: !b ? 'added' : !a ? 'removed' : 'changed',
    target,
    target_values: change(targetValues(b), targetValues(a)),
    headroom: change(b?.headroom, a?.headroom),
    verdict: verdict(target.before, target.after),
    iops: change(b && sum(b.read_iops, b.write_iops), a && sum(a.read_iops, a.write_iops)),
    mibps: change(b && sum(b.read_mibps, b.write_mibps), a && sum(a.read_mibps, a.write_mibps)),
    limited_by: change(b?.limited_by, a?.limited_by),
  };
  if (out.change !== 'changed') return out;
  const same =
    target.before === target.after &&
    JSON.stringify(out.target_values.before) === JSON.stringify(out.target_values.after) &&
    out.headroom.before === out.headroom.after &&
    out.iops.before === out.iops.after &&
    out.mibps.before === out.mibps.after &&
    out.limited_by.before === out.limited_by.after;
  return same ? undefined : out;
}

/** Items of two lists matched by name (the k-th of a name with the k-th), each pair's diff where it changed. */
export function matchByName<T extends { name: string }, D>(before: T[], after: T[], diff: (b?: T, a?: T) => D | undefined): D[] {
  const pending = new Map<string, T[]>();
  for (const b of before) pending.set(b.name, [...(pending.get(b.name) ?? []), b]);
  const out: D[] = [];
  for (const a of after) {
    const d = diff(pending.get(a.name)?.shift(), a);
    if (d) out.push(d);
  }
  for (const b of before) if (pending.get(b.name)?.includes(b)) out.push(diff(b, undefined)!);
  return out;
}

/** A VM's three prices as its report states them. */
export function vmMoney(v: VmReport | undefined) {
  if (!v) return { machine: null, disks: null, total: null };
  // A machine's price may be partial (a template whose groups' sizes are not all known): as its report says.
  const disksComplete = v.disks.every((d) => d.monthly_cost_complete);
  return {
    machine: money(v.machine_monthly_cost, v.machine_monthly_cost_complete && v.machine_monthly_cost !== null),
    // A VM without disks pays nothing for them, which is known.
    disks: v.disks.length ? money(v.disks_monthly_cost, disksComplete && v.disks_monthly_cost !== null) : money(0, true),
    total: money(v.monthly_cost, v.monthly_cost_complete, v.monthly_cost_missing),
  };
}
