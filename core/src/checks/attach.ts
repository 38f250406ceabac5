/**
 * Attachability: whether the machine can take the disks the spec gives it — the disk types its series
 * attaches (and on which of its machines), and for local SSD the device counts the provider allows on the
 * machine and the vCPUs they want.
 */
import {
  attaches,
  largerMachines,
  limitValue,
  localSsdRefusal,
  refusedSize,
  resolveMachine,
  rowFor,
  type Catalog,
  type DeviceDiskType,
  type DiskCountRow,
  type Machine,
} from '../catalog';
import { vmCostChange } from '../advice/fixes';
import type { FixData } from '../diagnostics';
import type { DiskSpec } from '../document/types';
import { localSsdVcpusNeeded } from '../model/local-ssd';
import { plural } from '../units';
import type { CheckModule, VmContext } from './types';

export const attach: CheckModule = {
  id: 'attach',
  title: 'Attachability',
  about:
    "Whether the machine can take the disks it is given: the disk types its series attaches (Google's Hyperdisk overview and the machine series pages), the vCPUs or machine types some types need, local SSD device counts by machine, and the vCPUs local SSD devices want.",
  codes: {
    'disk-type-not-on-series': {
      severity: 'error',
      summary: 'The machine series cannot attach this disk type.',
      docs: "The message lists the types the series takes and names the source of the rule (the catalog's machine series table, e.g. Google's Hyperdisk overview, https://cloud.google.com/compute/docs/disks/hyperdisks). Types Google offers on a series only through its account team (Hyperdisk Balanced on N1, N2, N2D, E2, C2D) are refused by default, and the message says so. The fix changes the disk to the nearest type the series takes; on an Azure size without premium storage (Standard_F2: https://learn.microsoft.com/en-us/azure/virtual-machines/sizes-previous-gen) a second fix changes the size to the one of the same shape that has it (Standard_F2s), where every target met today stays met.",
      fixType: 'sizing',
    },
    'disk-type-not-on-machine': {
      severity: 'error',
      summary: 'The series takes this disk type, but not on a machine this small (or not on this machine type).',
      docs: 'pd-extreme needs an N2 with 64 or more vCPUs (https://cloud.google.com/compute/docs/disks/extreme-persistent-disk); Hyperdisk Extreme needs 64 to 96 vCPUs depending on the series (https://cloud.google.com/compute/docs/disks/hyperdisks). The fixes change the disk to the nearest type the machine takes, or the machine to the smallest of its series that takes the type and keeps every target met today.',
      fixType: 'sizing',
    },
    'local-ssd-count': {
      severity: 'error',
      summary: 'The number of local SSD devices is not one the provider allows on this machine.',
      docs: 'Allowed counts depend on the series and the vCPU count (https://cloud.google.com/compute/docs/disks/local-ssd, "Choosing a valid number of Local SSD disks"); machine types that come with local SSD (-lssd) take exactly their own count. The fix sets the nearest allowed count.',
      fixType: 'sizing',
    },
    'local-ssd-not-on-machine': {
      severity: 'error',
      summary: 'The machine takes no local SSD, or takes it only as the fixed disks of an -lssd machine type.',
      docs: 'C3, C3D, C4, C4A and C4D have local SSD (Titanium SSD) only on their -lssd machine types, which come with a fixed number of disks; some machine types (m1-megamem-96) take none (https://cloud.google.com/compute/docs/disks/local-ssd).',
      fixType: 'sizing',
    },
    'too-many-disks': {
      severity: 'error',
      summary: 'The machine attaches fewer disks (in all, of Hyperdisk types, or of this type) than the spec gives it.',
      docs: 'Limits per machine type from the machine series pages (https://cloud.google.com/compute/docs/general-purpose-machines, "Supported disk types"); local SSD is not counted. Reported once per limit, on the first disk beyond it; the fix changes the machine to the smallest of its series that takes them all and on which every target met today stays met.',
      fixType: 'sizing',
    },
    'local-ssd-vcpus': {
      severity: 'warning',
      summary: 'Fewer vCPUs than the provider documents for the local SSD figures: they are not reached on this machine.',
      docs: "Google reaches the local SSD table's figures on N2, N2D and A2 with at least 24 vCPUs and on N1 with at least 32 (https://cloud.google.com/compute/docs/disks/local-ssd); elsewhere its figures were measured with 4 to 8 vCPUs per device. Below that the figures are marked as not reached (`upper_bound` in the report, '≤ ... (needs 24 vCPUs)' where they are shown) and a target on them is not met. The fix changes the machine to the smallest of its series with enough vCPUs on which every target met today stays met.",
      fixType: 'sizing',
    },
  },
  vm: (ctx) => {
    for (const d of ctx.vm.disks) {
      const t = ctx.catalog.disk_types[d.type];
      if (!t) continue;
      const m = ctx.machine;
      if (m && !typeOnSeries(ctx, m, d)) continue;
      if (m && !typeOnMachine(ctx, m, d)) continue;
      if (t.model === 'devices') localSsd(ctx, d, t);
    }
    diskCounts(ctx);
  },
};

