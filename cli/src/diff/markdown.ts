/**
 * `storage-perf diff --format markdown`: a pull-request comment. A hidden marker (to find the comment again), the
 * summary, a compact table of the changed VMs, then each VM's details in a `<details>` block, within 65,000
 * characters (GitHub takes 65,536): what does not fit is counted in a closing line, never cut mid-block.
 */
import { changeText, deltaText, moneyText, unreadLines, type DiffFinding, type DiffRecord, type VmDiff } from '../../../core/src';
import { sidesLine, unattachedLine, vmHeadline, vmRows, type Row } from './rows';

/** The comment's first line: the GitHub Action finds its own comment by it. */
export const MARKER = '<!-- storage-perf-diff -->';
export const MAX_MARKDOWN = 65000;
/** Room kept for the closing line that counts what was left out. */
const FOOTER_ROOM = 600;

/*
 * What a spec wrote (names of VMs, disks and workloads, machine and disk types, paths) reaches a pull request's
 * comment inert: a name is a code span (`<code>` in HTML), where GitHub makes no mention, link, image or reference;
 * a sentence that may quote one has no tag, no link bracket and a zero-width space after each `@` and `#` and in
 * `://` and `www.`, which GitHub would otherwise turn into mentions, references and links.
 */

/** Text of HTML: no tag, no entity, no line break. */
const html = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n|\r/g, ' ');

/** No mention (@team), reference (#12) or bare link (https://, www.): a zero-width space breaks each. */
const unlinked = (s: string) =>
  s
    .replace(/([@#])/g, '$1\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\u200b.`);

/** A sentence in Markdown that may quote a spec: no tag, no link or image bracket, nothing GitHub links. */
export function inert(s: string): string {
  return unlinked(html(s).replace(/[\\[\]]/g, '\\$&'));
}

/** A sentence in an HTML block (where Markdown is not read): no tag, nothing GitHub links. */
const inertHtml = (s: string) => unlinked(html(s));

/** A name as a Markdown code span: its fence longer than any run of backticks in it. */
export function code(s: string): string {
  const text = s.replace(/\r?\n|\r/g, ' ');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** A name in an HTML block. */
const htmlCode = (s: string) => `<code>${html(s)}</code>`;

/** Text in a table cell (already Markdown): no pipe that ends the cell, no line break. */
export function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
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
  const c = (x: string | null) => (x === null ? '-' : code(x));
  const machine = v.change !== 'changed' || m.before === m.after ? c(m.after ?? m.before) : `${c(m.before)} → ${c(m.after)}`;
  const missed = v.workloads.filter((w) => w.verdict === 'now missed').length;
  const met = v.workloads.filter((w) => w.verdict === 'now met').length;
  const targets = [missed ? `${missed} now missed` : '', met ? `${met} now met` : ''].filter(Boolean).join(', ') || '-';
  const f = v.findings;
  const findings = f.appeared.length || f.gone.length ? `+${f.appeared.length} / −${f.gone.length}` : '-';
  const t = v.monthly_cost.total;
  return [code(v.name), changeText(v), machine, targets, findings, `${moneyText(t.after, currency)} (${deltaText(t, currency)})`];
}

const ICON: Record<DiffFinding['severity'], string> = { error: '🔴', warning: '🟠', information: '🔵', hint: '⚪' };

function findingItem(sign: string, f: DiffFinding): string {
  return `- ${sign} ${ICON[f.severity]} ${f.severity} \`${f.code}\`${f.disk ? ` (disk ${code(f.disk)})` : ''}: ${inert(f.message)}`;
}

function vmDetails(v: VmDiff, currency: string | null): string {
  const rows: Row[] = vmRows(v, currency, { name: code, prose: inert });
  // In the summary's HTML: names in <code>, the rest escaped (its machine names marked apart from it).
  const mark = (s: string) => `\u0000${s}\u0001`;
  const headline = vmHeadline(v, currency, mark)
    .slice(mark(v.name).length)
    .split(/(\u0000[^\u0001]*\u0001)/)
    .map((p) => (p.startsWith('\u0000') ? htmlCode(p.slice(1, -1)) : inertHtml(p)))
    .join('');
  const head = `<details><summary><b>${htmlCode(v.name)}</b>${headline}</summary>`;
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
  const kinds = (['changed', 'added', 'removed', 'not read at base'] as const).flatMap((k) => {
    const n = vms.filter((v) => changeText(v) === k).length;
    return n ? [`${n} ${k}`] : [];
  });
  return `… and ${vms.length} more VM${vms.length === 1 ? '' : 's'} not shown here (${kinds.join(', ')}; ${missed} target${missed === 1 ? '' : 's'} now missed, ${errors} new error${errors === 1 ? '' : 's'}, ${cost}): run \`storage-perf diff --format json\` for all.`;
}

export function renderMarkdown(r: DiffRecord, max = MAX_MARKDOWN): string {
  const cur = r.currency;
  const total = r.monthly_cost;
  const head = [
    MARKER,
    `### storage-perf: ${inert(r.summary)}`,
    '',
    `${sidesLine(r, code)}. Monthly cost: ${moneyText(total.before, cur)} → ${moneyText(total.after, cur)} (${deltaText(total, cur)}).`,
    '',
    ...unreadLines(r).map((l) => `- ${inert(l)}`),
    ...(r.base.unread_modules?.length ? [''] : []),
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
    const lines = r.unattached_disks.map((d) => `- ${unattachedLine(d, cur, code)}`);
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
