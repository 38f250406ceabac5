/**
 * fio's measurements set against the predictions of the jobs `generateFioJobs` wrote: jobs matched by name,
 * measured vs predicted, their ratio, a verdict and, when they differ, the likely causes; the same as
 * diagnostics on the spec for the editor; and which VM and files a result belongs to.
 *
 * Pure: the caller reads the file. Reading fio's output is `fio-output`, the verdict's tolerance `verdict`, the
 * causes `causes`.
 */
import type { Analysis } from '../analyze';
import { keySpan, valueSpan } from '../document/yaml-tree';
import type { Diagnostic } from '../diagnostics';
import { fmt } from '../units';
import { aboveCauses, belowCauses, failureCauses, reportedError } from './causes';
import type { FioMeasurement } from './fio-output';
import type { FioFile, FioJob, FioJobKind, FioPrediction } from './types';
import { fmtRatio, verdictOf, type Verdict } from './verdict';

// Exported from this module before it was split; still offered here so that no import of it breaks.
export { FioResultError, parseFioOutput, parseFioResult, type FioMeasurement } from './fio-output';
export { TOLERANCE, type Verdict } from './verdict';

export interface FioFigures {
  read_iops: number;
  write_iops: number;
  read_mibps: number;
  write_mibps: number;
}

export interface Comparison {
  job: string;
  kind?: FioJobKind;
  workload?: string;
  disks: string[];
  /** The figure the verdict is read from. */
  metric: 'iops' | 'mibps';
  measured?: FioFigures & {
    read_lat_ms?: number;
    write_lat_ms?: number;
    read_p99_ms?: number;
    write_p99_ms?: number;
    cpu_pct?: number;
    runtime_ms?: number;
    error: number;
  };
  predicted?: FioPrediction;
  /** The range (in `metric` units, both directions together) the measurement was expected in. */
  expected?: { low: number; high: number };
  /** Measured ÷ predicted, both directions together. */
  ratio?: number;
  verdict: Verdict;
  /** Likely causes when the verdict is not "within", most likely first. */
  causes: string[];
  /** One line: what was measured against what. */
  summary: string;
}

/**
 * Matches measurements to predicted jobs by name. Predicted jobs that fio did not report are "missing";
 * reported jobs without a prediction are "unmatched". Order: predicted jobs in file order, then the rest.
 */
export function compareResults(predictions: FioFile[] | FioJob[], measurements: FioMeasurement[]): Comparison[] {
  const jobs: FioJob[] = predictions.flatMap((p) => ('jobs' in p && 'text' in p ? (p as FioFile).jobs : [p as FioJob]));
  const pool = new Map<string, FioMeasurement[]>();
  for (const m of measurements) {
    const same = pool.get(m.name);
    if (same) same.push(m);
    else pool.set(m.name, [m]);
  }
  const out: Comparison[] = [];
  const fillFailedOrMissing = new Set<string>();
  for (const j of jobs) {
    if (j.kind !== 'fill') continue;
    const m = pool.get(j.name)?.[0];
    if (!m || m.failed) for (const d of j.disks) fillFailedOrMissing.add(d);
  }
  for (const j of jobs) {
    const list = pool.get(j.name);
    const m = list?.shift();
    out.push(m ? compareOne(j, m, fillFailedOrMissing) : missing(j));
  }
  for (const list of pool.values()) for (const m of list) out.push(unmatched(m));
  return out;
}

/** One job: the figure its metric names (operations or bytes, both directions together) against the range expected. */
function compareOne(j: FioJob, m: FioMeasurement, unfilled: Set<string>): Comparison {
  const p = j.predicted;
  const base = { job: j.name, kind: j.kind, workload: j.workload, disks: j.disks, metric: j.metric, measured: measuredOf(m), predicted: p };
  const unit = j.metric === 'iops' ? 'IOPS' : 'MiB/s';
  const got = j.metric === 'iops' ? m.read_iops + m.write_iops : m.read_mibps + m.write_mibps;
  const want = j.metric === 'iops' ? p.read_iops + p.write_iops : p.read_mibps + p.write_mibps;
  const toMetric = (iops: number) => (j.metric === 'iops' ? iops : (iops * j.bs_kib) / 1024);
  const expected = { low: toMetric(j.expected_iops.low), high: toMetric(j.expected_iops.high) };
  if (m.failed) {
    return { ...base, expected, verdict: 'failed', causes: failureCauses(j, m), summary: `${j.name}: ${reportedError(m.error)}` };
  }
  const ratio = want > 0 ? got / want : got > 0 ? Infinity : 1;
  const verdict: Verdict = verdictOf(got, expected);
  const range = expected.low < expected.high ? ` (expected ${fmt(expected.low)}–${fmt(expected.high)})` : '';
  const summary = `${j.name}: measured ${fmt(got)} ${unit} against ${fmt(want)} predicted${range}, ${fmtRatio(ratio)}`;
  const causes = verdict === 'below' ? belowCauses(j, m) : verdict === 'above' ? aboveCauses(j, m, unfilled) : [];
  // A job runs alone; where it measured more than the workload's share with the VM's other workloads at once, the
  // share is named: the run does not show what the workload gets in production.
  const shared = j.context.shared_iops;
  const overShare = shared !== undefined && j.context.vm_share && m.read_iops + m.write_iops > shared * 1.001;
  return { ...base, expected, ratio, verdict, causes, summary: overShare ? `${summary} — ${j.context.vm_share}` : summary };
}

