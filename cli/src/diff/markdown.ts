/**
 * `storage-perf diff --format markdown`: a pull-request comment. A hidden marker (to find the comment again), the
 * summary, a compact table of the changed VMs, then each VM's details in a `<details>` block, within 65,000
 * characters (GitHub takes 65,536): what does not fit is counted in a closing line, never cut mid-block.
 */
import { deltaText, moneyText, type DiffFinding, type DiffRecord, type VmDiff } from '../../../core/src';
import { sidesLine, unattachedLine, vmHeadline, vmRows, type Row } from './rows';

/** The comment's first line: the GitHub Action finds its own comment by it. */
export const MARKER = '<!-- storage-perf-diff -->';
export const MAX_MARKDOWN = 65000;
/** Room kept for the closing line that counts what was left out. */
const FOOTER_ROOM = 600;

/** Text in a table cell or an HTML block: no pipe, no tag, no line break. */
export function cell(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A Markdown table whose columns are padded to one width: aligned in the source as in the rendering. */
export function mdTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows].map((r) => r.map(cell));
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(all[0]), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...all.slice(1).map(line)].join('\n');
}

function compactRow(v: VmDiff, currency: string | null): string[] {
  const m = v.machine_type;
  const machine = v.change !== 'changed' || m.before === m.after ? (m.after ?? m.before ?? '-') : `${m.before ?? '-'} → ${m.after ?? '-'}`;
  const missed = v.workloads.filter((w) => w.verdict === 'now missed').length;
  const met = v.workloads.filter((w) => w.verdict === 'now met').length;
  const targets = [missed ? `${missed} now missed` : '', met ? `${met} now met` : ''].filter(Boolean).join(', ') || '-';
  const f = v.findings;
  const findings = f.appeared.length || f.gone.length ? `+${f.appeared.length} / −${f.gone.length}` : '-';
  const t = v.monthly_cost.total;
  return [v.name, v.change, machine, targets, findings, `${moneyText(t.after, currency)} (${deltaText(t, currency)})`];
}

const ICON: Record<DiffFinding['severity'], string> = { error: '🔴', warning: '🟠', information: '🔵', hint: '⚪' };

function findingItem(sign: string, f: DiffFinding): string {
  return `- ${sign} ${ICON[f.severity]} ${f.severity} \`${f.code}\`${f.disk ? ` (disk ${cell(f.disk)})` : ''}: ${cell(f.message)}`;
}

function vmDetails(v: VmDiff, currency: string | null): string {
  const rows: Row[] = vmRows(v, currency);
  const headline = vmHeadline(v, currency).slice(v.name.length);
  const head = `<details><summary><b>${cell(v.name)}</b>${cell(headline)}</summary>`;
  const parts = [head, ''];
  if (rows.length) parts.push(mdTable(['', 'before', 'after', ''], rows), '');
  if (v.findings.appeared.length) parts.push('Findings that appeared:', '', ...v.findings.appeared.map((f) => findingItem('+', f)), '');
  if (v.findings.gone.length) parts.push('Findings gone:', '', ...v.findings.gone.map((f) => findingItem('−', f)), '');
  parts.push('</details>', '', '');
  return parts.join('\n');
}

/** What did not fit: how many VMs, and what they hold, so the comment still says it. */
function leftOut(vms: VmDiff[], currency: string | null): string {
  const missed = vms.reduce((n, v) => n + v.workloads.filter((w) => w.verdict === 'now missed').length, 0);
  const errors = vms.reduce((n, v) => n + v.findings.appeared.filter((f) => f.severity === 'error').length, 0);
  const deltas = vms.map((v) => v.monthly_cost.total.delta);
  const sum = deltas.every((d) => d !== null) ? deltas.reduce((s, d) => s + d!, 0) : null;
  const cost =
    sum === null
      ? 'cost change unknown'
      : deltaText({ before: null, after: null, delta: Math.round(sum * 100) / 100 }, currency) + '/month';
  const kinds = (['changed', 'added', 'removed'] as const).flatMap((k) => {
    const n = vms.filter((v) => v.change === k).length;
    return n ? [`${n} ${k}`] : [];
  });
  return `… and ${vms.length} more VM${vms.length === 1 ? '' : 's'} not shown here (${kinds.join(', ')}; ${missed} target${missed === 1 ? '' : 's'} now missed, ${errors} new error${errors === 1 ? '' : 's'}, ${cost}): run \`storage-perf diff --format json\` for all.`;
}

export function renderMarkdown(r: DiffRecord, max = MAX_MARKDOWN): string {
  const cur = r.currency;
  const total = r.monthly_cost;
  const head = [
    MARKER,
    `### storage-perf: ${cell(r.summary)}`,
    '',
    `${cell(sidesLine(r))}. Monthly cost: ${moneyText(total.before, cur)} → ${moneyText(total.after, cur)} (${deltaText(total, cur)}).`,
    '',
    '',
  ].join('\n');
  let out = head;
  const budget = max - FOOTER_ROOM;
  // The compact table: as many VMs as fit in half the room, the details of those after it.
  const header = ['VM', 'change', 'machine', 'targets', 'findings', 'per month (Δ)'];
  let inTable = r.vms.length;
  let tableText = r.vms.length
    ? mdTable(
        header,
        r.vms.map((v) => compactRow(v, cur)),
      ) + '\n\n'
    : '';
  while (inTable > 0 && out.length + tableText.length > budget / 2) {
    inTable = Math.floor(inTable / 2);
    tableText = inTable
      ? mdTable(
          header,
          r.vms.slice(0, inTable).map((v) => compactRow(v, cur)),
        ) + '\n\n'
      : '';
  }
  out += tableText;
  let shown = 0;
  for (const v of r.vms.slice(0, inTable)) {
    const block = vmDetails(v, cur);
    if (out.length + block.length > budget) break;
    out += block;
    shown++;
  }
  if (shown < r.vms.length) out += '\n' + leftOut(r.vms.slice(shown), cur) + '\n';
  if (r.unattached_disks.length) {
    const lines = r.unattached_disks.map((d) => `- ${cell(unattachedLine(d, cur))}`);
    const block = ['', 'Disks attached to no VM (priced apart, in the file total):', '', ...lines, ''].join('\n');
    out +=
      out.length + block.length <= budget ? block : `\n${r.unattached_disks.length} disk(s) attached to no VM changed: see the JSON.\n`;
  }
  const f = r.findings;
  if (f.appeared.length || f.gone.length) {
    const block = [
      '',
      '<details><summary>Findings on no VM</summary>',
      '',
      ...f.appeared.map((x) => findingItem('+', x)),
      ...f.gone.map((x) => findingItem('−', x)),
      '',
      '</details>',
      '',
    ].join('\n');
    out +=
      out.length + block.length <= max
        ? block
        : `\n${f.appeared.length} finding(s) on no VM appeared, ${f.gone.length} gone: see the JSON.\n`;
  }
  return out;
}
