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
 */
import type { Analysis } from '../analyze';
import type { Catalog } from '../catalog';
import { evaluateWorkload } from '../model/workload';
import type { DiskEval, VmEval, WorkloadEval } from '../model/types';
import type { WorkloadSpec } from '../document/types';
import { fmt, formatBlock } from '../units';

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

/** Name of the test file each disk's jobs create under its mount point. */
export const FIO_TEST_FILE = 'storage-perf.fio-test';
/** Mount points when the spec gives none, as in Google's guide (`/mnt/disks/[MNT_DIR]`). */
export const DEFAULT_MOUNT_ROOT = '/mnt/disks';
const DEFAULT_RUNTIME = 60;
const MAX_DEFAULT_FILE_KIB = 10 * 1024 * 1024; // 10 GiB
const GIB_KIB = 1024 * 1024;
const MIB_KIB = 1024;
/** Local SSD: the provider's own recipe runs 4 KiB jobs at iodepth 128 (Google's local SSD benchmark). */
const LOCAL_SSD_IODEPTH = 128;
/** Latency jobs: queue depth 4, as in Google's guide, lower where 4 would already reach the limit. */
const LATENCY_DEPTH = 4;

const DATA_LOSS = [
  'WARNING: this file writes to raw block devices and DESTROYS THE DATA on them.',
  "Google's benchmarking guide says of the same commands: \"Running this command causes data loss on the",
  'second device. We strongly recommend using a throwaway VM and disk.\" Run it only on such a VM and disk.',
];

interface Target {
  disk: DiskEval;
  mode: 'file' | 'device';
  /** The test file's directory (file mode). */
  directory?: string;
  /** The device (device mode). */
  device?: string;
  /** The region fio works on, KiB. */
  regionKib: number;
  /** Device mode without fio_size: fio takes the whole device. */
  wholeDevice: boolean;
  notes: string[];
}

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
    for (const d of e.disks) targets.set(d.spec.name, target(d, opts));
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

interface Timing { runtime: number; ramp: number }

// ---- where the jobs write ----------------------------------------------------------------------------------

function target(d: DiskEval, opts: FioOptions): Target {
  const s = d.spec;
  const notes: string[] = [];
  const diskKib = Math.max(MIB_KIB, Math.floor(d.size_gib * GIB_KIB));
  const device = s.device !== undefined && isDevicePath(s.device) ? s.device : undefined;
  if (s.device !== undefined && device === undefined) notes.push(`device '${oneLine(s.device)}' is not a block device path under /dev; it is ignored.`);
  const allowed = s.fio_destructive === true || opts.destructive === true;
  const fioSize = opts.sizeKib !== undefined && Number.isFinite(opts.sizeKib) && opts.sizeKib > 0 ? opts.sizeKib : s.fio_size_kib;
  if (device && allowed) {
    const region = fioSize !== undefined ? Math.min(Math.floor(fioSize), diskKib) : diskKib;
    if (/^\/dev\/(sda|vda|nvme0n1|xvda)$/.test(device)) notes.push(`${device} is usually the boot disk: make sure it is the data disk '${s.name}'.`);
    return { disk: d, mode: 'device', device, regionKib: Math.max(1, region), wholeDevice: fioSize === undefined, notes };
  }
  if (device) {
    notes.push(`The disk's device ${device} is not used: writing to it would destroy its data. Set fio_destructive: true on the disk, or pass --destructive, to test the raw device; jobs use a test file instead.`);
  }
  if (s.fio_destructive && !device) notes.push('fio_destructive is set but the disk names no device: jobs use a test file.');
  let directory = `${DEFAULT_MOUNT_ROOT}/${safeName(s.name)}`;
  if (s.mount_point !== undefined) {
    const m = safeMountPoint(s.mount_point);
    if (m) directory = m;
    else notes.push(`mount_point '${oneLine(s.mount_point)}' is not a usable directory (absolute, outside /dev, no '$' or '..'); using ${directory}.`);
  } else {
    notes.push(`No mount_point in the spec: assuming the disk is mounted at ${directory}.`);
  }
  let region = fioSize !== undefined ? Math.floor(fioSize) : Math.min(Math.floor(diskKib / 2), MAX_DEFAULT_FILE_KIB);
  if (region > diskKib) {
    notes.push(`fio_size is larger than the disk; the test file is held to the disk's size.`);
    region = diskKib;
  }
  return { disk: d, mode: 'file', directory, regionKib: Math.max(1, region), wholeDevice: false, notes };
}

