/**
 * The report view's HTML: per-VM tables of disks and workloads and bar charts of what each workload reaches
 * against its targets. Static HTML with inline SVG — no scripts, no external resources — so the webview
 * runs under a CSP that allows nothing but its own nonce'd stylesheet. Pure: no `vscode` import, so it is
 * tested with the rest of the project.
 */
import type { ReportWorkload, SpecReport } from '../../protocol/src/requests';
import { costText, fmt, fmtMoney, plural, targetVerdict } from '../../core/src/units';

export interface HtmlOptions {
  /** Nonce of the one stylesheet the CSP allows. */
  nonce: string;
  /** Shown above the tables: the spec's file name. */
  title: string;
  /** A note under the title, e.g. that the view follows the document. */
  note?: string;
  /** A section shown before the report: the changes since the last commit (./changes-html.ts). */
  changes?: string;
}

export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const LIMIT_WORDS: Record<string, string> = {
  size: 'disk size',
  disk: 'disk type maximum',
  vm: 'machine (vCPUs)',
  egress: 'network egress',
  provisioned: 'provisioned',
  block_size: 'block size',
  mix: 'read/write mix',
  queue_depth: 'queue depth',
  devices: 'device count',
};
export const limitWord = (k: string): string => LIMIT_WORDS[k] ?? k;

/** A figure of a workload that a target can name, with how to read it off the report. */
interface Metric {
  key: keyof ReportWorkload['target'];
  label: string;
  family: 'iops' | 'mibps';
  /** Null when the workload's VM has no figures (its machine is unknown). */
  achieved(w: ReportWorkload): number | null;
}
const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
const METRICS: Metric[] = [
  { key: 'iops', label: 'IOPS', family: 'iops', achieved: (w) => sum(w.read_iops, w.write_iops) },
  { key: 'read_iops', label: 'read IOPS', family: 'iops', achieved: (w) => w.read_iops },
  { key: 'write_iops', label: 'write IOPS', family: 'iops', achieved: (w) => w.write_iops },
  { key: 'mibps', label: 'MiB/s', family: 'mibps', achieved: (w) => sum(w.read_mibps, w.write_mibps) },
  { key: 'read_mibps', label: 'read MiB/s', family: 'mibps', achieved: (w) => w.read_mibps },
  { key: 'write_mibps', label: 'write MiB/s', family: 'mibps', achieved: (w) => w.write_mibps },
];

export interface Bar {
  label: string;
  achieved: number;
  target?: number;
}

/** The bars of one chart: every target of every workload in that family, or the total where none is set. */
export function chartBars(report: SpecReport, family: 'iops' | 'mibps'): Bar[] {
  const bars: Bar[] = [];
  for (const vm of report.vms) {
    for (const w of vm.workloads) {
      const prefix = report.vms.length > 1 ? `${vm.name}/${w.name}` : w.name;
      const named = METRICS.filter((m) => m.family === family && w.target[m.key] !== undefined);
      if (named.length === 0) {
        const total = METRICS.find((m) => m.family === family && (m.key === 'iops' || m.key === 'mibps'))!;
        const achieved = total.achieved(w);
        if (achieved !== null) bars.push({ label: `${prefix} ${total.label}`, achieved });
      }
      for (const m of named) {
        const achieved = m.achieved(w);
        if (achieved !== null) bars.push({ label: `${prefix} ${m.label}`, achieved, target: w.target[m.key] });
      }
    }
  }
  return bars;
}

const num = (x: number | null) => (x === null ? '—' : fmt(x));

