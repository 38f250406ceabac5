/**
 * The limits model's data: the built-in catalog editions, validation of user catalogs, and lookups
 * (machine types, per-VM limit rows, egress caps). No arithmetic on disks here; see ../model.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import catalogSchema from '../../../schemas/catalog.schema.json';
import gcp2020 from '../../../catalogs/gcp-2020.json';
import gcp2024 from '../../../catalogs/gcp-2024.json';
import yandex2025 from '../../../catalogs/yandex-2025.json';
import aws2023 from '../../../catalogs/aws-2023.json';
import aws2025 from '../../../catalogs/aws-2025.json';
import azure2026 from '../../../catalogs/azure-2026.json';
import type { Catalog, DiskType, InstanceStoreTable, Limit, LimitRow, UnmodelledOn, VmLimitRow, VmLimitTable } from './types';

export * from './types';
export * from './machines';
export { largerMachines } from './larger-machines';
export * from './machine-rows';

import { MachineMemo, machineDataProblems, type Machine } from './machines';
import { localSsdUnmodelled } from './machine-rows';
import { fmt } from '../units';
import { withoutInheritance } from '../own-keys';

/**
 * The sizes a disk of this type is created in, GiB: a regional disk's own minimum where the type has one. `advised`
 * is where advice starts: the documented minimum, where the provider accepts smaller disks than its pages say.
 */
export function sizeRange(t: DiskType, replication?: string): { min: number; max: number; advised: number } {
  const min = replication === 'regional' && t.size_gib.regional_min !== undefined ? t.size_gib.regional_min : t.size_gib.min;
  return { min, max: t.size_gib.max, advised: Math.max(min, t.size_gib.documented_min ?? min) };
}

/**
 * Why the provider refuses a disk of this type at this size (GiB): outside the type's range, or not a whole number
 * of allocation units where the type is sold in whole units; undefined when it takes it. A refused size is an
 * error on the size, and the disk gets no figures and no price: it cannot be created.
 */
export function refusedSize(t: DiskType, sizeGib: number, replication?: string): 'range' | 'units' | undefined {
  if (t.model === 'devices') return undefined;
  const { min, max } = sizeRange(t, replication);
  if (sizeGib < min - 1e-9 || sizeGib > max + 1e-9) return 'range';
  if (t.model === 'allocation-units' && t.whole_units && Math.abs(sizeGib / t.unit_gib - Math.round(sizeGib / t.unit_gib)) > 1e-9)
    return 'units';
  return undefined;
}

/**
 * The type's figures are not modelled on this machine in this edition: why, with its source; undefined when they are.
 * Local SSD is not modelled on a machine type whose own devices have no figures here (./machine-rows.ts).
 */
export function unmodelledOn(t: DiskType | undefined, machine: Machine | undefined): UnmodelledOn | undefined {
  if (machine && t?.unmodelled_on?.series.includes(machine.series)) return t.unmodelled_on;
  return t?.model === 'devices' && machine?.local_ssd ? localSsdUnmodelled(t, machine) : undefined;
}

/** The disk type name a spec gives AWS instance store: the machine's own volumes, in the catalog's instance store table. */
export const INSTANCE_STORE = 'instance-store';

/** A machine's instance store as the catalog's table gives it. */
export interface InstanceStore {
  row: InstanceStoreTable['types'][string];
  /** All its volumes together, in GiB (AWS gives GB: 10^9 bytes). */
  sizeGib: number;
  /** Block size in KiB the table's IOPS are stated at; undefined where the table does not say. */
  blockKib?: number;
  /** The table, cited as findings, reports and job files name it: "aws-2025: Instance store specifications, 2024". */
  cited: string;
  /** What the provider documents: "1 × 937 GB NVMe SSD, 100,000 random read and 55,000 random write IOPS at 4 KiB, all volumes together". */
  documented: string;
}

