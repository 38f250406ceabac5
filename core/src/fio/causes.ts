/**
 * Why a measurement differs from the prediction: the likely causes of a failed job (fio's error numbers), of a
 * result below the prediction (queue depth, throttling, CPU, a short run, spent burst credits) and of one above
 * it (I/O merges, caches, never-written blocks, a per-VM share or burst the model did not count), most likely
 * first. From the model's own guidance and what the providers and engineers have documented.
 */
import { fmt, formatBlock } from '../units';
import type { FioJob } from './types';
import type { FioMeasurement } from './fio-output';
import { TOLERANCE } from './verdict';

const ERRNO: Record<number, [string, string]> = {
  1: ['EPERM', 'not permitted: run fio as a user who may open the file or device'],
  2: ['ENOENT', "no such file or directory: is the disk mounted at the job's directory?"],
  5: ['EIO', 'an I/O error from the disk or the file system: check the kernel log (dmesg)'],
  13: ['EACCES', 'permission denied: run fio as a user who may write to the directory or device'],
  16: ['EBUSY', 'device busy: something else holds it (mounted, or part of a RAID)'],
  22: [
    'EINVAL',
    "invalid argument: with direct=1 the block size and offsets must be multiples of the device's sector size (512 bytes or 4 KiB)",
  ],
  28: ['ENOSPC', 'no space left: the test file does not fit; lower fio_size'],
  30: ['EROFS', 'the file system is mounted read-only'],
  95: ['EOPNOTSUPP', 'not supported: the file system refuses direct I/O (tmpfs does); use a disk-backed directory'],
};

function errnoName(n: number): string | undefined {
  return ERRNO[n]?.[0];
}

/** A job's error as fio's number with, where known, its errno name. */
export function reportedError(n: number): string {
  return `fio reported error ${n}${errnoName(n) ? ` (${errnoName(n)})` : ''}`;
}

/** A failed job: what its error number usually means, and the sector-size rule direct I/O imposes. */
export function failureCauses(j: FioJob, m: FioMeasurement): string[] {
  const known = ERRNO[m.error];
  const out = [known ? `${known[0]}: ${known[1]}` : `fio error ${m.error}: see fio's messages on its standard error`];
  if (m.error === 22 && Math.round(j.bs_kib * 1024) % 512 !== 0)
    out.unshift(`the block size ${formatBlock(j.bs_kib)} is not a multiple of 512 bytes, which direct I/O needs`);
  return out;
}

/** In-flight I/Os from the options fio echoed, else from the job as generated. */
function inFlight(j: FioJob, m: FioMeasurement): number {
  const d = Number(m.options.iodepth);
  const n = Number(m.options.numjobs);
  return (Number.isFinite(d) && d > 0 ? d : j.iodepth) * (Number.isFinite(n) && n > 0 ? n : j.numjobs);
}

