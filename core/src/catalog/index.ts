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
import type { Catalog, Limit, LimitRow, MachineSeries, VmLimitRow, VmLimitTable } from './types';

export * from './types';

export const BUILTIN_CATALOGS: readonly Catalog[] = [gcp2020, gcp2024, yandex2025] as unknown as Catalog[];

/** The edition used when a spec names none: the newest built-in one for its provider. */
export const DEFAULT_EDITION: Record<string, string> = { gcp: 'gcp-2024', yandex: 'yandex-2025' };

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
  const c = data as Catalog;
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
    for (const d of Object.keys(t.disk_types))
      if (!c.disk_types[d]) problems.push({ path: `/vm_limits/${i}/disk_types/${d}`, message: `disk type '${d}' is not in disk_types` });
  });
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
  /** Adds (or replaces) an edition, e.g. a user's catalog file. */
  add(c: Catalog): void {
    this.byEdition.set(c.edition, c);
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

// ---- machines ------------------------------------------------------------------------------------------

export interface Machine {
  series: string;
  family?: string;
  vcpus: number;
  /** The machine type's name, or `<series> with N vCPUs` for series+vcpus specs. */
  name: string;
  info: MachineSeries;
  /** The local SSD devices an -lssd machine type comes with (filled from the machine type data). */
  local_ssd?: { count: number; device_gib: number };
}

export type MachineResult =
  { ok: true; machine: Machine } | { ok: false; code: string; message: string; on: 'machine_type' | 'series' | 'vcpus' };

const MACHINE_RE = /^([a-z][a-z0-9]*?)-([a-z]+(?:-[a-z]+)*?)-(\d+)(?:-[a-z0-9-]+)?$/;

/** Resolves a machine type name (n2-standard-8, e2-medium) or a series + vCPU pair against the catalog. */
export function resolveMachine(c: Catalog, spec: { machine_type?: string; series?: string; vcpus?: number }): MachineResult {
  if (spec.machine_type !== undefined) {
    const mt = spec.machine_type.trim().toLowerCase();
    for (const [series, info] of Object.entries(c.machine_series)) {
      const v = info.shapes?.[mt];
      if (v !== undefined) return { ok: true, machine: { series, vcpus: v, name: mt, info } };
    }
    const m = MACHINE_RE.exec(mt);
    const series = m?.[1];
    const info = series ? c.machine_series[series] : undefined;
    if (!m || !series || !info) {
      return {
        ok: false,
        code: 'unknown-machine-type',
        on: 'machine_type',
        message: `unknown machine type '${spec.machine_type}' in ${c.edition}; known series: ${Object.keys(c.machine_series).join(', ')}`,
      };
    }
    const family = m[2];
    const vcpus = Number(m[3]);
    const offered = info.families?.[family];
    if (!offered) {
      return {
        ok: false,
        code: 'unknown-machine-type',
        on: 'machine_type',
        message: `${series} has no '${family}' machines in ${c.edition}; families: ${Object.keys(info.families ?? {}).join(', ')}`,
      };
    }
    if (!offered.includes(vcpus)) {
      return {
        ok: false,
        code: 'unknown-machine-type',
        on: 'machine_type',
        message: `${series}-${family} comes with ${offered.join(', ')} vCPUs, not ${vcpus}`,
      };
    }
    return { ok: true, machine: { series, family, vcpus, name: `${series}-${family}-${vcpus}`, info } };
  }
  if (spec.series !== undefined) {
    const series = spec.series.trim().toLowerCase();
    const info = c.machine_series[series];
    if (!info)
      return {
        ok: false,
        code: 'unknown-series',
        on: 'series',
        message: `unknown series '${spec.series}' in ${c.edition}; known: ${Object.keys(c.machine_series).join(', ')}`,
      };
    if (spec.vcpus === undefined)
      return { ok: false, code: 'missing-machine', on: 'series', message: 'a VM given by series also needs vcpus' };
    const offered = vcpuChoices(info);
    if (offered.length && !offered.includes(spec.vcpus)) {
      return {
        ok: false,
        code: 'vcpus-not-offered',
        on: 'vcpus',
        message: `${series} comes with ${offered.join(', ')} vCPUs, not ${spec.vcpus}`,
      };
    }
    const family = info.families ? Object.keys(info.families).find((f) => info.families![f].includes(spec.vcpus!)) : undefined;
    return {
      ok: true,
      machine: {
        series,
        family,
        vcpus: spec.vcpus,
        name: family ? `${series}-${family}-${spec.vcpus}` : `${series} with ${spec.vcpus} vCPUs`,
        info,
      },
    };
  }
  return { ok: false, code: 'missing-machine', on: 'machine_type', message: 'a VM needs machine_type, or series and vcpus' };
}

/** Whether the machine attaches a disk type: its series lists the type, and the machine meets the type's conditions there. */
export function attaches(m: Machine, type: string): boolean {
  if (m.info.disk_types && !m.info.disk_types.includes(type)) return false;
  const c = m.info.disk_type_conditions?.[type];
  return !c || ((c.min_vcpus === undefined || m.vcpus >= c.min_vcpus) && (!c.machine_types || c.machine_types.includes(m.name)));
}

/** All vCPU counts a series offers, ascending. */
export function vcpuChoices(info: MachineSeries): number[] {
  const all = new Set<number>(info.vcpus ?? []);
  for (const list of Object.values(info.families ?? {})) for (const v of list) all.add(v);
  return [...all].sort((a, b) => a - b);
}

/** Larger machines of the same series (and family, when there is one), smallest first. */
export function largerMachines(m: Machine): Machine[] {
  const list = m.family && m.info.families?.[m.family] ? m.info.families[m.family] : vcpuChoices(m.info);
  return [...list]
    .sort((a, b) => a - b)
    .filter((v) => v > m.vcpus)
    .map((v) => ({
      ...m,
      vcpus: v,
      name: m.family ? `${m.series}-${m.family}-${v}` : `${m.series} with ${v} vCPUs`,
    }));
}

// ---- per-VM limits -------------------------------------------------------------------------------------

export interface VmRow {
  row: VmLimitRow;
  table: VmLimitTable;
}

/** The per-VM limit row for a disk type on a machine, from the series' own table or the catch-all ('*'). */
export function vmLimitRow(c: Catalog, m: Machine, diskType: string): VmRow | undefined {
  const tables = [...c.vm_limits.filter((t) => t.series.includes(m.series)), ...c.vm_limits.filter((t) => t.series.includes('*'))];
  for (const table of tables) {
    const rows = table.disk_types[diskType];
    if (!rows) continue;
    const byName = rows.find((r) => r.machine_types?.includes(m.name));
    if (byName) return { row: byName, table };
    const byVcpu = rows.find((r) => r.vcpus && m.vcpus >= r.vcpus.min && (r.vcpus.max === undefined || m.vcpus <= r.vcpus.max));
    if (byVcpu) return { row: byVcpu, table };
  }
  return undefined;
}

export function limitValue(l: Limit | undefined, vcpus: number): number | undefined {
  if (l === undefined) return undefined;
  if (typeof l === 'number') return l;
  const v = l.per_vcpu * vcpus;
  return l.max !== undefined ? Math.min(v, l.max) : v;
}

export function describeRow(row: VmLimitRow): string {
  if (row.machine_types) return row.machine_types.join(', ');
  const v = row.vcpus!;
  if (v.max === undefined) return `${v.min}+ vCPUs`;
  if (v.max === v.min) return `${v.min} vCPU${v.min === 1 ? '' : 's'}`;
  return `${v.min}-${v.max} vCPUs`;
}

/** The VM's network egress cap in Gbit/s. */
export function egressGbps(c: Catalog, m: Machine): number | undefined {
  if (!c.egress) return undefined;
  const e = m.info.egress_gbps;
  if (e?.rows) {
    const r = e.rows.find((x) => m.vcpus >= x.vcpus.min && (x.vcpus.max === undefined || m.vcpus <= x.vcpus.max));
    if (r) return r.gbps;
  }
  const per = e?.per_vcpu ?? c.egress.default_gbps.per_vcpu;
  const max = e?.max ?? c.egress.default_gbps.max;
  return max !== undefined ? Math.min(per * m.vcpus, max) : per * m.vcpus;
}

export type { LimitRow };
