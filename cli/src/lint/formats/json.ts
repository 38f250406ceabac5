/**
 * `json`: every file with its findings, in the field names of the evaluate report's diagnostics (1-based,
 * end column just past the last character), and the summary.
 */
import type { LintResult } from '../types';
import type { FormatContext } from './context';

export function json(result: LintResult, ctx: FormatContext): string {
  const doc = {
    files: result.files.map((f) => ({
      path: f.path,
      diagnostics: f.findings.map((x) => ({
        severity: x.severity,
        code: x.code,
        message: x.message,
        line: x.line,
        column: x.column,
        end_line: x.endLine,
        end_column: x.endColumn,
        ...(x.source ? { source: x.source } : {}),
      })),
      ...(f.fix ? { fixed: ctx.fixMode === 'fix' ? f.fix.written : false, fixable: true } : {}),
      ...(f.error ? { error: f.error } : {}),
    })),
    summary: result.summary,
    fail_on: result.failOn,
    ...(ctx.catalogFiles?.length ? { catalog_files: ctx.catalogFiles } : {}),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
