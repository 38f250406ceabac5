/**
 * fio's JSON output (`--output-format=json`) read back and set against the predictions of the jobs
 * `generateFioJobs` wrote: measured vs predicted, their ratio, a verdict and, when they differ, the likely
 * causes — from the model's own guidance and from what the providers and engineers have documented.
 *
 * Pure: the caller reads the file.
 */
import type { Analysis } from '../analyze';
import { keySpan, valueSpan } from '../document/parse';
import type { Diagnostic } from '../diagnostics';
import { fmt, formatBlock } from '../units';
import type { FioFile, FioJob, FioJobKind, FioPrediction } from './generate';

/** One job of a fio run: its clones (numjobs without group_reporting) summed. */
export interface FioMeasurement {
  name: string;
  groupid?: number;
  /** fio entries merged into this one (clones reported one by one). */
  entries: number;
  /** fio's error number for the job; 0 when it ran cleanly. */
  error: number;
  failed: boolean;
  read_iops: number;
  write_iops: number;
  /** MiB/s (fio reports KiB/s). */
  read_mibps: number;
  write_mibps: number;
  /** Mean completion latency (fio's clat), milliseconds. */
  read_lat_ms?: number;
  write_lat_ms?: number;
  runtime_ms?: number;
  /** usr + sys CPU of the job's threads, percent. */
  cpu_pct?: number;
  /** The job's options as fio echoes them: the global section's, overridden by the job's own. */
  options: Record<string, string>;
}

export class FioResultError extends Error {}

/** Text of a fio run → its JSON value. Tolerates fio's own lines ("fio: ...") before or around the JSON. */
export function parseFioOutput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // fio prints errors to stdout when no --output is given: keep from the first line that opens the object.
    const m = /(^|\n)\{\s*\n/.exec(text);
    const end = text.lastIndexOf('}');
    if (!m || end < 0) throw new FioResultError('not fio JSON output (run fio with --output-format=json)');
    const body = text.slice(m.index + m[1].length, end + 1).split('\n').filter((l) => !/^fio: /.test(l)).join('\n');
    try {
      return JSON.parse(body);
    } catch (e) {
      throw new FioResultError(`not fio JSON output: ${(e as Error).message}`);
    }
  }
}

/** fio's JSON (3.x; 2.x latency fields too) → one measurement per job name and group. */
export function parseFioResult(json: unknown): FioMeasurement[] {
  if (!isObject(json)) throw new FioResultError('not fio JSON output: expected an object');
  const list = Array.isArray(json.jobs) ? json.jobs : Array.isArray(json.client_stats) ? json.client_stats : undefined;
  if (!list) throw new FioResultError('not fio JSON output: no "jobs" list');
  const global = stringMap(json['global options']);
  const byKey = new Map<string, Acc>();
  for (const raw of list) {
    if (!isObject(raw) || typeof raw.jobname !== 'string') continue;
    if (raw.jobname === 'All clients') continue; // client/server mode's aggregate
    const groupid = typeof raw.groupid === 'number' ? raw.groupid : undefined;
    const key = `${raw.jobname}\u0000${groupid ?? ''}`;
    let acc = byKey.get(key);
    if (!acc) {
      acc = newAcc(raw.jobname, groupid, { ...global, ...stringMap(raw['job options']) });
      byKey.set(key, acc);
    }
    add(acc, raw);
  }
  return [...byKey.values()].map(finish);
}

interface Side { iops: number; bytes_s: number; lat_weighted: number; lat_weight: number; runtime: number }
interface Acc {
  name: string; groupid?: number; options: Record<string, string>; entries: number; error: number;
  read: Side; write: Side; cpu: number[];
}

function newAcc(name: string, groupid: number | undefined, options: Record<string, string>): Acc {
  const side = (): Side => ({ iops: 0, bytes_s: 0, lat_weighted: 0, lat_weight: 0, runtime: 0 });
  return { name, groupid, options, entries: 0, error: 0, read: side(), write: side(), cpu: [] };
}

