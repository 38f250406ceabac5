/** The JSON report of `storage-perf evaluate` (the public contract, section 3), built from an Analysis. */
import { adviceFor, type WorkloadSuggestions } from './advice';
import type { Analysis } from './analyze';
import type { Severity } from './diagnostics';
import { LineIndex } from './text';
import { METRICS, type LimitKind, type WorkloadEval } from './model/types';

export interface ReportDiagnostic {
  severity: Severity;
  code: string;
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}
export interface DiskReport {
  name: string;
  type: string;
  size_gib: number;
  read_iops: number;
  write_iops: number;
  read_mibps: number;
  write_mibps: number;
  limited_by: Record<'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps', LimitKind>;
  /** Why each figure is what it is: the limit, its table and edition. */
  explanation: Record<'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps', string>;
  monthly_cost: number | null;
  cost_explanation: string;
  price_per_read_iops: number | null;
  /** False when the catalog has no per-VM limit for the disk's type on this machine (or the machine is unknown): the figures are the disk's own, not capped by the VM. */
  vm_limit_known: boolean;
}
/** The contract's workload object: the figures as evaluated, with nulls where the JSON has no value. */
export interface WorkloadReport extends Pick<
  WorkloadEval,
  'disks' | 'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps' | 'limited_by'
> {
  name: string;
  explanation: string;
  meets_target: boolean | null;
  headroom: number | null;
  cpu_vcpus_needed: number;
  queue_depth_needed: { low: number; high: number };
  suggestions: { disk_size_gib?: number; disk?: string; machine_type?: string; block_size_kib?: number; queue_depth?: number };
}
export interface VmReport {
  name: string;
  machine_type: string | null;
  vcpus: number | null;
  monthly_cost: number | null;
  egress: { cap_gbps: number; other_mibps: number; disk_write_budget_mibps: number; limits_writes: boolean } | null;
  disks: DiskReport[];
  workloads: WorkloadReport[];
}
export interface FileReport {
  path: string;
  catalog: string | null;
  region: string | null;
  currency: string | null;
  monthly_cost: number | null;
  vms: VmReport[];
  diagnostics: ReportDiagnostic[];
}
export interface Report {
  files: FileReport[];
}

const r0 = (x: number) => Math.round(x);
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

export function reportDiagnostics(a: Analysis): ReportDiagnostic[] {
  const idx = new LineIndex(a.parsed.text);
  return a.diagnostics.map((d) => {
    const r = idx.range(d.span);
    return {
      severity: d.severity,
      code: d.code,
      message: d.message,
      line: r.start.line + 1,
      column: r.start.character + 1,
      end_line: r.end.line + 1,
      end_column: r.end.character + 1,
    };
  });
}

function suggestionsReport(s: WorkloadSuggestions): WorkloadReport['suggestions'] {
  return {
    ...(s.disk_size_gib !== undefined ? { disk_size_gib: s.disk_size_gib, disk: s.disk } : {}),
    ...(s.machine_type ? { machine_type: s.machine_type } : {}),
    ...(s.block_kib ? { block_size_kib: s.block_kib } : {}),
    ...(s.queue_depth ? { queue_depth: s.queue_depth } : {}),
  };
}

export function fileReport(path: string, a: Analysis): FileReport {
  const money = (x: number | undefined) => (x === undefined ? null : r2(x));
  return {
    path,
    catalog: a.catalog?.edition ?? null,
    region: a.region ?? null,
    currency: a.catalog?.currency ?? null,
    monthly_cost: money(a.monthly_cost),
    vms: a.vms.map((v) => ({
      name: v.spec.name,
      machine_type: v.machine?.name ?? null,
      vcpus: v.machine?.vcpus ?? null,
      monthly_cost: money(v.monthly_cost),
      egress: v.egress
        ? {
            cap_gbps: v.egress.cap_gbps,
            other_mibps: r1(v.egress.other_mibps),
            disk_write_budget_mibps: r1(v.egress.budget_mibps),
            limits_writes: v.egress.binds,
          }
        : null,
      disks: v.disks.map((d) => {
        const limited = {} as DiskReport['limited_by'];
        const explanation = {} as DiskReport['explanation'];
        for (const m of METRICS) {
          limited[m] = d.figures[m].by;
          explanation[m] = d.figures[m].why;
        }
        return {
          name: d.spec.name,
          type: d.typeName,
          size_gib: r2(d.size_gib),
          read_iops: r0(d.figures.read_iops.value),
          write_iops: r0(d.figures.write_iops.value),
          read_mibps: r1(d.figures.read_mibps.value),
          write_mibps: r1(d.figures.write_mibps.value),
          limited_by: limited,
          explanation,
          monthly_cost: money(d.cost.monthly),
          cost_explanation: d.cost.why,
          price_per_read_iops:
            d.cost.monthly !== undefined && d.figures.read_iops.value > 0
              ? Math.round((d.cost.monthly / d.figures.read_iops.value) * 1e5) / 1e5
              : null,
          vm_limit_known: d.vmLimitKnown,
        };
      }),
      workloads: v.workloads.map((w) => ({
        name: w.spec.name,
        disks: w.disks,
        read_iops: r0(w.read_iops),
        write_iops: r0(w.write_iops),
        read_mibps: r1(w.read_mibps),
        write_mibps: r1(w.write_mibps),
        limited_by: w.limited_by,
        explanation: w.why,
        meets_target: w.meets_target ?? null,
        headroom: w.headroom === undefined || !Number.isFinite(w.headroom) ? null : Math.round(w.headroom * 1000) / 1000,
        cpu_vcpus_needed: r1(w.cpu_vcpus_needed),
        queue_depth_needed: w.queue_depth_needed,
        suggestions: suggestionsReport(adviceFor(v, a.region ?? v.catalog.default_region).workload(w.spec.name)),
      })),
    })),
    diagnostics: reportDiagnostics(a),
  };
}
