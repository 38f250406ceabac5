/**
 * Provisioned performance a disk could buy and does not: a type whose throughput is bought apart from its
 * size (AWS gp3), left at the throughput its price includes, under a large-block workload that misses its
 * target because of it.
 */
import type { ProvisionedDiskType } from '../catalog';
import type { FixData } from '../diagnostics';
import { provisionedBounds, provisionedValue } from '../model/provisioned';
import type { DiskEval, WorkloadEval } from '../model/types';
import { fmt, fmtMoney } from '../units';
import type { CheckModule, VmContext } from './types';

export const provisioning: CheckModule = {
  id: 'provisioning',
  title: 'Provisioned performance',
  about: 'Performance a disk type sells apart from its size, left at what its price includes where a workload needs more.',
  codes: {
    'throughput-at-baseline': {
      severity: 'warning',
      summary: 'The disk runs at the throughput its price includes, and a large-block workload on it misses its target for that.',
      docs: "AWS gp3 includes 125 MiB/s; more is provisioned with `provisioned_throughput` (up to 0.25 MiB/s per provisioned IOPS). Raised on the disk's `type` when a workload of large blocks on it is held by that throughput and misses its target. The fix provisions the throughput the target needs (as far as the IOPS allow), with its monthly price.",
      fixType: 'sizing',
    },
  },
  vm: (ctx) => {
    for (const d of ctx.evaluation.disks) {
      const t = d.type;
      if (t.model !== 'provisioned' || !t.provisioned.mibps || d.spec.provisioned_mibps !== undefined) continue;
      const w = ctx.evaluation.workloads.find((x) => heldByThroughput(ctx, x, d));
      if (w) atBaseline(ctx, d, t, w);
    }
  },
};

/** A workload of large blocks on this disk alone, held by its provisioned throughput, short of its target. */
function heldByThroughput(ctx: VmContext, w: WorkloadEval, d: DiskEval): boolean {
  return (
    w.meets_target === false &&
    w.disks.length === 1 &&
    w.disks[0] === d.spec.name &&
    w.spec.block_kib >= ctx.catalog.io.throughput_min_kib &&
    w.limited_by === 'provisioned' &&
    (d.figures.read_mibps.by === 'provisioned' || d.figures.write_mibps.by === 'provisioned')
  );
}

function atBaseline(ctx: VmContext, d: DiskEval, t: ProvisionedDiskType, w: WorkloadEval): void {
  const pr = t.provisioned;
  const size = d.size_gib;
  const now = provisionedValue(pr.mibps!, undefined, size);
  const iops = pr.iops ? provisionedValue(pr.iops, d.spec.provisioned_iops, size) : undefined;
  const ratioCap = pr.mibps_max_per_iops !== undefined && iops !== undefined ? Math.max(now, iops * pr.mibps_max_per_iops) : Infinity;
  const { hi } = provisionedBounds(pr.mibps!, size);
  const needed = Math.ceil(neededMibps(w) ?? now);
  const value = Math.min(needed, hi, ratioCap);
  const path = d.spec.path;
  const fixes: FixData[] = [];
  if (value > now) {
    const rate = t.price?.per_mibps_month?.[ctx.region];
    const cost = rate !== undefined ? ` (+${fmtMoney((value - now) * rate, ctx.catalog.currency)}/month)` : '';
    fixes.push({
      kind: 'add-key',
      path,
      key: 'provisioned_throughput',
      value: `${value}MiB/s`,
      title: `Provision ${fmt(value)} MiB/s${cost}`,
      preferred: true,
    });
  }
  const short = value < needed ? `; ${fmt(iops ?? 0)} provisioned IOPS allow at most ${fmt(value)} MiB/s` : '';
  ctx.report(
    'throughput-at-baseline',
    `${d.spec.name} runs at the ${fmt(now)} MiB/s ${d.typeName} includes, and '${w.spec.name}' (${fmt(w.spec.block_kib)} KiB blocks) needs ${fmt(needed)}: provision throughput${short}`,
    ctx.key(`${path}/type`),
    { path: `${path}/type`, fixes },
  );
}

/** The MiB/s a workload's target asks of its one disk: reads and writes together, as the type provisions them. */
function neededMibps(w: WorkloadEval): number | undefined {
  const t = w.spec.target;
  if (t.mibps !== undefined) return t.mibps;
  if (t.read_mibps !== undefined || t.write_mibps !== undefined) return (t.read_mibps ?? 0) + (t.write_mibps ?? 0);
  const iops = t.iops ?? (t.read_iops ?? 0) + (t.write_iops ?? 0);
  return iops ? (iops * w.spec.block_kib) / 1024 : undefined;
}
