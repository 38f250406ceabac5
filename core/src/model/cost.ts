/** Monthly disk cost from the catalog's price tables. Machines are not priced (yet): VM cost = its disks. */
import type { Catalog, DiskType } from '../catalog';
import type { DiskSpec } from '../document/types';
import { fmt, fmtMoney } from '../units';
import { provisionedValue } from './disks';
import { cost, type Cost } from './types';

export function diskCost(c: Catalog, t: DiskType, d: DiskSpec, size: number, region: string): Cost {
  const p = t.price;
  if (!p) return cost(undefined, true, () => `${c.edition} has no price for ${d.type}`);
  const regional = d.replication === 'regional' && p.regional_per_gib_month;
  const perGib = (regional ? p.regional_per_gib_month! : p.per_gib_month)[region];
  if (perGib === undefined) return cost(undefined, true, () => `${c.edition} has no ${d.type} price for region ${region}`);
  const money = (n: number) => fmtMoney(n, c.currency);
  let total = perGib * size;
  const parts: Array<() => string> = [() => `${fmt(size, 2)} GiB × ${money(perGib)}${regional ? ' (regional)' : ''}`];
  let uncertain = !!p.uncertain;
  if (t.model === 'provisioned') {
    const pr = t.provisioned;
    if (pr.iops) {
      const iops = provisionedValue(pr.iops, d.provisioned_iops, size);
      const billable = Math.max(0, iops - (p.included_iops ?? 0));
      const rate = p.per_iops_month?.[region];
      if (billable > 0 && rate !== undefined) { total += billable * rate; parts.push(() => `${fmt(billable)} IOPS × ${money(rate)}`); }
      else if (billable > 0) { uncertain = true; parts.push(() => `${fmt(billable)} provisioned IOPS not priced`); }
    }
    if (pr.mibps) {
      const mibps = provisionedValue(pr.mibps, d.provisioned_mibps, size);
      const billable = Math.max(0, mibps - (p.included_mibps ?? 0));
      const rate = p.per_mibps_month?.[region];
      if (billable > 0 && rate !== undefined) { total += billable * rate; parts.push(() => `${fmt(billable)} MiB/s × ${money(rate)}`); }
      else if (billable > 0) { uncertain = true; parts.push(() => `${fmt(billable)} provisioned MiB/s not priced`); }
    }
  }
  return cost(total, uncertain, () => `${parts.map((f) => f()).join(' + ')} per month = ${money(total)} (${c.edition}: ${p.table}${uncertain ? '; uncertain' : ''})`);
}
