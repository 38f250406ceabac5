/**
 * Provisioned performance a disk could buy and does not: a type whose throughput is bought apart from its
 * size (AWS gp3), left at the throughput its price includes, under a large-block workload that misses its
 * target because of it. And provisioned performance a disk buys that its machine cannot use.
 */
import { limitValue, vmLimitRow, type ProvisionedDiskType } from '../catalog';
import { diskCost } from '../model/cost';
import { diskTier, sizeTier } from '../model/tiers';
import type { CodeInfo, FixData } from '../diagnostics';
import { provisionedValues } from '../advice/fixes';
import { targetsKept, withDisk } from '../advice/search';
import { evaluateOn } from '../model/evaluate';
import { provisionedBounds, provisionedValue } from '../model/provisioned';

import { METRICS, type DiskEval, type Metric, type WorkloadEval } from '../model/types';
import { fmt, fmtMoney } from '../units';
import type { CheckModule, VmContext } from './types';
import { workloadsOn } from '../model/lookups';

const ABOVE_VM_LIMIT: CodeInfo = {
  severity: 'warning',
  summary: 'The disk is provisioned above what the machine sustains: the part above it is paid for and never delivered.',
  docs: "Raised on the disk's `provisioned_iops` or `provisioned_throughput` when the value provisioned (and priced) is above the machine's sustained per-VM limit for the disk's type, the limit of all its disks together: even alone on the machine the disk never delivers the rest (AWS: io2 at 100,000 IOPS on m6i.xlarge, which sustains 6,000). The message gives the monthly price of what lies above the limit and, where the machine has a burst window, what it reaches in it (AWS: its EBS maximum for 30 minutes a day). The fix provisions what the machine sustains (never below what the type includes or requires), with the monthly saving; it is offered where the VM's disks then deliver as much in all and every target met stays met. A disk sold in tiers set to a performance tier above its size's own (Azure `tier:`) is raised on `tier` when a lower tier, from the size's own up, gives as much under the machine's sustained limit: the message gives the monthly difference and the fix sets that tier. Past the file's cap on findings of this code (`more-findings`), the finding is counted without the search its fix needs.",
  fixType: 'sizing',
};

