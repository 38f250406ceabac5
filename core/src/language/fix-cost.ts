/**
 * What a design fix costs: the spec analysed again with the fix applied, the VMs it changes against what they cost
 * today. For the fixes whose check cannot price the change itself (a size clamped into range, a device count, a
 * default size); the searched fixes (../advice/fixes.ts) already carry it. A VM the fix leaves as it is counts for
 * nothing, priced or not: a fix's cost never waits on another VM's prices.
 */
import type { Analysis } from '../analyze';
import type { FixData } from '../diagnostics';
import { vmContent } from '../document/vm-content';
import type { VmEval } from '../model/types';
import { fmtMoney } from '../units';
import { textWithFix } from './fixes';

/** The known part of some VMs' monthly cost, and whether it is the whole. */
interface Priced {
  monthly: number;
  complete: boolean;
}

function priced(vms: readonly VmEval[]): Priced {
  return {
    monthly: vms.reduce((s, v) => s + (v.monthly_cost ?? 0), 0),
    complete: vms.every((v) => v.monthly_cost_complete && v.monthly_cost !== undefined),
  };
}

/**
 * The VMs a fix changes, before and after it: those whose content (../document/vm-content) or name differs. All of
 * them where the VMs themselves or what prices them (the catalog, the region) are not the same on both sides.
 */
function changedVms(a: Analysis, after: Analysis): { before: VmEval[]; after: VmEval[] } {
  const all = { before: a.vms, after: after.vms };
  if (a.catalog?.edition !== after.catalog?.edition || a.region !== after.region || a.vms.length !== after.vms.length) return all;
  const out: { before: VmEval[]; after: VmEval[] } = { before: [], after: [] };
  for (let i = 0; i < a.vms.length; i++) {
    const x = a.vms[i];
    const y = after.vms[i];
    if (x.spec.path !== y.spec.path) return all;
    if (x.spec.name === y.spec.name && vmContent(x.spec) === vmContent(y.spec)) continue;
    out.before.push(x);
    out.after.push(y);
  }
  return out;
}

/**
 * `fix`'s title with the monthly cost change of the VMs it changes, and what the file then costs (where its total is
 * whole; else what those VMs then cost); unchanged when the title already gives a cost.
 */
export function titleWithCost(a: Analysis, fix: FixData, analyzeText: (text: string) => Analysis): string {
  if (/\/month/.test(fix.title) || !a.catalog) return fix.title;
  const after = analyzeText(textWithFix(a, fix));
  const money = (n: number) => fmtMoney(n, a.catalog!.currency);
  const vms = changedVms(a, after);
  const was = priced(vms.before);
  const now = priced(vms.after);
  const names = vms.after.map((v) => `'${v.spec.name}'`);
  const then =
    after.monthly_cost_complete && after.monthly_cost !== undefined
      ? `the file then ${money(after.monthly_cost)}/month`
      : now.complete && names.length
        ? `${names.join(' and ')} then ${money(now.monthly)}/month${names.length > 1 ? ' together' : ''}`
        : undefined;
  // A disk the provider refuses (a size out of range) has no price today: the change has none to start from, but
  // what it costs once fixed is known.
  if (!then) return `${fix.title} (cost change unknown: a price is missing)`;
  if (!was.complete) return `${fix.title} (${then})`;
  const delta = now.monthly - was.monthly;
  return `${fix.title} (${delta >= 0 ? '+' : '−'}${money(Math.abs(delta))}/month; ${then})`;
}