function add(acc: Acc, raw: Record<string, unknown>): void {
  acc.entries++;
  const err = num(raw.error);
  if (err && !acc.error) acc.error = err;
  for (const dir of ['read', 'write'] as const) {
    const s = raw[dir];
    if (!isObject(s)) continue;
    const side = acc[dir];
    const iops = num(s.iops) ?? 0;
    side.iops += iops;
    const bytes = num(s.bw_bytes) ?? (num(s.bw) !== undefined ? num(s.bw)! * 1024 : 0);
    side.bytes_s += bytes;
    const lat = latencyMs(s);
    const weight = num(s.total_ios) ?? iops;
    if (lat !== undefined && weight && weight > 0) {
      side.lat_weighted += lat * weight;
      side.lat_weight += weight;
    }
    side.runtime = Math.max(side.runtime, num(s.runtime) ?? 0);
  }
  const usr = num(raw.usr_cpu);
  const sys = num(raw.sys_cpu);
  if (usr !== undefined || sys !== undefined) acc.cpu.push((usr ?? 0) + (sys ?? 0));
}

/** Mean completion latency: clat_ns (fio 3), clat in µs (fio 2), or total latency when clat is absent. */
function latencyMs(s: Record<string, unknown>): number | undefined {
  const mean = (o: unknown) => (isObject(o) ? num(o.mean) : undefined);
  const ns = mean(s.clat_ns) ?? mean(s.lat_ns);
  if (ns !== undefined) return ns / 1e6;
  const us = mean(s.clat) ?? mean(s.lat);
  return us !== undefined ? us / 1e3 : undefined;
}

function finish(a: Acc): FioMeasurement {
  const mib = 1024 * 1024;
  const lat = (s: Side) => (s.lat_weight > 0 ? s.lat_weighted / s.lat_weight : undefined);
  const runtime = Math.max(a.read.runtime, a.write.runtime);
  const m: FioMeasurement = {
    name: a.name, groupid: a.groupid, entries: a.entries, error: a.error, failed: a.error !== 0,
    read_iops: a.read.iops, write_iops: a.write.iops,
    read_mibps: a.read.bytes_s / mib, write_mibps: a.write.bytes_s / mib,
    options: a.options,
  };
  const rl = lat(a.read);
  const wl = lat(a.write);
  if (rl !== undefined) m.read_lat_ms = rl;
  if (wl !== undefined) m.write_lat_ms = wl;
  if (runtime > 0) m.runtime_ms = runtime;
  if (a.cpu.length) m.cpu_pct = a.cpu.reduce((s, x) => s + x, 0) / a.cpu.length;
  return m;
}

// ---- comparison ------------------------------------------------------------------------------------------

export type Verdict = 'within' | 'below' | 'above' | 'failed' | 'missing' | 'unmatched';

export interface FioFigures { read_iops: number; write_iops: number; read_mibps: number; write_mibps: number }

