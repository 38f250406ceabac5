/**
 * The text of a .fio file: a comment header (what is tested, where it writes, the data-loss warning when a raw
 * device is written, the expected runtime and the commands to run and compare), the [global] section that
 * points fio at the targets, and one section per job with the model's prediction above it.
 */
import type { Catalog } from '../catalog';
import type { VmEval } from '../model/types';
import { fmt, formatBlock, plural } from '../units';
import type { FioFile, FioJob, FioJobKind, FioOptions } from './types';
import type { Timing } from './jobs';
import { fioBlock, fioPath, fioTime, fmtSeconds, formatKib, isSequential, MIB_KIB, shellWord, wrap } from './syntax';
import { FIO_TEST_FILE, type Target } from './targets';

const DATA_LOSS = [
  'WARNING: this file writes to raw block devices and DESTROYS THE DATA on them.',
  'Google\'s benchmarking guide says of the same commands: "Running this command causes data loss on the',
  'second device. We strongly recommend using a throwaway VM and disk." Run it only on such a VM and disk.',
];

export function render(
  c: Catalog,
  e: VmEval,
  ts: Target[],
  jobs: FioJob[],
  timing: Timing,
  fileName: string,
  opts: FioOptions,
  disk?: string,
): FioFile {
  const destructive = ts.some((t) => t.mode === 'device');
  const total = expectedSeconds(jobs, ts);
  const L = [
    ...header(c, e, ts, destructive, disk),
    ...runInstructions(e, ts, jobs, timing, total, fileName, opts, destructive),
    '',
    ...globalSection(ts, timing),
  ];
  for (const j of jobs) L.push('', ...jobSection(c, j, ts, destructive));
  // The test file is deleted once the last job is done (fio's unlink, on that job only: on every job each would
  // lay the file out again), unless asked to keep it. Never with a device among the targets.
  if (!opts.keepTestFile && jobs.length && ts.every((t) => t.mode === 'file'))
    L.push('# The test file is deleted when this last job is done (storage-perf fio --keep-test-file keeps it).', 'unlink=1');
  return { vm: e.spec.name, disk, fileName, text: L.join('\n') + '\n', jobs, destructive, expectedSeconds: total };
}

/** What the file tests and where it writes, with the data-loss warning first when a raw device is written. */
function header(c: Catalog, e: VmEval, ts: Target[], destructive: boolean, disk?: string): string[] {
  const L: string[] = [];
  const machine = !e.machine
    ? 'machine unknown'
    : e.machine.name.includes('vCPU')
      ? e.machine.name
      : `${e.machine.name}, ${plural(e.machine.vcpus, 'vCPU')}`;
  const what =
    disk !== undefined
      ? `disk '${disk}' (${ts[0].description})`
      : `the workloads spread over all its disks (${ts.map((t) => `'${t.spec.name}'`).join(', ')})`;
  // Names come from the spec and may hold line breaks: every line that quotes one goes through wrap/oneLine,
  // so that no spec text can start a line of its own in the job file (a section or an option).
  L.push(...wrap(`storage-perf: fio jobs for VM '${e.spec.name}' (${machine}), ${what}; catalog ${c.edition}.`));
  L.push("# Every job carries the model's prediction. Jobs run one after another (stonewall).");
  if (destructive) {
    L.push('#');
    for (const line of DATA_LOSS) L.push(`# ${line}`);
  }
  L.push('#');
  for (const t of ts) {
    if (t.mode === 'device') {
      L.push(
        ...wrap(
          `'${t.spec.name}': jobs write to the raw device ${t.device}${t.wholeDevice ? ' (the whole device)' : ` (its first ${formatKib(t.regionKib)})`}.`,
        ),
      );
    } else {
      L.push(
        ...wrap(
          `'${t.spec.name}': jobs work on the test file ${t.directory}/${FIO_TEST_FILE} (${formatKib(t.regionKib)}); no device is written to.`,
        ),
      );
    }
    for (const n of t.notes) L.push(...wrap(`'${t.spec.name}': ${n}`));
  }
  if (disk === undefined) L.push('# Run the per-disk files first: their fill jobs write the test files these jobs read.');
  return L;
}

