/**
 * The report view's "Changes since last commit" section: the server's diff record (the spec as the last commit has
 * it against the open text) as HTML — the summary line, then per changed VM its figures before → after with the
 * limit that binds each, its targets now met or missed, its cost change ("price unknown" where a side is not
 * wholly priced, never a number), and the findings that appeared or went away. Pure: no `vscode` import.
 */
import type { DiffFinding, DiffRecord, Money, MoneyChange, VmDiff } from '../../protocol/src/requests';
import { vmRows, type RowStyle } from '../../protocol/src/diff-rows';
import { fmtMoney, plural } from '../../core/src/units';
import { esc, limitWord, table } from './report-html';

/** What the section shows: the record with the commit it is against, or why there is none (no repository, ...). */
export type Changes = { record: DiffRecord; commit: string } | { message: string };

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

/** The view's style of the rows: "—" where nothing is, limits in words, prices as `moneyCell` says them. */
const VIEW_STYLE: RowStyle = { none: '—', limit: limitWord, money: moneyCell, delta: deltaCell };

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
  const rows = vmRows(v, currency, VIEW_STYLE).map((r) => r.map(esc));
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
