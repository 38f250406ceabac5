/**
 * What one file can cost: past FINDINGS_PER_CODE findings of one code, the rest are counted, not listed. A 5 MB
 * file of 90,000 unknown keys made 90,000 findings, each a message, a fix and, in an editor, a squiggle: output
 * that no one reads and that costs more to send and draw than to find. The first findings of the code (in the
 * order of the text) stay; one more-findings finding at the place of the last says how many more there are. Runs
 * after suppressions (a suppressed finding is not counted) and after the front end's wording. Pure.
 */
import { FINDINGS_PER_CODE } from './checks/finding-cap';
import { diag } from './checks/registry';
import type { Diagnostic, Severity } from './diagnostics';
import { fmt } from './units';

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** The findings with at most FINDINGS_PER_CODE of each code, and one more-findings for each code past it. */
export function capFindings(found: Diagnostic[], perCode = FINDINGS_PER_CODE): Diagnostic[] {
  const byCode = new Map<string, Diagnostic[]>();
  for (const d of found) {
    const same = byCode.get(d.code);
    if (same) same.push(d);
    else byCode.set(d.code, [d]);
  }
  const dropped = new Set<Diagnostic>();
  const summaries: Diagnostic[] = [];
  for (const [code, all] of byCode) {
    if (all.length <= perCode) continue;
    // In the order of the text (stable: findings at one place keep theirs); the first ones are listed.
    const ordered = [...all].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
    const rest = ordered.slice(perCode);
    let severity: Severity = 'hint';
    for (const d of rest) {
      dropped.add(d);
      if (RANK[d.severity] < RANK[severity]) severity = d.severity;
    }
    const last = rest[rest.length - 1];
    summaries.push(
      diag(
        'more-findings',
        `${fmt(rest.length)} more ${code} findings up to here are not listed (a file lists the first ${perCode} of each code): fix those listed, and the rest will show`,
        last.span,
        { severity },
      ),
    );
  }
  return dropped.size ? [...found.filter((d) => !dropped.has(d)), ...summaries] : found;
}