export interface Comparison {
  job: string;
  kind?: FioJobKind;
  workload?: string;
  disks: string[];
  /** The figure the verdict is read from. */
  metric: 'iops' | 'mibps';
  measured?: FioFigures & { read_lat_ms?: number; write_lat_ms?: number; cpu_pct?: number; runtime_ms?: number; error: number };
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

/** How far a measurement may stray from the prediction and still be "within expectation". */
export const TOLERANCE = 0.1;

/**
 * Matches measurements to predicted jobs by name. Predicted jobs that fio did not report are "missing";
 * reported jobs without a prediction are "unmatched". Order: predicted jobs in file order, then the rest.
 */
export function compareResults(predictions: FioFile[] | FioJob[], measurements: FioMeasurement[]): Comparison[] {
  const jobs: FioJob[] = predictions.flatMap((p) => ('jobs' in p && 'text' in p ? (p as FioFile).jobs : [p as FioJob]));
  const pool = new Map<string, FioMeasurement[]>();
  for (const m of measurements) pool.set(m.name, [...(pool.get(m.name) ?? []), m]);
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

function compareOne(j: FioJob, m: FioMeasurement, unfilled: Set<string>): Comparison {
  const p = j.predicted;
  const measured = {
    read_iops: m.read_iops, write_iops: m.write_iops, read_mibps: m.read_mibps, write_mibps: m.write_mibps,
    read_lat_ms: m.read_lat_ms, write_lat_ms: m.write_lat_ms, cpu_pct: m.cpu_pct, runtime_ms: m.runtime_ms, error: m.error,
  };
  const base = { job: j.name, kind: j.kind, workload: j.workload, disks: j.disks, metric: j.metric, measured, predicted: p };
  const unit = j.metric === 'iops' ? 'IOPS' : 'MiB/s';
  const got = j.metric === 'iops' ? m.read_iops + m.write_iops : m.read_mibps + m.write_mibps;
  const want = j.metric === 'iops' ? p.read_iops + p.write_iops : p.read_mibps + p.write_mibps;
  const toMetric = (iops: number) => (j.metric === 'iops' ? iops : (iops * j.bs_kib) / 1024);
  const expected = { low: toMetric(j.expected_iops.low), high: toMetric(j.expected_iops.high) };
  if (m.failed) {
    return { ...base, expected, verdict: 'failed', causes: failureCauses(j, m), summary: `${j.name}: fio reported error ${m.error}${errnoName(m.error) ? ` (${errnoName(m.error)})` : ''}` };
  }
  const ratio = want > 0 ? got / want : got > 0 ? Infinity : 1;
  const verdict: Verdict = got < expected.low * (1 - TOLERANCE) ? 'below' : got > expected.high * (1 + TOLERANCE) ? 'above' : 'within';
  const range = expected.low < expected.high ? ` (expected ${fmt(expected.low)}–${fmt(expected.high)})` : '';
  const summary = `${j.name}: measured ${fmt(got)} ${unit} against ${fmt(want)} predicted${range}, ${fmtRatio(ratio)}`;
  const causes = verdict === 'below' ? belowCauses(j, m) : verdict === 'above' ? aboveCauses(j, m, unfilled) : [];
  return { ...base, expected, ratio, verdict, causes, summary };
}

function missing(j: FioJob): Comparison {
  return {
    job: j.name, kind: j.kind, workload: j.workload, disks: j.disks, metric: j.metric, predicted: j.predicted, verdict: 'missing',
    causes: ['fio did not report this job: the run stopped before it, it was run with --section for other jobs, or the file was edited'],
    summary: `${j.name}: not in the fio result`,
  };
}

function unmatched(m: FioMeasurement): Comparison {
  const iops = m.read_iops + m.write_iops;
  return {
    job: m.name, disks: [], metric: 'iops',
    measured: { read_iops: m.read_iops, write_iops: m.write_iops, read_mibps: m.read_mibps, write_mibps: m.write_mibps, read_lat_ms: m.read_lat_ms, write_lat_ms: m.write_lat_ms, cpu_pct: m.cpu_pct, runtime_ms: m.runtime_ms, error: m.error },
    verdict: m.failed ? 'failed' : 'unmatched',
    causes: [m.failed ? `fio reported error ${m.error}${errnoName(m.error) ? ` (${errnoName(m.error)})` : ''}` : 'no prediction: not a job storage-perf generated for this VM (check --vm and the job names)'],
    summary: `${m.name}: measured ${fmt(iops)} IOPS, ${fmt(m.read_mibps + m.write_mibps, 1)} MiB/s; no prediction`,
  };
}

function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}×` : '∞×';
}

const ERRNO: Record<number, [string, string]> = {
  1: ['EPERM', 'not permitted: run fio as a user who may open the file or device'],
  2: ['ENOENT', 'no such file or directory: is the disk mounted at the job\'s directory?'],
  5: ['EIO', 'an I/O error from the disk or the file system: check the kernel log (dmesg)'],
  13: ['EACCES', 'permission denied: run fio as a user who may write to the directory or device'],
  16: ['EBUSY', 'device busy: something else holds it (mounted, or part of a RAID)'],
  22: ['EINVAL', 'invalid argument: with direct=1 the block size and offsets must be multiples of the device\'s sector size (512 bytes or 4 KiB)'],
  28: ['ENOSPC', 'no space left: the test file does not fit; lower fio_size'],
  30: ['EROFS', 'the file system is mounted read-only'],
  95: ['EOPNOTSUPP', 'not supported: the file system refuses direct I/O (tmpfs does); use a disk-backed directory'],
};

function errnoName(n: number): string | undefined {
  return ERRNO[n]?.[0];
}

function failureCauses(j: FioJob, m: FioMeasurement): string[] {
  const known = ERRNO[m.error];
  const out = [known ? `${known[0]}: ${known[1]}` : `fio error ${m.error}: see fio's messages on its standard error`];
  if (m.error === 22 && Math.round(j.bs_kib * 1024) % 512 !== 0) out.unshift(`the block size ${formatBlock(j.bs_kib)} is not a multiple of 512 bytes, which direct I/O needs`);
  return out;
}

