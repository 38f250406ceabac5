/**
 * Capacity and cost: prices the catalog lacks, and disks that pay for performance their workloads never use
 * (a cheaper type or a smaller size that still meets every target).
 */
import { resolveMachine } from '../catalog';
import type { FixData, FixValue } from '../diagnostics';
import type { DiskEval, PriceGap } from '../model/types';
import { boughtText, provisionedValues, removedText } from '../advice/fixes';
import { capacityNeed } from '../advice/search';
import { costText, fmt, fmtMoney, formatSize, sizeText } from '../units';
import { unpricedText } from './catalog';
import type { CheckModule, VmContext } from './types';

export const cost: CheckModule = {
  id: 'cost',
  title: 'Capacity and cost',
  about: 'What the disks cost, and whether they pay for performance their workloads never use.',
  codes: {
    'capacity-short': {
      severity: 'error',
      summary: 'The disk is smaller than the data the spec says it must hold (data_size plus growth).',
      docs: 'The fix resizes the disk to hold it.',
      fixType: 'sizing',
    },
    overprovisioned: {
      severity: 'information',
      summary: 'A cheaper disk type or a smaller disk meets every target.',
      docs: "Only for disks that declare the data they hold (`data_size`, with `growth`) and whose workloads all have targets and meet them: the cheaper disk still holds the data, and meets every target with the headroom the spec's policy asks (`policy: min_headroom`). The fix sets the cheaper type or size and says what it saves.",
      fixType: 'sizing',
    },
    'price-unknown': {
      severity: 'information',
      summary:
        'The catalog has no price for part of what the spec uses: a disk type in this region, provisioned IOPS or throughput, or the machine.',
      docs: "One finding per missing price per disk (on its `type`, `provisioned_iops` or `provisioned_throughput`) and per machine (on its `machine_type`, or `series`/`vcpus`). The totals keep the known part and are marked partial: `monthly_cost_complete: false` in the JSON report, 'at least $X (...)' wherever they are shown. An edition with no machine prices at all (gcp-2020, yandex-2025) says so once per file, on the first VM's machine.",
    },
  },
  vm: (ctx) => {
    const e = ctx.evaluation;
    // In a region the edition does not price, unknown-region or unpriced-region has said it: every price is missing.
    const priced = ctx.catalog.regions.includes(ctx.region);
    if (!priced && ctx.vm.region !== undefined && ctx.vm.region !== ctx.spec.region && !ctx.vm.region_unknown) unpricedVmRegion(ctx);
    if (priced) machineGap(ctx);
    // How many disks bear each name, and the disks of a workload not known to meet its target: gathered once
    // (a scan of the disks and workloads for each disk was quadratic on a VM of many).
    const named = new Map<string, number>();
    for (const d of e.disks) named.set(d.spec.name, (named.get(d.spec.name) ?? 0) + 1);
    const missedOn = new Set(e.workloads.filter((w) => w.meets_target !== true).flatMap((w) => w.disks));
    for (const d of e.disks) {
      if (priced) for (const g of d.cost.gaps) diskGap(ctx, d, g);
      // Disks are looked up by name here and in the search: with a duplicate name (already an error) the
      // advice would be about the other disk, priced with this one's cost.
      capacity(ctx, d);
      // Only a disk whose data size is declared can be called too big: otherwise the size may be for the data.
      if (
        d.type.model !== 'devices' &&
        d.spec.data_size_gib !== undefined &&
        d.cost.complete &&
        d.cost.monthly !== undefined &&
        named.get(d.spec.name) === 1 &&
        !missedOn.has(d.spec.name)
      ) {
        overprovisioned(ctx, d, d.cost.monthly);
      }
    }
  },
};

const GAP_KEY = { capacity: 'type', iops: 'provisioned_iops', throughput: 'provisioned_throughput' } as const;

function diskGap(ctx: VmContext, d: DiskEval, g: PriceGap): void {
  // I/O requests billed per million are said by the disk's figure-range finding, with their rate.
  if (g.part === 'machine' || g.part === 'instances' || g.part === 'requests') return;
  const own = `${d.spec.path}/${GAP_KEY[g.part]}`;
  const path = ctx.has(own) ? own : `${d.spec.path}/type`;
  const money = costText(d.cost.monthly, false, [], ctx.catalog.currency, '/month');
  const message =
    g.part === 'capacity'
      ? `${d.cost.why}: '${d.spec.name}' is left out of the VM's and the file's totals, which are marked partial`
      : `${ctx.catalog.edition} has no ${d.typeName} ${g.part === 'iops' ? 'provisioned IOPS' : 'provisioned throughput'} price for ${ctx.region}: '${d.spec.name}' costs ${money}, that part left out`;
  ctx.report('price-unknown', message, ctx.at(path), { path });
}

/**
 * A Terraform VM whose own zone's region is not the file's and is not priced: a real region of the provider is
 * information (the configuration is right, only unpriced), another name is unknown-region.
 */
