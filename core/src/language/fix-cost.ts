/**
 * What a design fix costs: the spec analysed again with the fix applied, its monthly total against today's.
 * For the fixes whose check cannot price the change itself (a size clamped into range, a device count, a
 * default size); the searched fixes (../advice/fixes.ts) already carry it.
 */
import type { Analysis } from '../analyze';
import type { FixData } from '../diagnostics';
import { fmtMoney } from '../units';
import { textWithFix } from './fixes';

/** `fix`'s title with the file's monthly cost change; unchanged when the title already gives a cost. */
export function titleWithCost(a: Analysis, fix: FixData, analyzeText: (text: string) => Analysis): string {
  if (/\/month/.test(fix.title) || !a.catalog) return fix.title;
  const after = analyzeText(textWithFix(a, fix));
  const known = (x: Analysis) => (x.monthly_cost_complete && x.monthly_cost !== undefined ? x.monthly_cost : undefined);
  const before = known(a);
  const then = known(after);
  const money = (n: number) => fmtMoney(n, a.catalog!.currency);
  // A disk the provider refuses (a size out of range) has no price today: the change has none to start from, but
  // what the file costs once fixed is known.
  if (before === undefined && then !== undefined) return `${fix.title} (the file then ${money(then)}/month)`;
  if (before === undefined || then === undefined) return `${fix.title} (cost change unknown: a price is missing)`;
  const delta = then - before;
  return `${fix.title} (${delta >= 0 ? '+' : '−'}${money(Math.abs(delta))}/month; the file then ${money(then)}/month)`;
}
