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
import type { Span } from './text';
import { fmt } from './units';

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** What was dropped of one code: how many, the most severe, and the last in the order of the text. */
interface Dropped {
  count: number;
  severity: Severity;
  last: Diagnostic;
}

/**
 * The cap, also applied as findings come. `finish(found)` keeps, in their order, the first `perCode` findings of
 * each code in the order of the text, and adds one more-findings per code past it. `prune(found)`, called any number
 * of times before, drops in place what is past the cap already (the findings of a spec of 10,000 VMs number
 * 50,000 before it, held to the end otherwise) and `finish` gives the same as without it: a finding past the first
 * `perCode` of its code stays past them as more come, so it can be counted at once.
 */
export class FindingCap {
  /** Every code seen, in the order of its first finding (`found` is in the order found): the more-findings' order. */
  private readonly codes = new Set<string>();
  private readonly dropped = new Map<string, Dropped>();
  /** Of each code past the cap at the last `past`: the place of the last finding kept. */
  private readonly lastKept = new Map<string, Span>();

  constructor(private readonly perCode = FINDINGS_PER_CODE) {}

  /** Drops from `found` every finding that is past the cap already, counting it. */
  prune(found: Diagnostic[]): void {
    const drop = this.past(found);
    if (!drop.size) return;
    let kept = 0;
    for (const d of found) if (!drop.has(d)) found[kept++] = d;
    found.length = kept;
  }

  /**
   * False when a finding of `code` at `span`, found after every finding `prune` has seen, is past the cap: at
   * least `perCode` findings of its code come before it in the order of the text. True when that is not known.
   */
  listed(code: string, span: Span): boolean {
    const last = this.lastKept.get(code);
    return !last || span.start < last.start || (span.start === last.start && span.end < last.end);
  }

  /** `found` capped: what it keeps in its order, then one more-findings per code past the cap. */
  finish(found: Diagnostic[]): Diagnostic[] {
    const drop = this.past(found);
    if (!this.dropped.size) return found;
    const codes = [...this.codes].filter((code) => this.dropped.has(code));
    const summaries = codes.map((code) => {
      const { count, severity, last } = this.dropped.get(code)!;
      return diag(
        'more-findings',
        // Information is not a fault to fix: the rest of it shows only where fewer are found.
        `${fmt(count)} more ${code} findings up to here are not listed (a file lists the first ${this.perCode} of each code)${severity === 'information' || severity === 'hint' ? '' : ': fix those listed, and the rest will show'}`,
        last.span,
        { severity },
      );
    });
    return [...(drop.size ? found.filter((d) => !drop.has(d)) : found), ...summaries];
  }

  /** The findings of `found` past the cap of their code, counted in `dropped`. */
  private past(found: Diagnostic[]): Set<Diagnostic> {
    const byCode = new Map<string, Diagnostic[]>();
    for (const d of found) {
      this.codes.add(d.code);
      const same = byCode.get(d.code);
      if (same) same.push(d);
      else byCode.set(d.code, [d]);
    }
    const drop = new Set<Diagnostic>();
    for (const [code, all] of byCode) {
      if (all.length <= this.perCode) continue;
      // Stable: findings at one place stay in the order found.
      const order = (a: Diagnostic, b: Diagnostic) => a.span.start - b.span.start || a.span.end - b.span.end;
      const rest = all.sort(order).slice(this.perCode);
      this.lastKept.set(code, all[this.perCode - 1].span);
      const had = this.dropped.get(code);
      let { severity, last } = had ?? { severity: 'hint' as Severity, last: rest[0] };
      for (const d of rest) {
        drop.add(d);
        if (RANK[d.severity] < RANK[severity]) severity = d.severity;
        // The last in the order of the text; of several at one place, any: they have that place.
        if (order(d, last) > 0) last = d;
      }
      this.dropped.set(code, { count: (had?.count ?? 0) + rest.length, severity, last });
    }
    return drop;
  }
}
