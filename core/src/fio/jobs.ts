/**
 * Job planning: which jobs a disk gets (fill, the spec's own workloads, the standard probes), how much I/O each
 * keeps in flight (iodepth × numjobs), and the model's prediction and context each job carries for `compare`.
 */
import type { Catalog } from '../catalog';
import type { WorkloadSpec } from '../document/types';
import { cacheViews } from '../model/host-cache';
import { evaluateWorkload } from '../model/workload';
import type { DiskEval, VmEval, WorkloadEval } from '../model/types';
import { fmt } from '../units';
import type { FioJob, FioJobContext, FioJobKind, FioProbe } from './types';
import { oneLine, safeName } from './syntax';
import type { EvaluatedTarget } from './targets';

/** Local SSD: the provider's own recipe runs 4 KiB jobs at iodepth 128 (Google's local SSD benchmark). */
export const LOCAL_SSD_IODEPTH = 128;
/** Latency jobs: queue depth 4, as in Google's guide, lower where 4 would already reach the limit. */
const LATENCY_DEPTH = 4;

/** Every timed job runs `ramp` seconds unmeasured, then `runtime` seconds measured. */
export interface Timing {
  runtime: number;
  ramp: number;
}

/** A disk's own file: fill first (reads of never-written blocks mislead), its workloads, then the probes. */
export function diskJobs(
  c: Catalog,
  e: VmEval,
  t: EvaluatedTarget,
  workloads: WorkloadEval[],
  timing: Timing,
  names: Set<string>,
): FioJob[] {
  const d = t.disk;
  const network = d.type.model !== 'devices';
  const n = safeName(d.spec.name);
  const jobs: FioJob[] = [];
  const probe = (
    name: string,
    w: Omit<WorkloadSpec, 'path' | 'target'>,
    iodepth: number,
    numjobs: number,
    kind: FioJobKind,
    p?: FioProbe,
  ) => {
    const spec: WorkloadSpec = { ...w, path: `${e.spec.path}/fio/${name}`, target: {} };
    const ev = evaluateWorkload(c, spec, [d]);
    return makeJob(c, e, [t], name, spec, ev, iodepth, numjobs, kind, p, timing);
  };

  // 1. Fill: write every block of the region once. Persistent disk reads from never-written blocks have their
  //    own latency profile (Google's guide fills before any read test). Google's PD recipe: 128 KiB random
  //    writes at iodepth 64; its local SSD recipe: one sequential 1 MiB pass.
  if (network)
    jobs.push(probe(`fill@${n}`, { name: 'fill', pattern: 'random', block_kib: 128, read_ratio: 0, queue_depth: 64 }, 64, 1, 'fill'));
  else
    jobs.push(
      probe(`fill@${n}`, { name: 'fill', pattern: 'sequential', block_kib: 1024, read_ratio: 0 }, c.queue.max_useful_depth, 1, 'fill'),
    );

  // 2. The spec's own workloads on this disk.
  for (const w of workloads) jobs.push(workloadJob(c, e, [t], w, timing, names));

  // 3. The standard probes, in the order of Google's guide: writes first, then reads.
  for (const dir of ['write', 'read'] as const) {
    const rho = dir === 'read' ? 1 : 0;
    // Bandwidth: large sequential blocks, deep queues, several streams each in its own slice (offset_increment).
    // Blocks of 1 MiB (Google's recipe), or the provider's own size for full bandwidth where larger (Yandex: 4 MB).
    const bwKib = Math.max(1024, c.io.throughput_min_kib);
    const bwGuess = evaluateWorkload(c, { name: 'bw', path: '', pattern: 'sequential', block_kib: bwKib, read_ratio: rho, target: {} }, [
      d,
    ]);
    const bwJobs = bwGuess.read_mibps + bwGuess.write_mibps > 1000 ? 8 : 4;
    jobs.push(
      probe(
        `${dir}-bw@${n}`,
        { name: 'bw', pattern: 'sequential', block_kib: bwKib, read_ratio: rho, queue_depth: c.queue.max_useful_depth * bwJobs },
        c.queue.max_useful_depth,
        bwJobs,
        'probe',
        `${dir}-bw`,
      ),
    );
    // IOPS: 4 KiB random with enough I/O in flight for the predicted rate at the slow end of the guidance.
    const open = evaluateWorkload(c, { name: 'iops', path: '', pattern: 'random', block_kib: 4, read_ratio: rho, target: {} }, [d]);
    const P = open.read_iops + open.write_iops;
    const [iodepth, numjobs] = network
      ? split(Math.max(1, Math.ceil(P / c.queue.iops_per_outstanding_io.low)), c.queue.max_useful_depth)
      : [LOCAL_SSD_IODEPTH, localSsdJobs(d, e)];
    jobs.push(
      probe(
        `${dir}-iops@${n}`,
        { name: 'iops', pattern: 'random', block_kib: 4, read_ratio: rho, queue_depth: iodepth * numjobs },
        iodepth,
        numjobs,
        'probe',
        `${dir}-iops`,
      ),
    );
    // Latency: a shallow queue that stays below the limit, so the latency measured is the disk's and not the
    // queue's (Google: "the VM must not reach maximum bandwidth or IOPS"). Network disks only: Google's local
    // SSD recipe has no latency test and the model has no latency figure for it.
    if (network) {
      const q = Math.max(1, Math.min(LATENCY_DEPTH, Math.floor(P / c.queue.iops_per_outstanding_io.high)));
      jobs.push(
        probe(
          `${dir}-lat@${n}`,
          { name: 'lat', pattern: 'random', block_kib: 4, read_ratio: rho, queue_depth: q },
          q,
          1,
          'probe',
          `${dir}-lat`,
        ),
      );
    }
  }
  return jobs;
}

