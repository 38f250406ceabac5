/**
 * Capacity and cost: prices the catalog lacks, and disks that pay for performance their workloads never use
 * (a cheaper type or a smaller size that still meets every target).
 */
import type { FixData } from '../diagnostics';
import type { DiskEval } from '../model/types';
import { fmtMoney, formatSize } from '../units';
import type { CheckModule, VmContext } from './types';

export const cost: CheckModule = {
  id: 'cost',
  title: 'Capacity and cost',
  about: 'What the disks cost, and whether they pay for performance their workloads never use.',
  codes: {
    overprovisioned: {
      severity: 'information',
      summary: 'A cheaper disk type or a smaller disk meets every target.',
      docs: 'Only for disks whose workloads all have targets and meet them. The fix (never preferred: the data must still fit) sets the cheaper type or size and says what it saves.',
    },
    'price-unknown': {
      severity: 'information',
      summary: 'The catalog has no (or only uncertain) prices for this disk type.',
      docs: "The disk's cost, and so the VM's and the file's, is left out.",
    },
  },
  vm: (ctx) => {
    const e = ctx.evaluation;
    for (const d of e.disks) {
      if (d.cost.monthly === undefined)
        ctx.report('price-unknown', d.cost.why, ctx.at(`${d.spec.path}/type`), { path: `${d.spec.path}/type` });
      // Disks are looked up by name here and in the search: with a duplicate name (already an error) the
      // advice would be about the other disk, priced with this one's cost.
      if (
        d.type.model !== 'devices' &&
        d.cost.monthly !== undefined &&
        e.disks.filter((x) => x.spec.name === d.spec.name).length === 1 &&
        !e.workloads.some((w) => w.disks.includes(d.spec.name) && w.meets_target !== true)
      ) {
        overprovisioned(ctx, d, d.cost.monthly);
      }
    }
  },
};

function overprovisioned(ctx: VmContext, d: DiskEval, monthly: number): void {
  const better = ctx.advice.cheaperDisk(d.spec.name);
  if (!better) return;
  const sameType = better.type === d.typeName;
  const money = (x: number) => fmtMoney(x, ctx.catalog.currency);
  const what = sameType ? `${formatSize(better.size_gib)}` : `a ${formatSize(better.size_gib)} ${better.type} disk`;
  const values: Array<{ path: string; value: string | number }> = [{ path: `${d.spec.path}/size`, value: formatSize(better.size_gib) }];
  if (!sameType) values.unshift({ path: `${d.spec.path}/type`, value: better.type });
  const fixes: FixData[] = ctx.has(`${d.spec.path}/size`)
    ? [{ kind: 'set-values', values, title: `Use ${what} (−${money(better.saving)}/month)`, preferred: false }]
    : [];
  ctx.report(
    'overprovisioned',
    `'${d.spec.name}' pays for performance its workloads never use: ${what} still meets every target${better.size_gib < d.size_gib ? ', if the data fits,' : ''} and saves ${money(better.saving)}/month (${money(better.monthly)} instead of ${money(monthly)})`,
    ctx.at(sameType ? `${d.spec.path}/size` : `${d.spec.path}/type`),
    { path: `${d.spec.path}/${sameType ? 'size' : 'type'}`, fixes },
  );
}