/** In-flight I/Os from the options fio echoed, else from the job as generated. */
function inFlight(j: FioJob, m: FioMeasurement): number {
  const d = Number(m.options.iodepth);
  const n = Number(m.options.numjobs);
  return (Number.isFinite(d) && d > 0 ? d : j.iodepth) * (Number.isFinite(n) && n > 0 ? n : j.numjobs);
}

function belowCauses(j: FioJob, m: FioMeasurement): string[] {
  const out: string[] = [];
  const c = j.context;
  const q = inFlight(j, m);
  const total = m.read_iops + m.write_iops;
  const want = j.predicted.read_iops + j.predicted.write_iops;
  const lat = weightedLatency(m);
  const slowMs = 1000 / c.iops_per_io.low;
  // Latency says something about the disk only for small I/O; large blocks spend their time transferring.
  const smallBlocks = j.bs_kib < 64;
  if (c.network && q * c.iops_per_io.low < want) {
    out.push(`queue depth: ${fmt(q)} I/Os in flight carry ${fmt(q * c.iops_per_io.low)}–${fmt(q * c.iops_per_io.high)} IOPS at 2.5–1.25 ms each (Little's law), short of the ${fmt(want)} predicted; the guidance is ${c.queue_guidance}, so ${fmt(Math.ceil(want / c.iops_per_io.high))}–${fmt(Math.ceil(want / c.iops_per_io.low))}`);
  }
  if (lat !== undefined && c.network && smallBlocks && lat > slowMs) {
    out.push(`throttling: each I/O took ${fmt(lat, 2)} ms on average (fio's completion latency, with ${fmt(q)} in flight at ${fmt(total)} IOPS), longer than the guidance's ${fmt(slowMs, 1)} ms: the disk or the VM held I/O back at a limit lower than the model's. Yandex describes it: over a limit, operations are suspended and wait, and iowait grows; Google: a saturated persistent disk pushes back on incoming I/O. Check what else used the disk or the VM's per-VM limit during the run`);
  } else if (lat !== undefined && c.network && smallBlocks && q * (1000 / lat) < want * (1 - TOLERANCE)) {
    out.push(`queue depth: at the ${fmt(lat, 2)} ms each I/O took, ${fmt(q)} in flight can carry only ${fmt(q * (1000 / lat))} IOPS; more iodepth or numjobs would raise it`);
  }
  if (m.cpu_pct !== undefined && m.cpu_pct >= 80) {
    out.push(`CPU: fio's threads were busy ${fmt(m.cpu_pct)}% of the time, so the CPU, not the disk, set the pace: add numjobs on a machine with free vCPUs`);
  }
  if (c.network && c.vcpus !== undefined && c.cpu_vcpus_needed > c.vcpus) {
    out.push(`CPU: the predicted ${fmt(want)} IOPS want about ${fmt(c.cpu_vcpus_needed, 1)} free vCPUs (${c.cpu_guidance}); the machine has ${c.vcpus}`);
  } else if (c.network && c.vcpus !== undefined && c.cpu_vcpus_needed > c.vcpus / 2) {
    out.push(`CPU: the predicted ${fmt(want)} IOPS want about ${fmt(c.cpu_vcpus_needed, 1)} free vCPUs of the machine's ${c.vcpus} (${c.cpu_guidance}); anything else running competes for them`);
  }
  if (m.runtime_ms !== undefined && m.runtime_ms < 10_000) {
    out.push(`a short run (${fmt(m.runtime_ms / 1000, 1)} s): start-up and the provider's rate-limit windows weigh on a few seconds; run a minute (--runtime 60)`);
  }
  if (c.burst) out.push(`bursting: if burst credits were being spent before the run and ran out during it, the disk fell back to its sustained level — ${c.burst}`);
  if (!out.length || out.every((s) => s.startsWith('a short run'))) {
    out.push('throttling or contention: another disk or process shared the VM\'s per-VM limit or network during the run, or the disk is smaller or slower than the spec says');
  }
  out.push('the run may not be on the spec\'s VM and disk: check the machine type and that the test file is on the disk the job names');
  return out;
}

