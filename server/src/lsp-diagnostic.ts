/** The core's diagnostics as LSP diagnostics: ranges, severities, and a link to each code's reference. */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIAGNOSTIC_CODES, type Diagnostic } from '../../core/src';
import type { Entry } from './documents';

/** The source of every diagnostic the server publishes, and its diagnostic provider's identifier. */
export const SOURCE = 'storage-perf';

/**
 * The reference of every diagnostic code (docs/lint.md, one anchor per code) in this installation: next to the
 * bundle (dist/) or to the compiled sources (out/server/src). Diagnostics link to it as their codeDescription;
 * there is no website to link to instead. The bundle's place is tried first: three folders up from an
 * installed extension's dist/ is outside the extension (its folder's parent's parent), where some other
 * docs/lint.md may be. (This module stays in server/src so that both paths hold from its __dirname.)
 */
const CODE_DOCS = [resolve(__dirname, '../docs/lint.md'), resolve(__dirname, '../../../docs/lint.md')].find((p) => existsSync(p));
const CODE_DOCS_URI = CODE_DOCS ? pathToFileURL(CODE_DOCS).href : undefined;

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/**
 * `d`, found in the analysis `e`, as LSP has it. Its fixes stay on the server: a code action request finds them
 * in the analysis by range, and edits are made only then. (Sent with every diagnostic they made one publish of
 * a 20,000-line spec 829 KiB.)
 */
export function toLsp(e: Pick<Entry, 'index'>, d: Diagnostic): LspDiagnostic {
  return {
    range: e.index.range(d.span),
    severity: SEVERITY[d.severity],
    code: d.code,
    codeDescription: CODE_DOCS_URI && DIAGNOSTIC_CODES[d.code] ? { href: `${CODE_DOCS_URI}#${d.code}` } : undefined,
    source: SOURCE,
    message: d.message,
  };
}