/** How long the file takes, and the commands that run it and compare the result with the model. */
function runInstructions(
  e: VmEval,
  ts: Target[],
  jobs: FioJob[],
  timing: Timing,
  total: number,
  fileName: string,
  opts: FioOptions,
  destructive: boolean,
): string[] {
  const L: string[] = [];
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
  return L;
}

/** Options every job shares, and the file or device (or, for several disks, the list of them) fio works on. */
function globalSection(ts: Target[], timing: Timing): string[] {
  const L: string[] = [];
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
    if (ts.some((t) => !t.wholeDevice)) L.push(`filesize=${formatKib(commonRegionKib(ts))}`);
  }
  return L;
}

function jobSection(c: Catalog, j: FioJob, ts: Target[], destructive: boolean): string[] {
  const L = jobComment(c, j, ts);
  if (destructive && j.rw !== 'read' && j.rw !== 'randread') {
    L.push(
      `# WARNING: this job writes to ${ts
        .filter((t) => t.mode === 'device')
        .map((t) => t.device)
        .join(', ')} and destroys the data there.`,
    );
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
    if (j.numjobs > 1) {
      // Several writers (instance store's fill): each its own slice, so that the region is written once.
      const slice = sliceKib(commonRegionKib(ts), j.numjobs, j.bs_kib);
      L.push('thread', `size=${formatKib(slice)}`, `offset_increment=${formatKib(slice)}`);
    } else L.push(`size=${formatKib(commonRegionKib(ts))}`);
  } else if (j.numjobs > 1 && isSequential(j.rw)) {
    // Sequential streams, each in its own slice of the region (Google's guide: --offset_increment).
    const slice = sliceKib(commonRegionKib(ts), j.numjobs, j.bs_kib);
    L.push('thread', `size=${formatKib(slice)}`, `offset_increment=${formatKib(slice)}`);
  }
  return L;
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
  const iops =
    [p.read_iops > 0 ? `${fmt(p.read_iops)} read` : '', p.write_iops > 0 ? `${fmt(p.write_iops)} write` : ''].filter(Boolean).join(' + ') ||
    '0';
  const mibps =
    [p.read_mibps > 0 ? `${fmt(p.read_mibps, 1)} read` : '', p.write_mibps > 0 ? `${fmt(p.write_mibps, 1)} write` : '']
      .filter(Boolean)
      .join(' + ') || '0';
  const range =
    j.expected_iops.low < j.expected_iops.high
      ? `; expect ${fmt(j.expected_iops.low)}–${fmt(j.expected_iops.high)} IOPS, i.e. ${fmt(1000 / j.context.iops_per_io.high, 2)}–${fmt(1000 / j.context.iops_per_io.low, 2)} ms per I/O (${j.context.queue_guidance})`
      : '';
  out.push(...wrap(`predicted: ${iops} IOPS, ${mibps} MiB/s at ${blk}; limited by ${p.limited_by}${range}.`));
  out.push(...wrap(`why: ${p.why}`));
  const time =
    j.kind === 'fill'
      ? `about ${fmtSeconds(j.seconds)} (${formatKib(commonRegionKib(ts))} at the predicted write rate)`
      : `${fmtSeconds(j.seconds)}`;
  out.push(`# takes: ${time}`);
  return out;
}

function probeText(j: FioJob): string {
  const dir = j.probe?.startsWith('read') ? 'read' : 'write';
  switch (j.probe) {
    case 'read-bw':
    case 'write-bw':
      return `${dir} bandwidth: ${formatBlock(j.bs_kib)} sequential ${dir}s, ${j.numjobs} streams × iodepth ${j.iodepth}, each stream in its own slice`;
    case 'read-iops':
    case 'write-iops':
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

/** The region every target has room for: a job on several disks works on the same offsets of each. */
function commonRegionKib(ts: Target[]): number {
  return Math.min(...ts.map((t) => t.regionKib));
}

/** A slice of the region for one of `n` sequential streams, a whole number of blocks and at least one. */
function sliceKib(regionKib: number, n: number, bsKib: number): number {
  const bs = Math.max(1, Math.ceil(bsKib));
  return Math.max(bs, Math.floor(regionKib / n / bs) * bs);
}
