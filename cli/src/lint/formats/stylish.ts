/** `stylish` (the default): findings grouped under each file, aligned, coloured on a terminal; then the summary. */
import { summaryLine, type LintResult, type Severity } from '../types';
import { paint } from './color';
import type { FormatContext } from './context';
import { escapeData, oneLine } from '../../workflow-text';

export function stylish(result: LintResult, ctx: FormatContext): string {
  const p = paint(ctx.color);
  const tint: Record<Severity, (s: string) => string> = { error: p.red, warning: p.yellow, information: p.blue, hint: p.dim };
  const out: string[] = [];
  for (const f of result.files) {
    if (!f.findings.length) continue;
    out.push(p.underline(escapeData(f.path)));
    const pos = f.findings.map((x) => `${x.line}:${x.column}`);
    const posW = Math.max(...pos.map((s) => s.length));
    const sevW = Math.max(...f.findings.map((x) => x.severity.length));
    f.findings.forEach((x, i) => {
      out.push(`  ${p.dim(pos[i].padEnd(posW))}  ${tint[x.severity](x.severity.padEnd(sevW))}  ${oneLine(x.message)}  ${p.dim(x.code)}`);
    });
    out.push('');
  }
  const s = result.summary;
  const line = summaryLine(s, ctx.fixMode);
  const worst = s.errors ? p.red : s.warnings ? p.yellow : (x: string) => x;
  out.push(s.errors + s.warnings ? p.bold(worst(line)) : line);
  return out.join('\n') + '\n';
}
