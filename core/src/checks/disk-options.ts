/**
 * A disk's options that its type, its size or its machine refuse: the OS disk's type, host caching, performance
 * plus, on-demand bursting and a performance tier, each against the rule the catalog states for the type (with its
 * source). A refused option is an error on the key that asks for it; the disk's figures are then those it would
 * have without it.
 */
import type { TieredDiskType } from '../catalog';
import type { FixData } from '../diagnostics';
import type { DiskSpec } from '../document/types';
import { cacheable } from '../model/host-cache';
import { sizeTier, tierUpgrades } from '../model/tiers';
import { fmt } from '../units';
import type { CheckModule, VmContext } from './types';

export const diskOptions: CheckModule = {
  id: 'disk-options',
  title: 'Disk options',
  about:
    "A disk's role, host caching, performance plus, on-demand bursting and performance tier, against what its type, size and machine allow (the catalog's rules for each type and series, with their sources).",
  codes: {
    'os-disk-type': {
      severity: 'error',
      summary: 'The disk type cannot be an OS disk.',
      docs: 'Raised on the `type` of a disk with `role: os` whose type the catalog marks as never an OS disk (Azure: Premium SSD v2 and Ultra Disk, https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types). Use Premium SSD or Standard SSD for the OS disk and keep the other type for data.',
    },
    'host-caching-unsupported': {
      severity: 'error',
      summary: 'Host caching is not offered on this disk: its type or its size does not take it.',
      docs: "Raised on `caching` when it is read-only or read-write and the disk's type has no host caching (Azure: Premium SSD v2, Ultra Disk), or the disk is at or above the size where caching stops (Azure: 4 TiB, https://learn.microsoft.com/en-us/azure/virtual-machines/premium-storage-performance). The disk is evaluated without the cache; set `caching: none`.",
    },
    'host-caching-no-effect': {
      severity: 'information',
      summary: 'Host caching is set on a machine that has no host cache: the disk is evaluated uncached.',
      docs: "Raised on `caching` when it is read-only or read-write and the machine's size table says it has no host cache (Azure: \"Premium Storage caching: Not Supported\" on Lsv3 and Bv1). The provider takes the setting (azurerm requires an OS disk's `caching`), so this is information, not an error: the disk's figures are its uncached ones and a workload's `cache_hit_ratio` serves nothing. The fix sets `caching: none`.",
    },
    'performance-plus-size': {
      severity: 'error',
      summary: 'Performance plus needs a larger disk, or the type has none.',
      docs: "Raised on `performance_plus` when the disk is smaller than the size the type enables it at (Azure: 513 GiB, https://learn.microsoft.com/en-us/azure/virtual-machines/disks-enable-performance) or its type has no performance plus. The disk keeps its tier's base figures. Performance plus is set only when a disk is created. The fix removes `performance_plus`, which changes no figure.",
    },
    'on-demand-bursting-size': {
      severity: 'error',
      summary: 'On-demand bursting needs a larger disk, or the type has none.',
      docs: 'Raised on `bursting` when it asks for on-demand bursting and the disk is smaller than the type allows it at (Azure Premium SSD: larger than 512 GiB, P30 and up, https://learn.microsoft.com/en-us/azure/virtual-machines/disk-bursting) or its type has none. Smaller Premium SSD and Standard SSD burst on credits without a setting. The fix removes `bursting`, which changes no figure.',
    },
    'performance-tier-invalid': {
      severity: 'error',
      summary: 'The performance tier is not one the disk can be set to.',
      docs: "Raised on `tier` when it is not a tier above the size's own that the type allows (Azure Premium SSD: P1-P40 up to P50, P60 to P70 or P80, P70 to P80, none from P50 or P80, https://learn.microsoft.com/en-us/azure/virtual-machines/disks-change-performance), or the type has no performance tiers. The disk keeps its size's tier; the fix removes `tier`, which changes no figure.",
    },
  },
  vm: (ctx) => {
    for (const d of ctx.vm.disks) {
      const t = ctx.catalog.disk_types[d.type];
      if (!t || d.invalid !== undefined) continue;
      if (d.role === 'os' && t.not_os_disk) {
        const path = `${d.path}/type`;
        ctx.report('os-disk-type', `${d.type} cannot be an OS disk (${ctx.catalog.edition}: ${t.not_os_disk.table})`, ctx.at(path), {
          path,
        });
      }
      caching(ctx, d);
      if (t.model === 'tiers') tierOptions(ctx, d, t);
      else refuseTierOptions(ctx, d);
    }
  },
};