/** The instance store the catalog gives the machine; undefined when it gives none (an EBS-only type, another provider). */
export function instanceStoreOf(c: Catalog, m: Machine | undefined): InstanceStore | undefined {
  const table = c.instance_store;
  const row = m && table?.types[m.name];
  if (!table || !row) return undefined;
  return {
    row,
    sizeGib: (row.devices * row.device_gb * 1e9) / 2 ** 30,
    blockKib: table.block_kib,
    cited: `${c.edition}: ${table.table.split(':')[0]}, ${table.date}`,
    documented: `${row.devices} × ${fmt(row.device_gb)} GB ${row.media}, ${fmt(row.read_iops)} random read and ${fmt(row.write_iops)} random write IOPS${
      table.block_kib ? ` at ${fmt(table.block_kib)} KiB` : ''
    }, all volumes together`,
  };
}

/** A machine's instance store that the provider lists without IOPS (`unstated`); undefined when it has figures or none. */
export function unstatedInstanceStoreOf(
  c: Catalog,
  m: Machine | undefined,
): { row: NonNullable<InstanceStoreTable['unstated']>[string]; sizeGib: number; cited: string } | undefined {
  const row = m && c.instance_store?.unstated?.[m.name];
  if (!row || !c.instance_store) return undefined;
  return {
    row,
    sizeGib: (row.devices * row.device_gb * 1e9) / 2 ** 30,
    cited: `${c.edition}: ${c.instance_store.table.split(':')[0]}, ${c.instance_store.date}`,
  };
}

export const BUILTIN_CATALOGS: readonly Catalog[] = withoutInheritance([
  gcp2020,
  gcp2024,
  yandex2025,
  aws2023,
  aws2025,
  azure2026,
]) as unknown as Catalog[];

/** The edition used when a spec names none: the newest built-in one for its provider. */
export const DEFAULT_EDITION: Record<string, string> = withoutInheritance({
  gcp: 'gcp-2024',
  yandex: 'yandex-2025',
  aws: 'aws-2025',
  azure: 'azure-2026',
});

let catalogValidator: ValidateFunction | undefined;

export interface CatalogProblem {
  path: string;
  message: string;
  /** The key itself is wrong, not its value. */ key?: boolean;
}

