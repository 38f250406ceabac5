/** The JSON report of `storage-perf evaluate` (the public contract, section 3), built from an Analysis. */
import { INSTANCE_STORE, instanceStoreOf, unstatedInstanceStoreOf } from './catalog';
import { adviceFor, type WorkloadSuggestions } from './advice';
import type { Analysis } from './analyze';
import type { VmSpec } from './document/types';
import { workloadBurstText } from './model/burst';
import { contentOrigin } from './vm-cache';
import { LineIndex } from './text';
import {
  knownFigure,
  gapTexts,
  METRICS,
  sumCosts,
  upperBound,
  vmCosts,
  workloadsLeftOut,
  type DiskBursts,
  type DiskEval,
  type SharedLimit,
  type VmEval,
  type WorkloadEval,
} from './model/types';
import {
  afterName,
  instanceStoreDisks,
  money,
  r2,
  unavailableDisks,
  unavailableWorkloads,
  unevaluatedDiskReport,
  unmodelledDiskReport,
} from './report-no-figures';

export type {
  DiskReport,
  FileReport,
  Report,
  ReportDiagnostic,
  SharedLimitReport,
  UnattachedDiskReport,
  VmReport,
  WorkloadBurstReport,
  WorkloadReport,
} from './report-types';
import type {
  DiskReport,
  FileReport,
  ReportDiagnostic,
  SharedLimitReport,
  UnattachedDiskReport,
  VmReport,
  WorkloadBurstReport,
  WorkloadReport,
} from './report-types';

const r0 = (x: number) => Math.round(x);
const r1 = (x: number) => Math.round(x * 10) / 10;
/** Headroom to three decimals, except that a missed target's never rounds to 0: then two significant digits (-0.000067). */
const headroomFigure = (h: number, missed: boolean) => {
  const r = Math.round(h * 1000) / 1000;
  return missed && h < 0 && !(r < 0) ? Number(h.toPrecision(2)) : r;
};
/** A figure the provider gives, to one decimal; null where it gives none. */
const known = (x: number | undefined) => (x === undefined ? null : r1(x));

export function reportDiagnostics(a: Analysis): ReportDiagnostic[] {
  if (!a.diagnostics.length) return [];
  const idx = new LineIndex(a.parsed.text);
  const sources = a.parsed.sources;
  return a.diagnostics.map((d) => {
    const r = idx.range(d.span);
    const source = sources?.find((s) => d.span.start >= s.start && d.span.start <= s.end);
    const first = source ? idx.position(source.start).line : 0;
    return {
      ...(source ? { file: source.path } : {}),
      severity: d.severity,
      code: d.code,
      message: d.message,
      line: r.start.line - first + 1,
      column: r.start.character + 1,
      end_line: r.end.line - first + 1,
      end_column: r.end.character + 1,
    };
  });
}

// The report's objects are made by assigning their fields in order, not by spreading an object made for each
// optional field: the same keys in the same order, without an object per field to copy from.
function suggestionsReport(s: WorkloadSuggestions): WorkloadReport['suggestions'] {
  const out: WorkloadReport['suggestions'] = {};
  if (s.disk_size_gib !== undefined) {
    out.disk_size_gib = s.disk_size_gib;
    out.disk = s.disk;
  }
  if (s.disk_type !== undefined) {
    out.disk_type = s.disk_type;
    bought(out, s);
  }
  if (s.instead) out.cheaper_disk = otherDisk(s.instead);
  if (s.price_unknown) out.price_unknown = true;
  if (s.alternative) out.priced_disk = otherDisk(s.alternative);
  if (s.machine_type) out.machine_type = s.machine_type;
  if (s.block_kib) out.block_size_kib = s.block_kib;
  if (s.queue_depth) out.queue_depth = s.queue_depth;
  return out;
}

type OtherDiskReport = NonNullable<WorkloadReport['suggestions']['cheaper_disk']>;

function otherDisk(d: {
  disk_type: string;
  disk_size_gib: number;
  provisioned_iops?: number;
  provisioned_mibps?: number;
}): OtherDiskReport {
  const out: OtherDiskReport = { disk_type: d.disk_type, disk_size_gib: d.disk_size_gib };
  return bought(out, d);
}

