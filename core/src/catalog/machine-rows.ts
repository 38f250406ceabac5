/**
 * What a machine takes, by the rows of its series' tables: the row that applies to a machine, and the local SSD
 * devices it takes. Shared by the checks that report a refusal and the model, which gives a disk the provider
 * refuses no figures.
 */
import type { Machine } from './machines';
import type { Catalog, DeviceDiskType } from './types';

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