function unpricedVmRegion(ctx: VmContext): void {
  // On the zone that gives the region, where the VM writes one; else on the VM.
  const where = ctx.at(`${ctx.vm.path}/region`) ?? ctx.at(`${ctx.vm.path}/name`) ?? ctx.machineSpan();
  if (ctx.catalog.other_regions?.regions.includes(ctx.region))
    return ctx.report('unpriced-region', unpricedText(ctx.catalog, ctx.region, "this VM's costs are left out"), where);
  const message = `${ctx.catalog.edition} has no prices for region '${ctx.region}', where this VM's zone is: its costs are left out`;
  ctx.report('unknown-region', message, where);
}

function machineGap(ctx: VmContext): void {
  const m = ctx.machine;
  const cost = ctx.evaluation.machine_cost;
  // A template's instances that are not priced (a group's size unknown) are said by the template's own finding.
  const own = cost.gaps.filter((g) => g.part !== 'instances');
  // An unknown machine has its own finding; an edition without machine prices is said once per file, on the
  // first VM whose machine it knows.
  if (!m || (cost.monthly !== undefined && !own.length)) return;
  if (!ctx.catalog.machine_prices && firstKnownMachine(ctx) !== ctx.vm) return;
  const message = ctx.catalog.machine_prices
    ? `${cost.why}: the VM's total leaves the machine out and is marked partial`
    : `${ctx.catalog.edition} has no machine prices: every VM's total in this file is its disks only, marked partial`;
  const named = ['machine_type', 'series'].map((k) => `${ctx.vm.path}/${k}`).find((p) => ctx.has(p));
  ctx.report('price-unknown', message, named ? ctx.at(named) : ctx.machineSpan(), named ? { path: named } : undefined);
}

/** The spec's first VM whose machine the catalog knows, found once per spec and catalog, not once per VM. */
const firstKnown = new WeakMap<object, WeakMap<object, VmContext['vm'] | undefined>>();
function firstKnownMachine(ctx: VmContext): VmContext['vm'] | undefined {
  let bySpec = firstKnown.get(ctx.catalog);
  if (!bySpec) firstKnown.set(ctx.catalog, (bySpec = new WeakMap()));
  if (!bySpec.has(ctx.spec))
    bySpec.set(
      ctx.spec,
      ctx.spec.vms.find((v) => resolveMachine(ctx.catalog, v).ok),
    );
  return bySpec.get(ctx.spec);
}

function capacity(ctx: VmContext, d: DiskEval): void {
  const need = capacityNeed(d.spec);
  if (need === undefined || d.size_gib + 1e-9 >= need) return;
  const s = d.spec;
  const size = Math.ceil(need);
  const growth = s.growth ? ` + ${fmt(s.growth * 100)}% growth` : '';
  const path = `${s.path}/size`;
  ctx.report(
    'capacity-short',
    `'${s.name}' holds ${sizeText(d.size_gib)}; its data needs ${sizeText(size)} (${sizeText(s.data_size_gib!)}${growth}): make it larger`,
    ctx.at(path) ?? ctx.at(`${s.path}/data_size`),
    {
      path,
      fixes:
        d.type.model !== 'devices' && ctx.has(path)
          ? [{ kind: 'set-value', path, value: formatSize(size), title: `Resize '${s.name}' to ${formatSize(size)}`, preferred: true }]
          : [],
    },
  );
}

function overprovisioned(ctx: VmContext, d: DiskEval, monthly: number): void {
  const better = ctx.advice.cheaperDisk(d.spec.name);
  if (!better) return;
  const sameType = better.type === d.typeName;
  const policy = ctx.spec.min_headroom;
  const headroom = policy ? ` with the policy's ${fmt(policy * 100)}% headroom` : '';
  const money = (x: number) => fmtMoney(x, ctx.catalog.currency);
  const what = `${sameType ? sizeText(better.size_gib) : `a ${sizeText(better.size_gib)} ${better.type} disk`}${boughtText(better)}`;
  const values: FixValue[] = [{ path: `${d.spec.path}/size`, value: formatSize(better.size_gib) }];
  if (!sameType) values.unshift({ path: `${d.spec.path}/type`, value: better.type });
  values.push(...provisionedValues(d.spec, ctx.has, better, ctx.catalog.disk_types[better.type]));
  const fixes: FixData[] = ctx.has(`${d.spec.path}/size`)
    ? [{ kind: 'set-values', values, title: `Use ${what}${removedText(values)} (−${money(better.saving)}/month)`, preferred: false }]
    : [];
  ctx.report(
    'overprovisioned',
    `'${d.spec.name}' pays for performance its workloads never use: ${what} still meets every target${headroom} and holds the data${d.spec.growth ? ' and its growth' : ''} and saves ${money(better.saving)}/month (${money(better.monthly)} instead of ${money(monthly)})`,
    ctx.at(sameType ? `${d.spec.path}/size` : `${d.spec.path}/type`),
    { path: `${d.spec.path}/${sameType ? 'size' : 'type'}`, fixes },
  );
}
