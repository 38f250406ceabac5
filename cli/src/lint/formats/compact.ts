/**
 * `compact`: one line per finding, `path:line:column: severity code: message`, the form compilers use, so
 * editors' problem matchers and grep read it; then the summary (which the matcher's pattern does not match).
 * The extension's `storage-perf-compact` problem matcher (package.json) parses exactly these lines; a test
 * holds the two together.
 */
import { summaryLine, type LintResult } from '../types';
import type { FormatContext } from './context';

export function compact(result: LintResult, ctx: FormatContext): string {
  const out: string[] = [];
  for (const f of result.files) {
    for (const x of f.findings) out.push(`${f.path}:${x.line}:${x.column}: ${x.severity} ${x.code}: ${x.message}`);
  }
  out.push(summaryLine(result.summary, ctx.fixMode));
  return out.join('\n') + '\n';
}