/** Validates a catalog object (built-in or a user's) against schemas/catalog.schema.json and for coherence. */
export function validateCatalog(data: unknown): { catalog?: Catalog; problems: CatalogProblem[] } {
  if (!catalogValidator) catalogValidator = new Ajv({ allErrors: true, strict: false }).compile(catalogSchema as object);
  if (!catalogValidator(data)) {
    return {
      problems: (catalogValidator.errors ?? []).map((e) => {
        // "must NOT have additional properties" names no property: point at the one that is not allowed.
        const extra = e.keyword === 'additionalProperties' ? (e.params as { additionalProperty?: string }).additionalProperty : undefined;
        const path = extra !== undefined ? `${e.instancePath}/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}` : e.instancePath;
        return {
          path: path || '/',
          message: extra !== undefined ? `'${extra}' is not a catalog key here` : (e.message ?? e.keyword),
          key: extra !== undefined,
        };
      }),
    };
  }
  // Before the coherence checks, which look names up too (./own-keys).
  const c = withoutInheritance(data as Catalog);
  const problems: CatalogProblem[] = [];
  const cite = (path: string, key: string | undefined) => {
    if (key !== undefined && !(key in c.sources)) problems.push({ path, message: `source '${key}' is not defined in sources` });
  };
  // Every table in the catalog names its source, wherever it stands (io, queue, rates, disk_max, ...); and
  // JSON.parse turns 1e400 into Infinity, which the schema's number type lets through.
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'number' && !Number.isFinite(v)) problems.push({ path, message: 'must be a finite number' });
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      const p = `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (k === 'source' && typeof x === 'string') cite(p, x);
      else if (p !== '/sources') walk(x, p);
    }
  };
  walk(c, '');
  for (const [name, t] of Object.entries(c.disk_types)) {
    if (t.size_gib.min > t.size_gib.max) problems.push({ path: `/disk_types/${name}/size_gib`, message: 'min is larger than max' });
  }
  c.vm_limits.forEach((t, i) => {
    for (const s of t.series)
      if (s !== '*' && !c.machine_series[s])
        problems.push({ path: `/vm_limits/${i}/series`, message: `series '${s}' is not in machine_series` });
    for (const d of t.shared_by ?? [])
      if (!c.disk_types[d]) problems.push({ path: `/vm_limits/${i}/shared_by`, message: `disk type '${d}' is not in disk_types` });
    if (t.shared_by && Object.keys(t.disk_types).length !== 1)
      problems.push({ path: `/vm_limits/${i}/disk_types`, message: 'a table with shared_by has one key: the group name' });
    // A shared table's one key names the group, not a disk type.
    if (!t.shared_by)
      for (const d of Object.keys(t.disk_types))
        if (!c.disk_types[d]) problems.push({ path: `/vm_limits/${i}/disk_types/${d}`, message: `disk type '${d}' is not in disk_types` });
  });
  for (const d of c.limit_across_types?.types ?? [])
    if (!c.disk_types[d]) problems.push({ path: '/limit_across_types/types', message: `disk type '${d}' is not in disk_types` });
  for (const s of Object.keys(c.platform?.series ?? {}))
    if (!c.machine_series[s]) problems.push({ path: `/platform/series/${s}`, message: `series '${s}' is not in machine_series` });
  c.platform?.requirements.forEach((r, i) => {
    if (!c.disk_types[r.disk_type])
      problems.push({ path: `/platform/requirements/${i}/disk_type`, message: `disk type '${r.disk_type}' is not in disk_types` });
  });
  problems.push(...machineDataProblems(c));
  for (const [name, ms] of Object.entries(c.machine_series)) {
    const perType = (ms.disk_count_limits?.rows ?? []).flatMap((r) => Object.keys(r.per_type ?? {}));
    const named = [
      ...(ms.disk_types ?? []),
      ...(ms.disk_types_by_request ?? []),
      ...Object.keys(ms.disk_type_conditions ?? {}),
      ...perType,
    ];
    for (const d of new Set(named))
      if (!c.disk_types[d]) problems.push({ path: `/machine_series/${name}`, message: `disk type '${d}' is not in disk_types` });
  }
  return problems.length ? { problems } : { catalog: c, problems };
}

export class CatalogRegistry {
  private readonly byEdition = new Map<string, Catalog>();
  constructor(catalogs: readonly Catalog[] = BUILTIN_CATALOGS) {
    for (const c of catalogs) this.byEdition.set(c.edition, c);
  }
  /**
   * Adds (or replaces) an edition, e.g. a user's catalog file. A catalog made in memory by a host is made to inherit
   * nothing here, as a validated one does (../own-keys).
   */
  add(c: Catalog): void {
    this.byEdition.set(c.edition, withoutInheritance(c));
  }
  get(edition: string): Catalog | undefined {
    return this.byEdition.get(edition);
  }
  editions(): string[] {
    return [...this.byEdition.keys()];
  }
  forProvider(provider: string): Catalog[] {
    return [...this.byEdition.values()].filter((c) => c.provider === provider);
  }
  defaultFor(provider: string): Catalog | undefined {
    const d = DEFAULT_EDITION[provider];
    if (d && this.byEdition.has(d)) return this.byEdition.get(d);
    return this.forProvider(provider).sort((a, b) => b.as_of.localeCompare(a.as_of))[0];
  }
}

export const builtinRegistry = new CatalogRegistry();

// ---- per-VM limits -------------------------------------------------------------------------------------

export interface VmRow {
  row: VmLimitRow;
  table: VmLimitTable;
}

/** The per-VM limit row for a disk type on a machine, from the series' own table or the catch-all ('*'). */
export function vmLimitRow(c: Catalog, m: Machine, diskType: string): VmRow | undefined {
  // Asked for every disk of every candidate a search tries; machines are shared objects (./machines), so the
  // rows are kept with them.
  const rows = rowMemo.on(c, m);
  if (!rows.has(diskType)) rows.set(diskType, findVmLimitRow(c, m, diskType));
  return rows.get(diskType);
}
const rowMemo = new MachineMemo<VmRow | undefined>();

function findVmLimitRow(c: Catalog, m: Machine, diskType: string): VmRow | undefined {
  const tables = [...c.vm_limits.filter((t) => t.series.includes(m.series)), ...c.vm_limits.filter((t) => t.series.includes('*'))];
  const controller = m.controller ?? m.info.controllers?.default;
  for (const table of tables) {
    if (table.controller && table.controller !== controller) continue;
    const rows = table.disk_types[diskType] ?? (table.shared_by?.includes(diskType) ? Object.values(table.disk_types)[0] : undefined);
    if (!rows) continue;
    const byName = rows.find((r) => r.machine_types?.includes(m.limits_as ?? m.name));
    if (byName) return { row: byName, table };
    const byVcpu = rows.find((r) => r.vcpus && m.vcpus >= r.vcpus.min && (r.vcpus.max === undefined || m.vcpus <= r.vcpus.max));
    if (byVcpu) return { row: byVcpu, table };
  }
  return undefined;
}

/**
 * The name of the limit a disk type's volumes count against on a machine: a group shared by several types
 * (AWS's per-instance EBS limit), or the type itself.
 */
export function vmLimitGroup(c: Catalog, m: Machine, diskType: string): string {
  // Asked for every disk of every candidate a search tries: kept per edition, series and type.
  let bySeries = groupMemo.get(c);
  if (!bySeries) groupMemo.set(c, (bySeries = new Map()));
  let byType = bySeries.get(m.series);
  if (!byType) bySeries.set(m.series, (byType = new Map()));
  let group = byType.get(diskType);
  if (group === undefined) {
    const t = c.vm_limits.find((x) => x.shared_by?.includes(diskType) && (x.series.includes(m.series) || x.series.includes('*')));
    byType.set(diskType, (group = t ? Object.keys(t.disk_types)[0] : diskType));
  }
  return group;
}
const groupMemo = new WeakMap<Catalog, Map<string, Map<string, string>>>();

export function limitValue(l: Limit | undefined, vcpus: number): number | undefined {
  if (l === undefined) return undefined;
  if (typeof l === 'number') return l;
  const v = l.per_vcpu * vcpus;
  return l.max !== undefined ? Math.min(v, l.max) : v;
}

export function describeRow(row: VmLimitRow): string {
  if (row.upper_bound_of) return `${row.upper_bound_of}, standing for ${row.machine_types!.join(', ')}, which have none of their own`;
  if (row.machine_types) return row.machine_types.join(', ');
  const v = row.vcpus!;
  if (v.max === undefined) return `${v.min}+ vCPUs`;
  if (v.max === v.min) return `${v.min} vCPU${v.min === 1 ? '' : 's'}`;
  return `${v.min}-${v.max} vCPUs`;
}

/** The VM's network egress cap in Gbit/s; undefined when the catalog has egress rules but none for this machine. */
export function egressGbps(c: Catalog, m: Machine): number | undefined {
  if (!c.egress) return undefined;
  const e = m.info.egress_gbps;
  if (e?.rows) {
    const name = m.limits_as ?? m.name;
    const r =
      e.rows.find((x) => x.machine_types?.includes(name)) ??
      e.rows.find((x) => !x.machine_types && x.vcpus && m.vcpus >= x.vcpus.min && (x.vcpus.max === undefined || m.vcpus <= x.vcpus.max));
    if (r) return r.gbps;
  }
  const d = c.egress.default_gbps;
  if (e?.per_vcpu === undefined && d.series && !d.series.includes(m.series)) return undefined;
  const per = e?.per_vcpu ?? d.per_vcpu;
  const max = e?.max ?? d.max;
  return max !== undefined ? Math.min(per * m.vcpus, max) : per * m.vcpus;
}

export type { LimitRow };