/** `out` with what `b` provisions, after the fields it has. */
function bought<T extends { provisioned_iops?: number; provisioned_throughput_mibps?: number }>(
  out: T,
  b: { provisioned_iops?: number; provisioned_mibps?: number },
): T {
  if (b.provisioned_iops !== undefined) out.provisioned_iops = b.provisioned_iops;
  if (b.provisioned_mibps !== undefined) out.provisioned_throughput_mibps = b.provisioned_mibps;
  return out;
}

export function fileReport(path: string, a: Analysis): FileReport {
  return {
    path,
    catalog: a.catalog?.edition ?? null,
    region: a.region ?? null,
    currency: a.catalog?.currency ?? null,
    monthly_cost: money(a.monthly_cost),
    monthly_cost_complete: a.monthly_cost_complete,
    monthly_cost_missing: a.monthly_cost_missing,
    vms: [...vmReports(a)],
    ...unattachedReport(a),
    diagnostics: reportDiagnostics(a),
    ...terraformSummary(a),
  };
}

/** From Terraform: the disks attached to no VM, each priced apart (the field is there for every Terraform input). */
function unattachedReport(a: Analysis): Pick<FileReport, 'unattached_disks'> {
  return a.parsed.terraform ? { unattached_disks: unattachedDiskReports(a) } : {};
}

/** The disks attached to no VM, as the report states them: `storage-perf diff` compares these. */
export function unattachedDiskReports(a: Pick<Analysis, 'unattached'>): UnattachedDiskReport[] {
  return a.unattached.map((u) =>
    afterName(
      {
        name: u.spec.name,
        type: u.spec.type,
        size_gib: u.spec.invalid === undefined && u.spec.size_gib !== undefined ? r2(u.spec.size_gib) : null,
        region: u.region,
        monthly_cost: money(u.cost.monthly),
        monthly_cost_complete: u.cost.complete,
        monthly_cost_missing: gapTexts([u.cost]),
        cost_explanation: u.cost.why,
      },
      u.spec.resource_name,
    ),
  );
}

/** The report's VMs one at a time (those of `fileReport`): a writer that streams need not hold them all. */
export function* vmReports(a: Analysis): Generator<VmReport> {
  for (const { name, report, own } of vmReportParts(a, a.vms)) yield own ? report : { ...report, name };
}

/** A VM's report as `vmReportParts` gives it. */
export interface VmReportPart {
  /** The VM's name. */
  name: string;
  /** Its report; made for another VM written alike (`own` false), whose name it has: `name` is this VM's. */
  report: VmReport;
  /** The report was made for this VM: its `name` is this VM's, and no VM before it was given it. */
  own: boolean;
  /** Another VM of the spec may be given the same report (its text is worth keeping for it). */
  shared: boolean;
}

/**
 * Each VM's report and its name. VMs written alike (the evaluation cache moved one evaluation onto each) differ in
 * their reports by name only: the report is made once, for the first of them, and is the same object for them
 * all, so that a writer can write it once too. Their region is part of what they are written alike in.
 */
export function* vmReportParts(
  a: Pick<Analysis, 'region' | 'spec'>,
  vms: Iterable<VmEval>,
  alike: (vm: VmSpec) => boolean = () => true,
): Generator<VmReportPart> {
  // Weakly: a report lives as long as the evaluation it is made from, which the evaluation cache bounds when
  // the VMs come one at a time (`streamedAnalysis`); and only for a VM that `alike` says another shares.
  const made = new WeakMap<VmEval, VmReport>();
  for (const v of vms) {
    const origin = contentOrigin(v);
    let report = made.get(origin);
    const shared = alike(v.spec);
    const own = !report;
    if (!report) {
      // A Terraform VM is priced, and its suggestions searched, in its own zone's region.
      report = vmReport(v, v.spec.region ?? a.region ?? v.catalog.default_region, a.spec?.min_headroom);
      if (shared) made.set(origin, report);
    }
    yield { name: v.spec.name, report, own, shared };
  }
}