type Counted = { what: string; of: (d: DiskSpec) => boolean; limit: (r: DiskCountRow) => number | undefined };

/** Each limit the machine's row sets, said once, on the first disk beyond it. */
function diskCounts(ctx: VmContext): void {
  const m = ctx.machine;
  const rule = m?.info.disk_count_limits;
  const row = m && rule ? rowFor(rule.rows, m) : undefined;
  if (!m || !rule || !row) return;
  const c = ctx.catalog;
  // The OS disk is not a data disk: the data-disk maximum leaves it out (Azure).
  const volume = (d: DiskSpec) => !!c.disk_types[d.type] && c.disk_types[d.type].model !== 'devices' && d.role !== 'os';
  const hyperdisk = (d: DiskSpec) => {
    const t = c.disk_types[d.type];
    return t?.model === 'provisioned' && !!t.vm_limits_documented;
  };
  const kinds: Counted[] = [
    { what: 'disks', of: volume, limit: (r) => r.total },
    { what: 'Hyperdisk volumes', of: hyperdisk, limit: (r) => r.hyperdisk },
    ...Object.keys(row.per_type ?? {}).map((type) => ({
      what: `${type} volumes`,
      of: (d: DiskSpec) => d.type === type,
      limit: (r: DiskCountRow) => r.per_type?.[type],
    })),
  ];
  for (const k of kinds) {
    const max = k.limit(row);
    const disks = ctx.vm.disks.filter(k.of);
    if (max === undefined || disks.length <= max) continue;
    const beyond = disks[max];
    const at = ctx.at(`${beyond.path}/type`);
    const fits =
      ctx.listed('too-many-disks', at) &&
      largerMachines(m).find((x) => {
        const r = rowFor(rule.rows, x);
        const l = r && k.limit(r);
        return (l === undefined || l >= disks.length) && ctx.advice.keepsTargetsOn(x);
      });
    ctx.report(
      'too-many-disks',
      `${m.name} attaches at most ${max} ${k.what}; ${disks.length} are given (${c.edition}: ${rule.source})`,
      at,
      { path: `${beyond.path}/type`, fixes: fits ? [ctx.setMachine(fits, machineTitle(ctx, fits))] : [] },
    );
  }
}

function typeOnSeries(ctx: VmContext, m: Machine, d: DiskSpec): boolean {
  const allowed = m.info.disk_types;
  if (!allowed || allowed.includes(d.type)) return true;
  const byRequest = m.info.disk_types_by_request?.includes(d.type) ? ' (Google offers it only through its account team)' : '';
  const src = m.info.disk_types_source ? ` (${ctx.catalog.edition}: ${m.info.disk_types_source.source})` : '';
  const at = ctx.at(`${d.path}/type`);
  ctx.report(
    'disk-type-not-on-series',
    `${m.series} machines cannot attach ${d.type}${byRequest}; they take ${allowed.join(', ')}${src}`,
    at,
    {
      path: `${d.path}/type`,
      fixes: [
        ...typeFix(
          ctx.catalog,
          d,
          allowed.filter((x) => attaches(m, x)),
        ),
        // The other size is evaluated: not for a finding past the file's cap, which is counted, not listed.
        ...(ctx.listed('disk-type-not-on-series', at) ? premiumSizeFix(ctx, m, d) : []),
      ],
    },
  );
  return false;
}