/** A block device path: /dev/<something>, no control characters. */
export function isDevicePath(p: string): boolean {
  return /^\/dev\/[^/]/.test(p) && !/[\x00-\x1f\x7f]/.test(p);
}

/** The mount point normalised, or undefined when it is relative, under /dev, or holds `$` (fio expands ${VAR}). */
export function safeMountPoint(p: string): string | undefined {
  if (!p.startsWith('/') || /[\x00-\x1f\x7f$]/.test(p)) return undefined;
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return undefined;
    parts.push(seg);
  }
  const norm = '/' + parts.join('/');
  if (norm === '/dev' || norm.startsWith('/dev/')) return undefined;
  return norm;
}

// ---- the jobs ----------------------------------------------------------------------------------------------

function diskJobs(c: Catalog, e: VmEval, t: Target, workloads: WorkloadEval[], timing: Timing, names: Set<string>): FioJob[] {
  const d = t.disk;
  const network = d.type.model !== 'devices';
  const n = safeName(d.spec.name);
  const jobs: FioJob[] = [];
  const probe = (name: string, w: Omit<WorkloadSpec, 'path' | 'target'>, iodepth: number, numjobs: number, kind: FioJobKind, p?: FioProbe) => {
    const spec: WorkloadSpec = { ...w, path: `${e.spec.path}/fio/${name}`, target: {} };
    const ev = evaluateWorkload(c, spec, [d]);
    return makeJob(c, e, [t], name, spec, ev, iodepth, numjobs, kind, p, timing);
  };

  // 1. Fill: write every block of the region once. Persistent disk reads from never-written blocks have their
  //    own latency profile (Google's guide fills before any read test). Google's PD recipe: 128 KiB random
  //    writes at iodepth 64; its local SSD recipe: one sequential 1 MiB pass.
  if (network) jobs.push(probe(`fill@${n}`, { name: 'fill', pattern: 'random', block_kib: 128, read_ratio: 0, queue_depth: 64 }, 64, 1, 'fill'));
  else jobs.push(probe(`fill@${n}`, { name: 'fill', pattern: 'sequential', block_kib: 1024, read_ratio: 0 }, c.queue.max_useful_depth, 1, 'fill'));

  // 2. The spec's own workloads on this disk.
  for (const w of workloads) jobs.push(workloadJob(c, e, [t], w, timing, names));

  // 3. The standard probes, in the order of Google's guide: writes first, then reads.
  for (const dir of ['write', 'read'] as const) {
    const rho = dir === 'read' ? 1 : 0;
    // Bandwidth: large sequential blocks, deep queues, several streams each in its own slice (offset_increment).
    // Blocks of 1 MiB (Google's recipe), or the provider's own size for full bandwidth where larger (Yandex: 4 MB).
    const bwKib = Math.max(1024, c.io.throughput_min_kib);
    const bwGuess = evaluateWorkload(c, { name: 'bw', path: '', pattern: 'sequential', block_kib: bwKib, read_ratio: rho, target: {} }, [d]);
    const bwJobs = bwGuess.read_mibps + bwGuess.write_mibps > 1000 ? 8 : 4;
    jobs.push(probe(`${dir}-bw@${n}`, { name: 'bw', pattern: 'sequential', block_kib: bwKib, read_ratio: rho, queue_depth: c.queue.max_useful_depth * bwJobs }, c.queue.max_useful_depth, bwJobs, 'probe', `${dir}-bw`));
    // IOPS: 4 KiB random with enough I/O in flight for the predicted rate at the slow end of the guidance.
    const open = evaluateWorkload(c, { name: 'iops', path: '', pattern: 'random', block_kib: 4, read_ratio: rho, target: {} }, [d]);
    const P = open.read_iops + open.write_iops;
    const [iodepth, numjobs] = network
      ? split(Math.max(1, Math.ceil(P / c.queue.iops_per_outstanding_io.low)), c.queue.max_useful_depth)
      : [LOCAL_SSD_IODEPTH, localSsdJobs(d, e)];
    jobs.push(probe(`${dir}-iops@${n}`, { name: 'iops', pattern: 'random', block_kib: 4, read_ratio: rho, queue_depth: iodepth * numjobs }, iodepth, numjobs, 'probe', `${dir}-iops`));
    // Latency: a shallow queue that stays below the limit, so the latency measured is the disk's and not the
    // queue's (Google: "the VM must not reach maximum bandwidth or IOPS"). Network disks only: Google's local
    // SSD recipe has no latency test and the model has no latency figure for it.
    if (network) {
      const q = Math.max(1, Math.min(LATENCY_DEPTH, Math.floor(P / c.queue.iops_per_outstanding_io.high)));
      jobs.push(probe(`${dir}-lat@${n}`, { name: 'lat', pattern: 'random', block_kib: 4, read_ratio: rho, queue_depth: q }, q, 1, 'probe', `${dir}-lat`));
    }
  }
  return jobs;
}

