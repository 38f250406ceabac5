/**
 * `compact`: one line per finding, `path:line:column: severity code: message`, the form compilers use, so
 * editors' problem matchers and grep read it; then the summary (which the matcher's pattern does not match).
 */
import { summaryLine, type LintResult } from '../types';
import type { FormatContext } from './index';

/** The pattern of a finding line, as a VS Code problem matcher writes it (see docs/lint.md). */
export const COMPACT_PATTERN = '^(.+?):(\\d+):(\\d+): (error|warning|info|hint)(?:rmation)? ([A-Za-z0-9_.-]+): (.*)$';

export function compact(result: LintResult, ctx: FormatContext): string {
  const out: string[] = [];
  for (const f of result.files) {
    for (const x of f.findings) out.push(`${f.path}:${x.line}:${x.column}: ${x.severity} ${x.code}: ${x.message}`);
  }
  out.push(summaryLine(result.summary, ctx.fixMode));
  return out.join('\n') + '\n';
}
