/**
 * Whether a volume type fits what it is used for and what it is attached to: a throughput-optimised HDD (AWS
 * st1, sc1) under small random I/O, where each I/O costs a whole 1 MiB of its throughput; a type that needs the
 * instance's platform above some provisioned IOPS (io2 Block Express above 64,000 IOPS: the Nitro System).
 */
import { resolveMachine, type Catalog, type Machine } from '../catalog';
import { boughtText, provisionedValues, removedText, vmCostChange } from '../advice/fixes';
import { diskWorkloadsMet, type Condition } from '../advice/least';
import { meetsWithHeadroom } from '../advice/search';
import { cheapestProvisionedMeeting } from '../advice/provisioned';
import type { FixData } from '../diagnostics';
import { provisionedValue } from '../model/provisioned';
import type { DiskEval, WorkloadEval } from '../model/types';
import { fmt, fmtMoney, formatBlock, sizeText } from '../units';
import type { CheckModule, VmContext } from './types';
import { workloadsOn } from '../model/lookups';

export const volumeFit: CheckModule = {
  id: 'volume-fit',
  title: 'Volume type fit',
  about:
    'Whether a volume type suits the I/O it carries and the instance it is attached to: throughput-optimised HDDs under small random I/O, and types that need the instance to be built on a platform above some provisioned IOPS.',
  codes: {
    'hdd-random-io': {
      severity: 'warning',
      summary: 'A throughput-optimised HDD carries small random I/O: each I/O costs it a whole 1 MiB of throughput.',
      docs: "AWS measures st1 and sc1 in 1 MiB I/Os: an I/O of 1 MiB or less counts as 1 MiB, and only sequential I/Os are merged into 1 MiB ones (Amazon EBS User Guide, \"Inefficiency of small read/writes on HDD\"; AWS recommends an SSD type for small random I/O). Raised on the volume's `type` when a workload with `pattern: random` and blocks under 1 MiB runs on it: a 1 TiB st1 (40 MiB/s) then does 40 random 16 KiB I/Os a second, 0.6 MiB/s. The fix changes the type to the cheapest SSD type that keeps every target of the volume met (gp3 at the same size, with provisioned IOPS or throughput where a target needs them), with the change in the volume's monthly price. Past the file's cap on findings of this code (`more-findings`), the finding is counted without the search its fix needs.",
      fixType: 'sizing',
    },
    'needs-platform': {
      severity: 'error',
      summary:
        'The volume is provisioned above what the instance can attach: the type needs an instance built on a platform this one is not built on.',
      docs: "AWS io2 (Block Express) above 64,000 IOPS or 16 TiB attaches only to instances built on the Nitro System (Amazon EBS User Guide, Provisioned IOPS SSD volumes; the families on the Nitro System: https://docs.aws.amazon.com/ec2/latest/instancetypes/ec2-nitro-instances.html). Raised on `provisioned_iops` (on `size` for a volume above 16 TiB). The fixes cap `provisioned_iops` at 64,000 where the size allows, or change the machine to a family of the same vCPUs that is built on the platform (the same letter first), on which every target met today stays met. Past the file's cap on findings of this code (`more-findings`), the finding is counted without the search its fix needs.",
      fixType: 'sizing',
    },
    'platform-unknown': {
      severity: 'warning',
      summary:
        'The volume needs an instance built on a platform above its provisioned IOPS, and the edition does not say whether this machine is.',
      docs: "The edition's `platform` table names the series built on the platform (AWS: the Nitro System); a series it does not name is unknown, never assumed either way. Raised on `machine_type`.",
    },
  },
  vm: (ctx) => {
    for (const d of ctx.evaluation.disks) {
      hddRandom(ctx, d);
      needsPlatform(ctx, d);
    }
  },
};

function hddRandom(ctx: VmContext, d: DiskEval): void {
  const tc = d.type.model === 'scaled' ? d.type.throughput_credits : undefined;
  if (!tc) return;
  const w = workloadsOn(ctx.evaluation, d.spec.name).find((x) => x.spec.pattern === 'random' && x.spec.block_kib < tc.io_kib);
  if (!w) return;
  const at = ctx.at(`${d.spec.path}/type`);
  // Past the file's cap this finding is counted, not listed: the SSD type its fix would offer is not searched for.
  const fixes = ctx.listed('hdd-random-io', at) ? toSsd(ctx, d) : [];
  // The volume counts the I/Os against its own throughput, not what the instance's limit leaves of it (the
  // instance counts the bytes moved, a 64th of a MiB per 16 KiB I/O).
  const base = d.diskOnly.read_mibps;
  ctx.report(
    'hdd-random-io',
    `'${w.spec.name}' does random ${formatBlock(w.spec.block_kib)} I/O on ${d.spec.name} (${d.typeName}): each I/O counts as a full ${formatBlock(tc.io_kib)} of the volume's ${fmt(base)} MiB/s, so it reaches ${fmt(reached(w))} IOPS, ${fmt(w.read_mibps + w.write_mibps)} MiB/s${fixes.length ? `; use an SSD type` : ''}`,
    at,
    { path: `${d.spec.path}/type`, fixes },
  );
}

function reached(w: WorkloadEval): number {
  return w.read_iops + w.write_iops;
}