/** The figures a comparison shows of a measurement (its options and bookkeeping left out). */
function measuredOf(m: FioMeasurement): NonNullable<Comparison['measured']> {
  return {
    read_iops: m.read_iops,
    write_iops: m.write_iops,
    read_mibps: m.read_mibps,
    write_mibps: m.write_mibps,
    read_lat_ms: m.read_lat_ms,
    write_lat_ms: m.write_lat_ms,
    read_p99_ms: m.read_p99_ms,
    write_p99_ms: m.write_p99_ms,
    cpu_pct: m.cpu_pct,
    runtime_ms: m.runtime_ms,
    error: m.error,
  };
}

function missing(j: FioJob): Comparison {
  return {
    job: j.name,
    kind: j.kind,
    workload: j.workload,
    disks: j.disks,
    metric: j.metric,
    predicted: j.predicted,
    verdict: 'missing',
    causes: ['fio did not report this job: the run stopped before it, it was run with --section for other jobs, or the file was edited'],
    summary: `${j.name}: not in the fio result`,
  };
}

function unmatched(m: FioMeasurement): Comparison {
  const iops = m.read_iops + m.write_iops;
  return {
    job: m.name,
    disks: [],
    metric: 'iops',
    measured: measuredOf(m),
    verdict: m.failed ? 'failed' : 'unmatched',
    // The verdict says "no prediction" (or that the job failed): the summary and the cause say the rest, once.
    causes: [m.failed ? reportedError(m.error) : 'not a job storage-perf generated for this VM (check --vm and the job names)'],
    summary: `${m.name}: measured ${fmt(iops)} IOPS, ${fmt(m.read_mibps + m.write_mibps, 1)} MiB/s`,
  };
}

// ---- the editor: comparisons as diagnostics on the spec --------------------------------------------------

/**
 * Comparisons as diagnostics: a workload's on its name, a probe's or fill's on its disk's name. "Within" is
 * information; below, above and failed are warnings.
 */
export function comparisonDiagnostics(analysis: Analysis, vm: string, comparisons: Comparison[]): Diagnostic[] {
  const e = analysis.vms.find((v) => v.spec.name === vm);
  if (!e) return [];
  const tree = analysis.parsed.tree;
  const out: Diagnostic[] = [];
  for (const cmp of comparisons) {
    if (cmp.verdict === 'unmatched' || cmp.verdict === 'missing') continue;
    let path: string | undefined;
    if (cmp.workload !== undefined) path = e.spec.workloads.find((w) => w.name === cmp.workload)?.path;
    else if (cmp.disks.length === 1) path = e.spec.disks.find((d) => d.name === cmp.disks[0])?.path;
    if (!path) continue;
    const span = valueSpan(tree, `${path}/name`) ?? keySpan(tree, path);
    if (!span) continue;
    const word = cmp.verdict === 'within' ? 'within expectation' : cmp.verdict === 'failed' ? 'failed' : `${cmp.verdict} the prediction`;
    const cause = cmp.causes.length ? `; likely: ${cmp.causes[0]}` : '';
    out.push({
      severity: cmp.verdict === 'within' ? 'information' : 'warning',
      code: 'fio-measurement',
      message: `fio ${cmp.summary} — ${word}${cause}`,
      span: { start: span.start, end: span.end },
      path: `${path}/name`,
    });
  }
  return out;
}

// ---- which VM and files a result belongs to --------------------------------------------------------------

/**
 * The files a result was produced from: those with at least one job the result reports (a run is usually one
 * file), or all of them when it reports none of their jobs. Keeps the other files' jobs out of "missing".
 */
export function filesForResult(files: FioFile[], measurements: FioMeasurement[]): FioFile[] {
  const names = new Set(measurements.map((m) => m.name));
  const hit = files.filter((f) => f.jobs.some((j) => names.has(j.name)));
  return hit.length ? hit : files;
}

/**
 * The VM a fio result was measured on: the only one, else the one whose generated job names the result's
 * jobs match most. Undefined when several VMs tie (none matching counts as a tie): the caller asks for --vm.
 */
export function vmForResult(analysis: Analysis, measurements: FioMeasurement[], generate: (vm: string) => FioFile[]): string | undefined {
  if (analysis.vms.length === 1) return analysis.vms[0].spec.name;
  const names = new Set(measurements.map((m) => m.name));
  const scored = analysis.vms.map((v) => ({
    vm: v.spec.name,
    hits: generate(v.spec.name)
      .flatMap((f) => f.jobs)
      .filter((j) => names.has(j.name)).length,
  }));
  scored.sort((a, b) => b.hits - a.hits);
  if (!scored.length || scored[0].hits === 0 || (scored.length > 1 && scored[1].hits === scored[0].hits)) return undefined;
  return scored[0].vm;
}