function aboveCauses(j: FioJob, m: FioMeasurement, unfilled: Set<string>): string[] {
  const out: string[] = [];
  const c = j.context;
  if (c.sequential && j.bs_kib < 64) {
    out.push(`I/O merges: the kernel merges adjacent small sequential I/Os, so fio counts more operations than the disk performs (Google Cloud support measured 63.6k IOPS of 1 KiB sequential reads on a 9,000 IOPS pd-ssd, while the disk saw 9,000); compare bytes, or use random I/O to measure IOPS`);
  }
  if (m.options.direct !== undefined && m.options.direct !== '1') {
    out.push('caching: the job ran with direct=0, so the page cache answered; run with direct=1');
  } else {
    out.push('caching: something between fio and the disk answered — a test file small enough to stay in a cache, a RAID or controller cache, or buffered I/O');
  }
  if (j.predicted.read_iops > 0 && j.disks.some((d) => unfilled.has(d))) {
    out.push('never-written blocks: the fill job did not run (or failed), and reads of blocks never written can be answered without reading media (Google fills the disk before read tests for this reason)');
  }
  if (c.vm_share) out.push(`the per-VM limit: ${c.vm_share}`);
  if (c.burst) out.push(`bursting: ${c.burst}`);
  if (j.expected_iops.low < j.expected_iops.high) {
    const lat = weightedLatency(m);
    if (lat !== undefined) out.push(`low latency: each I/O took ${fmt(lat, 2)} ms, faster than the 1.25 ms the guidance assumes, so ${fmt(inFlight(j, m))} in flight carried more`);
  }
  out.push('the run may not be on the spec\'s VM and disk: check the machine type and that the test file is on the disk the job names');
  return out;
}

function weightedLatency(m: FioMeasurement): number | undefined {
  const parts: Array<[number, number]> = [];
  if (m.read_lat_ms !== undefined && m.read_iops > 0) parts.push([m.read_lat_ms, m.read_iops]);
  if (m.write_lat_ms !== undefined && m.write_iops > 0) parts.push([m.write_lat_ms, m.write_iops]);
  const w = parts.reduce((s, [, x]) => s + x, 0);
  return w > 0 ? parts.reduce((s, [l, x]) => s + l * x, 0) / w : undefined;
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

// ---- helpers ----------------------------------------------------------------------------------------------

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) return out;
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
  return out;
}

/**
 * The files a result was produced from: those with at least one job the result reports (a run is usually one
 * file), or all of them when it reports none of their jobs. Keeps the other files' jobs out of "missing".
 */
export function filesForResult(files: FioFile[], measurements: FioMeasurement[]): FioFile[] {
  const names = new Set(measurements.map((m) => m.name));
  const hit = files.filter((f) => f.jobs.some((j) => names.has(j.name)));
  return hit.length ? hit : files;
}

// ---- which VM a result belongs to -------------------------------------------------------------------------

/**
 * The VM a fio result was measured on: the only one, else the one whose generated job names the result's
 * jobs match most. Undefined when several VMs tie (none matching counts as a tie): the caller asks for --vm.
 */
export function vmForResult(analysis: Analysis, measurements: FioMeasurement[], generate: (vm: string) => FioFile[]): string | undefined {
  if (analysis.vms.length === 1) return analysis.vms[0].spec.name;
  const names = new Set(measurements.map((m) => m.name));
  const scored = analysis.vms.map((v) => ({ vm: v.spec.name, hits: generate(v.spec.name).flatMap((f) => f.jobs).filter((j) => names.has(j.name)).length }));
  scored.sort((a, b) => b.hits - a.hits);
  if (!scored.length || scored[0].hits === 0 || (scored.length > 1 && scored[1].hits === scored[0].hits)) return undefined;
  return scored[0].vm;
}