/** The size of the same shape with premium storage (Azure: Standard_F2s for Standard_F2), where it takes the type. */
function premiumSizeFix(ctx: VmContext, m: Machine, d: DiskSpec): FixData[] {
  const name = m.info.premium_sizes?.sizes[m.name];
  const r = name ? resolveMachine(ctx.catalog, { machine_type: name }) : undefined;
  if (!r?.ok || !attaches(r.machine, d.type) || !ctx.advice.keepsTargetsOn(r.machine)) return [];
  return [ctx.setMachine(r.machine, machineTitle(ctx, r.machine), false)];
}

function typeOnMachine(ctx: VmContext, m: Machine, d: DiskSpec): boolean {
  const cond = m.info.disk_type_conditions?.[d.type];
  if (!cond) return true;
  const vcpusOk = cond.min_vcpus === undefined || m.vcpus >= cond.min_vcpus;
  const typeOk = !cond.machine_types || cond.machine_types.includes(m.name);
  if (vcpusOk && typeOk) return true;
  const needs = !vcpusOk
    ? `a machine with at least ${cond.min_vcpus} vCPUs; ${m.name} has ${m.vcpus}`
    : `one of ${cond.machine_types!.join(', ')}`;
  const usable = (m.info.disk_types ?? []).filter((x) => x !== d.type && attaches(m, x));
  const at = ctx.at(`${d.path}/type`);
  const search = !vcpusOk && ctx.listed('disk-type-not-on-machine', at);
  const bigger = search ? largerMachines(m).find((x) => x.vcpus >= cond.min_vcpus! && ctx.advice.keepsTargetsOn(x)) : undefined;
  ctx.report('disk-type-not-on-machine', `${d.type} on ${m.series} needs ${needs} (${ctx.catalog.edition}: ${cond.source})`, at, {
    path: `${d.path}/type`,
    fixes: [...typeFix(ctx.catalog, d, usable), ...(bigger ? [ctx.setMachine(bigger, machineTitle(ctx, bigger), false)] : [])],
  });
  return false;
}

/**
 * The nearest type the machine takes: a network disk for a network disk, one the spec's replication allows,
 * one that takes the disk's size, and the closest per-disk maximum IOPS (by ratio), so a fast disk is
 * replaced by a fast one.
 */
function typeFix(c: Catalog, d: DiskSpec, allowed: string[]): FixData[] {
  const from = c.disk_types[d.type];
  if (from.model === 'devices') return [];
  const maxIops = (x: string) => {
    const t = c.disk_types[x];
    return t.model === 'devices' ? undefined : limitValue(t.disk_max.read_iops, 1);
  };
  const own = maxIops(d.type);
  const sizeFits = (x: string) => d.size_gib === undefined || !refusedSize(c.disk_types[x], d.size_gib, d.replication);
  const fits = allowed.filter(
    (x) => c.disk_types[x] && maxIops(x) !== undefined && sizeFits(x) && (c.disk_types[x].replication ?? ['zonal']).includes(d.replication),
  );
  if (!fits.length || own === undefined) return [];
  const distance = (x: string) => Math.abs(Math.log(maxIops(x)! / own));
  const best = fits.reduce((a, b) => (distance(b) < distance(a) ? b : a));
  return [{ kind: 'set-value', path: `${d.path}/type`, value: best, title: `Use ${best}`, preferred: true }];
}

