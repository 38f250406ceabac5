import { analyze, type Analysis, type DiskEval, type VmEval } from '../core/src';

export interface DiskInput {
  name?: string;
  type: string;
  size?: string | number;
  replication?: string;
  count?: number;
  interface?: string;
  provisioned_iops?: number;
  provisioned_throughput?: string;
}
export interface WorkloadInput {
  name?: string;
  disk?: string;
  pattern?: string;
  block_size: string;
  read_ratio: number;
  queue_depth?: number;
  target?: Record<string, string | number>;
}

/** Writes a one-VM spec as YAML text, the way a user would. */
export function specText(o: {
  provider?: string;
  catalog?: string;
  region?: string;
  machine?: string;
  series?: string;
  vcpus?: number;
  other_egress?: string;
  disks: DiskInput[];
  workloads?: WorkloadInput[];
}): string {
  const lines = [`version: 1`, `provider: ${o.provider ?? 'gcp'}`];
  if (o.catalog) lines.push(`catalog: ${o.catalog}`);
  if (o.region) lines.push(`region: ${o.region}`);
  lines.push('vms:', '  - name: vm');
  if (o.machine) lines.push(`    machine_type: ${o.machine}`);
  if (o.series) lines.push(`    series: ${o.series}`);
  if (o.vcpus) lines.push(`    vcpus: ${o.vcpus}`);
  if (o.other_egress) lines.push(`    other_egress: ${o.other_egress}`);
  lines.push('    disks:');
  o.disks.forEach((d, i) => {
    lines.push(`      - name: ${d.name ?? `d${i}`}`);
    for (const [k, v] of Object.entries(d)) if (k !== 'name' && v !== undefined) lines.push(`        ${k}: ${v}`);
  });
  if (o.workloads?.length) {
    lines.push('    workloads:');
    o.workloads.forEach((w, i) => {
      lines.push(`      - name: ${w.name ?? `w${i}`}`);
      for (const [k, v] of Object.entries(w)) {
        if (k === 'name' || k === 'target' || v === undefined) continue;
        lines.push(`        ${k}: ${v}`);
      }
      if (w.target) {
        lines.push('        target:');
        for (const [k, v] of Object.entries(w.target)) lines.push(`          ${k}: ${v}`);
      }
    });
  }
  return lines.join('\n') + '\n';
}

export function run(text: string): Analysis {
  return analyze(text);
}

export function vmOf(a: Analysis): VmEval {
  if (!a.vms.length) throw new Error(`no VM evaluated: ${JSON.stringify(a.diagnostics.map((d) => d.message))}`);
  return a.vms[0];
}

export function diskOf(a: Analysis, i = 0): DiskEval {
  return vmOf(a).disks[i];
}

export function errors(a: Analysis): string[] {
  return a.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
}

/** Google's tables round down and to "round" sizes; accept the table's own rounding. */
export function approx(actual: number, table: number, what = ''): void {
  const tol = Math.max(1, table * 0.001);
  if (Math.abs(actual - table) > tol) throw new Error(`${what}: model ${actual} vs table ${table} (tolerance ${tol})`);
}

/**
 * AWS's decimal megabits per second in MiB/s (10^6 / 8 bytes per second each), written here rather than read from
 * core's units: the tests that check the catalogs' conversions need an answer of their own.
 */
export const MBPS_IN_MIBPS = 1e6 / 8 / 2 ** 20;

/** A resource of a test plan: its type, name, planned values and (optionally) its configuration's expressions. */
export interface PlanResourceInput {
  type: string;
  name: string;
  values: object;
  expressions?: object;
}

/**
 * A Terraform plan of the documented shape (https://developer.hashicorp.com/terraform/internals/json-format)
 * holding `resources` at the root module, with their configuration; each resource's provider is the one its type
 * names (aws_, google_, yandex_).
 */
export function planText(resources: PlanResourceInput[]): string {
  const head = (r: PlanResourceInput) => ({ address: `${r.type}.${r.name}`, mode: 'managed', type: r.type, name: r.name });
  const provider = (r: PlanResourceInput) => r.type.split('_')[0];
  return JSON.stringify(
    {
      format_version: '1.2',
      terraform_version: '1.9.8',
      planned_values: {
        root_module: {
          resources: resources.map((r) => ({
            ...head(r),
            provider_name: `registry.terraform.io/hashicorp/${provider(r)}`,
            schema_version: 0,
            values: r.values,
            sensitive_values: {},
          })),
        },
      },
      configuration: {
        root_module: {
          resources: resources.map((r) => ({
            ...head(r),
            provider_config_key: provider(r),
            expressions: r.expressions ?? {},
            schema_version: 0,
          })),
        },
      },
    },
    null,
    2,
  );
}
