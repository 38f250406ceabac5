/**
 * What a diff shows of a changed VM, as rows (item, before, after, note): its machine, prices, disks and
 * workloads. `storage-perf diff`'s text formats and the report view's changes section lay out the same rows;
 * how a missing value, a binding limit and money read is each one's own (`RowStyle`).
 */
import type { DiskDiff, FigureChange, Money, MoneyChange, Target, VmDiff, WorkloadDiff } from '../../core/src';
import { changeText } from '../../core/src/diff/summary';
import { fmt, fmtHeadroom } from '../../core/src/units';

export type Row = [item: string, before: string, after: string, note: string];

export interface RowStyle {
  /** Where there is nothing on that side ("-", "—"). */
  none: string;
  /** A binding limit as the output names it. */
  limit(by: string): string;
  /** A side's price. */
  money(m: Money | null, currency: string | null): string;
  /** After − before, or why it is unknown. */
  delta(m: MoneyChange, currency: string | null): string;
  /** A name or value the spec wrote (a disk's, a workload's, a machine or disk type); default as it is. */
  name?(s: string): string;
  /** A sentence that may quote the spec (why figures are unavailable); default as it is. */
  prose?(s: string): string;
}

const asIs = (s: string) => s;

const FIGURES: Array<[keyof DiskDiff['figures'], string, number]> = [
  ['read_iops', 'read IOPS', 0],
  ['write_iops', 'write IOPS', 0],
  ['read_mibps', 'read MiB/s', 1],
  ['write_mibps', 'write MiB/s', 1],
];

/** A changed VM's rows, with money in the record's currency. */
export function vmRows(v: VmDiff, currency: string | null, s: RowStyle): Row[] {
  const name = s.name ?? asIs;
  const prose = s.prose ?? asIs;
  const text = (x: string | number | null) => (x === null ? s.none : typeof x === 'number' ? fmt(x) : name(x));
  const rows: Row[] = [];
  const kind = v.change === 'changed' ? '' : changeText(v);
  if (v.machine_type.before !== v.machine_type.after || kind)
    rows.push(['machine', text(v.machine_type.before), text(v.machine_type.after), kind]);
  if (v.figures_unavailable.before !== v.figures_unavailable.after) {
    // Where the VM is not (added, removed), it has no figures to be available: the side is empty.
    const why = (x: string | null, exists: boolean) => (exists ? (x === null ? 'available' : prose(x)) : s.none);
    const f = v.figures_unavailable;
    rows.push(['figures', why(f.before, v.change !== 'added'), why(f.after, v.change !== 'removed'), kind]);
  }
  for (const [part, m] of Object.entries(v.monthly_cost))
    if (m.delta !== 0) rows.push([`${part} per month`, s.money(m.before, currency), s.money(m.after, currency), s.delta(m, currency)]);
  // A VM of a module the base could not read: its disks and workloads are not known to be added either.
  const unread = v.base_unread !== undefined;
  for (const d of v.disks) rows.push(...diskRows(d, currency, s, text, unread));
  for (const w of v.workloads) rows.push(...workloadRows(w, s, unread));
  return rows;
}

/** "15,000 (vm)": a figure with the limit that binds it. */
function figureCell(f: FigureChange, side: 'before' | 'after', digits: number, s: RowStyle): string {
  const v = f[side];
  if (v === null) return s.none;
  const by = f.limited_by[side];
  return `${fmt(v, digits)}${by ? ` (${s.limit(by)})` : ''}`;
}

