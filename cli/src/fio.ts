/**
 * `storage-perf fio FILE [--vm NAME] [--out DIR]`: fio job files for the spec's VMs, one per disk (plus one
 * for workloads that spread over several disks), each job with the model's prediction beside it.
 *
 * The files are written next to the spec unless --out says otherwise, so that the command each file prints
 * at its top (`fio ... && storage-perf compare SPEC ...`) works from that folder.
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  analyze,
  frontEndFor,
  generateFioJobs,
  INSTANCE_STORE,
  instanceStoreOf,
  probedStore,
  fioBlockers,
  LineIndex,
  parseBlockSize,
  type Analysis,
  type FioFile,
  type FioOptions,
  type VmEval,
} from '../../core/src';
import { loadRegistry } from './catalog-file';
import { catalogFiles, parseCommand, UsageError } from './args';
import { ioReason, MAX_NAMED_BYTES, readBounded } from '../../protocol/src/file-io';
import { writeAllInside } from '../../protocol/src/file-write';
import { escapeData, oneLine } from './workflow-text';

export const FIO_USAGE = `usage: storage-perf fio FILE [--vm NAME] [--out DIR] [--destructive] [--runtime SECONDS] [--size SIZE]
                        [--stdout] [--keep-test-file] [--force] [--catalog-file PATH]...

Writes fio job files for the spec's VMs: per disk a fill job, the spec's own workloads and the standard
bandwidth, IOPS and latency probes, each with the model's prediction.

  --vm NAME          only this VM
  --out DIR          where to write the files (default: the spec's folder)
  --destructive      let jobs write to each disk's raw 'device' (DESTROYS ITS DATA); without it, and without
                     fio_destructive: true on the disk, jobs use a test file under the disk's mount_point
  --runtime SECONDS  seconds each timed job runs (default 60; fractions allowed, for trials)
  --size SIZE        size of every test file or device region (fio spellings: 64m, 10g), in place of fio_size
  --stdout           print the files instead of writing them
  --keep-test-file   leave the test file on the disk (by default the last job deletes it)
  --force            replace job files that are read-only (without it they are refused and nothing is written)

examples:
  storage-perf fio examples/storage.perf.yaml --out fio/
  storage-perf fio db.perf.yaml --vm db --runtime 30 --size 1g --stdout

A workload that misses its target still gets its jobs: measuring it is the point. Jobs that would be
meaningless or unsafe are not written: for a VM whose machine is unknown, a disk without a size or figures, a
configuration the provider refuses or a rejected mount point, nothing is written for that VM (the other VMs'
files are) and the errors are listed.

exit status: 0 files written (targets missed or not), 1 a VM has errors that stop its jobs (nothing written
for it), 2 usage or I/O error`;

/** A spec read and evaluated, or a usage error that says why not. */
export function loadSpec(path: string, catalogFiles: string[]): Analysis {
  let text: string;
  try {
    text = readBounded(path, { maxBytes: MAX_NAMED_BYTES, pipes: true });
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${ioReason(e)}`);
  }
  const analysis = analyze(text, { registry: loadRegistry(catalogFiles), frontEnd: frontEndFor(path) });
  if (!analysis.spec || !analysis.catalog) {
    const errors = analysis.diagnostics
      .filter((d) => d.severity === 'error')
      .slice(0, 5)
      .map((d) => `  ${d.code}: ${d.message}`);
    throw new UsageError(`${path} does not evaluate; fix its errors first${errors.length ? `:\n${errors.join('\n')}` : ''}`);
  }
  return analysis;
}

/** Throws when --vm names no VM of the spec, listing those it has. */
export function checkVm(analysis: Analysis, vm: string | undefined, path: string): void {
  if (vm === undefined || analysis.vms.some((v) => v.spec.name === vm)) return;
  const known = analysis.vms.map((v) => `'${v.spec.name}'`).join(', ') || 'none that evaluates';
  throw new UsageError(`${path} has no VM '${vm}' (its VMs: ${known})`);
}

export function parseRuntime(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s.replace(/s$/, ''));
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--runtime '${s}' is not a positive number of seconds`);
  return n;
}

export function parseFioSize(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const p = parseBlockSize(s);
  if (!p.ok) throw new UsageError(`--size: ${p.message}`);
  // Direct I/O needs whole 4 KiB sectors at least; a region smaller than a block cannot hold a job.
  if (p.value < 4) throw new UsageError(`--size '${s}' is too small: at least 4k`);
  return p.value;
}