function workloadJob(c: Catalog, e: VmEval, ts: Target[], w: WorkloadEval, timing: Timing, names: Set<string>): FioJob {
  const network = ts.some((t) => t.disk.type.model !== 'devices');
  const total = w.read_iops + w.write_iops;
  const perJob = network ? c.queue.max_useful_depth : LOCAL_SSD_IODEPTH;
  // The spec's queue depth when it gives one. Otherwise: IOPS-oriented (small blocks) — enough in flight for
  // the predicted rate at the guidance's slow end; throughput-oriented (large blocks, whose transfer time the
  // 1.25-2.5 ms rule leaves out) — the deep queue of Google's bandwidth recipe.
  let inFlight = w.spec.queue_depth;
  if (inFlight === undefined) {
    const byRate = Math.max(1, Math.ceil(total / c.queue.iops_per_outstanding_io.low));
    inFlight = !network
      ? LOCAL_SSD_IODEPTH * Math.max(1, ...ts.map((t) => localSsdJobs(t.disk, e)))
      : w.spec.block_kib >= c.io.throughput_min_kib ? Math.max(byRate, c.queue.max_useful_depth) : byRate;
  }
  const [iodepth, numjobs] = split(inFlight, perJob);
  // 'global' is fio's own section; names are unique per VM (the parser reports duplicates, this keeps fio sane).
  let name = safeName(w.spec.name);
  if (name.toLowerCase() === 'global') name = 'workload-global';
  for (let i = 2; names.has(name); i++) name = `${safeName(w.spec.name)}-${i}`;
  names.add(name);
  return makeJob(c, e, ts, name, w.spec, w, iodepth, numjobs, 'workload', undefined, timing);
}

/** Total in-flight I/O → [iodepth, numjobs] with at most `perJob` per job. */
function split(inFlight: number, perJob: number): [number, number] {
  const q = Math.max(1, Math.ceil(inFlight));
  const numjobs = Math.min(64, Math.ceil(q / perJob));
  return [Math.min(perJob, Math.ceil(q / numjobs)), numjobs];
}

/** Google's local SSD recipe: 4 jobs for one device (8 vCPUs); a 4-device RAID 0 was driven with 16. */
function localSsdJobs(d: DiskEval, e: VmEval): number {
  const want = 4 * Math.max(1, d.spec.count ?? 1);
  return Math.max(1, Math.min(want, e.machine?.vcpus ?? want, 64));
}

