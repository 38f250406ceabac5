/**
 * Monthly prices from the catalog's price tables: a disk (capacity, plus provisioned IOPS and throughput above
 * what the capacity price includes) and a machine (on demand). A part the catalog has no price for is a gap:
 * the cost keeps the known part, is marked incomplete, and names what is missing.
 */
import type { Catalog, DiskType, Machine, PriceTable, SeriesPrice } from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { fmt, fmtMoney, fmtUnitPrice, plural } from '../units';
import { provisionedValue } from './provisioned';
import { cost, type Cost, type PriceGap } from './types';

/**
 * The price per GiB-month of a disk type in a region: the machine series' own rate where the catalog has one
 * (never the general rate in its place), the regional price for a regional disk where the catalog has one,
 * otherwise the zonal price. The one place that choice is made (cost, searches and fix titles use it).
 */
export function perGibPrice(
  t: DiskType,
  replication: DiskSpec['replication'] | undefined,
  region: string,
  series?: string,
): { perGib?: number; regional: boolean; series?: string } {
  const p = t.price;
  if (!p) return { regional: false };
  const own = series !== undefined ? p.by_series_per_gib_month?.[series] : undefined;
  if (own) return { perGib: own[region], regional: false, series };
  const regional = replication === 'regional' && !!p.regional_per_gib_month;
  return { perGib: (regional ? p.regional_per_gib_month! : p.per_gib_month)[region], regional };
}

/**
 * A disk's monthly price. Provisioned amounts are billed as the type allows them (clamped into its range), except
 * where the edition does not model the type on the machine (`clampToType` false): its range there is unknown, so
 * what the spec asks is billed.
 */
export function diskCost(c: Catalog, t: DiskType, d: DiskSpec, size: number, region: string, series?: string, clampToType = true): Cost {
  const p = t.price;
  const { perGib, regional, series: own } = perGibPrice(t, d.replication, region, series);
  if (!p || perGib === undefined) {
    const text = p ? `no ${d.type} price${own ? ` on ${own}` : ''} for region ${region}` : `no price for ${d.type}`;
    return cost(undefined, false, () => `${c.edition} has ${text}`, [{ part: 'capacity', text: `${d.type} price unknown in ${region}` }]);
  }
  const money = (n: number) => fmtUnitPrice(n, c.currency);
  let total = perGib * size;
  const parts: Array<() => string> = [
    () => `${fmt(size, 2)} GiB × ${money(perGib)}${regional ? ' (regional)' : own ? ` (on ${own})` : ''}`,
  ];
  const gaps: PriceGap[] = [];
  if (t.model === 'provisioned') {
    const pr = t.provisioned;
    const extras = [
      { part: 'iops', limit: pr.iops, asked: d.provisioned_iops, included: p.included_iops, rate: p.per_iops_month, unit: 'IOPS' },
      {
        part: 'throughput',
        limit: pr.mibps,
        asked: d.provisioned_mibps,
        included: p.included_mibps,
        rate: p.per_mibps_month,
        unit: 'MiB/s',
      },
    ] as const;
    for (const x of extras) {
      if (!x.limit) continue;
      const asked = clampToType ? provisionedValue(x.limit, x.asked, size) : (x.asked ?? x.limit.default ?? x.limit.min);
      const billable = Math.max(0, asked - (x.included ?? 0));
      if (billable <= 0) continue;
      if (x.part === 'iops' && p.per_iops_month_tiers) {
        const t = tieredIops(p.per_iops_month_tiers, billable, region, money);
        if (t.amount !== undefined) total += t.amount;
        else gaps.push({ part: 'iops', text: `IOPS price unknown in ${region}` });
        parts.push(t.part);
        continue;
      }
      const rate = x.rate?.[region];
      if (rate !== undefined) {
        total += billable * rate;
        parts.push(() => `${fmt(billable)} ${x.unit} × ${money(rate)}`);
      } else {
        const what = x.part === 'iops' ? 'IOPS' : 'throughput';
        gaps.push({ part: x.part, text: `${what} price unknown in ${region}` });
        parts.push(
          () =>
            `${fmt(billable)} provisioned ${x.unit}${x.included ? ` above the included ${fmt(x.included)}` : ''} (no price in ${region})`,
        );
      }
    }
  }
  const uncertain = !!p.uncertain;
  return cost(
    total,
    uncertain,
    () =>
      `${parts.map((f) => f()).join(' + ')} per month = ${gaps.length ? 'at least ' : ''}${fmtMoney(total, c.currency)} (${c.edition}: ${p.table}${uncertain ? '; uncertain: a secondary source' : ''})`,
    gaps,
  );
}

