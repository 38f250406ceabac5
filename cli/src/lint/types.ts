/** What the linter found, in the shape every output format reads. */
import type { Range } from 'vscode-languageserver-protocol';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export const SEVERITIES: Severity[] = ['error', 'warning', 'information', 'hint'];
/** Higher is more severe; `--fail-on` compares against this. */
export const RANK: Record<Severity, number> = { error: 3, warning: 2, information: 1, hint: 0 };

export interface Finding {
  severity: Severity;
  code: string;
  message: string;
  source?: string;
  /** 1-based line and column of the first character. */
  line: number;
  column: number;
  /** 1-based line and column just past the last character (as in the evaluate report). */
  endLine: number;
  endColumn: number;
  /** The LSP range as the server sent it (0-based, UTF-16 columns). */
  range: Range;
}

export interface FileResult {
  /** The path as shown to the user: relative to the working directory where it lies under it, `/`-separated. */
  path: string;
  /** Absolute path on disk; undefined for standard input. */
  file?: string;
  /** The text the findings refer to (after fixes, when fixes were applied). */
  text: string;
  findings: Finding[];
  /** Set when --fix or --fix-dry-run changed the text. */
  fix?: { before: string; after: string; rounds: number; written: boolean; designChanges: string[] };
  /** A problem with this file that is not a finding (unreadable, fixes did not converge, ...): exit 2. */
  error?: string;
  /** A Terraform module's findings in its other files (a called module's), each as a file's result. */
  related?: FileResult[];
}

export interface Summary {
  files: number;
  errors: number;
  warnings: number;
  information: number;
  hints: number;
  /** Files whose text --fix changed (or would change, with --fix-dry-run). */
  fixed: number;
}

export interface LintResult {
  files: FileResult[];
  summary: Summary;
  /** The threshold the exit code was computed against. */
  failOn: Severity;
}

export function summarize(files: FileResult[]): Summary {
  const s: Summary = { files: files.length, errors: 0, warnings: 0, information: 0, hints: 0, fixed: 0 };
  for (const f of files) {
    if (f.fix && f.fix.before !== f.fix.after) s.fixed++;
    for (const x of f.findings) {
      if (x.severity === 'error') s.errors++;
      else if (x.severity === 'warning') s.warnings++;
      else if (x.severity === 'information') s.information++;
      else s.hints++;
    }
  }
  return s;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one-line summary every format ends with (or writes to stderr, for machine-readable formats). */
export function summaryLine(s: Summary, fixMode?: 'fix' | 'dry-run'): string {
  const problems = s.errors + s.warnings + s.information + s.hints;
  const parts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${s.information} information, ${plural(s.hints, 'hint')}`;
  const fixed =
    fixMode === 'fix'
      ? `; fixed ${plural(s.fixed, 'file')}`
      : fixMode === 'dry-run'
        ? `; fixes would change ${plural(s.fixed, 'file')}`
        : '';
  return `${plural(problems, 'problem')} (${parts}) in ${plural(s.files, 'file')}${fixed}`;
}
