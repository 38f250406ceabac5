/** What `storage-perf diff` shows of a changed VM, as rows (item, before, after, note) every text format lays out. */
import {
  deltaText,
  fmt,
  fmtHeadroom,
  moneyText,
  type DiffFinding,
  type DiffRecord,
  type DiskDiff,
  type FigureChange,
  type VmDiff,
  type WorkloadDiff,
} from '../../../core/src';

export type Row = [item: string, before: string, after: string, note: string];

const FIGURE_LABELS: Array<[keyof DiskDiff['figures'], string, number]> = [
  ['read_iops', 'read IOPS', 0],
  ['write_iops', 'write IOPS', 0],
  ['read_mibps', 'read MiB/s', 1],
  ['write_mibps', 'write MiB/s', 1],
];

const text = (x: string | number | null, digits = 0) => (x === null ? '-' : typeof x === 'number' ? fmt(x, digits) : x);

/** "15,000 (vm)": a figure with the limit that binds it. */
function figureCell(f: FigureChange, side: 'before' | 'after', digits: number): string {
  const v = f[side];
  if (v === null) return '-';
  const by = f.limited_by[side];
  return `${fmt(v, digits)}${by ? ` (${by})` : ''}`;
}

function diskRows(d: DiskDiff, currency: string | null): Row[] {
  const rows: Row[] = [];
  const name = `disk ${d.name}`;
  const kind = d.change === 'changed' ? '' : d.change;
  if (d.type.before !== d.type.after || kind) rows.push([`${name}: type`, text(d.type.before), text(d.type.after), kind]);
  if (d.size_gib.before !== d.size_gib.after) rows.push([`${name}: GiB`, text(d.size_gib.before), text(d.size_gib.after), '']);
  for (const [k, label, digits] of FIGURE_LABELS) {
    const f = d.figures[k];
    if (f.before === f.after && f.limited_by.before === f.limited_by.after) continue;
    const note = f.limit_changed ? `limit ${f.limited_by.before} → ${f.limited_by.after}` : '';
    rows.push([`${name}: ${label}`, figureCell(f, 'before', digits), figureCell(f, 'after', digits), note]);
  }
  if (d.upper_bound.before !== d.upper_bound.after)
    rows.push([`${name}: upper bound`, text(d.upper_bound.before ?? 'none'), text(d.upper_bound.after ?? 'none'), '']);
  const m = d.monthly_cost;
  if (m.delta !== 0) rows.push([`${name}: per month`, moneyText(m.before, currency), moneyText(m.after, currency), deltaText(m, currency)]);
  return rows;
}

/** "met (+25%)", "missed (-60%)", "no target", "-" where the workload does not exist. */
function targetCell(w: WorkloadDiff, side: 'before' | 'after'): string {
  const s = w.target[side];
  if (s === null) return '-';
  const h = w.headroom[side];
  return (s === 'met' || s === 'missed') && h !== null ? `${s} (${fmtHeadroom(h)})` : s;
}

function workloadRows(w: WorkloadDiff): Row[] {
  const name = `workload ${w.name}`;
  const rows: Row[] = [];
  const note = w.verdict === 'now missed' || w.verdict === 'now met' ? w.verdict : w.change === 'changed' ? '' : w.change;
  rows.push([`${name}: target`, targetCell(w, 'before'), targetCell(w, 'after'), note]);
  const fig = (x: number | null, by: string | null, unit: string, digits: number) =>
    x === null ? '-' : `${fmt(x, digits)} ${unit}${by ? ` (${by})` : ''}`;
  if (w.iops.before !== w.iops.after || w.limited_by.before !== w.limited_by.after)
    rows.push([`${name}: IOPS`, fig(w.iops.before, w.limited_by.before, 'IOPS', 0), fig(w.iops.after, w.limited_by.after, 'IOPS', 0), '']);
  if (w.mibps.before !== w.mibps.after)
    rows.push([`${name}: MiB/s`, fig(w.mibps.before, null, 'MiB/s', 1), fig(w.mibps.after, null, 'MiB/s', 1), '']);
  return rows;
}

/** A changed VM's rows: its machine, prices, disks and workloads (money in the record's currency). */
export function vmRows(v: VmDiff, currency: string | null): Row[] {
  const rows: Row[] = [];
  const kind = v.change === 'changed' ? '' : v.change;
  if (v.machine_type.before !== v.machine_type.after || kind)
    rows.push(['machine', text(v.machine_type.before), text(v.machine_type.after), kind]);
  if (v.figures_unavailable.before !== v.figures_unavailable.after)
    rows.push(['figures', v.figures_unavailable.before ?? 'available', v.figures_unavailable.after ?? 'available', '']);
  for (const [part, m] of Object.entries(v.monthly_cost))
    if (m.delta !== 0)
      rows.push([`${part} per month`, moneyText(m.before, currency), moneyText(m.after, currency), deltaText(m, currency)]);
  for (const d of v.disks) rows.push(...diskRows(d, currency));
  for (const w of v.workloads) rows.push(...workloadRows(w));
  return rows;
}

/** "+ error target-unreachable (disk data): message". */
export function findingLine(sign: '+' | '-', f: DiffFinding): string {
  const where = f.disk ? ` (disk ${f.disk})` : '';
  return `${sign} ${f.severity} ${f.code}${where}: ${f.message}`;
}

/** A VM's headline: "db: changed — n2-standard-8 → n2-standard-32, +$849.78/month". */
export function vmHeadline(v: VmDiff, currency: string | null): string {
  const m = v.machine_type;
  const machine =
    v.change === 'changed'
      ? m.before === m.after
        ? (m.after ?? '?')
        : `${m.before ?? '?'} → ${m.after ?? '?'}`
      : (m.after ?? m.before ?? '?');
  const t = v.monthly_cost.total;
  const cost = t.delta === null ? 'monthly cost change unknown' : `${deltaText(t, currency)}/month`;
  const missed = v.workloads.filter((w) => w.verdict === 'now missed').length;
  return `${v.name}: ${v.change} — ${machine}, ${cost}${missed ? `, ${missed} target${missed === 1 ? '' : 's'} now missed` : ''}`;
}

/** "base a.perf.yaml (gcp-2024, us-central1) → head b.perf.yaml (gcp-2024, us-central1)". */
export function sidesLine(r: DiffRecord): string {
  const side = (s: DiffRecord['base'], which: string) =>
    `${which} ${s.path}${s.ref !== undefined ? ` at ${s.ref}` : ''} (${s.catalog ?? '?'}, ${s.region ?? '?'})`;
  return `${side(r.base, 'base')} → ${side(r.head, 'head')}`;
}
