/**
 * Measured vs predicted per job as an SVG bar chart: one bar per job showing measured ÷ predicted on a
 * common scale (predicted = 1), the band that counts as "within expectation" shaded, and the figures
 * written beside each bar. Plain SVG, no script, no external fonts.
 */
import { fmt } from '../units';
import type { Comparison } from './compare';
import { TOLERANCE } from './verdict';

const COLORS: Record<string, string> = {
  within: '#2e7d32',
  below: '#c62828',
  above: '#ef6c00',
  failed: '#6d4c41',
  missing: '#9e9e9e',
  unmatched: '#9e9e9e',
};

export function comparisonSvg(comparisons: Comparison[], title = 'fio: measured ÷ predicted'): string {
  const rows = comparisons;
  const labelW = 190;
  const chartW = 420;
  const noteW = 330;
  const rowH = 22;
  const top = 46;
  const width = labelW + chartW + noteW + 20;
  const height = top + rows.length * rowH + 40;
  const maxRatio = 2;
  const x = (r: number) => labelW + (Math.min(Math.max(r, 0), maxRatio) / maxRatio) * chartW;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="10" y="20" font-size="15" font-weight="bold">${esc(title)}</text>`);
  // Axis: 0, 0.5, 1, 1.5, 2 × predicted.
  const axisY = top + rows.length * rowH + 6;
  for (const t of [0, 0.5, 1, 1.5, 2]) {
    out.push(
      `<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${axisY}" stroke="${t === 1 ? '#000000' : '#dddddd'}" stroke-width="${t === 1 ? 1.5 : 1}"/>`,
    );
    out.push(`<text x="${x(t)}" y="${axisY + 14}" text-anchor="middle" fill="#555555">${t === 2 ? '≥2' : t}×</text>`);
  }
  out.push(`<text x="${x(1)}" y="${top - 10}" text-anchor="middle" fill="#000000">predicted</text>`);
  rows.forEach((c, i) => {
    const y = top + i * rowH;
    const p = c.predicted
      ? c.metric === 'iops'
        ? c.predicted.read_iops + c.predicted.write_iops
        : c.predicted.read_mibps + c.predicted.write_mibps
      : 0;
    // The band that counts as within expectation (wider for queue-bound jobs), relative to the prediction.
    if (c.expected && p > 0) {
      const lo = (c.expected.low * (1 - TOLERANCE)) / p;
      const hi = (c.expected.high * (1 + TOLERANCE)) / p;
      out.push(`<rect x="${x(lo)}" y="${y + 2}" width="${Math.max(1, x(hi) - x(lo))}" height="${rowH - 4}" fill="#e8f5e9"/>`);
    }
    out.push(`<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(c.job)}</text>`);
    const color = COLORS[c.verdict] ?? '#9e9e9e';
    if (c.ratio !== undefined && c.verdict !== 'failed') {
      out.push(
        `<rect x="${labelW}" y="${y + 5}" width="${Math.max(1, x(c.ratio) - labelW)}" height="${rowH - 10}" fill="${color}"><title>${esc(c.summary)}</title></rect>`,
      );
    }
    const unit = c.metric === 'iops' ? 'IOPS' : 'MiB/s';
    const m = c.measured
      ? c.metric === 'iops'
        ? c.measured.read_iops + c.measured.write_iops
        : c.measured.read_mibps + c.measured.write_mibps
      : undefined;
    const note =
      c.verdict === 'failed'
        ? `failed (error ${c.measured?.error ?? '?'})`
        : c.verdict === 'missing'
          ? 'not in the result'
          : c.verdict === 'unmatched'
            ? 'no prediction'
            : `${fmt(m ?? 0)} / ${fmt(p)} ${unit} · ${c.ratio !== undefined && Number.isFinite(c.ratio) ? c.ratio.toFixed(2) : '∞'}× · ${c.verdict}`;
    out.push(`<text x="${labelW + chartW + 10}" y="${y + 15}" fill="${color}">${esc(note)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