/**
 * IOPS billed in tiers (AWS io2: the first 32,000 at one rate, the next 32,000 at a lower one, the rest lower
 * still). A tier the IOPS reach without a price in the region leaves the whole IOPS price unknown.
 */
function tieredIops(
  tiers: NonNullable<PriceTable['per_iops_month_tiers']>,
  iops: number,
  region: string,
  money: (n: number) => string,
): { amount?: number; part: () => string } {
  let from = 0;
  let amount = 0;
  const texts: Array<() => string> = [];
  for (const tier of tiers) {
    if (from >= iops) break;
    const to = Math.min(iops, tier.up_to_iops ?? Infinity);
    const rate = tier.per_iops_month[region];
    if (rate === undefined) return { part: () => `${fmt(iops)} provisioned IOPS (no price in ${region} for IOPS above ${fmt(from)})` };
    const n = to - from;
    const lo = from;
    amount += n * rate;
    texts.push(() => `${fmt(n)} IOPS${lo > 0 ? ` above ${fmt(lo)}` : ''} × ${money(rate)}`);
    from = to;
  }
  return { amount, part: () => texts.map((f) => f()).join(' + ') };
}

/** GiB of memory of a machine: its own entry, or its family's GiB per vCPU. */
export function memoryGib(sp: SeriesPrice | undefined, m: Machine): number | undefined {
  const own = sp?.memory_gib?.[m.name];
  if (own !== undefined) return own;
  const ratio = m.family ? sp?.memory_gib_per_vcpu?.[m.family] : undefined;
  return ratio !== undefined ? ratio * m.vcpus : undefined;
}

/** What a machine costs a month on demand: per type where the catalog prices it so, else per vCPU and per GiB. */
export function machineCost(c: Catalog, m: Machine | undefined, region: string, pricing?: VmSpec['pricing']): Cost {
  const mp = c.machine_prices;
  const unknown = (text: string, why: string) => cost(undefined, false, () => why, [{ part: 'machine', text }]);
  if (!m) return unknown('machine price unknown', 'the machine is not known, so neither is its price');
  // A Spot price changes with demand and is not in any catalog: never the on-demand price in its place.
  if (pricing === 'spot')
    return unknown(
      `${m.name} Spot price unknown`,
      `${m.name} runs as Spot, whose price ${c.edition} does not model (on-demand prices only)`,
    );
  if (!mp) return unknown('machine price unknown', `${c.edition} has no machine prices: only disks are priced`);
  const sp = mp.series[m.series];
  const hours = mp.hours_per_month;
  const money = (n: number) => fmtMoney(n, c.currency);
  const uncertain = !!mp.uncertain;
  const cite = () =>
    `${c.edition}: ${mp.table.split(':')[0]}, ${mp.date}; ${hours} hours a month${uncertain ? '; uncertain: a secondary source' : ''}`;
  const typed = sp?.per_type_hour?.[m.name];
  if (typed) {
    const hourly = typed[region];
    if (hourly === undefined)
      return unknown(`${m.name} price unknown in ${region}`, `${c.edition} has no ${m.name} price for region ${region}`);
    return cost(
      hourly * hours,
      uncertain,
      () => `${m.name}: ${fmtUnitPrice(hourly, c.currency)} per hour × ${hours} hours = ${money(hourly * hours)} (${cite()})`,
    );
  }
  // A custom type's memory is in its name, but Google bills custom vCPUs and memory at their own rates, which the
  // edition's per-vCPU and per-GiB prices (of predefined types) are not.
  if (m.custom)
    return unknown(
      `${m.name} price unknown`,
      `${c.edition} has no custom machine type prices (${m.name}: ${plural(m.vcpus, 'vCPU')}, ${fmt(m.custom.memory_mib / 1024, 2)} GiB)`,
    );
  const perVcpu = sp?.per_vcpu_hour?.[region];
  const perGib = sp?.per_gib_hour?.[region];
  const gib = memoryGib(sp, m);
  if (perVcpu === undefined || perGib === undefined || gib === undefined) {
    const why =
      gib === undefined && perVcpu !== undefined
        ? `${c.edition} does not know the memory of ${m.name}, so not its price`
        : `${c.edition} has no ${m.name} price for region ${region}`;
    return unknown(`${m.name} price unknown in ${region}`, why);
  }
  const monthly = (perVcpu * m.vcpus + perGib * gib) * hours;
  return cost(
    monthly,
    uncertain,
    () =>
      `${m.name}: (${plural(m.vcpus, 'vCPU')} × ${fmtUnitPrice(perVcpu, c.currency)} + ${fmt(gib, 2)} GiB × ${fmtUnitPrice(perGib, c.currency)}) per hour × ${hours} hours = ${money(monthly)} (${cite()})`,
  );
}