function makeJob(
  c: Catalog, e: VmEval, ts: Target[], name: string, spec: WorkloadSpec, ev: Omit<WorkloadEval, 'suggestions'>,
  iodepth: number, numjobs: number, kind: FioJobKind, probe: FioProbe | undefined, timing: Timing,
): FioJob {
  const rho = spec.read_ratio;
  const seq = spec.pattern === 'sequential';
  const rw = rho >= 1 ? (seq ? 'read' : 'randread') : rho <= 0 ? (seq ? 'write' : 'randwrite') : seq ? 'rw' : 'randrw';
  const network = ts.some((t) => t.disk.type.model !== 'devices');
  const total = ev.read_iops + ev.write_iops;
  const per = c.queue.iops_per_outstanding_io;
  const inFlight = iodepth * numjobs;
  const queueBound = ev.limited_by === 'queue_depth';
  const expected = queueBound ? { low: Math.min(total, inFlight * per.low), high: total } : { low: total, high: total };
  const shares = ts.map((t) => vmShare(e, t.disk, rho)).filter((s): s is string => !!s);
  const bursts = ts.map((t) => burstNote(c, t.disk)).filter((s): s is string => !!s);
  // A fill job's time follows from the region it writes; fitRegion sets it once the region is final.
  const seconds = kind === 'fill' ? 0 : timing.ramp + timing.runtime;
  return {
    name, rw, bs_kib: spec.block_kib, iodepth, numjobs,
    predicted: { read_iops: ev.read_iops, write_iops: ev.write_iops, read_mibps: ev.read_mibps, write_mibps: ev.write_mibps, limited_by: ev.limited_by, why: oneLine(ev.why) },
    kind, probe, workload: kind === 'workload' ? spec.name : undefined,
    disks: ts.map((t) => t.disk.spec.name),
    rwmixread: rho > 0 && rho < 1 ? Math.round(rho * 100) : undefined,
    metric: spec.block_kib >= c.io.throughput_min_kib ? 'mibps' : 'iops',
    expected_iops: expected,
    seconds,
    context: {
      network,
      vcpus: e.machine?.vcpus,
      cpu_vcpus_needed: network ? (ev.read_iops / c.cpu.read_iops_per_vcpu + ev.write_iops / c.cpu.write_iops_per_vcpu) : 0,
      cpu_guidance: `one free vCPU per ${fmt(c.cpu.read_iops_per_vcpu)} read and per ${fmt(c.cpu.write_iops_per_vcpu)} write IOPS (${c.edition}: ${c.cpu.table})`,
      iops_per_io: { low: per.low, high: per.high },
      queue_guidance: `one outstanding I/O per ${fmt(per.low)}–${fmt(per.high)} IOPS (${c.edition}: ${c.queue.table})`,
      sequential: seq,
      vm_share: shares[0],
      burst: bursts[0],
    },
  };
}

function vmShare(e: VmEval, d: DiskEval, rho: number): string | undefined {
  const figs = [...(rho > 0 ? ['read_iops', 'read_mibps'] as const : []), ...(rho < 1 ? ['write_iops', 'write_mibps'] as const : [])];
  const same = e.disks.filter((x) => x.typeName === d.typeName);
  if (same.length < 2 || !figs.some((k) => d.figures[k].by === 'vm')) return undefined;
  return `the model gives '${d.spec.name}' its share of ${e.machine?.name ?? 'the VM'}'s per-VM ${d.typeName} limit, split with ${same.filter((x) => x !== d).map((x) => `'${x.spec.name}'`).join(', ')} as if all were busy at once; a job that runs one disk alone can get more`;
}

function burstNote(c: Catalog, d: DiskEval): string | undefined {
  const t = d.type;
  if (t.model !== 'allocation-units' || !t.burst || d.size_gib >= t.burst.to_gib) return undefined;
  return `${d.typeName} below ${fmt(t.burst.to_gib)} GiB bursts to the level of a ${fmt(t.burst.to_gib)} GiB disk for about ${fmt(t.burst.minutes_per_day)} minutes a day on saved credits, above the sustained figures the model uses (${c.edition}: ${t.burst.table})`;
}

/**
 * Raises the region where a job would not fit in it (sequential streams need a slice of at least one block
 * each), and sets the fill job's time from the final region. Returns copies: targets are shared between files.
 */
function fitRegion(ts: Target[], jobs: FioJob[]): Target[] {
  const needOf = (j: FioJob) => Math.ceil(j.bs_kib) * (isSequential(j.rw) ? j.numjobs : 1);
  const widest = jobs.reduce((a, b) => (needOf(b) > needOf(a) ? b : a));
  const need = needOf(widest);
  const out = ts.map((t) => {
    if (t.regionKib >= need) return t;
    const why = `The region is raised to ${formatKib(need)} so that every job fits: ${widest.name} needs ${isSequential(widest.rw) && widest.numjobs > 1 ? `${widest.numjobs} slices of one ${formatBlock(widest.bs_kib)} block` : `one ${formatBlock(widest.bs_kib)} block`}.`;
    return { ...t, regionKib: need, wholeDevice: false, notes: [...t.notes, why] };
  });
  const region = Math.min(...out.map((t) => t.regionKib));
  for (const j of jobs) {
    if (j.kind === 'fill') j.seconds = region / MIB_KIB / Math.max(j.predicted.write_mibps, 1e-6);
  }
  return out;
}

function isSequential(rw: string): boolean {
  return rw === 'read' || rw === 'write' || rw === 'rw';
}