export async function fioCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(
    args,
    {
      vm: { type: 'string' },
      out: { type: 'string' },
      destructive: { type: 'boolean' },
      runtime: { type: 'string' },
      size: { type: 'string' },
      stdout: { type: 'boolean' },
      'keep-test-file': { type: 'boolean' },
      force: { type: 'boolean' },
    },
    FIO_USAGE,
  );
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'one FILE at a time' : 'no FILE given');
  if (values.stdout && values.out !== undefined) throw new UsageError('--stdout and --out exclude each other');
  const path = positionals[0];
  const analysis = loadSpec(path, catalogFiles(values));
  const vm = values.vm as string | undefined;
  checkVm(analysis, vm, path);
  const opts: FioOptions = {
    vm,
    destructive: values.destructive === true,
    keepTestFile: values['keep-test-file'] === true,
    runtimeSeconds: parseRuntime(values.runtime as string | undefined),
    sizeKib: parseFioSize(values.size as string | undefined),
    specName: basename(path),
  };
  // A missed target never stops the jobs: measuring is what a user wants then. Jobs that would be meaningless or
  // unsafe do stop (an unknown machine, a disk without a size or figures, a rejected mount point): nothing is
  // written for that VM, the others' files are, and the exit status says a VM was left out.
  const blocked = blockedVms(analysis, vm, path);
  const files = generateFioJobs(analysis, opts).filter((f) => !blocked.has(f.vm));
  sayWithoutJobs(analysis, vm);
  if (!files.length) {
    if (blocked.size) return 1;
    process.stderr.write(`storage-perf fio: ${escapeData(path)} has no VM with a disk that evaluates: nothing to generate\n`);
    return 2;
  }
  const status = blocked.size ? 1 : 0;
  if (values.stdout) {
    process.stdout.write(files.map((f) => f.text).join('\n'));
    warnDestructive(files);
    return status;
  }
  const out = (values.out as string | undefined) ?? dirname(path);
  try {
    mkdirSync(out, { recursive: true });
    // All or nothing: each file is written to a temporary file first, so that a full disk leaves the old ones.
    writeAllInside(
      out,
      files.map((f) => ({ name: f.fileName, text: f.text })),
      { force: values.force === true },
    );
  } catch (e) {
    process.stderr.write(`storage-perf fio: cannot write to ${escapeData(out)}: ${escapeData(ioReason(e))}\n`);
    return 2;
  }
  for (const f of files) {
    const full = join(out, f.fileName);
    const rel = relative(process.cwd(), full);
    const where = rel && !rel.startsWith('..') ? rel : resolve(full);
    process.stdout.write(
      `${where}: VM ${f.vm}, ${f.disk !== undefined ? `disk ${f.disk}` : 'workloads over several disks'}, ${f.jobs.length} jobs, about ${minutes(f.expectedSeconds)}${f.destructive ? ', WRITES TO RAW DEVICES' : ''}\n`,
    );
  }
  warnDestructive(files);
  return status;
}

/**
 * The VMs (by name) whose jobs would be meaningless or unsafe (core's fioBlockers), each said on standard error
 * with its errors. Only the named VM with --vm.
 */
function blockedVms(analysis: Analysis, vm: string | undefined, path: string): Set<string> {
  const blocked = new Set<string>();
  const idx = new LineIndex(analysis.parsed.text);
  analysis.spec?.vms.forEach((v, i) => {
    if (vm !== undefined && v.name !== vm) return;
    const errors = fioBlockers(analysis, i);
    if (!errors.length) return;
    blocked.add(v.name);
    const lines = errors
      .slice(0, 10)
      .map((d) => `  ${escapeData(path)}:${idx.position(d.span.start).line + 1}: ${d.code}: ${oneLine(d.message)}`);
    process.stderr.write(
      `storage-perf fio: ${escapeData(path)} has errors for VM '${escapeData(v.name)}'; no job files written for it:\n${lines.join('\n')}\n`,
    );
  });
  return blocked;
}

/**
 * What gets no job because the model has no figures for it to be compared with: a disk of a type the edition
 * does not model on the machine, an instance store whose table gives no block size for its IOPS, and the
 * workloads on an instance store (whose own file probes only the IOPS AWS documents). Said, never left out
 * silently.
 */
function sayWithoutJobs(analysis: Analysis, vm: string | undefined): void {
  const say = (e: VmEval, what: string, why: string) =>
    process.stderr.write(
      `storage-perf fio: VM ${escapeData(e.spec.name)}, ${what}: no jobs, since the model has no figures for it to compare with (${why})\n`,
    );
  for (const e of analysis.vms) {
    if (vm !== undefined && e.spec.name !== vm) continue;
    for (const d of e.spec.disks) {
      const u = e.unmodelled?.find((x) => x.spec === d);
      if (u) say(e, `disk ${escapeData(d.name)}`, `${d.type} on ${e.machine?.name ?? '?'} is not modelled in ${e.catalog.edition}`);
      else if (d.type === INSTANCE_STORE && instanceStoreOf(e.catalog, e.machine) && !probedStore(e.catalog, e, d))
        say(e, `disk ${escapeData(d.name)}`, `${e.catalog.edition}'s instance store table gives no block size for its IOPS`);
    }
    // Every workload on an instance store, evaluated (its IOPS target) or not: its file has the probes only.
    for (const w of e.spec.workloads) {
      const on = e.spec.disks.filter((d) => w.disk === undefined || d.name === w.disk);
      if (on.some((d) => d.type === INSTANCE_STORE))
        say(
          e,
          `workload ${escapeData(w.name)}`,
          "it runs on instance store, whose throughput AWS does not give; the instance store's own file probes the IOPS AWS does",
        );
    }
  }
}

/** Never silent: a file that destroys data says so on the terminal too, not only inside itself. */
function warnDestructive(files: FioFile[]): void {
  for (const f of files.filter((x) => x.destructive)) {
    process.stderr.write(
      `storage-perf fio: WARNING: ${escapeData(f.fileName)} writes to raw block devices and destroys their data; run it only on a throwaway VM and disk\n`,
    );
  }
}

function minutes(s: number): string {
  if (s < 60) return `${Math.max(1, Math.round(s))} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}