/** The machine's sustained limit and its burst-window level for the disk's type, in IOPS and MiB/s. */
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
    'provisioned-above-vm-limit': ABOVE_VM_LIMIT,
  },
  vm: (ctx) => {
    for (const d of ctx.evaluation.disks) {
      aboveVmLimit(ctx, d);
      tierAboveVmLimit(ctx, d);
    }
    for (const d of ctx.evaluation.disks) {
      const t = d.type;
      if (t.model !== 'provisioned' || !t.provisioned.mibps || d.spec.provisioned_mibps !== undefined) continue;
      const w = workloadsOn(ctx.evaluation, d.spec.name).find((x) => heldByThroughput(ctx, x, d));
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
    (d.figures.by('read_mibps') === 'provisioned' || d.figures.by('write_mibps') === 'provisioned')
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

interface Window {
  iops?: number;
  mibps?: number;
  seconds: number;
}

function limits(ctx: VmContext, d: DiskEval): { iops?: number; mibps?: number; burst?: Window } | undefined {
  const m = ctx.machine;
  const found = m && vmLimitRow(ctx.catalog, m, d.typeName);
  if (!m || !found) return undefined;
  const top = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
  const r = found.row;
  const b = r.burst;
  return {
    iops: top(limitValue(r.read_iops, m.vcpus), limitValue(r.write_iops, m.vcpus)),
    mibps: top(limitValue(r.read_mibps, m.vcpus), limitValue(r.write_mibps, m.vcpus)),
    burst:
      b && found.table.burst_seconds !== undefined
        ? { iops: top(b.read_iops, b.write_iops), mibps: top(b.read_mibps, b.write_mibps), seconds: found.table.burst_seconds }
        : undefined,
  };
}

/**
 * Provisioned IOPS or throughput above what the machine sustains for all its disks together: the part above it
 * is paid for every month and never delivered, even with the disk alone on the machine. The fix provisions what
 * the machine can use (never below what the type includes or requires), checked by evaluating the VM with it.
 */
function aboveVmLimit(ctx: VmContext, d: DiskEval): void {
  const t = d.type;
  if (t.model !== 'provisioned' || !ctx.machine) return;
  const lim = limits(ctx, d);
  if (!lim) return;
  const pr = t.provisioned;
  const over: Over = {};
  const bought: string[] = [];
  const sustained: string[] = [];
  const check = (asked: number | undefined, range: ProvisionedDiskType['provisioned']['iops'], cap: number | undefined, unit: string) => {
    if (asked === undefined || !range || cap === undefined) return undefined;
    // Whole units: the least provision that is not under the limit.
    const usable = Math.ceil(cap - 1e-9);
    const now = provisionedValue(range, asked, d.size_gib);
    if (now <= usable) return undefined;
    const to = provisionedValue(range, usable, d.size_gib);
    if (to >= now) return undefined;
    bought.push(`${fmt(now)} ${unit}`);
    sustained.push(`${fmt(cap)}${bought.length > 1 ? ` ${unit}` : ''}`);
    return to;
  };
  over.provisioned_iops = check(d.spec.provisioned_iops, pr.iops, lim.iops, 'IOPS');
  over.provisioned_mibps = check(d.spec.provisioned_mibps, pr.mibps, lim.mibps, 'MiB/s');
  if (over.provisioned_iops === undefined && over.provisioned_mibps === undefined) return;
  const path = `${d.spec.path}/${over.provisioned_iops !== undefined ? 'provisioned_iops' : 'provisioned_throughput'}`;
  const at = ctx.at(path);
  const said = `${d.spec.name}: ${bought.join(' and ')} provisioned; ${ctx.machine.name} sustains ${sustained.join(' and ')} for all its disks`;
  // Past the file's cap this finding is counted, not listed: the VM is not evaluated again for its fix and saving.
  if (!ctx.listed('provisioned-above-vm-limit', at))
    return ctx.report('provisioned-above-vm-limit', `${said}: ${NOT_DELIVERED}${windowText(lim.burst)}`, at, { path });
  const { saving, fixes } = provisionFix(ctx, d, over);
  const cost = saving !== undefined ? `${fmtMoney(saving, ctx.catalog.currency)}/month pays for what it cannot use` : NOT_DELIVERED;
  ctx.report('provisioned-above-vm-limit', `${said}: ${cost}${windowText(lim.burst)}`, at, { path, fixes });
}

/** What a disk is provisioned above its machine's sustained limit, lowered to that limit. */
interface Over {
  provisioned_iops?: number;
  provisioned_mibps?: number;
}

const NOT_DELIVERED = 'the part above it is paid for and never delivered';

/**
 * The VM evaluated with the disk provisioned at the machine's limit (`over`): the monthly saving, where both prices
 * are known in full, and the fix, where the VM's disks then deliver as much in all and every target met stays met.
 */
function provisionFix(ctx: VmContext, d: DiskEval, over: Over): { saving?: number; fixes: FixData[] } {
  const change = Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined));
  // The evaluation's own VM, whose disks `d.spec` is one of (./types.ts: `VmContext.vm`).
  const after = evaluateOn(ctx.catalog, withDisk(ctx.evaluation.spec, d.spec, change), ctx.machine!, ctx.region);
  const fixed = after.disks.find((x) => x.spec.name === d.spec.name);
  const before = d.cost;
  // Only a price both sides know in full says what the excess costs.
  const saving =
    fixed && before.complete && fixed.cost.complete && before.monthly !== undefined && fixed.cost.monthly !== undefined
      ? before.monthly - fixed.cost.monthly
      : undefined;
  // The fix must deliver what the VM's disks deliver now (the machine holds them at its limit anyway), and
  // keep every target that is met.
  const total = (e: { disks: DiskEval[] }, k: Metric) => e.disks.reduce((s, x) => s + x.figures[k], 0);
  const same = !!fixed && METRICS.every((k) => total(after, k) >= total(ctx.evaluation, k) - 1e-6) && targetsKept(ctx.evaluation, after);
  if (!same) return { saving, fixes: [] };
  const what = [
    over.provisioned_iops !== undefined ? `${fmt(over.provisioned_iops)} IOPS` : '',
    over.provisioned_mibps !== undefined ? `${fmt(over.provisioned_mibps)} MiB/s` : '',
  ].filter(Boolean);
  const title = `Provision ${what.join(' and ')}${saving !== undefined ? ` (−${fmtMoney(saving, ctx.catalog.currency)}/month)` : ''}`;
  return { saving, fixes: [{ kind: 'set-values', values: provisionedValues(d.spec, ctx.has, over), title, preferred: true }] };
}