/** A spec workload as one job, on one disk or spread over several (fio's `filename=a:b`). */
export function workloadJob(c: Catalog, e: VmEval, ts: EvaluatedTarget[], w: WorkloadEval, timing: Timing, names: Set<string>): FioJob {
  const network = ts.some((t) => t.network);
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
      : w.spec.block_kib >= c.io.throughput_min_kib
        ? Math.max(byRate, c.queue.max_useful_depth)
        : byRate;
  }
  const [iodepth, numjobs] = split(inFlight, perJob);
  // 'global' is fio's own section; names are unique per VM (the parser reports duplicates, this keeps fio sane).
  let name = safeName(w.spec.name);
  if (name.toLowerCase() === 'global') name = 'workload-global';
  for (let i = 2; names.has(name); i++) name = `${safeName(w.spec.name)}-${i}`;
  names.add(name);
  // fio runs the jobs one after another (stonewall): the job is the workload on its disks alone, the VM's other
  // disks idle. Its figures in the spec are those it gets with the VM's other workloads at once (the shares).
  // Through a host cache (Azure), with the spec's hit ratio, as the spec's own figure is.
  const own = ts.map((t) => t.disk);
  const alone = evaluateWorkload(c, w.spec, (e.machine && cacheViews(c, e.machine, w.spec, own)) || own);
  const job = makeJob(c, e, ts, name, w.spec, alone, iodepth, numjobs, 'workload', undefined, timing);
  const together = w.read_iops + w.write_iops;
  if (together < (alone.read_iops + alone.write_iops) * (1 - 1e-6)) {
    job.context.vm_share = shareNote(e, w, together);
    job.context.shared_iops = together;
  }
  return job;
}