function caching(ctx: VmContext, d: DiskSpec): void {
  if (d.caching !== 'read-only' && d.caching !== 'read-write') return;
  const t = ctx.catalog.disk_types[d.type];
  const m = ctx.machine;
  const c = ctx.catalog.edition;
  let why: string | undefined;
  if (!t.host_caching) why = `${d.type} has no host caching`;
  else if (d.size_gib !== undefined && !cacheable({ type: t, size_gib: d.size_gib }))
    why = `host caching stops at ${fmt(t.host_caching.below_gib)} GiB (${c}: ${t.host_caching.table}); '${d.name}' is ${fmt(d.size_gib)} GiB`;
  const path = `${d.path}/caching`;
  const fixes: FixData[] = [{ kind: 'set-value', path, value: 'none', title: 'Set caching: none', preferred: true }];
  if (why) ctx.report('host-caching-unsupported', `${why}: set caching: none`, ctx.at(path), { path, fixes });
  else if (m?.info.host_caching?.supported === false)
    // The size's page says it has no cache, not that the setting is refused: it is taken, and does nothing.
    ctx.report(
      'host-caching-no-effect',
      `${m.name} has no host cache (${c}: ${m.info.host_caching.table}): '${d.name}' is evaluated uncached`,
      ctx.at(path),
      { path, fixes },
    );
}

function tierOptions(ctx: VmContext, d: DiskSpec, t: TieredDiskType): void {
  const c = ctx.catalog.edition;
  const size = d.size_gib;
  if (d.performance_plus && (!t.performance_plus || (size !== undefined && size < t.performance_plus.min_gib))) {
    const path = `${d.path}/performance_plus`;
    const why = t.performance_plus
      ? `performance plus needs ${fmt(t.performance_plus.min_gib)} GiB or more; '${d.name}' is ${fmt(size!)} GiB (${c}: ${t.performance_plus.table})`
      : `${d.type} has no performance plus`;
    ctx.report('performance-plus-size', why, ctx.at(path), { path, fixes: [removeFix(path, 'performance_plus')] });
  }
  if (d.bursting === 'on-demand' && (!t.on_demand_burst || (size !== undefined && size < t.on_demand_burst.min_gib))) {
    const path = `${d.path}/bursting`;
    const why = t.on_demand_burst
      ? `on-demand bursting needs ${fmt(t.on_demand_burst.min_gib)} GiB or more (P30 and up); '${d.name}' is ${fmt(size!)} GiB and bursts on credits (${c}: ${t.on_demand_burst.table})`
      : `${d.type} has no on-demand bursting`;
    ctx.report('on-demand-bursting-size', why, ctx.at(path), { path, fixes: [removeFix(path, 'bursting')] });
  }
  const own = size !== undefined ? sizeTier(t, size) : undefined;
  if (d.tier !== undefined && own) {
    const allowed = tierUpgrades(t, own).map((r) => r.name);
    if (allowed.includes(d.tier) || d.tier === own.name) return;
    const path = `${d.path}/tier`;
    const can = allowed.length ? `it can be set to ${allowed.join(', ')}` : 'it cannot be set above its own';
    const src = t.tier_upgrades ? ` (${c}: ${t.tier_upgrades.table})` : '';
    ctx.report('performance-tier-invalid', `'${d.name}' is ${own.name} by its size; ${can}, not ${d.tier}${src}`, ctx.at(path), {
      path,
      fixes: [removeFix(path, 'tier')],
    });
  }
}

/** Tier options on a type sold by provisioned performance or size: none of them applies. */
function refuseTierOptions(ctx: VmContext, d: DiskSpec): void {
  const say = (key: string, code: string, what: string) => {
    const path = `${d.path}/${key}`;
    ctx.report(code, `${d.type} has no ${what}`, ctx.at(path), { path, fixes: [removeFix(path, key)] });
  };
  if (d.performance_plus) say('performance_plus', 'performance-plus-size', 'performance plus');
  if (d.bursting === 'on-demand') say('bursting', 'on-demand-bursting-size', 'on-demand bursting');
  if (d.tier !== undefined) say('tier', 'performance-tier-invalid', 'performance tiers');
}

/**
 * The fix of an option the disk cannot have: remove it. The figures already ignore the option, so they stay as they
 * are; only the finding goes.
 */
function removeFix(path: string, key: string): FixData {
  return { kind: 'remove-key', path, title: `Remove ${key}`, preferred: true };
}
