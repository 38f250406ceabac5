/**
 * `compact`: one line per finding, `path:line:column: severity code: message`, the form compilers use, so
 * editors' problem matchers and grep read it; then the summary (which the matcher's pattern does not match).
 * The extension's `storage-perf-compact` problem matcher (package.json) parses exactly these lines; a test
 * holds the two together.
 */
import { summaryLine, type LintResult } from '../types';
import type { FormatContext } from './context';
import { escapeData, oneLine } from '../../workflow-text';

export function compact(result: LintResult, ctx: FormatContext): string {
  const out: string[] = [];
  for (const f of result.files) {
    // One line each, whatever the file's name or a quoted value holds (a CI runner reads these lines).
    const path = escapeData(f.path);
    for (const x of f.findings) out.push(`${path}:${x.line}:${x.column}: ${x.severity} ${x.code}: ${oneLine(x.message)}`);
  }
  out.push(summaryLine(result.summary, ctx.fixMode));
  return out.join('\n') + '\n';
}
