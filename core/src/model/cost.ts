/**
 * Monthly prices from the catalog's price tables: a disk (capacity, plus provisioned IOPS and throughput above
 * what the capacity price includes) and a machine (on demand). A part the catalog has no price for is a gap:
 * the cost keeps the known part, is marked incomplete, and names what is missing.
 */
import { MachineMemo, type Catalog, type DiskType, type Machine, type PriceTable, type SeriesPrice } from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { fmt, fmtMoney, fmtUnitPrice, plural } from '../units';
import { diskTier, tierCost } from './tiers';
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
  // The editions price locally redundant disks only: a zone-redundant one of any type costs more, by an amount not
  // sourced, so it is a gap, never the LRS price (a tiered disk's gap names its tier).
  if (d.redundancy === 'zrs') {
    const tier = t.model === 'tiers' ? diskTier(t, d, size)?.name : undefined;
    return cost(undefined, false, () => `${c.edition} has no zone-redundant (ZRS) disk prices`, [
      { part: 'capacity', text: `${d.type}${tier ? ` ${tier}` : ''} ZRS price unknown` },
    ]);
  }
  if (t.model === 'tiers') return tierCost(c, t, d, size, region);
  const p = t.price;
  const { perGib, regional, series: own } = perGibPrice(t, d.replication, region, series);
  if (!p || perGib === undefined) {
    const text = p ? `no ${d.type} price${own ? ` on ${own}` : ''} for region ${region}` : `no price for ${d.type}`;
    return cost(undefined, false, () => `${c.edition} has ${text}`, [{ part: 'capacity', text: `${d.type} price unknown in ${region}` }]);
  }
  // The sum and its gaps now; the sentence's parts only when it is read, by the same walk over the parts (a list
  // of a closure per part was made for every disk of every candidate a search prices, and seldom read).
  const gaps: PriceGap[] = [];
  const total = priceParts(c, t, d, size, region, perGib, clampToType, gaps, undefined);
  const uncertain = !!p.uncertain;
  return cost(
    total,
    uncertain,
    () => {
      const texts = [`${fmt(size, 2)} GiB × ${fmtUnitPrice(perGib, c.currency)}${regional ? ' (regional)' : own ? ` (on ${own})` : ''}`];
      priceParts(c, t, d, size, region, perGib, clampToType, [], texts);
      return `${texts.join(' + ')} per month = ${gaps.length ? 'at least ' : ''}${fmtMoney(total, c.currency)} (${c.edition}: ${p.table}${uncertain ? '; uncertain: a secondary source' : ''})`;
    },
    gaps,
  );
}

/**
 * A disk's monthly price: capacity, then provisioned IOPS and throughput above what it includes. Puts what the
 * catalog has no price for in `gaps`, and each part's text in `texts` when given.
 */
function priceParts(
  c: Catalog,
  t: DiskType,
  d: DiskSpec,
  size: number,
  region: string,
  perGib: number,
  clampToType: boolean,
  gaps: PriceGap[],
  texts: string[] | undefined,
): number {
  let total = perGib * size;
  // I/O requests billed per million (AWS Magnetic) depend on the workload: a gap, never $0.
  const perMillion = t.price?.per_million_requests?.[region];
  if (perMillion !== undefined) {
    gaps.push({
      part: 'requests',
      text: `I/O requests at ${fmtUnitPrice(perMillion, c.currency)} per million, which depend on the workload`,
    });
    texts?.push(`I/O requests at ${fmtUnitPrice(perMillion, c.currency)} per million (depend on the workload, left out)`);
  }
  if (t.model !== 'provisioned') return total;
  const p = t.price!;
  const pr = t.provisioned;
  for (const part of ['iops', 'throughput'] as const) {
    const iops = part === 'iops';
    const limit = iops ? pr.iops : pr.mibps;
    if (!limit) continue;
    const given = iops ? d.provisioned_iops : d.provisioned_mibps;
    const included = iops ? p.included_iops : p.included_mibps;
    const asked = clampToType ? provisionedValue(limit, given, size) : (given ?? limit.default ?? limit.min);
    const billable = Math.max(0, asked - (included ?? 0));
    if (billable <= 0) continue;
    if (iops && p.per_iops_month_tiers) {
      const tiered = tieredIops(p.per_iops_month_tiers, billable, region, c.currency, texts);
      if (tiered !== undefined) total += tiered;
      else gaps.push({ part: 'iops', text: `IOPS price unknown in ${region}` });
      continue;
    }
    const unit = iops ? 'IOPS' : 'MiB/s';
    const rate = (iops ? p.per_iops_month : p.per_mibps_month)?.[region];
    if (rate !== undefined) {
      total += billable * rate;
      texts?.push(`${fmt(billable)} ${unit} × ${fmtUnitPrice(rate, c.currency)}`);
    } else {
      gaps.push({ part, text: `${iops ? 'IOPS' : 'throughput'} price unknown in ${region}` });
      texts?.push(`${fmt(billable)} provisioned ${unit}${included ? ` above the included ${fmt(included)}` : ''} (no price in ${region})`);
    }
  }
  return total;
}

