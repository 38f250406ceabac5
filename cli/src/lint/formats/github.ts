/**
 * `github`: GitHub Actions workflow commands, one per finding, which the runner turns into annotations on the
 * pull request: `::error file=…,line=…,endLine=…,col=…,endColumn=…,title=…::message`. Columns are 1-based and
 * the end column is the last character's; a finding spanning lines has no columns, as GitHub requires.
 * Information and hints become notices.
 */
import { summaryLine, type LintResult, type Severity } from '../types';
import type { FormatContext } from './context';
import { escapeData, escapeProperty } from '../../workflow-text';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

export { escapeData, escapeProperty };

export function github(result: LintResult, ctx: FormatContext): string {
  const out: string[] = [];
  for (const f of result.files) {
    for (const x of f.findings) {
      const endColumn = Math.max(x.column, x.endColumn - 1);
      // GitHub keeps columns only for annotations on one line; for longer ones it wants them left out.
      const cols = x.line === x.endLine ? [`col=${x.column}`, `endColumn=${endColumn}`] : [];
      const props = [
        `file=${escapeProperty(f.path)}`,
        `line=${x.line}`,
        `endLine=${x.endLine}`,
        ...cols,
        `title=${escapeProperty(`storage-perf ${x.code}`)}`,
      ];
      out.push(`::${COMMAND[x.severity]} ${props.join(',')}::${escapeData(x.message)}`);
    }
    if (f.error) out.push(`::error file=${escapeProperty(f.path)},title=${escapeProperty('storage-perf lint')}::${escapeData(f.error)}`);
  }
  out.push(summaryLine(result.summary, ctx.fixMode));
  return out.join('\n') + '\n';
}