/** Below the prediction: why fewer I/Os completed than the model says the disk allows. */
export function belowCauses(j: FioJob, m: FioMeasurement): string[] {
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
    out.push(
      `queue depth: ${fmt(q)} I/Os in flight carry ${fmt(q * c.iops_per_io.low)}–${fmt(q * c.iops_per_io.high)} IOPS at 2.5–1.25 ms each (Little's law), short of the ${fmt(want)} predicted; the guidance is ${c.queue_guidance}, so ${fmt(Math.ceil(want / c.iops_per_io.high))}–${fmt(Math.ceil(want / c.iops_per_io.low))}`,
    );
  }
  if (lat !== undefined && c.network && smallBlocks && lat > slowMs) {
    out.push(
      `throttling: each I/O took ${fmt(lat, 2)} ms on average (fio's completion latency, with ${fmt(q)} in flight at ${fmt(total)} IOPS), longer than the guidance's ${fmt(slowMs, 1)} ms: the disk or the VM held I/O back at a limit lower than the model's. Yandex describes it: over a limit, operations are suspended and wait, and iowait grows; Google: a saturated persistent disk pushes back on incoming I/O. Check what else used the disk or the VM's per-VM limit during the run`,
    );
  } else if (lat !== undefined && c.network && smallBlocks && q * (1000 / lat) < want * (1 - TOLERANCE)) {
    out.push(
      `queue depth: at the ${fmt(lat, 2)} ms each I/O took, ${fmt(q)} in flight can carry only ${fmt(q * (1000 / lat))} IOPS; more iodepth or numjobs would raise it`,
    );
  }
  if (m.cpu_pct !== undefined && m.cpu_pct >= 80) {
    out.push(
      `CPU: fio's threads were busy ${fmt(m.cpu_pct)}% of the time, so the CPU, not the disk, set the pace: add numjobs on a machine with free vCPUs`,
    );
  }
  if (c.network && c.vcpus !== undefined && c.cpu_vcpus_needed > c.vcpus) {
    out.push(
      `CPU: the predicted ${fmt(want)} IOPS want about ${fmt(c.cpu_vcpus_needed, 1)} free vCPUs (${c.cpu_guidance}); the machine has ${c.vcpus}`,
    );
  } else if (c.network && c.vcpus !== undefined && c.cpu_vcpus_needed > c.vcpus / 2) {
    out.push(
      `CPU: the predicted ${fmt(want)} IOPS want about ${fmt(c.cpu_vcpus_needed, 1)} free vCPUs of the machine's ${c.vcpus} (${c.cpu_guidance}); anything else running competes for them`,
    );
  }
  if (m.runtime_ms !== undefined && m.runtime_ms < 10_000) {
    out.push(
      `a short run (${fmt(m.runtime_ms / 1000, 1)} s): start-up and the provider's rate-limit windows weigh on a few seconds; run a minute (--runtime 60)`,
    );
  }
  if (c.burst)
    out.push(
      `bursting: if burst credits were being spent before the run and ran out during it, the disk fell back to its sustained level — ${c.burst}`,
    );
  if (!out.length || out.every((s) => s.startsWith('a short run'))) {
    out.push(
      "throttling or contention: another disk or process shared the VM's per-VM limit or network during the run, or the disk is smaller or slower than the spec says",
    );
  }
  out.push("the run may not be on the spec's VM and disk: check the machine type and that the test file is on the disk the job names");
  return out;
}

/** Above the prediction: why fio counted more than the disk itself did, or the model was too cautious. */
export function aboveCauses(j: FioJob, m: FioMeasurement, unfilled: Set<string>): string[] {
  const out: string[] = [];
  const c = j.context;
  if (c.sequential && j.bs_kib < 64) {
    out.push(
      `I/O merges: the kernel merges adjacent small sequential I/Os, so fio counts more operations than the disk performs (Google Cloud support measured 63.6k IOPS of 1 KiB sequential reads on a 9,000 IOPS pd-ssd, while the disk saw 9,000); compare bytes, or use random I/O to measure IOPS`,
    );
  }
  if (m.options.direct !== undefined && m.options.direct !== '1') {
    out.push('caching: the job ran with direct=0, so the page cache answered; run with direct=1');
  } else {
    out.push(
      'caching: something between fio and the disk answered — a test file small enough to stay in a cache, a RAID or controller cache, or buffered I/O',
    );
  }
  if (j.predicted.read_iops > 0 && j.disks.some((d) => unfilled.has(d))) {
    out.push(
      'never-written blocks: the fill job did not run (or failed), and reads of blocks never written can be answered without reading media (Google fills the disk before read tests for this reason)',
    );
  }
  if (c.burst) out.push(`bursting: ${c.burst}`);
  if (j.expected_iops.low < j.expected_iops.high) {
    const lat = weightedLatency(m);
    if (lat !== undefined)
      out.push(
        `low latency: each I/O took ${fmt(lat, 2)} ms, faster than the 1.25 ms the guidance assumes, so ${fmt(inFlight(j, m))} in flight carried more`,
      );
  }
  out.push("the run may not be on the spec's VM and disk: check the machine type and that the test file is on the disk the job names");
  return out;
}

function weightedLatency(m: FioMeasurement): number | undefined {
  const parts: Array<[number, number]> = [];
  if (m.read_lat_ms !== undefined && m.read_iops > 0) parts.push([m.read_lat_ms, m.read_iops]);
  if (m.write_lat_ms !== undefined && m.write_iops > 0) parts.push([m.write_lat_ms, m.write_iops]);
  const w = parts.reduce((s, [, x]) => s + x, 0);
  return w > 0 ? parts.reduce((s, [l, x]) => s + l * x, 0) / w : undefined;
}