function localSsd(ctx: VmContext, d: DiskSpec, t: DeviceDiskType): void {
  const n = d.count ?? 1;
  const machine = ctx.machine;
  if (!localSsdRules(ctx, d, t)) return;
  const needed = machine && localSsdVcpusNeeded(ctx.catalog, t, machine, n);
  if (!machine || !needed || machine.vcpus >= needed.need) return;
  const need = needed.need;
  const at = ctx.machineSpan();
  // Past the file's cap the finding is counted, not listed: the machine its fix names is not searched for.
  const bigger = ctx.listed('local-ssd-vcpus', at)
    ? [machine, ...largerMachines(machine)].find((m) => m.vcpus >= need && (m === machine || ctx.advice.keepsTargetsOn(m)))
    : undefined;
  ctx.report(
    'local-ssd-vcpus',
    `${n} local SSD device${n === 1 ? '' : 's'} reach their figures only with ${need} vCPUs (${needed.source}); ${machine.name} has ${plural(machine.vcpus, 'vCPU')}`,
    at,
    {
      path: `${ctx.vm.path}/machine_type`,
      fixes: bigger && bigger !== machine ? [ctx.setMachine(bigger, machineTitle(ctx, bigger))] : [],
    },
  );
}

// ---- local SSD counts: the fixed count of an -lssd machine type, the series' rows of allowed counts by
// machine type or vCPU count, or the disk type's own list when the series has no rows.

/** Reports a count the machine does not take; true when the count is allowed (or nothing says otherwise). */
function localSsdRules(ctx: VmContext, d: DiskSpec, t: DeviceDiskType): boolean {
  const m = ctx.machine;
  const n = d.count ?? 1;
  const refused = localSsdRefusal(ctx.catalog, m, t, n);
  if (!refused) return true;
  const cite = refused.kind !== 'fixed' && refused.source ? ` (${ctx.catalog.edition}: ${refused.source})` : '';
  if (refused.kind === 'fixed')
    countFinding(
      ctx,
      d,
      `${m!.name} comes with ${refused.count} local SSD devices of ${refused.device_gib} GiB; ${n} ${n === 1 ? 'is' : 'are'} given`,
      [refused.count],
    );
  else if (refused.kind === 'none')
    notOnMachine(
      ctx,
      d,
      refused.bundled
        ? `${m!.name} has no local SSD: ${m!.series} takes it only as the fixed disks of its -lssd machine types${cite}`
        : `${m!.name} takes no local SSD${cite}`,
    );
  else
    countFinding(
      ctx,
      d,
      `${n} local SSD device${n === 1 ? '' : 's'} ${n === 1 ? 'is' : 'are'} not allowed${refused.onMachine ? ` on ${m!.name}` : ''}; allowed counts: ${refused.counts.join(', ')}${cite}`,
      refused.counts,
    );
  return false;
}

function notOnMachine(ctx: VmContext, d: DiskSpec, message: string): void {
  ctx.report('local-ssd-not-on-machine', message, ctx.at(`${d.path}/type`), { path: `${d.path}/type` });
}

/** On the count when the spec gives one, else on the type; fixes to the nearest allowed counts below and above. */
function countFinding(ctx: VmContext, d: DiskSpec, message: string, counts: number[]): void {
  const n = d.count ?? 1;
  const given = ctx.has(`${d.path}/count`);
  const path = given ? `${d.path}/count` : `${d.path}/type`;
  const below = Math.max(...counts.filter((c) => c < n));
  const above = Math.min(...counts.filter((c) => c > n));
  // The nearer first; on a tie the larger, which keeps the performance the spec asked for.
  const choices = [below, above].filter(Number.isFinite).sort((a, b) => Math.abs(a - n) - Math.abs(b - n) || b - a);
  const fix = (value: number, preferred: boolean): FixData =>
    given
      ? { kind: 'set-value', path: `${d.path}/count`, value, title: `Use ${plural(value, 'device')}`, preferred }
      : { kind: 'add-key', path: d.path, key: 'count', value, title: `Use ${plural(value, 'device')}`, preferred };
  ctx.report('local-ssd-count', message, ctx.at(path), { path, fixes: choices.map((c, i) => fix(c, i === 0)) });
}

/** A machine fix's title with what the whole VM then costs a month. */
function machineTitle(ctx: VmContext, m: Machine): string {
  return `Change machine to ${m.name} (${vmCostChange(ctx.catalog, ctx.evaluation, ctx.advice.onMachine(m))})`;
}