// ---- the text ----------------------------------------------------------------------------------------------

function render(c: Catalog, e: VmEval, ts: Target[], jobs: FioJob[], timing: Timing, fileName: string, opts: FioOptions, disk?: string): FioFile {
  const destructive = ts.some((t) => t.mode === 'device');
  const L: string[] = [];
  const machine = !e.machine ? 'machine unknown' : e.machine.name.includes('vCPU') ? e.machine.name : `${e.machine.name}, ${e.machine.vcpus} vCPUs`;
  const what = disk !== undefined
    ? `disk '${disk}' (${describeDisk(ts[0].disk)})`
    : `the workloads spread over all its disks (${ts.map((t) => `'${t.disk.spec.name}'`).join(', ')})`;
  // Names come from the spec and may hold line breaks: every line that quotes one goes through wrap/oneLine,
  // so that no spec text can start a line of its own in the job file (a section or an option).
  L.push(...wrap(`storage-perf: fio jobs for VM '${e.spec.name}' (${machine}), ${what}; catalog ${c.edition}.`));
  L.push('# Every job carries the model\'s prediction. Jobs run one after another (stonewall).');
  if (destructive) {
    L.push('#');
    for (const line of DATA_LOSS) L.push(`# ${line}`);
  }
  L.push('#');
  for (const t of ts) {
    if (t.mode === 'device') {
      L.push(...wrap(`'${t.disk.spec.name}': jobs write to the raw device ${t.device}${t.wholeDevice ? ' (the whole device)' : ` (its first ${formatKib(t.regionKib)})`}.`));
    } else {
      L.push(...wrap(`'${t.disk.spec.name}': jobs work on the test file ${t.directory}/${FIO_TEST_FILE} (${formatKib(t.regionKib)}); no device is written to.`));
    }
    for (const n of t.notes) L.push(...wrap(`'${t.disk.spec.name}': ${n}`));
  }
  if (disk === undefined) L.push('# Run the per-disk files first: their fill jobs write the test files these jobs read.');
  const total = expectedSeconds(jobs, ts);
  const timed = jobs.filter((j) => j.kind !== 'fill').length;
  const parts = [`${timed} timed job${timed === 1 ? '' : 's'} × (${fmtSeconds(timing.ramp)} ramp + ${fmtSeconds(timing.runtime)})`];
  for (const j of jobs.filter((x) => x.kind === 'fill')) parts.push(`${j.name} ${fmtSeconds(j.seconds)}`);
  const layout = layoutSeconds(ts, jobs);
  if (layout > 0) parts.push(`laying out the test file the first time ${fmtSeconds(layout)}`);
  L.push('#');
  L.push(...wrap(`Expected runtime: about ${fmtSeconds(total)} (${parts.join(' + ')}).`));
  const json = fileName.replace(/\.fio$/, '.json');
  L.push('# Run it, then compare the result with the model:');
  L.push(`#   ${destructive ? 'sudo ' : ''}fio --output-format=json --output=${json} ${fileName}`);
  L.push(`#   storage-perf compare ${shellWord(opts.specName ?? 'storage.perf.yaml')} --fio-result ${json} --vm ${shellWord(e.spec.name)}`);
  L.push('');
  L.push('[global]');
  L.push('ioengine=libaio', 'direct=1', 'verify=0', 'randrepeat=0', 'group_reporting=1', 'stonewall');
  L.push('time_based=1', `runtime=${fioTime(timing.runtime)}`, `ramp_time=${fioTime(timing.ramp)}`);
  if (ts.length === 1) {
    const t = ts[0];
    if (t.mode === 'device') {
      L.push(`filename=${fioPath(t.device!)}`);
      if (!t.wholeDevice) L.push(`filesize=${formatKib(t.regionKib)}`);
    } else {
      L.push(`directory=${fioPath(t.directory!)}`, `filename=${FIO_TEST_FILE}`, `filesize=${formatKib(t.regionKib)}`);
    }
  } else {
    L.push(`filename=${ts.map((t) => fioPath(t.mode === 'device' ? t.device! : `${t.directory}/${FIO_TEST_FILE}`)).join(':')}`);
    const region = Math.min(...ts.map((t) => t.regionKib));
    if (ts.some((t) => !t.wholeDevice)) L.push(`filesize=${formatKib(region)}`);
  }
  for (const j of jobs) {
    L.push('');
    L.push(...jobComment(c, j, ts));
    if (destructive && j.rw !== 'read' && j.rw !== 'randread') {
      L.push(`# WARNING: this job writes to ${ts.filter((t) => t.mode === 'device').map((t) => t.device).join(', ')} and destroys the data there.`);
    }
    L.push(`[${j.name}]`);
    L.push(`rw=${j.rw}`);
    if (j.rwmixread !== undefined) L.push(`rwmixread=${j.rwmixread}`);
    L.push(`bs=${fioBlock(j.bs_kib)}`);
    L.push(`iodepth=${j.iodepth}`);
    if (j.numjobs > 1) L.push(`numjobs=${j.numjobs}`);
    if (j.kind === 'fill') {
      // Not timed: the fill must write the whole region, however long that takes. fio stops a job at `runtime`
      // even without time_based, so the global runtime is lifted (0 = no limit) rather than just left unforced.
      L.push('time_based=0', 'runtime=0', 'ramp_time=0');
      L.push(`size=${formatKib(Math.min(...ts.map((t) => t.regionKib)))}`);
    } else if (j.numjobs > 1 && isSequential(j.rw)) {
      // Sequential streams, each in its own slice of the region (Google's guide: --offset_increment).
      const slice = sliceKib(Math.min(...ts.map((t) => t.regionKib)), j.numjobs, j.bs_kib);
      L.push('thread', `size=${formatKib(slice)}`, `offset_increment=${formatKib(slice)}`);
    }
  }
  return { vm: e.spec.name, disk, fileName, text: L.join('\n') + '\n', jobs, destructive, expectedSeconds: total };
}

