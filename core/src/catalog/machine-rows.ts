/**
 * What a machine takes, by the rows of its series' tables: the row that applies to a machine, and the local SSD
 * devices it takes. Shared by the checks that report a refusal and the model, which gives a disk the provider
 * refuses no figures.
 */
import type { Machine } from './machines';
import type { Catalog, DeviceDiskType, FixedLocalSsdTable, UnmodelledOn } from './types';
import { fmt } from '../units';

/** The row naming the machine type, else the first whose vCPU range holds it. */
export function rowFor<R extends { vcpus?: { min: number; max?: number }; machine_types?: string[] }>(
  rows: R[],
  m: Machine,
): R | undefined {
  return (
    rows.find((r) => r.machine_types?.includes(m.name)) ??
    rows.find((r) => !r.machine_types && r.vcpus && m.vcpus >= r.vcpus.min && (r.vcpus.max === undefined || m.vcpus <= r.vcpus.max))
  );
}

/** Why the machine does not take `n` local SSD devices of the type; undefined when it does. */
export type LocalSsdRefusal =
  /** The machine type comes with its own devices, a fixed number of them. */
  | { kind: 'fixed'; count: number; device_gib: number }
  /** The machine takes none (`bundled`: only the series' -lssd types have them). */
  | { kind: 'none'; bundled: boolean; source?: string }
  /** Not this many: the counts it takes (`onMachine`: by the machine's row, not the type's own list). */
  | { kind: 'count'; counts: number[]; onMachine: boolean; source?: string };

export function localSsdRefusal(c: Catalog, m: Machine | undefined, t: DeviceDiskType, n: number): LocalSsdRefusal | undefined {
  // Without a machine, only the counts the type comes in.
  if (!m) return t.counts.includes(n) ? undefined : { kind: 'count', counts: t.counts, onMachine: false };
  if (m.local_ssd) return n === m.local_ssd.count ? undefined : { kind: 'fixed', ...m.local_ssd };
  const rule = m.info.local_ssd;
  // An -lssd machine type whose fixed count the catalog does not carry yet: nothing to check against.
  if (rule?.bundled_only && /lssd(-metal)?$/.test(m.name)) return undefined;
  if (rule?.bundled_only) return { kind: 'none', bundled: true, source: rule.source };
  const row = rule?.rows ? rowFor(rule.rows, m) : undefined;
  if (rule?.rows && !row) return { kind: 'none', bundled: false, source: rule.source };
  const counts = row?.counts ?? t.counts;
  return counts.includes(n) ? undefined : { kind: 'count', counts, onMachine: !!row, source: rule?.source };
}

/** The fixed local SSD table that names the machine type: its devices, and their own figures where the provider gives them. */
export function fixedLocalSsdTable(m: Machine | undefined): FixedLocalSsdTable | undefined {
  return m?.local_ssd ? m.info.fixed_local_ssd?.find((t) => t.counts[m.name] !== undefined) : undefined;
}

/**
 * The row of the figures the provider gives for the machine type's own local SSD devices (Titanium SSD), with their
 * table; undefined when it gives none for them, or the machine's devices are the disk type's own.
 */
export function ownLocalSsdFigures(m: Machine | undefined, count: number) {
  const table = fixedLocalSsdTable(m);
  const performance = table?.performance;
  const row = performance?.by_count.find((r) => r.count === count);
  return row && { row, table: table!, performance: performance! };
}

/**
 * Local SSD on a machine type that comes with devices of its own whose figures the edition does not have: of another
 * size than the type's devices (whose table would be wrong for them) without the provider's own figures, or with a
 * table of them that lacks the machine's count. Undefined when the figures are modelled.
 */
export function localSsdUnmodelled(t: DeviceDiskType, m: Machine | undefined): UnmodelledOn | undefined {
  const table = fixedLocalSsdTable(m);
  if (!m?.local_ssd || !table) return undefined;
  const { count, device_gib } = m.local_ssd;
  const rows = table.performance?.by_count;
  if (rows ? rows.some((r) => r.count === count) : table.device_gib === t.device_gib) return undefined;
  const devices = `${count} local SSD disk${count === 1 ? '' : 's'} of ${fmt(device_gib)} GiB`;
  return {
    series: [m.series],
    why: `${m.name} comes with ${devices}, whose figures Google does not give`,
    source: table.source,
    table: table.table,
    date: table.date,
  };
}