function terraformSummary(a: Analysis): Pick<FileReport, 'terraform'> {
  const t = a.parsed.terraform;
  if (!t) return {};
  const ignored = Object.values(t.ignored).reduce((x, y) => x + y, 0);
  return { terraform: { resources: t.resources, ignored_resources: ignored, ignored_types: t.ignored, without_instances: t.none ?? [] } };
}

/**
 * One VM's report without the workloads' suggestions (a search each): what `storage-perf diff` compares. The
 * figures, limits, verdicts and prices are those `fileReport` gives the VM.
 */
export function vmFiguresReport(a: Pick<Analysis, 'region'>, v: VmEval): VmReport {
  return vmReport(v, v.spec.region ?? a.region ?? v.catalog.default_region, undefined, false);
}

function vmReport(v: VmEval, region: string, minHeadroom?: number, suggestions = true): VmReport {
  const r: VmReport = {
    name: v.spec.name,
    machine_type: v.machine?.name ?? null,
    vcpus: v.machine?.vcpus ?? null,
    monthly_cost: money(v.monthly_cost),
    figures_unavailable: v.unavailable ?? null,
    monthly_cost_complete: v.monthly_cost_complete,
    monthly_cost_missing: gapTexts(vmCosts(v)),
    machine_monthly_cost: money(v.machine_cost.monthly),
    machine_monthly_cost_complete: v.machine_cost.complete,
    machine_cost_explanation: v.machine_cost.why,
    disks_monthly_cost: money(disksMonthly(v)),
    egress: v.egress
      ? {
          cap_gbps: v.egress.cap_gbps,
          other_mibps: r1(v.egress.other_mibps),
          disk_write_budget_mibps: r1(v.egress.budget_mibps),
          limits_writes: v.egress.binds,
        }
      : null,
    shared_limits: (v.sharedLimits ?? []).map(sharedLimitReport),
    disks: v.unavailable
      ? unavailableDisks(v)
      : inSpecOrder(v.spec.disks, [
          ...v.disks.map(diskReport),
          ...(v.unmodelled ?? []).map((u) => unmodelledDiskReport(v, u)),
          ...instanceStoreDisks(v),
          ...(v.unevaluated ?? []).map(unevaluatedDiskReport),
        ]),
    workloads: v.unavailable
      ? unavailableWorkloads(v)
      : inSpecOrder(v.spec.workloads, [
          ...v.workloads.map((w) => workloadReport(v, w, region, minHeadroom, suggestions)),
          ...unavailableWorkloads(v, workloadsLeftOut(v)),
        ]),
  };
  return afterName(r, v.spec.resource_name, v.spec.region !== undefined && !v.spec.region_unknown ? v.spec.region : undefined);
}

function sharedLimitReport(l: SharedLimit): SharedLimitReport {
  return {
    metric: l.metric,
    limited_by: l.by,
    value: r1(l.value),
    unit: l.unit,
    disks: l.disks,
    demand: r1(l.demand),
    reached: l.reached,
    explanation: l.why,
  };
}

/** A VM's disks or workloads in the order the spec writes them, whatever part of the evaluation each comes from. */
function inSpecOrder<T extends { name: string }>(written: Array<{ name: string }>, parts: T[]): T[] {
  // Most often the parts are in that order already (every disk evaluated): then the sort, which is stable, would
  // leave them as they are.
  if (inOrder(written, parts)) return parts;
  const at = new Map<string, number>();
  written.forEach((d, i) => at.has(d.name) || at.set(d.name, i));
  return parts.sort((a, b) => (at.get(a.name) ?? Infinity) - (at.get(b.name) ?? Infinity));
}

/** Each part has the name written at its own index, and no name is written before its first part. */
function inOrder(written: Array<{ name: string }>, parts: Array<{ name: string }>): boolean {
  if (parts.length !== written.length) return false;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i].name;
    if (written[i].name !== name) return false;
    // A name written twice is placed where it is first written: ordered only if that is here.
    for (let j = 0; j < i; j++) if (written[j].name === name) return false;
  }
  return true;
}

/**
 * The disks' part of a VM's monthly price. Instance store has no price of its own (the instance's includes it):
 * a VM whose only disks are instance store pays nothing for disks, which is known, not missing.
 */
