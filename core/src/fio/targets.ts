/**
 * Where a disk's jobs read and write, and how much of it: a test file under the mount point by default, the raw
 * block device only when the spec or the caller allowed it. What is refused or assumed on the way (an unusable
 * mount point, a device left alone) becomes a note that the job file prints above the jobs.
 */
import type { DiskSpec } from '../document/types';
import type { DiskEval } from '../model/types';
import { fmt, formatBlock } from '../units';
import type { FioJob, FioOptions } from './types';
import { formatKib, GIB_KIB, isSequential, MIB_KIB, oneLine, safeName } from './syntax';

/** Name of the test file each disk's jobs create under its mount point. */
export const FIO_TEST_FILE = 'storage-perf.fio-test';
/** Mount points when the spec gives none, as in Google's guide (`/mnt/disks/[MNT_DIR]`). */
export const DEFAULT_MOUNT_ROOT = '/mnt/disks';
const MAX_DEFAULT_FILE_KIB = 10 * 1024 * 1024; // 10 GiB

/** A disk as its jobs see it. Shared by the disk's own file and the file of workloads spread over disks. */
export interface Target {
  /** The disk as the spec writes it. */
  spec: DiskSpec;
  /**
   * Its evaluation, which the jobs' predictions come from; absent for a disk the model has no figures for (AWS
   * instance store), whose jobs are the probes of the figures the provider documents (./instance-store).
   */
  disk?: DiskEval;
  /** What the job file says the disk is: "pd-ssd, 500 GiB". */
  description: string;
  /** A network disk (the queue and CPU guidance applies), not a device of the machine's own (local SSD). */
  network: boolean;
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

/** A target whose disk the model evaluated: the jobs' predictions are its figures. */
export type EvaluatedTarget = Target & { disk: DiskEval };

/** The target of an evaluated disk. */
export function diskTarget(d: DiskEval, opts: FioOptions): EvaluatedTarget {
  const network = d.type.model !== 'devices';
  const count = d.spec.count ?? 1;
  const description = network
    ? `${d.typeName}, ${fmt(d.size_gib)} GiB`
    : `${d.typeName}, ${count} device${count === 1 ? '' : 's'}, ${fmt(d.size_gib)} GiB`;
  return { ...place(d.spec, d.size_gib, opts), disk: d, description, network };
}

/**
 * The test file (or, when allowed, the device) for a disk, and the region fio works on: half the disk up to
 * 10 GiB of a test file, all of a device, or the size fio_size or the caller gives; never more than the disk.
 */
export function place(s: DiskSpec, sizeGib: number, opts: FioOptions): Omit<Target, 'description' | 'network'> {
  const notes: string[] = [];
  const diskKib = Math.max(MIB_KIB, Math.floor(sizeGib * GIB_KIB));
  const device = s.device !== undefined && isDevicePath(s.device) ? s.device : undefined;
  if (s.device !== undefined && device === undefined)
    notes.push(`device '${oneLine(s.device)}' is not a block device path under /dev; it is ignored.`);
  const allowed = s.fio_destructive === true || opts.destructive === true;
  const fioSize = opts.sizeKib !== undefined && Number.isFinite(opts.sizeKib) && opts.sizeKib > 0 ? opts.sizeKib : s.fio_size_kib;
  if (device && allowed) {
    const region = fioSize !== undefined ? Math.min(Math.floor(fioSize), diskKib) : diskKib;
    if (/^\/dev\/(sda|vda|nvme0n1|xvda)$/.test(device))
      notes.push(`${device} is usually the boot disk: make sure it is the data disk '${s.name}'.`);
    return { spec: s, mode: 'device', device, regionKib: Math.max(1, region), wholeDevice: fioSize === undefined, notes };
  }
  if (device) {
    notes.push(
      `The disk's device ${device} is not used: writing to it would destroy its data. Set fio_destructive: true on the disk, or pass --destructive, to test the raw device; jobs use a test file instead.`,
    );
  }
  if (s.fio_destructive && !device) notes.push('fio_destructive is set but the disk names no device: jobs use a test file.');
  let directory = `${DEFAULT_MOUNT_ROOT}/${safeName(s.name)}`;
  if (s.mount_point !== undefined) {
    const m = safeMountPoint(s.mount_point);
    if (m) directory = m;
    else
      notes.push(
        `mount_point '${oneLine(s.mount_point)}' is not a usable directory (absolute, outside /dev, no '$' or '..'); using ${directory}.`,
      );
  } else {
    notes.push(`No mount_point in the spec: assuming the disk is mounted at ${directory}.`);
  }
  let region = fioSize !== undefined ? Math.floor(fioSize) : Math.min(Math.floor(diskKib / 2), MAX_DEFAULT_FILE_KIB);
  if (region > diskKib) {
    notes.push(`fio_size is larger than the disk; the test file is held to the disk's size.`);
    region = diskKib;
  }
  return { spec: s, mode: 'file', directory, regionKib: Math.max(1, region), wholeDevice: false, notes };
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

/**
 * Raises the region where a job would not fit in it (sequential streams need a slice of at least one block
 * each), and sets the fill job's time from the final region. Returns copies: targets are shared between files.
 */
export function fitRegion<T extends Target>(ts: T[], jobs: FioJob[]): T[] {
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