function jobComment(c: Catalog, j: FioJob, ts: Target[]): string[] {
  const p = j.predicted;
  const blk = formatBlock(j.bs_kib);
  const pattern = j.context.sequential ? 'sequential' : 'random';
  const mix = j.rwmixread !== undefined ? `${j.rwmixread}% reads` : j.rw.endsWith('read') ? 'reads' : 'writes';
  const head: Record<FioJobKind, string> = {
    fill: `precondition: write every block of the region once (Google fills the disk before read tests: reads of never-written blocks behave differently)`,
    workload: `the spec's workload '${j.workload}': ${pattern} ${blk} ${mix}, ${j.iodepth * j.numjobs} I/Os in flight`,
    probe: probeText(j),
  };
  const out = wrap(`${j.name} — ${head[j.kind]}.`);
  const iops = [p.read_iops > 0 ? `${fmt(p.read_iops)} read` : '', p.write_iops > 0 ? `${fmt(p.write_iops)} write` : ''].filter(Boolean).join(' + ') || '0';
  const mibps = [p.read_mibps > 0 ? `${fmt(p.read_mibps, 1)} read` : '', p.write_mibps > 0 ? `${fmt(p.write_mibps, 1)} write` : ''].filter(Boolean).join(' + ') || '0';
  const range = j.expected_iops.low < j.expected_iops.high
    ? `; expect ${fmt(j.expected_iops.low)}–${fmt(j.expected_iops.high)} IOPS, i.e. ${fmt(1000 / j.context.iops_per_io.high, 2)}–${fmt(1000 / j.context.iops_per_io.low, 2)} ms per I/O (${j.context.queue_guidance})`
    : '';
  out.push(...wrap(`predicted: ${iops} IOPS, ${mibps} MiB/s at ${blk}; limited by ${p.limited_by}${range}.`));
  out.push(...wrap(`why: ${p.why}`));
  const time = j.kind === 'fill' ? `about ${fmtSeconds(j.seconds)} (${formatKib(Math.min(...ts.map((t) => t.regionKib)))} at the predicted write rate)` : `${fmtSeconds(j.seconds)}`;
  out.push(`# takes: ${time}`);
  return out;
}

function probeText(j: FioJob): string {
  const dir = j.probe?.startsWith('read') ? 'read' : 'write';
  switch (j.probe) {
    case 'read-bw': case 'write-bw':
      return `${dir} bandwidth: ${formatBlock(j.bs_kib)} sequential ${dir}s, ${j.numjobs} streams × iodepth ${j.iodepth}, each stream in its own slice`;
    case 'read-iops': case 'write-iops':
      return j.context.network
        ? `${dir} IOPS: 4KiB random ${dir}s, ${j.iodepth * j.numjobs} I/Os in flight (enough for the predicted rate at the guidance's slow end)`
        : `${dir} IOPS: 4KiB random ${dir}s, ${j.numjobs} jobs × iodepth ${j.iodepth}, as in Google's local SSD recipe (iodepth 128, four jobs per device)`;
    default:
      return `${dir} latency: 4KiB random ${dir}s at iodepth ${j.iodepth}, below the limit so that the latency is the disk's, not the queue's (fio's clat is the figure to read)`;
  }
}

