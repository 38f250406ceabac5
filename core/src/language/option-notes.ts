/**
 * Hover notes on what a machine and a disk's options add to the figures, from the catalog's rules: the machine's
 * burst level and window, its cached limit and disk controller; a disk's performance tier, host caching,
 * redundancy and bursting (Azure's options, each with the table it comes from).
 */
import type { Catalog, Machine, TierRow, TieredDiskType, VmRow } from '../catalog';
import { cachedLimit, cacheable, hostCached } from '../model/host-cache';
import { diskTier, sizeTier, tierUpgrades } from '../model/tiers';
import type { DiskEval, VmEval } from '../model/types';
import { fmt, fmtMoney } from '../units';

const MB = 1e6 / 2 ** 20;
/** A throughput in MiB/s with Azure's MB/s beside it (the unit its tables are written in). */
const mibAndMb = (mibps: number) => `${fmt(mibps)} MiB/s (${fmt(mibps / MB)} MB/s)`;

/** What the machine hover adds below its per-VM limits: bursts with their window, the cached limit, the controller. */
export function machineExtras(c: Catalog, m: Machine, rows: Array<{ t: string; r: VmRow }>): string {
  const out: string[] = [];
  const tables = [...new Set(rows.map(({ r }) => r.table))];
  if (tables.length > 1)
    out.push(
      ...tables.map(
        (t) =>
          `- ${rows
            .filter(({ r }) => r.table === t)
            .map(({ t: n }) => n)
            .join(', ')}: ${c.edition}: ${t.table}`,
      ),
    );
  for (const { t, r } of rows) {
    const b = r.row.burst;
    const secs = r.table.burst_seconds;
    if (!b || secs === undefined) continue;
    const iops = b.read_iops ?? b.write_iops;
    const mib = b.read_mibps ?? b.write_mibps;
    const parts = [iops !== undefined ? `${fmt(iops)} IOPS` : '', mib !== undefined ? `${fmt(mib)} MiB/s` : ''].filter(Boolean);
    if (parts.length)
      out.push(`- ${t} burst: ${parts.join(', ')} for up to ${fmt(secs / 60)} minutes at a time (${c.edition}: ${r.table.table})`);
  }
  const cached = cachedLimit(m);
  if (cached) {
    const size = cached.cache_gib !== undefined ? `, cache ${fmt(cached.cache_gib)} GiB` : '';
    out.push(
      `- cached limit (reads that hit the host cache): ${fmt(cached.iops)} IOPS, ${fmtMibps(cached.mibps)}${size} (${c.edition}: ${m.info.cached_limits!.table})`,
    );
  } else if (c.host_cache && m.info.host_caching?.supported !== false && rows.some(({ t }) => c.disk_types[t]?.host_caching))
    out.push(`- no cached limit published for ${m.name}: cache hits are held only by what their misses and writes allow`);
  if (m.info.host_caching?.supported === false) out.push(`- no host caching (${c.edition}: ${m.info.host_caching.table})`);
  const ctl = m.info.controllers;
  if (ctl) {
    const own = m.controller ?? (ctl.nvme_only?.includes(m.name) ? 'nvme' : ctl.default);
    out.push(`- disk controller: ${own.toUpperCase()} (offered: ${ctl.offered.join(', ')}; ${c.edition}: ${ctl.table})`);
  }
  return out.length ? `\n\n${out.join('\n')}` : '';
}

const fmtMibps = (v: number) => `${fmt(v)} MiB/s`;

/** A note on an Azure disk option under the cursor: what the value does to the disk's figures and price. */
export function diskOptionNote(c: Catalog, field: string, value: unknown, d: DiskEval, vm: VmEval): string | undefined {
  const t = d.type;
  switch (field) {
    case 'tier':
      return t.model === 'tiers' ? tierNote(c, t, d, String(value)) : undefined;
    case 'caching':
      return cachingNote(c, d, vm);
    case 'redundancy':
      if (value !== 'zrs') return undefined;
      return `**ZRS**: the same figures as a locally redundant disk, with more write latency (https://learn.microsoft.com/en-us/azure/virtual-machines/disks-redundancy); ${c.edition} has no ZRS prices, so this disk's price is unknown and every total it is part of is partial.`;
    case 'bursting': {
      const od = t.model === 'tiers' ? t.on_demand_burst : undefined;
      if (value !== 'on-demand' || !od) return undefined;
      const ok = d.size_gib >= od.min_gib;
      return ok
        ? `**On-demand bursting**: up to ${fmt(od.iops)} IOPS and ${mibAndMb(od.mibps)} with no time limit, above the sustained figures; the bursts are billed per transaction (not priced here) and held by the machine's limits like any I/O (${c.edition}: ${od.table}).`
        : `**On-demand bursting** needs ${fmt(od.min_gib)} GiB or more (${c.edition}: ${od.table}).`;
    }
  }
  return undefined;
}

function tierNote(c: Catalog, t: TieredDiskType, d: DiskEval, asked: string): string {
  const own = sizeTier(t, d.size_gib);
  const row = diskTier(t, d.spec, d.size_gib);
  if (!own || !row) return `**${asked}**: no tier of ${d.typeName} holds ${fmt(d.size_gib)} GiB.`;
  const up = tierUpgrades(t, own).map((r) => r.name);
  const can = up.length ? `a ${own.name} can be set to ${up.join(', ')}` : `a ${own.name} cannot be set above its own tier`;
  const src = t.tier_upgrades ? ` (${c.edition}: ${t.tier_upgrades.table})` : '';
  if (row.name !== asked) return `**${asked}** is not a tier this disk can have: ${can}${src}; it keeps ${own.name}.`;
  return `**Performance tier ${row.name}**: ${tierFigures(row)} instead of ${own.name}'s ${tierFigures(own)}; billed as ${row.name} (${d.cost.monthly !== undefined ? `${fmtMoney(d.cost.monthly, c.currency)}/month` : d.cost.why}); ${can}${src}.`;
}

function tierFigures(r: TierRow): string {
  return `${fmt(r.iops)} IOPS, ${mibAndMb(r.mibps)}`;
}

function cachingNote(c: Catalog, d: DiskEval, vm: VmEval): string | undefined {
  if (!hostCached(d.spec))
    return d.spec.caching === 'none' ? '**No host caching**: every I/O counts against the disk and the uncached limit.' : undefined;
  const m = vm.machine;
  if (!m || !cacheable(d) || m.info.host_caching?.supported === false) return undefined;
  const row = cachedLimit(m);
  const limit = row
    ? `${m.name}'s cached limit, ${fmt(row.iops)} IOPS and ${fmtMibps(row.mibps)} (${c.edition}: ${m.info.cached_limits!.table})`
    : `${m.name}'s cached limit, which ${c.edition} does not publish`;
  const how = c.host_cache ? ` (${c.edition}: ${c.host_cache.table})` : '';
  return `**Host caching ${d.spec.caching}**: reads that hit the cache count only against ${limit}; misses and writes count against the disk and the uncached limit too${how}. A workload's \`cache_hit_ratio\` says how many hit.`;
}
