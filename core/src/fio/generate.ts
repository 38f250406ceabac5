/**
 * fio job files from a spec: the spec's own workloads plus the standard probes engineers run by hand (fill,
 * 1 MiB bandwidth, 4 KiB IOPS, 4 KiB latency at queue depth 4), each with the model's prediction beside it.
 *
 * Safe by default: jobs work on a test file under the disk's mount point. A job touches the raw block device
 * only when the disk names one and writing to it was allowed explicitly (`fio_destructive: true` on the disk,
 * or the caller's `destructive` option); the file then says, at the top and above every job, that it destroys
 * the data on that device.
 *
 * Pure: no file system. The CLI writes the files; the language server can offer the same text.
 *
 * This module holds what the generator produces and its entry point; the work is done by `jobs` (which jobs,
 * how deep), `targets` (where they write, how much), `render` (the file's text) and `syntax` (fio's spelling).
 */
import type { Analysis } from '../analyze';
import type { WorkloadEval } from '../model/types';
import { diskJobs, workloadJob, type Timing } from './jobs';
import { render } from './render';
import { safeName } from './syntax';
import { diskTarget, fitRegion, type Target } from './targets';

// Exported from this module before it was split; still offered here so that no import of it breaks.
export { DEFAULT_MOUNT_ROOT, FIO_TEST_FILE, isDevicePath, safeMountPoint } from './targets';
export { formatKib, safeName } from './syntax';

export interface FioPrediction {
  read_iops: number;
  write_iops: number;
  read_mibps: number;
  write_mibps: number;
  /** The limit that binds (the report's `limited_by` vocabulary). */
  limited_by: string;
  /** The model's sentence for it, naming the catalog table. */
  why: string;
}

export type FioJobKind = 'fill' | 'workload' | 'probe';
export type FioProbe = 'write-bw' | 'write-iops' | 'write-lat' | 'read-bw' | 'read-iops' | 'read-lat';

/** What `compare` needs to explain a gap between a measurement and the prediction. */
export interface FioJobContext {
  /** Network disks (the queue and CPU guidance applies); false for local SSD. */
  network: boolean;
  vcpus?: number;
  /** Free vCPUs the model wants for the predicted IOPS (network disks). */
  cpu_vcpus_needed: number;
  cpu_guidance: string;
  /** IOPS one outstanding I/O carries at the guidance's slow and fast end (Little's law). */
  iops_per_io: { low: number; high: number };
  queue_guidance: string;
  sequential: boolean;
  /** Set when the disk's figure is its share of a per-VM limit split with other disks of its type. */
  vm_share?: string;
  /** Set when the disk type can burst above its sustained figures. */
  burst?: string;
}

export interface FioJob {
  /** The job's section name, and its `jobname` in fio's JSON output. */
  name: string;
  rw: string;
  bs_kib: number;
  iodepth: number;
  numjobs: number;
  predicted: FioPrediction;
  kind: FioJobKind;
  probe?: FioProbe;
  /** The spec workload this job reproduces. */
  workload?: string;
  /** Disks the job works on. */
  disks: string[];
  /** Percentage of reads for mixed jobs (fio's rwmixread). */
  rwmixread?: number;
  /** Which figure to read the result by: operations for small blocks, bytes for large ones. */
  metric: 'iops' | 'mibps';
  /**
   * Total IOPS the job is expected to land between. Usually a point (the prediction); for a job whose queue
   * depth binds, the range Little's law gives at the guidance's 2.5 ms and 1.25 ms per I/O.
   */
  expected_iops: { low: number; high: number };
  /** Seconds the job is expected to take, ramp included. */
  seconds: number;
  context: FioJobContext;
}

export interface FioFile {
  vm: string;
  /** The disk the file tests; absent for a file of workloads that spread over all the VM's disks. */
  disk?: string;
  fileName: string;
  text: string;
  jobs: FioJob[];
  /** True when some job writes to a raw block device. */
  destructive: boolean;
  expectedSeconds: number;
}

export interface FioOptions {
  /** Only this VM. */
  vm?: string;
  /** Allow writing to every disk's `device` (as `fio_destructive: true` on each disk would). */
  destructive?: boolean;
  /** Seconds each timed job runs (fractions allowed); default 60, as in Google's benchmarking guide. */
  runtimeSeconds?: number;
  /** How the spec is referred to in the files' "compare" hint. */
  specName?: string;
  /** Size of every disk's test file or device region, KiB, in place of the spec's `fio_size` (short trials). */
  sizeKib?: number;
}

const DEFAULT_RUNTIME = 60;

/** One file per disk (its fill, its own workloads, the probes), and one for the workloads spread over several. */
export function generateFioJobs(analysis: Analysis, opts: FioOptions = {}): FioFile[] {
  const c = analysis.catalog;
  if (!c) return [];
  const runtime = opts.runtimeSeconds !== undefined && Number.isFinite(opts.runtimeSeconds) && opts.runtimeSeconds > 0 ? opts.runtimeSeconds : DEFAULT_RUNTIME;
  const ramp = Math.min(2, runtime / 10);
  const timing: Timing = { runtime, ramp };
  const out: FioFile[] = [];
  const used = new Set<string>();
  for (const e of analysis.vms) {
    if (opts.vm !== undefined && e.spec.name !== opts.vm) continue;
    const targets = new Map<string, Target>();
    for (const d of e.disks) targets.set(d.spec.name, diskTarget(d, opts));
    const perDisk = new Map<string, WorkloadEval[]>();
    const spread: WorkloadEval[] = [];
    for (const w of e.workloads) {
      const on = w.disks.length === 1 ? w.disks[0] : undefined;
      if (on !== undefined && targets.has(on)) perDisk.set(on, [...(perDisk.get(on) ?? []), w]);
      else if (w.disks.length) spread.push(w);
    }
    const names = new Set<string>();
    for (const d of e.disks) {
      const t = targets.get(d.spec.name)!;
      const jobs = diskJobs(c, e, t, perDisk.get(d.spec.name) ?? [], timing, names);
      out.push(render(c, e, fitRegion([t], jobs), jobs, timing, unique(used, `${safeName(e.spec.name)}-${safeName(d.spec.name)}.fio`), opts, d.spec.name));
    }
    if (spread.length) {
      const ts = spread[0].disks.map((n) => targets.get(n)).filter((t): t is Target => !!t);
      const jobs = spread.map((w) => workloadJob(c, e, ts, w, timing, names));
      out.push(render(c, e, fitRegion(ts, jobs), jobs, timing, unique(used, `${safeName(e.spec.name)}-all-disks.fio`), opts));
    }
  }
  return out;
}

function unique(used: Set<string>, name: string): string {
  let n = name;
  for (let i = 2; used.has(n); i++) n = name.replace(/\.fio$/, `-${i}.fio`);
  used.add(n);
  return n;
}