function expectedSeconds(jobs: FioJob[], ts: Target[]): number {
  return Math.ceil(jobs.reduce((s, j) => s + j.seconds, 0) + layoutSeconds(ts, jobs));
}

/** fio writes a new test file in full before the first job uses it: at about the fill job's write rate. */
function layoutSeconds(ts: Target[], jobs: FioJob[]): number {
  const fill = jobs.find((j) => j.kind === 'fill');
  const rate = fill ? fill.predicted.write_mibps : 0;
  if (!rate) return 0;
  return ts.filter((t) => t.mode === 'file').reduce((s, t) => s + t.regionKib / MIB_KIB / rate, 0);
}

// ---- spelling ----------------------------------------------------------------------------------------------

function describeDisk(d: DiskEval): string {
  if (d.type.model === 'devices') return `${d.typeName}, ${d.spec.count ?? 1} device${(d.spec.count ?? 1) === 1 ? '' : 's'}, ${fmt(d.size_gib)} GiB`;
  return `${d.typeName}, ${fmt(d.size_gib)} GiB`;
}

/** A slice of the region for one of `n` sequential streams, a whole number of blocks and at least one. */
function sliceKib(regionKib: number, n: number, bsKib: number): number {
  const bs = Math.max(1, Math.ceil(bsKib));
  return Math.max(bs, Math.floor(regionKib / n / bs) * bs);
}

/** fio sizes: binary k/m/g as fio reads them. */
export function formatKib(kib: number): string {
  const k = Math.max(1, Math.floor(kib));
  if (k % GIB_KIB === 0) return `${k / GIB_KIB}g`;
  if (k % MIB_KIB === 0) return `${k / MIB_KIB}m`;
  return `${k}k`;
}

function fioBlock(kib: number): string {
  const bytes = Math.round(kib * 1024);
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)}m`;
  if (bytes % 1024 === 0) return `${bytes / 1024}k`;
  return String(bytes);
}

/** fio reads ':' in file and directory names as a list separator; escape it. */
function fioPath(p: string): string {
  return p.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
}

function fioTime(s: number): string {
  if (Number.isInteger(s)) return `${s}s`;
  return `${Math.max(1, Math.round(s * 1000))}ms`;
}

function fmtSeconds(s: number): string {
  if (s < 10) return `${+s.toFixed(s < 1 ? 2 : 1)} s`;
  const r = Math.round(s);
  if (r < 60) return `${r} s`;
  const h = Math.floor(r / 3600);
  const m = Math.floor((r % 3600) / 60);
  const sec = r % 60;
  return h ? `${h} h ${m} min` : `${m} min${sec ? ` ${sec} s` : ''}`;
}

/** Names as fio section names and file names: letters, digits, '_', '.', '-'. */
export function safeName(s: string): string {
  const n = s.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
  return n || '_';
}

function unique(used: Set<string>, name: string): string {
  let n = name;
  for (let i = 2; used.has(n); i++) n = name.replace(/\.fio$/, `-${i}.fio`);
  used.add(n);
  return n;
}

function oneLine(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]+/g, ' ');
}

/** A spec name in the suggested commands, quoted where the shell would split or expand it ('a b', '$(x)'). */
function shellWord(s: string): string {
  const t = oneLine(s);
  return /^[A-Za-z0-9_.\/@%+=:,-]+$/.test(t) ? t : `'${t.replace(/'/g, `'\\''`)}'`;
}

/** A comment, wrapped to about 110 columns. */
function wrap(text: string): string[] {
  const words = oneLine(text).split(' ');
  const lines: string[] = [];
  let cur = '#';
  for (const w of words) {
    if (cur.length + 1 + w.length > 112 && cur !== '#') {
      lines.push(cur);
      cur = '#  ';
    }
    cur += (cur.endsWith(' ') ? '' : ' ') + w;
  }
  lines.push(cur);
  return lines;
}