/** Why a workload's job can deliver more than the workload's figure in the spec: the job runs alone. */
function shareNote(e: VmEval, w: WorkloadEval, together: number): string {
  const others = e.workloads.filter((x) => x !== w && x.disks.some((d) => !w.disks.includes(d))).map((x) => `'${x.spec.name}'`);
  return `run alone, as fio runs it; with ${others.length ? others.join(', ') : "the VM's other workloads"} at once, ${e.machine?.name ?? 'the VM'}'s shared limit gives '${w.spec.name}' ${fmt(together)} IOPS (its figure in the spec)`;
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
  c: Catalog,
  e: VmEval,
  ts: EvaluatedTarget[],
  name: string,
  spec: WorkloadSpec,
  ev: Omit<WorkloadEval, 'suggestions'>,
  iodepth: number,
  numjobs: number,
  kind: FioJobKind,
  probe: FioProbe | undefined,
  timing: Timing,
): FioJob {
  const rho = spec.read_ratio;
  const seq = spec.pattern === 'sequential';
  const rw = rho >= 1 ? (seq ? 'read' : 'randread') : rho <= 0 ? (seq ? 'write' : 'randwrite') : seq ? 'rw' : 'randrw';
  const network = ts.some((t) => t.network);
  const total = ev.read_iops + ev.write_iops;
  const per = c.queue.iops_per_outstanding_io;
  const inFlight = iodepth * numjobs;
  const queueBound = ev.limited_by === 'queue_depth';
  const expected = queueBound ? { low: Math.min(total, inFlight * per.low), high: total } : { low: total, high: total };
  const bursts = ts.map((t) => burstNote(c, t.disk)).filter((s): s is string => !!s);
  // A fill job's time follows from the region it writes; fitRegion sets it once the region is final.
  const seconds = kind === 'fill' ? 0 : timing.ramp + timing.runtime;
  return {
    name,
    rw,
    bs_kib: spec.block_kib,
    iodepth,
    numjobs,
    predicted: {
      read_iops: ev.read_iops,
      write_iops: ev.write_iops,
      read_mibps: ev.read_mibps,
      write_mibps: ev.write_mibps,
      limited_by: ev.limited_by,
      why: oneLine(ev.why),
    },
    kind,
    probe,
    workload: kind === 'workload' ? spec.name : undefined,
    disks: ts.map((t) => t.spec.name),
    rwmixread: rho > 0 && rho < 1 ? Math.round(rho * 100) : undefined,
    metric: spec.block_kib >= c.io.throughput_min_kib ? 'mibps' : 'iops',
    expected_iops: expected,
    seconds,
    context: {
      network,
      vcpus: e.machine?.vcpus,
      cpu_vcpus_needed: network ? ev.read_iops / c.cpu.read_iops_per_vcpu + ev.write_iops / c.cpu.write_iops_per_vcpu : 0,
      ...guidance(c),
      sequential: seq,
      burst: bursts[0],
    },
  };
}

/** The catalog's CPU and queue guidance, as a job's context quotes it for `compare`. */
export function guidance(c: Catalog): Pick<FioJobContext, 'cpu_guidance' | 'iops_per_io' | 'queue_guidance'> {
  const per = c.queue.iops_per_outstanding_io;
  return {
    cpu_guidance: `one free vCPU per ${fmt(c.cpu.read_iops_per_vcpu)} read and per ${fmt(c.cpu.write_iops_per_vcpu)} write IOPS (${c.edition}: ${c.cpu.table})`,
    iops_per_io: { low: per.low, high: per.high },
    queue_guidance: `one outstanding I/O per ${fmt(per.low)}–${fmt(per.high)} IOPS (${c.edition}: ${c.queue.table})`,
  };
}

function burstNote(c: Catalog, d: DiskEval): string | undefined {
  const t = d.type;
  if (t.model !== 'allocation-units' || !t.burst || d.size_gib >= t.burst.to_gib) return undefined;
  return `${d.typeName} below ${fmt(t.burst.to_gib)} GiB bursts to the level of a ${fmt(t.burst.to_gib)} GiB disk for about ${fmt(t.burst.minutes_per_day)} minutes a day on saved credits, above the sustained figures the model uses (${c.edition}: ${t.burst.table})`;
}
