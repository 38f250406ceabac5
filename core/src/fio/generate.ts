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
import type { Catalog } from '../catalog';
import type { VmEval, WorkloadEval } from '../model/types';
import { instanceStoreJobs, instanceStoreTarget, probedStore } from './instance-store';
import { diskJobs, workloadJob, type Timing } from './jobs';
import { render } from './render';
import { safeName } from './syntax';
import { diskTarget, fitRegion, type EvaluatedTarget } from './targets';

export type { FioFile, FioJob, FioJobContext, FioJobKind, FioOptions, FioPrediction, FioProbe } from './types';
import type { FioFile, FioOptions } from './types';

// Exported from this module before it was split; still offered here so that no import of it breaks.
export { DEFAULT_MOUNT_ROOT, FIO_TEST_FILE, isDevicePath, safeMountPoint } from './targets';
export { formatKib, safeName } from './syntax';
export { probedStore } from './instance-store';

const DEFAULT_RUNTIME = 60;

/**
 * One file per disk (its fill, its own workloads, the probes), and one for the workloads spread over several.
 * A disk without figures gets a file only where the provider documents figures to probe (AWS instance store).
 */
export function generateFioJobs(analysis: Analysis, opts: FioOptions = {}): FioFile[] {
  const c = analysis.catalog;
  if (!c) return [];
  const runtime =
    opts.runtimeSeconds !== undefined && Number.isFinite(opts.runtimeSeconds) && opts.runtimeSeconds > 0
      ? opts.runtimeSeconds
      : DEFAULT_RUNTIME;
  const ramp = Math.min(2, runtime / 10);
  const timing: Timing = { runtime, ramp };
  const out: FioFile[] = [];
  const used = new Set<string>();
  for (const e of analysis.vms) {
    if (opts.vm !== undefined && e.spec.name !== opts.vm) continue;
    // An instance store has IOPS figures only: its file probes them (instanceStoreFiles), and its workloads get no job.
    const disks = e.disks.filter((d) => !d.throughputUnknown);
    const probed = new Set(e.disks.filter((d) => d.throughputUnknown).map((d) => d.spec.name));
    const targets = new Map<string, EvaluatedTarget>();
    for (const d of disks) targets.set(d.spec.name, diskTarget(d, opts));
    const perDisk = new Map<string, WorkloadEval[]>();
    const spread: WorkloadEval[] = [];
    for (const w of e.workloads) {
      const on = w.disks.length === 1 ? w.disks[0] : undefined;
      if (on !== undefined && targets.has(on)) {
        const list = perDisk.get(on);
        if (list) list.push(w);
        else perDisk.set(on, [w]);
      } else if (w.disks.length && !w.disks.some((n) => probed.has(n))) spread.push(w);
    }
    const names = new Set<string>();
    for (const d of disks) {
      const t = targets.get(d.spec.name)!;
      const jobs = diskJobs(c, e, t, perDisk.get(d.spec.name) ?? [], timing, names);
      out.push(
        render(
          c,
          e,
          fitRegion([t], jobs),
          jobs,
          timing,
          unique(used, `${safeName(e.spec.name)}-${safeName(d.spec.name)}.fio`),
          opts,
          d.spec.name,
        ),
      );
    }
    out.push(...instanceStoreFiles(c, e, timing, used, opts));
    if (spread.length) {
      const ts = spread[0].disks.map((n) => targets.get(n)).filter((t): t is EvaluatedTarget => !!t);
      const jobs = spread.map((w) => workloadJob(c, e, ts, w, timing, names));
      out.push(render(c, e, fitRegion(ts, jobs), jobs, timing, unique(used, `${safeName(e.spec.name)}-all-disks.fio`), opts));
    }
  }
  return out;
}

/** The files of a VM's instance-store disks: the probes of AWS's documented IOPS. */
function instanceStoreFiles(c: Catalog, e: VmEval, timing: Timing, used: Set<string>, opts: FioOptions): FioFile[] {
  const out: FioFile[] = [];
  for (const d of e.spec.disks) {
    const store = probedStore(c, e, d);
    if (!store) continue;
    const t = instanceStoreTarget(e, d, store, opts);
    const jobs = instanceStoreJobs(c, e, t, store, timing);
    out.push(
      render(c, e, fitRegion([t], jobs), jobs, timing, unique(used, `${safeName(e.spec.name)}-${safeName(d.name)}.fio`), opts, d.name),
    );
  }
  return out;
}

function unique(used: Set<string>, name: string): string {
  let n = name;
  for (let i = 2; used.has(n); i++) n = name.replace(/\.fio$/, `-${i}.fio`);
  used.add(n);
  return n;
}