/**
 * IOPS billed in tiers (AWS io2: the first 32,000 at one rate, the next 32,000 at a lower one, the rest lower
 * still). A tier the IOPS reach without a price in the region leaves the whole IOPS price unknown (undefined).
 */
function tieredIops(
  tiers: NonNullable<PriceTable['per_iops_month_tiers']>,
  iops: number,
  region: string,
  currency: Catalog['currency'],
  texts: string[] | undefined,
): number | undefined {
  let from = 0;
  let amount = 0;
  const parts: string[] | undefined = texts && [];
  for (const tier of tiers) {
    if (from >= iops) break;
    const to = Math.min(iops, tier.up_to_iops ?? Infinity);
    const rate = tier.per_iops_month[region];
    if (rate === undefined) {
      texts?.push(`${fmt(iops)} provisioned IOPS (no price in ${region} for IOPS above ${fmt(from)})`);
      return undefined;
    }
    const n = to - from;
    amount += n * rate;
    parts?.push(`${fmt(n)} IOPS${from > 0 ? ` above ${fmt(from)}` : ''} × ${fmtUnitPrice(rate, currency)}`);
    from = to;
  }
  if (texts) texts.push(parts!.join(' + '));
  return amount;
}

/** GiB of memory of a machine: its own entry, or its family's GiB per vCPU. */
export function memoryGib(sp: SeriesPrice | undefined, m: Machine): number | undefined {
  const own = sp?.memory_gib?.[m.name];
  if (own !== undefined) return own;
  const ratio = m.family ? sp?.memory_gib_per_vcpu?.[m.family] : undefined;
  return ratio !== undefined ? ratio * m.vcpus : undefined;
}

/**
 * What a machine costs a month on demand: per type where the catalog prices it so, else per vCPU and per GiB. One
 * object for each machine, region and pricing of a catalog, its sentence made once: every VM evaluated on the
 * machine, and every candidate a search tries on it, has that price (a price is never changed once made).
 */
export function machineCost(c: Catalog, m: Machine | undefined, region: string, pricing?: VmSpec['pricing']): Cost {
  if (!m) return unknown('machine price unknown', 'the machine is not known, so neither is its price');
  const byRegion = machineCosts.on(c, m);
  const key = pricing === 'spot' ? `spot ${region}` : region;
  let found = byRegion.get(key);
  if (!found) byRegion.set(key, (found = priceMachine(c, m, region, pricing)));
  return found;
}
const machineCosts = new MachineMemo<Cost>();

function priceMachine(c: Catalog, m: Machine, region: string, pricing?: VmSpec['pricing']): Cost {
  const mp = c.machine_prices;
  // A Spot price changes with demand and is not in any catalog: never the on-demand price in its place.
  if (pricing === 'spot')
    return unknown(
      `${m.name} Spot price unknown`,
      `${m.name} runs as Spot, whose price ${c.edition} does not model (on-demand prices only)`,
    );
  if (!mp) return unknown('machine price unknown', `${c.edition} has no machine prices: only disks are priced`);
  const sp = mp.series[m.series];
  const hours = mp.hours_per_month;
  const uncertain = !!mp.uncertain;
  const typed = sp?.per_type_hour?.[m.name];
  if (typed) {
    const hourly = typed[region];
    if (hourly === undefined)
      return unknown(`${m.name} price unknown in ${region}`, `${c.edition} has no ${m.name} price for region ${region}`);
    return cost(
      hourly * hours,
      uncertain,
      () =>
        `${m.name}: ${fmtUnitPrice(hourly, c.currency)} per hour × ${hours} hours = ${fmtMoney(hourly * hours, c.currency)} (${priceCite(c)})`,
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
      `${m.name}: (${plural(m.vcpus, 'vCPU')} × ${fmtUnitPrice(perVcpu, c.currency)} + ${fmt(gib, 2)} GiB × ${fmtUnitPrice(perGib, c.currency)}) per hour × ${hours} hours = ${fmtMoney(monthly, c.currency)} (${priceCite(c)})`,
  );
}

/** A machine price the catalog lacks: the gap, and why (helpers at module level: no closures per price). */
function unknown(text: string, why: string): Cost {
  return cost(undefined, false, () => why, [{ part: 'machine', text }]);
}

/** The machine price table of an edition, as every machine price's sentence cites it. */
function priceCite(c: Catalog): string {
  const mp = c.machine_prices!;
  return `${c.edition}: ${mp.table.split(':')[0]}, ${mp.date}; ${mp.hours_per_month} hours a month${mp.uncertain ? '; uncertain: a secondary source' : ''}`;
}
