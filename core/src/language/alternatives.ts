/**
 * The alternatives the advice found, side by side: each design fix of a VM's findings (a larger machine, a
 * resize, another disk type), with the VM's cost and its workloads' figures once it is applied. For the report
 * view; every alternative is the spec analysed again with the fix applied, so its figures are the model's own.
 */
import type { Analysis } from '../analyze';
import { fixTypeOf } from '../checks/registry';
import type { LimitKind } from '../model/types';
import { textWithFix } from './fixes';
import { scopeOf } from './locate';

export interface Alternative {
  vm: string;
  /** The fix's title: what changes, and what it costs. */
  change: string;
  /** The VM's monthly cost after the change (the known part when incomplete), and the change from today. */
  monthly_cost: number | null;
  monthly_cost_complete: boolean;
  monthly_cost_change: number | null;
  workloads: Array<{ name: string; iops: number; mibps: number; limited_by: LimitKind; meets_target: boolean | null }>;
}

const ADVISED = new Set(['target-unreachable', 'capped-by-vcpu', 'overprovisioned']);

export function alternatives(a: Analysis, analyzeText: (text: string) => Analysis): Alternative[] {
  const out: Alternative[] = [];
  const seen = new Set<string>();
  for (const d of a.diagnostics) {
    const vmIndex = scopeOf(d.path ?? '').vm;
    const before = vmIndex === undefined ? undefined : a.vms[vmIndex];
    if (!ADVISED.has(d.code) || !before) continue;
    for (const fix of d.fixes ?? []) {
      if (fixTypeOf(d.code, fix) !== 'sizing' || seen.has(fix.title)) continue;
      seen.add(fix.title);
      const after = analyzeText(textWithFix(a, fix)).vms[vmIndex!];
      if (!after || after.unavailable) continue;
      const known = (x: { monthly_cost?: number; monthly_cost_complete: boolean }) =>
        x.monthly_cost_complete ? x.monthly_cost : undefined;
      const now = known(before);
      const then = known(after);
      out.push({
        vm: before.spec.name,
        change: fix.title,
        monthly_cost: after.monthly_cost ?? null,
        monthly_cost_complete: after.monthly_cost_complete,
        monthly_cost_change: now !== undefined && then !== undefined ? then - now : null,
        workloads: after.workloads.map((w) => ({
          name: w.spec.name,
          iops: w.read_iops + w.write_iops,
          mibps: w.read_mibps + w.write_mibps,
          limited_by: w.limited_by,
          meets_target: w.meets_target ?? null,
        })),
      });
    }
  }
  return out;
}
