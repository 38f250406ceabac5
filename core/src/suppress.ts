/**
 * Inline suppression of findings by comments in the spec, honoured by every client of the core (editor and
 * linter alike):
 *
 *   # storage-perf-disable-next-line CODE[, CODE...] [-- reason]   the next line that holds content
 *   # storage-perf-disable CODE[, CODE...] [-- reason]             the whole file, wherever it stands
 *
 * A finding is suppressed when its range starts on a line a directive covers and its code is named there.
 * A code the registry does not know is itself reported (`unknown-suppression`), on the code's own text, so a
 * typo never silently suppresses nothing. Pure: text in, diagnostics out.
 */
import { diag, DIAGNOSTIC_CODES } from './checks/registry';
import type { Diagnostic } from './diagnostics';
import { suggest } from './document/suggest';
import { LineIndex, type Span } from './text';

export const DISABLE_NEXT_LINE = 'storage-perf-disable-next-line';
export const DISABLE_FILE = 'storage-perf-disable';

export interface SuppressionDirective {
  kind: 'next-line' | 'file';
  /** The codes named, each with its span in the text. */
  codes: Array<{ code: string; span: Span }>;
  reason?: string;
  /** The directive word itself (`storage-perf-disable...`). */
  span: Span;
  /** 0-based line of the comment. */
  line: number;
  /** For `next-line`: the 0-based line it covers (undefined when no content follows). */
  target?: number;
}

const MARKER = 'storage-perf-disable';

/** Where the comment starts on a line: the first `#` outside quotes that begins the line or follows a blank. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) return i;
    // A quote opens a quoted scalar only where a scalar can start; inside a plain scalar it is literal.
    if ((c === '"' || c === "'") && (i === 0 || /[\s:,[{-]/.test(line[i - 1]))) quote = c;
  }
  return -1;
}

const isContent = (line: string) => {
  const t = line.trim();
  return t !== '' && !t.startsWith('#');
};

/** Every suppression directive in the text, in order. */
export function findSuppressions(text: string): SuppressionDirective[] {
  if (!text.includes(MARKER)) return [];
  const idx = new LineIndex(text);
  const lines: string[] = [];
  for (let l = 0; l < idx.lineCount; l++) lines.push(text.slice(idx.lineStart(l), idx.lineEnd(l)));
  const out: SuppressionDirective[] = [];
  lines.forEach((line, l) => {
    if (!line.includes(MARKER)) return;
    const hash = commentStart(line);
    if (hash < 0) return;
    const m = /^#\s*(storage-perf-disable(?:-next-line)?)(?=\s|$)/.exec(line.slice(hash));
    if (!m) return;
    const base = idx.lineStart(l);
    const wordStart = hash + m[0].length - m[1].length;
    const kind = m[1] === DISABLE_FILE ? 'file' : 'next-line';
    // The rest: codes, then optionally ` -- reason`.
    const restStart = hash + m[0].length;
    const rest = line.slice(restStart);
    const sep = /(^|\s)--(\s|$)/.exec(rest);
    const codesPart = sep ? rest.slice(0, sep.index) : rest;
    const reason = sep ? rest.slice(sep.index + sep[0].length).trim() || undefined : undefined;
    const codes: SuppressionDirective['codes'] = [];
    for (const c of codesPart.matchAll(/[^\s,]+/g)) {
      const start = base + restStart + c.index!;
      codes.push({ code: c[0], span: { start, end: start + c[0].length } });
    }
    let target: number | undefined;
    if (kind === 'next-line') {
      for (let t = l + 1; t < lines.length; t++)
        if (isContent(lines[t])) {
          target = t;
          break;
        }
    }
    out.push({ kind, codes, reason, span: { start: base + wordStart, end: base + wordStart + m[1].length }, line: l, target });
  });
  return out;
}

/**
 * The diagnostics that survive the text's suppression comments, followed by `unknown-suppression` findings for
 * codes the registry does not know (and for directives that name none). Those findings can be suppressed too.
 */
export function applySuppressions(text: string, diagnostics: Diagnostic[]): Diagnostic[] {
  const directives = findSuppressions(text);
  if (!directives.length) return diagnostics;
  const known = Object.keys(DIAGNOSTIC_CODES);
  const fileWide = new Set<string>();
  const byLine = new Map<number, Set<string>>();
  const problems: Diagnostic[] = [];
  for (const d of directives) {
    if (!d.codes.length) {
      problems.push(
        diag(
          'unknown-suppression',
          `${d.kind === 'file' ? DISABLE_FILE : DISABLE_NEXT_LINE} names no diagnostic code; write it as '# ${d.kind === 'file' ? DISABLE_FILE : DISABLE_NEXT_LINE} CODE -- reason'`,
          d.span,
        ),
      );
      continue;
    }
    for (const { code, span } of d.codes) {
      if (!DIAGNOSTIC_CODES[code]) {
        const hint = suggest(code, known);
        problems.push(
          diag(
            'unknown-suppression',
            `unknown diagnostic code '${code}' in a suppression comment${hint ? ` — did you mean '${hint}'?` : ''}`,
            span,
          ),
        );
        continue;
      }
      if (d.kind === 'file') fileWide.add(code);
      else if (d.target !== undefined) {
        let s = byLine.get(d.target);
        if (!s) byLine.set(d.target, (s = new Set()));
        s.add(code);
      }
    }
  }
  const idx = new LineIndex(text);
  const kept = (x: Diagnostic) => !fileWide.has(x.code) && !byLine.get(idx.position(x.span.start).line)?.has(x.code);
  return [...diagnostics.filter(kept), ...problems.filter(kept)];
}