function diskRows(d: DiskDiff, currency: string | null, s: RowStyle, text: (x: string | number | null) => string, unread: boolean): Row[] {
  const rows: Row[] = [];
  const name = `disk ${(s.name ?? asIs)(d.name)}`;
  const kind = d.change === 'changed' ? '' : unread ? 'not read at base' : d.change;
  if (d.type.before !== d.type.after || kind) rows.push([`${name}: type`, text(d.type.before), text(d.type.after), kind]);
  if (d.size_gib.before !== d.size_gib.after) rows.push([`${name}: GiB`, text(d.size_gib.before), text(d.size_gib.after), '']);
  for (const [k, label, digits] of FIGURES) {
    const f = d.figures[k];
    if (f.before === f.after && f.limited_by.before === f.limited_by.after) continue;
    const note = f.limit_changed ? `limit ${s.limit(f.limited_by.before!)} → ${s.limit(f.limited_by.after!)}` : '';
    rows.push([`${name}: ${label}`, figureCell(f, 'before', digits, s), figureCell(f, 'after', digits, s), note]);
  }
  if (d.upper_bound.before !== d.upper_bound.after) {
    const why = (x: string | null, exists: boolean) => (exists ? (x === null ? 'none' : (s.prose ?? asIs)(x)) : s.none);
    const u = d.upper_bound;
    rows.push([`${name}: upper bound`, why(u.before, d.change !== 'added'), why(u.after, d.change !== 'removed'), kind]);
  }
  const m = d.monthly_cost;
  if (m.delta !== 0) rows.push([`${name}: per month`, s.money(m.before, currency), s.money(m.after, currency), s.delta(m, currency)]);
  return rows;
}

/** "met (+25%)", "missed (-60%)", "no target", or `none` where the workload does not exist on that side. */
function targetCell(w: WorkloadDiff, side: 'before' | 'after', s: RowStyle): string {
  const t = w.target[side];
  if (t === null) return s.none;
  const h = w.headroom[side];
  return (t === 'met' || t === 'missed') && h !== null ? `${t} (${fmtHeadroom(h)})` : t;
}

const TARGET_WORDS: Array<[keyof Target, string, number]> = [
  ['iops', 'IOPS', 0],
  ['read_iops', 'read IOPS', 0],
  ['write_iops', 'write IOPS', 0],
  ['mibps', 'MiB/s', 1],
  ['read_mibps', 'read MiB/s', 1],
  ['write_mibps', 'write MiB/s', 1],
];

/** "12,000 IOPS", "9,000 read IOPS, 100 write MiB/s", "none", or `none` where the workload does not exist. */
function targetText(t: Target | null, s: RowStyle): string {
  if (t === null) return s.none;
  const parts = TARGET_WORDS.flatMap(([k, unit, digits]) => (t[k] === undefined ? [] : [`${fmt(t[k], digits)} ${unit}`]));
  return parts.join(', ') || 'none';
}

function workloadRows(w: WorkloadDiff, s: RowStyle, unread: boolean): Row[] {
  const name = `workload ${(s.name ?? asIs)(w.name)}`;
  const kind = unread ? 'not read at base' : w.change;
  const note = w.verdict === 'now missed' || w.verdict === 'now met' ? w.verdict : w.change === 'changed' ? '' : kind;
  const rows: Row[] = [[`${name}: target`, targetCell(w, 'before', s), targetCell(w, 'after', s), note]];
  const t = w.target_values;
  if (JSON.stringify(t.before) !== JSON.stringify(t.after))
    rows.push([`${name}: target value`, targetText(t.before, s), targetText(t.after, s), '']);
  const fig = (x: number | null, by: string | null, unit: string, digits: number) =>
    x === null ? s.none : `${fmt(x, digits)} ${unit}${by ? ` (${s.limit(by)})` : ''}`;
  if (w.iops.before !== w.iops.after || w.limited_by.before !== w.limited_by.after)
    rows.push([`${name}: IOPS`, fig(w.iops.before, w.limited_by.before, 'IOPS', 0), fig(w.iops.after, w.limited_by.after, 'IOPS', 0), '']);
  if (w.mibps.before !== w.mibps.after)
    rows.push([`${name}: MiB/s`, fig(w.mibps.before, null, 'MiB/s', 1), fig(w.mibps.after, null, 'MiB/s', 1), '']);
  return rows;
}
