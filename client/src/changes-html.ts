/**
 * The report view's "Changes since last commit" section: the server's diff record (the spec as the last commit has
 * it against the open text) as HTML — the summary line, then per changed VM its figures before → after with the
 * limit that binds each, its targets now met or missed, its cost change ("price unknown" where a side is not
 * wholly priced, never a number), and the findings that appeared or went away. Pure: no `vscode` import.
 */
import type {
  DiffFinding,
  DiffRecord,
  DiskDiff,
  FigureChange,
  Money,
  MoneyChange,
  VmDiff,
  WorkloadDiff,
} from '../../protocol/src/requests';
import { fmt, fmtHeadroom, fmtMoney, plural } from '../../core/src/units';
import { esc, limitWord, table } from './report-html';

/** What the section shows: the record with the commit it is against, or why there is none (no repository, ...). */
export type Changes = { record: DiffRecord; commit: string } | { message: string };

type Row = [item: string, before: string, after: string, note: string];

/** A side's price: "$85.00", "≥ $85.00" where a part is unpriced, "price unknown", "—" where the thing is absent. */
function moneyCell(m: Money | null, currency: string | null): string {
  if (m === null) return '—';
  if (m.amount === null || !currency) return 'price unknown';
  return `${m.complete ? '' : '≥ '}${fmtMoney(m.amount, currency)}`;
}

/** After − before: "+$12.00", "−$3.50", "±$0.00", or "price unknown" (with what is missing) — never a guess. */
export function deltaCell(m: MoneyChange, currency: string | null): string {
  if (m.delta === null || !currency) {
    const missing = [...new Set([...(m.before?.missing ?? []), ...(m.after?.missing ?? [])])];
    return `price unknown${missing.length ? ` (${missing.join('; ')})` : ''}`;
  }
  if (m.delta === 0) return `±${fmtMoney(0, currency)}`;
  return `${m.delta > 0 ? '+' : '−'}${fmtMoney(Math.abs(m.delta), currency)}`;
}

const text = (x: string | number | null) => (x === null ? '—' : typeof x === 'number' ? fmt(x) : x);

const FIGURES: Array<[keyof DiskDiff['figures'], string, number]> = [
  ['read_iops', 'read IOPS', 0],
  ['write_iops', 'write IOPS', 0],
  ['read_mibps', 'read MiB/s', 1],
  ['write_mibps', 'write MiB/s', 1],
];

/** "15,000 (machine (vCPUs))": a figure with the limit that binds it. */
function figureCell(f: FigureChange, side: 'before' | 'after', digits: number): string {
  const v = f[side];
  if (v === null) return '—';
  const by = f.limited_by[side];
  return `${fmt(v, digits)}${by ? ` (${limitWord(by)})` : ''}`;
}

function diskRows(d: DiskDiff, currency: string | null): Row[] {
  const name = `disk ${d.name}`;
  const kind = d.change === 'changed' ? '' : d.change;
  const rows: Row[] = [];
  if (d.type.before !== d.type.after || kind) rows.push([`${name}: type`, text(d.type.before), text(d.type.after), kind]);
  if (d.size_gib.before !== d.size_gib.after) rows.push([`${name}: GiB`, text(d.size_gib.before), text(d.size_gib.after), '']);
  for (const [k, label, digits] of FIGURES) {
    const f = d.figures[k];
    if (f.before === f.after && f.limited_by.before === f.limited_by.after) continue;
    const note = f.limit_changed ? `limit ${limitWord(f.limited_by.before!)} → ${limitWord(f.limited_by.after!)}` : '';
    rows.push([`${name}: ${label}`, figureCell(f, 'before', digits), figureCell(f, 'after', digits), note]);
  }
  if (d.upper_bound.before !== d.upper_bound.after)
    rows.push([`${name}: upper bound`, d.upper_bound.before ?? 'none', d.upper_bound.after ?? 'none', '']);
  const m = d.monthly_cost;
  if (m.delta !== 0) rows.push([`${name}: per month`, moneyCell(m.before, currency), moneyCell(m.after, currency), deltaCell(m, currency)]);
  return rows;
}

/** "met (+25%)", "missed (-60%)", "no target", "—" where the workload does not exist on that side. */
function targetCell(w: WorkloadDiff, side: 'before' | 'after'): string {
  const s = w.target[side];
  if (s === null) return '—';
  const h = w.headroom[side];
  return (s === 'met' || s === 'missed') && h !== null ? `${s} (${fmtHeadroom(h)})` : s;
}

