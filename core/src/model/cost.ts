/** Monthly disk cost from the catalog's price tables. Machines are not priced (yet): VM cost = its disks. */
import type { Catalog, DiskType } from '../catalog';
import type { DiskSpec } from '../document/types';
import { fmt, fmtMoney } from '../units';
import { provisionedValue } from './provisioned';
import { cost, type Cost } from './types';

/**
 * The price per GiB-month of a disk type in a region: the regional price for a regional disk where the catalog
 * has one, otherwise the zonal price. The one place that choice is made (cost, searches and fix titles use it).
 */
export function perGibPrice(
  t: DiskType,
  replication: DiskSpec['replication'] | undefined,
  region: string,
): { perGib?: number; regional: boolean } {
  const p = t.price;
  if (!p) return { regional: false };
  const regional = replication === 'regional' && !!p.regional_per_gib_month;
  return { perGib: (regional ? p.regional_per_gib_month! : p.per_gib_month)[region], regional };
}

export function diskCost(c: Catalog, t: DiskType, d: DiskSpec, size: number, region: string): Cost {
  const p = t.price;
  if (!p) return cost(undefined, true, () => `${c.edition} has no price for ${d.type}`);
  const { perGib, regional } = perGibPrice(t, d.replication, region);
  if (perGib === undefined) return cost(undefined, true, () => `${c.edition} has no ${d.type} price for region ${region}`);
  const money = (n: number) => fmtMoney(n, c.currency);
  let total = perGib * size;
  const parts: Array<() => string> = [() => `${fmt(size, 2)} GiB × ${money(perGib)}${regional ? ' (regional)' : ''}`];
  let uncertain = !!p.uncertain;
  if (t.model === 'provisioned') {
    const pr = t.provisioned;
    const extras = [
      { limit: pr.iops, asked: d.provisioned_iops, included: p.included_iops, rate: p.per_iops_month?.[region], unit: 'IOPS' },
      { limit: pr.mibps, asked: d.provisioned_mibps, included: p.included_mibps, rate: p.per_mibps_month?.[region], unit: 'MiB/s' },
    ];
    for (const x of extras) {
      if (!x.limit) continue;
      const billable = Math.max(0, provisionedValue(x.limit, x.asked, size) - (x.included ?? 0));
      if (billable <= 0) continue;
      const rate = x.rate;
      if (rate !== undefined) {
        total += billable * rate;
        parts.push(() => `${fmt(billable)} ${x.unit} × ${money(rate)}`);
      } else {
        uncertain = true;
        parts.push(() => `${fmt(billable)} provisioned ${x.unit} not priced`);
      }
    }
  }
  return cost(
    total,
    uncertain,
    () => `${parts.map((f) => f()).join(' + ')} per month = ${money(total)} (${c.edition}: ${p.table}${uncertain ? '; uncertain' : ''})`,
  );
}