/** The volume as the cheapest provisioned (SSD) type at its size on which its workloads keep their targets. */
function toSsd(ctx: VmContext, d: DiskEval): FixData[] {
  const m = ctx.machine;
  if (!m) return [];
  // Every target of the volume met, and the policy's headroom kept by each workload that has it today.
  const policy = ctx.spec.min_headroom ?? 0;
  const kept = ctx.evaluation.workloads
    .filter((w) => w.disks.includes(d.spec.name) && w.headroom !== undefined && w.headroom >= policy - 1e-9)
    .map((w) => w.spec.name);
  const onDisk = diskWorkloadsMet(d.spec.name);
  const met: Condition = policy && kept.length ? (e) => onDisk(e) && kept.every((n) => meetsWithHeadroom(e, n, policy)) : onDisk;
  const choice = cheapestProvisionedMeeting(ctx.catalog, ctx.evaluation.spec, m, ctx.region, d.spec, met, {
    sizeGib: d.size_gib,
    throughput: true,
    redundant: d.type.replicated !== false,
  });
  if (!choice || choice.size_gib !== d.size_gib) return [];
  const now = d.cost.complete ? d.cost.monthly : undefined;
  const money = (x: number) => fmtMoney(Math.abs(x), ctx.catalog.currency);
  const delta = now !== undefined ? choice.monthly - now : undefined;
  const price = delta !== undefined ? `${delta >= 0 ? '+' : '−'}${money(delta)}/month` : `${money(choice.monthly)}/month`;
  const values = [
    { path: `${d.spec.path}/type`, value: choice.type },
    ...provisionedValues(d.spec, ctx.has, choice, ctx.catalog.disk_types[choice.type]),
  ];
  return [
    {
      kind: 'set-values',
      values,
      title: `Switch '${d.spec.name}' to ${choice.type}${boughtText(choice)}${removedText(values)} (${price})`,
      preferred: true,
    },
  ];
}

function needsPlatform(ctx: VmContext, d: DiskEval): void {
  const c = ctx.catalog;
  const m = ctx.machine;
  const table = c.platform;
  const req = table?.requirements.find((r) => r.disk_type === d.typeName);
  if (!m || !table || !req || d.type.model !== 'provisioned' || !d.type.provisioned.iops) return;
  const iops = provisionedValue(d.type.provisioned.iops, d.spec.provisioned_iops, d.size_gib);
  const overIops = iops > req.iops_above;
  const overSize = req.size_gib_above !== undefined && d.size_gib > req.size_gib_above;
  const on = table.machine_types?.[m.limits_as ?? m.name] ?? table.series[m.series];
  if ((!overIops && !overSize) || on === true) return;
  const what = [
    overIops ? `above ${fmt(req.iops_above)} IOPS (${fmt(iops)} provisioned)` : '',
    overSize ? `above ${sizeText(req.size_gib_above!)} (${sizeText(d.size_gib)})` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  if (on === undefined) {
    ctx.report(
      'platform-unknown',
      `${d.spec.name} needs an instance built on the ${table.platform}: ${d.typeName} ${what}; ${c.edition} does not say whether ${m.series} is`,
      ctx.machineSpan(),
      { path: `${ctx.vm.path}/machine_type` },
    );
    return;
  }
  const iopsPath = `${d.spec.path}/provisioned_iops`;
  const path = overIops && ctx.has(iopsPath) ? iopsPath : `${d.spec.path}/${overSize ? 'size' : 'type'}`;
  const fixes: FixData[] = [];
  // Capping the IOPS is a fix only where the size is within the limit too.
  if (path === iopsPath && !overSize)
    fixes.push({ kind: 'set-value', path, value: req.iops_above, title: `Provision ${fmt(req.iops_above)} IOPS`, preferred: true });
  // A machine change is that and nothing more: every target met today stays met there (another machine may bring an
  // instance store a workload over all the disks cannot be evaluated on, or limits the edition lacks). Not searched
  // for a finding past the file's cap, which is counted, not listed.
  const other = ctx.listed('needs-platform', ctx.at(path)) ? onPlatform(c, m, (x) => ctx.advice.keepsTargetsOn(x)) : undefined;
  if (other) {
    const cost = vmCostChange(c, ctx.evaluation, ctx.advice.onMachine(other));
    fixes.push(ctx.setMachine(other, `Change machine to ${other.name}, built on the ${table.platform} (${cost})`, !fixes.length));
  }
  ctx.report(
    'needs-platform',
    `${m.name} is not built on the ${table.platform}: ${d.typeName} ${what} does not attach to it (${c.edition}); ${overIops && !overSize ? `provision at most ${fmt(req.iops_above)} or ` : ''}use an instance built on it`,
    ctx.at(path),
    { path, fixes },
  );
}

/**
 * A machine with as many vCPUs in a series built on the platform, one of the same letter (m, c, r…) first, on which
 * `fits` holds.
 */
function onPlatform(c: Catalog, m: Machine, fits: (x: Machine) => boolean): Machine | undefined {
  const series = Object.keys(c.platform!.series).filter((s) => c.platform!.series[s] && c.machine_series[s]);
  series.sort((a, b) => Number(b[0] === m.series[0]) - Number(a[0] === m.series[0]));
  for (const s of series) {
    const name = Object.entries(c.machine_series[s].shapes ?? {}).find(([, v]) => v === m.vcpus)?.[0];
    const r = name !== undefined ? resolveMachine(c, { machine_type: name }) : undefined;
    if (r?.ok && fits(r.machine)) return r.machine;
  }
  return undefined;
}