function disksMonthly(v: VmEval): number | undefined {
  const priced = [...v.disks, ...(v.unmodelled ?? [])];
  // Only where the catalog gives the machine an instance store: on one without (an error) nothing is known.
  const included = () =>
    !v.unavailable && (instanceStoreOf(v.catalog, v.machine) ?? unstatedInstanceStoreOf(v.catalog, v.machine)) !== undefined;
  if (!priced.length && v.spec.disks.length && v.spec.disks.every((d) => d.type === INSTANCE_STORE) && included()) return 0;
  return sumCosts(priced.map((d) => d.cost)).monthly;
}

function diskReport(d: DiskEval): DiskReport {
  const f = d.figures;
  const r: DiskReport = {
    name: d.spec.name,
    type: d.typeName,
    size_gib: r2(d.size_gib),
    read_iops: r0(d.figures.read_iops),
    write_iops: r0(d.figures.write_iops),
    // Instance store: AWS gives no throughput, so none is reported (the explanation says so).
    read_mibps: known(knownFigure(d, 'read_mibps')),
    write_mibps: known(knownFigure(d, 'write_mibps')),
    limited_by: {
      read_iops: f.by('read_iops'),
      write_iops: f.by('write_iops'),
      read_mibps: f.by('read_mibps'),
      write_mibps: f.by('write_mibps'),
    },
    explanation: {
      read_iops: f.why('read_iops'),
      write_iops: f.why('write_iops'),
      read_mibps: f.why('read_mibps'),
      write_mibps: f.why('write_mibps'),
    },
    monthly_cost: money(d.cost.monthly),
    monthly_cost_complete: d.cost.complete,
    cost_explanation: d.cost.why,
    vm_limit_known: d.vmLimitKnown,
    upper_bound: upperBound(d) ?? null,
    price_per_read_iops:
      d.cost.complete && d.cost.monthly !== undefined && d.figures.read_iops > 0
        ? Math.round((d.cost.monthly / d.figures.read_iops) * 1e5) / 1e5
        : null,
  };
  if (d.burst) r.burst = diskBurstReport(d.burst);
  return afterName(r, d.spec.resource_name);
}

function diskBurstReport(b: DiskBursts): NonNullable<DiskReport['burst']> {
  const out: NonNullable<DiskReport['burst']> = {};
  for (const m of METRICS) {
    const x = b[m];
    if (x)
      out[m] = {
        value: m.endsWith('iops') ? r0(x.value) : r1(x.value),
        seconds: Number.isFinite(x.seconds) ? r0(x.seconds) : null,
        ends: x.ends,
      };
  }
  return out;
}

function workloadBurstReport(w: WorkloadEval): WorkloadBurstReport | undefined {
  const b = w.burst;
  if (!b) return undefined;
  const summary = workloadBurstText(w)!;
  return {
    read_iops: r0(b.read_iops),
    write_iops: r0(b.write_iops),
    read_mibps: r1(b.read_mibps),
    write_mibps: r1(b.write_mibps),
    seconds: Number.isFinite(b.seconds) ? r0(b.seconds) : null,
    ends: b.ends,
    summary,
  };
}

function workloadReport(v: VmEval, w: WorkloadEval, region: string, minHeadroom?: number, suggestions = true): WorkloadReport {
  const r: WorkloadReport = {
    name: w.spec.name,
    disks: w.disks,
    target: w.spec.target,
    read_iops: r0(w.read_iops),
    write_iops: r0(w.write_iops),
    read_mibps: r1(w.read_mibps),
    write_mibps: r1(w.write_mibps),
    limited_by: w.limited_by,
    explanation: w.why,
    meets_target: w.meets_target ?? null,
    headroom: w.headroom === undefined || !Number.isFinite(w.headroom) ? null : headroomFigure(w.headroom, w.meets_target === false),
    upper_bound: w.upperBound ?? null,
    cpu_vcpus_needed: r1(w.cpu_vcpus_needed),
    queue_depth_needed: w.queue_depth_needed,
    suggestions: suggestions ? suggestionsReport(adviceFor(v, region, minHeadroom).workload(w.spec.name)) : {},
  };
  if (w.burst) r.burst = workloadBurstReport(w);
  return r;
}