/** "; in its burst window, 30 minutes a day, it reaches 40,000 IOPS and 1,192 MiB/s". */
function windowText(b: Window | undefined): string {
  if (!b) return '';
  const parts = [b.iops !== undefined ? `${fmt(b.iops)} IOPS` : '', b.mibps !== undefined ? `${fmt(b.mibps)} MiB/s` : ''].filter(Boolean);
  return parts.length ? `; ${fmt(b.seconds / 60)} minutes a day it reaches ${parts.join(' and ')}` : '';
}

/**
 * A performance tier set above the disk's own (`tier:`) whose figures the machine cannot use: the lowest tier from
 * the size's own up that gives as much under the machine's sustained limit costs less each month. The fix sets it.
 */
function tierAboveVmLimit(ctx: VmContext, d: DiskEval): void {
  const t = d.type;
  if (t.model !== 'tiers' || d.spec.tier === undefined || !ctx.machine) return;
  const lim = limits(ctx, d);
  const now = diskTier(t, d.spec, d.size_gib);
  const own = sizeTier(t, d.size_gib);
  if (!lim || !now || !own || now === own || d.spec.performance_plus) return;
  const usable = (v: number, cap: number | undefined) => Math.min(v, cap ?? Infinity);
  const rows = t.tiers.rows;
  const enough = rows
    .slice(rows.indexOf(own), rows.indexOf(now))
    .find((r) => usable(r.iops, lim.iops) >= usable(now.iops, lim.iops) && usable(r.mibps, lim.mibps) >= usable(now.mibps, lim.mibps));
  if (!enough) return;
  const before = d.cost;
  const after = diskCost(ctx.catalog, t, { ...d.spec, tier: enough.name }, d.size_gib, ctx.region);
  const money = (x: number) => fmtMoney(x, ctx.catalog.currency);
  const saving = before.complete && after.complete ? before.monthly! - after.monthly! : undefined;
  const cost =
    saving !== undefined ? `${money(saving)}/month pays for what it cannot use` : 'the part above it is paid for and never delivered';
  const path = `${d.spec.path}/tier`;
  const caps = [lim.iops !== undefined ? `${fmt(lim.iops)} IOPS` : '', lim.mibps !== undefined ? `${fmt(lim.mibps)} MiB/s` : ''].filter(
    Boolean,
  );
  ctx.report(
    'provisioned-above-vm-limit',
    `${d.spec.name}: tier ${now.name} (${fmt(now.iops)} IOPS, ${fmt(now.mibps)} MiB/s); ${ctx.machine.name} sustains ${caps.join(' and ')} for all its disks, which ${enough.name} reaches too: ${cost}`,
    ctx.at(path),
    {
      path,
      fixes: [
        {
          kind: 'set-value',
          path,
          value: enough.name,
          title: `Set tier ${enough.name}${saving !== undefined ? ` (−${money(saving)}/month)` : ''}`,
          preferred: true,
        },
      ],
    },
  );
}