/** A horizontal bar chart: one bar per figure reached, a tick where its target is. */
export function barChart(title: string, unit: string, bars: Bar[]): string {
  if (bars.length === 0) return '';
  const labelW = 190,
    plotW = 320,
    valueW = 150,
    rowH = 30,
    top = 8,
    width = labelW + plotW + valueW;
  const height = top * 2 + rowH * bars.length + 18;
  const max = Math.max(1, ...bars.map((b) => Math.max(b.achieved, b.target ?? 0))) * 1.08;
  const x = (v: number) => labelW + (plotW * v) / max;
  const rows = bars
    .map((b, i) => {
      const y = top + i * rowH;
      const short = b.target !== undefined && b.achieved < b.target;
      const cls = b.target === undefined ? 'bar' : short ? 'bar short' : 'bar met';
      const value = b.target === undefined ? `${num(b.achieved)}` : `${num(b.achieved)} / ${num(b.target)}`;
      const tick =
        b.target === undefined
          ? ''
          : `<line class="target" x1="${x(b.target).toFixed(1)}" x2="${x(b.target).toFixed(1)}" y1="${y + 2}" y2="${y + rowH - 6}"><title>target ${esc(num(b.target))} ${esc(unit)}</title></line>`;
      return (
        `<g><text class="label" x="${labelW - 8}" y="${y + rowH / 2 + 1}" text-anchor="end" dominant-baseline="middle">${esc(b.label)}</text>` +
        `<rect class="${cls}" x="${labelW}" y="${y + 5}" width="${Math.max(1, x(b.achieved) - labelW).toFixed(1)}" height="${rowH - 14}"><title>${esc(b.label)}: ${esc(num(b.achieved))} ${esc(unit)}</title></rect>` +
        tick +
        `<text class="value" x="${labelW + plotW + 8}" y="${y + rowH / 2 + 1}" dominant-baseline="middle">${esc(value)}</text></g>`
      );
    })
    .join('');
  const axisY = top + rowH * bars.length;
  const axis =
    `<line class="axis" x1="${labelW}" x2="${labelW}" y1="${top}" y2="${axisY}"/>` +
    `<text class="legend" x="${labelW}" y="${axisY + 14}">0</text>` +
    `<text class="legend" x="${labelW + plotW}" y="${axisY + 14}" text-anchor="end">${esc(num(max))} ${esc(unit)}</text>`;
  const summary = bars
    .map((b) => `${b.label}: ${num(b.achieved)}${b.target !== undefined ? ` of ${num(b.target)}` : ''} ${unit}`)
    .join('; ');
  return (
    `<figure><figcaption>${esc(title)}</figcaption>` +
    `<svg class="chart" role="img" aria-label="${esc(`${title}: ${summary}`)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
    `${rows}${axis}</svg></figure>`
  );
}

/** A table; the cells are HTML already (escaped by the caller). */
export function table(head: string[], rows: string[][], numeric: boolean[]): string {
  const th = head.map((h, i) => `<th${numeric[i] ? ' class="n"' : ''}>${esc(h)}</th>`).join('');
  const trs = rows.map((r) => `<tr>${r.map((c, i) => `<td${numeric[i] ? ' class="n"' : ''}>${c}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table>`;
}

function targetText(w: ReportWorkload): string {
  const parts = METRICS.filter((m) => w.target[m.key] !== undefined).map((m) => `${num(w.target[m.key]!)} ${m.label}`);
  if (!parts.length) return '—';
  const text = targetVerdict(w.meets_target, w.headroom);
  const verdict = text ? ` <span class="${w.meets_target ? 'ok' : 'bad'}">${esc(text)}</span>` : '';
  return esc(parts.join(', ')) + verdict;
}

/** The title, the catalog and cost line, the note, and the changes since the last commit when shown. */
function headHtml(report: SpecReport, opts: HtmlOptions): string[] {
  const where = [report.catalog, report.region]
    .filter(Boolean)
    .map((s) => esc(s!))
    .join(' · ');
  const head = [
    `<h1>${esc(opts.title)}</h1>`,
    `<p class="meta">${where || 'no catalog'}${report.monthly_cost_text ? ` — <strong>${esc(report.monthly_cost_text)}</strong> a month for machines and disks` : ''}</p>`,
  ];
  if (opts.note) head.push(`<p class="note">${esc(opts.note)}</p>`);
  if (opts.changes) head.push(opts.changes, '<h2>The spec as it is open</h2>');
  return head;
}

export function reportHtml(report: SpecReport, opts: HtmlOptions): string {
  const money = (x: number | null) => (x === null || !report.currency ? '—' : esc(fmtMoney(x, report.currency)));
  const body: string[] = headHtml(report, opts);

  const findings = report.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
  if (findings.length) {
    body.push(
      `<ul class="findings">${findings.map((d) => `<li class="${d.severity}"><span class="code">${esc(d.code)}</span> line ${d.line}: ${esc(d.message)}</li>`).join('')}</ul>`,
    );
  }
  if (!report.vms.length) body.push('<p>Nothing to evaluate yet: the spec has no VM that evaluates.</p>');

  for (const vm of report.vms) {
    const machine = vm.machine_type
      ? `${esc(vm.machine_type)}${vm.vcpus ? `, ${plural(vm.vcpus, 'vCPU')}` : ''}`
      : vm.vcpus
        ? plural(vm.vcpus, 'vCPU')
        : '';
    body.push(
      `<h2>VM ${esc(vm.name)}${machine ? ` <span class="dim">— ${machine}</span>` : ''}${vm.monthly_cost !== null && report.currency ? ` <span class="dim" title="${esc(vm.machine_cost_explanation)}">— ${esc(costText(vm.monthly_cost, vm.monthly_cost_complete, vm.monthly_cost_missing, report.currency, '/month'))}</span>` : ''}</h2>`,
    );
    if (vm.figures_unavailable !== null) {
      body.push(`<p class="note">No figures: ${esc(vm.figures_unavailable)}</p>`);
      continue;
    }
    body.push(
      table(
        ['disk', 'type', 'GiB', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'IOPS limited by', 'MiB/s limited by', 'per month'],
        vm.disks.map((d) => [
          esc(d.name),
          esc(d.type),
          num(d.size_gib),
          `<span title="${esc(d.explanation?.read_iops ?? '')}">${num(d.read_iops)}</span>`,
          `<span title="${esc(d.explanation?.write_iops ?? '')}">${num(d.write_iops)}</span>`,
          `<span title="${esc(d.explanation?.read_mibps ?? '')}">${num(d.read_mibps)}</span>`,
          `<span title="${esc(d.explanation?.write_mibps ?? '')}">${num(d.write_mibps)}</span>`,
          esc(d.limited_by ? limitWord(d.limited_by.read_iops) : '—'),
          esc(d.limited_by ? limitWord(d.limited_by.read_mibps) : '—'),
          `<span title="${esc(d.cost_explanation)}">${d.monthly_cost_complete || d.monthly_cost === null ? '' : '≥ '}${money(d.monthly_cost)}</span>`,
        ]),
        [false, false, true, true, true, true, true, false, false, true],
      ),
    );
    if (vm.workloads.length) {
      body.push(
        table(
          ['workload', 'disks', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'limited by', 'target'],
          vm.workloads.map((w) => [
            esc(w.name),
            esc(w.disks.join(', ')),
            num(w.read_iops),
            num(w.write_iops),
            num(w.read_mibps),
            num(w.write_mibps),
            `<span title="${esc(w.explanation ?? '')}">${esc(w.limited_by ? limitWord(w.limited_by) : '—')}</span>`,
            targetText(w),
          ]),
          [false, false, true, true, true, true, false, false],
        ),
      );
    }
  }

  body.push(unattachedHtml(report, money));
  const charts = [
    barChart('IOPS reached vs target', 'IOPS', chartBars(report, 'iops')),
    barChart('Throughput reached vs target', 'MiB/s', chartBars(report, 'mibps')),
  ].filter(Boolean);
  if (charts.length)
    body.push(
      `<h2>Workloads against their targets</h2><p class="note">Bars: what each workload reaches; ticks: its target.</p>${charts.join('')}`,
    );
  body.push(alternativesHtml(report));
  return page(opts, body.join('\n'));
}

/** Terraform: the disks attached to no VM, priced apart (they are in the file's total, never a VM's). */
function unattachedHtml(report: SpecReport, money: (x: number | null) => string): string {
  const disks = report.unattached_disks ?? [];
  if (!disks.length) return '';
  const rows = disks.map((d) => [
    esc(d.name),
    esc(d.type || '?'),
    num(d.size_gib),
    esc(d.region),
    `<span title="${esc(d.cost_explanation)}">${d.monthly_cost_complete || d.monthly_cost === null ? '' : '≥ '}${money(d.monthly_cost)}</span>`,
  ]);
  return `<h2>Disks attached to no VM</h2><p class="note">No figures: no VM uses them. Priced apart, in the total above.</p>${table(['disk', 'type', 'GiB', 'region', 'per month'], rows, [false, false, true, false, true])}`;
}

/** The alternatives the advice found, side by side: the VM's cost and each workload's figures after the change. */
function alternativesHtml(report: SpecReport): string {
  if (!report.alternatives?.length) return '';
  const money = (x: number | null, complete: boolean) =>
    x === null || !report.currency ? '—' : `${complete ? '' : '≥ '}${esc(fmtMoney(x, report.currency))}`;
  const delta = (x: number | null) =>
    x === null || !report.currency ? '—' : `${x >= 0 ? '+' : '−'}${esc(fmtMoney(Math.abs(x), report.currency))}`;
  const rows = report.alternatives.map((alt) => [
    esc(alt.vm),
    esc(alt.change.replace(/ \(.*\)$/, '')),
    money(alt.monthly_cost, alt.monthly_cost_complete),
    delta(alt.monthly_cost_change),
    alt.workloads
      .map(
        (w) =>
          `${esc(w.name)}: ${num(w.iops)} IOPS, ${num(w.mibps)} MiB/s, ${esc(limitWord(w.limited_by))}${w.meets_target === null ? '' : w.meets_target ? ' <span class="ok">met</span>' : ' <span class="bad">missed</span>'}`,
      )
      .join('<br>') || '—',
  ]);
  return (
    '<h2>Alternatives</h2><p class="note">What the model found for the findings above, each evaluated as if applied.</p>' +
    table(['VM', 'change', 'VM per month', 'change per month', 'workloads after (limited by)'], rows, [false, false, true, true, false])
  );
}

/** A page with nothing but a message: the spec was closed, the server did not answer. */
export function messageHtml(text: string, opts: HtmlOptions): string {
  return page(opts, `<h1>${esc(opts.title)}</h1>\n<p>${esc(text)}</p>`);
}

function page(opts: HtmlOptions, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${opts.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(opts.title)}</title>
<style nonce="${opts.nonce}">${STYLE}</style>
</head>
<body>
${body}
</body>
</html>`;
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px 24px; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.1em; margin-top: 1.6em; }
.meta, .note, .dim { color: var(--vscode-descriptionForeground); }
table { border-collapse: collapse; margin: 0.6em 0 1em; }
th, td { padding: 3px 10px; border-bottom: 1px solid var(--vscode-editorWidget-border, rgba(128,128,128,.35)); text-align: left; white-space: nowrap; }
th { font-weight: 600; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: var(--vscode-charts-green); }
.bad { color: var(--vscode-errorForeground); }
.findings { padding-left: 1.2em; }
.findings .warning .code { color: var(--vscode-editorWarning-foreground); }
.findings .error .code { color: var(--vscode-editorError-foreground); }
.findings .gone { color: var(--vscode-descriptionForeground); }
.changes { border-bottom: 1px solid var(--vscode-editorWidget-border, rgba(128,128,128,.35)); padding-bottom: 0.6em; }
h3 { font-size: 1em; margin: 1.2em 0 0.3em; }
.code { font-family: var(--vscode-editor-font-family); }
figure { margin: 0.8em 0 1.4em; }
figcaption { font-weight: 600; margin-bottom: 0.3em; }
.chart { max-width: 100%; height: auto; }
.chart text { fill: var(--vscode-foreground); font-size: 12px; }
.chart .legend { fill: var(--vscode-descriptionForeground); font-size: 11px; }
.chart .bar { fill: var(--vscode-charts-blue); }
.chart .bar.met { fill: var(--vscode-charts-green); }
.chart .bar.short { fill: var(--vscode-charts-orange); }
.chart .target { stroke: var(--vscode-foreground); stroke-width: 2.5; }
.chart .axis { stroke: var(--vscode-descriptionForeground); stroke-width: 1; }
`;