function workloadRows(w: WorkloadDiff): Row[] {
  const name = `workload ${w.name}`;
  const note = w.verdict === 'now missed' || w.verdict === 'now met' ? w.verdict : w.change === 'changed' ? '' : w.change;
  const rows: Row[] = [[`${name}: target`, targetCell(w, 'before'), targetCell(w, 'after'), note]];
  const fig = (x: number | null, by: string | null, unit: string, digits: number) =>
    x === null ? '—' : `${fmt(x, digits)} ${unit}${by ? ` (${limitWord(by)})` : ''}`;
  if (w.iops.before !== w.iops.after || w.limited_by.before !== w.limited_by.after)
    rows.push([`${name}: IOPS`, fig(w.iops.before, w.limited_by.before, 'IOPS', 0), fig(w.iops.after, w.limited_by.after, 'IOPS', 0), '']);
  if (w.mibps.before !== w.mibps.after)
    rows.push([`${name}: MiB/s`, fig(w.mibps.before, null, 'MiB/s', 1), fig(w.mibps.after, null, 'MiB/s', 1), '']);
  return rows;
}

function vmRows(v: VmDiff, currency: string | null): Row[] {
  const rows: Row[] = [];
  const kind = v.change === 'changed' ? '' : v.change;
  if (v.machine_type.before !== v.machine_type.after || kind)
    rows.push(['machine', text(v.machine_type.before), text(v.machine_type.after), kind]);
  if (v.figures_unavailable.before !== v.figures_unavailable.after)
    rows.push(['figures', v.figures_unavailable.before ?? 'available', v.figures_unavailable.after ?? 'available', '']);
  for (const [part, m] of Object.entries(v.monthly_cost))
    if (m.delta !== 0)
      rows.push([`${part} per month`, moneyCell(m.before, currency), moneyCell(m.after, currency), deltaCell(m, currency)]);
  for (const d of v.disks) rows.push(...diskRows(d, currency));
  for (const w of v.workloads) rows.push(...workloadRows(w));
  return rows;
}

/** "changed: n2-standard-8 → n2-standard-16, +$283.59/month, 1 target now missed". */
function vmHeadline(v: VmDiff, currency: string | null): string {
  const m = v.machine_type;
  const machine = v.change === 'changed' && m.before !== m.after ? `${m.before ?? '?'} → ${m.after ?? '?'}` : (m.after ?? m.before ?? '?');
  const t = v.monthly_cost.total;
  const cost = t.delta === null ? deltaCell(t, currency) : `${deltaCell(t, currency)}/month`;
  const missed = v.workloads.filter((w) => w.verdict === 'now missed').length;
  const met = v.workloads.filter((w) => w.verdict === 'now met').length;
  const targets = [missed ? `${plural(missed, 'target')} now missed` : '', met ? `${plural(met, 'target')} now met` : ''];
  return [`${v.change}: ${machine}`, cost, ...targets].filter(Boolean).join(', ');
}

function findingsList(appeared: DiffFinding[], gone: DiffFinding[]): string {
  if (!appeared.length && !gone.length) return '';
  const item = (sign: string, what: string, f: DiffFinding) =>
    `<li class="${f.severity} ${what}">${sign} ${esc(f.severity)} <span class="code">${esc(f.code)}</span>${f.disk ? ` (disk ${esc(f.disk)})` : ''}: ${esc(f.message)}</li>`;
  return `<ul class="findings">${appeared.map((f) => item('+', 'appeared', f)).join('')}${gone.map((f) => item('−', 'gone', f)).join('')}</ul>`;
}

function vmSection(v: VmDiff, currency: string | null): string {
  const rows = vmRows(v, currency).map((r) => r.map(esc));
  return (
    `<h3 class="vm-change">VM ${esc(v.name)} <span class="dim">— ${esc(vmHeadline(v, currency))}</span></h3>` +
    (rows.length ? table(['', 'before', 'after', ''], rows, [false, true, true, false]) : '') +
    findingsList(v.findings.appeared, v.findings.gone)
  );
}

/** The section's HTML. */
export function changesHtml(c: Changes): string {
  const head = '<h2 id="changes">Changes since last commit</h2>';
  if ('message' in c) return `<section class="changes">${head}<p class="note">${esc(c.message)}</p></section>`;
  const r = c.record,
    cur = r.currency;
  const total = r.monthly_cost;
  const body = [
    `<p class="summary"><strong>${esc(r.summary)}</strong></p>`,
    `<p class="meta">Last commit ${esc(c.commit.slice(0, 7))} → the open text (unsaved edits included). Per month: ${esc(moneyCell(total.before, cur))} → ${esc(moneyCell(total.after, cur))} (${esc(deltaCell(total, cur))}).</p>`,
    ...r.vms.map((v) => vmSection(v, cur)),
  ];
  if (r.findings.appeared.length || r.findings.gone.length)
    body.push(`<h3>Findings on no VM</h3>${findingsList(r.findings.appeared, r.findings.gone)}`);
  return `<section class="changes">${head}${body.join('\n')}</section>`;
}
