/**
 * `storage-perf diff BASE HEAD`: what a change does to delivered figures, targets, cost and findings. Each side is
 * whatever `evaluate` reads (a spec, a Terraform plan, a .tf file or module folder), or with `--base-ref REF` the
 * base is the file as git has it at REF. Both sides are analysed with one evaluation cache: a VM the change left
 * alone is evaluated once.
 */
import { existsSync } from 'node:fs';
import {
  analyze,
  diffAnalyses,
  EvaluationCache,
  type Analysis,
  type CatalogRegistry,
  type DiffRecord,
  type Severity,
  type UnreadModule,
} from '../../../core/src';
import { ioReason } from '../../../protocol/src/file-io';
import { limitHeapGrowth } from '../../../protocol/src/heap';
import { loadHclParser } from '../../../protocol/src/hcl-parser';
import { inputForFile, needsHclParser, type AnalysisInput, type TfInputOptions } from '../../../protocol/src/terraform-input';
import { catalogFiles, parseCommand, terraformVars, TERRAFORM_VAR_OPTIONS, UsageError } from '../args';
import { loadRegistry } from '../catalog-file';
import { giveBaseModules } from './base-modules';
import { baseAtRef, GitReadError, type BaseAtRef } from './git';
import { renderMarkdown } from './markdown';
import { renderTable } from './table';
import { readInput } from '../evaluate';
import { writeChunks } from '../json-writer';
import { escapeData } from '../workflow-text';

const DIFF_USAGE = `usage: storage-perf diff BASE HEAD [--format table|markdown|json] [--fail-on SEVERITY]
       storage-perf diff --base-ref REF PATH [...]

  BASE, HEAD            each what 'evaluate' reads: a spec, a Terraform plan (JSON), a .tf file or module folder
  --base-ref REF        read the base from git at REF (git show REF:PATH, no checkout); PATH is the head, as on disk;
                        a PATH not at REF is new (all its VMs added), one not on the disk deleted (all removed);
                        a module's .terraform/modules (terraform init) is read for the base's calls whose source
                        and version are the same at REF; the head's VMs of other calls are 'not read at base'
  --format FORMAT       table (default), markdown (a pull-request comment, at most 65,000 characters), json
  --fail-on SEVERITY    exit 1 when a finding at least this severe appeared: error (default), warning, information
  --var-file, --var     Terraform variables, as for evaluate (both sides)
  --follow-links        read a plan or module a file names through links out of its repository, as for evaluate
  --root DIR            the folder module sources are read in, as for evaluate
  --catalog-file PATH   a catalog of your own (both sides)

What is shown: for each VM and disk that changed, the delivered read/write IOPS and MiB/s before and after with the
limit that binds each, each workload's target (met, missed and by how much), the monthly cost change (machine and
disks; a price unknown on either side stays unknown), and the findings that appeared or went away. VMs, disks and
workloads are matched by name (a Terraform address for Terraform input); unchanged VMs are counted, not listed.

examples:
  storage-perf diff old/storage.perf.yaml storage.perf.yaml
  storage-perf diff --base-ref origin/main storage.perf.yaml --format markdown > comment.md

exit status: 0 the change introduces no finding at or above --fail-on and no newly missed target, 1 it does,
2 usage errors, a side that cannot be read (with --base-ref: PATH neither at REF nor on the disk), or one that
does not parse`;

const FAIL_ON: Severity[] = ['error', 'warning', 'information'];
const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };
const FORMATS = ['table', 'markdown', 'json'];

/** Why a side cannot be diffed: it could not be read, or it does not parse (exit 2). */
class SideError extends Error {}

export async function diffCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(
    args,
    {
      format: { type: 'string', default: 'table' },
      'fail-on': { type: 'string', default: 'error' },
      'base-ref': { type: 'string' },
      ...TERRAFORM_VAR_OPTIONS,
    },
    DIFF_USAGE,
  );
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = values.format as string;
  if (!FORMATS.includes(format)) throw new UsageError(`unknown format '${format}' (${FORMATS.join(', ')})`);
  const failOn = values['fail-on'] as Severity;
  if (!FAIL_ON.includes(failOn)) throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, not '${failOn}'`);
  const ref = values['base-ref'] as string | undefined;
  if (ref !== undefined && positionals.length !== 1) throw new UsageError('--base-ref takes one PATH: the head, read from the disk');
  if (ref === undefined && positionals.length !== 2) throw new UsageError('give BASE and HEAD (or --base-ref REF and one PATH)');
  if (ref !== undefined && (ref === '' || ref.startsWith('-'))) throw new UsageError(`--base-ref '${ref}' is not a revision`);
  const registry = loadRegistry(catalogFiles(values));
  const tf = terraformVars(values);
  limitHeapGrowth();
  const [basePath, headPath] = ref === undefined ? positionals : [positionals[0], positionals[0]];
  let record: DiffRecord;
  try {
    record = await diffSides(basePath, headPath, ref, tf, registry);
  } catch (e) {
    if (!(e instanceof SideError)) throw e;
    // The names it holds escaped (%, CR, LF): one line in a CI log, whatever a path holds.
    process.stderr.write(`storage-perf diff: ${escapeData(e.message)}\n`);
    return 2;
  }
  const out =
    format === 'json' ? JSON.stringify(record, null, 2) + '\n' : format === 'markdown' ? renderMarkdown(record) : renderTable(record);
  await writeChunks([out], process.stdout);
  return introduces(record, failOn) ? 1 : 0;
}

/** Whether the change brings a finding at or above `failOn`, or a target missed that was not before. */
export function introduces(r: DiffRecord, failOn: Severity): boolean {
  if (r.counts.targets_now_missed > 0) return true;
  const appeared = [...r.findings.appeared, ...r.vms.flatMap((v) => v.findings.appeared)];
  return appeared.some((f) => RANK[f.severity] <= RANK[failOn]);
}

/**
 * Both sides read, analysed and compared. With `--base-ref`, a path that is not at REF is a file the change adds
 * (every VM added), and one that is not on the disk a file it deletes (every VM removed); neither is an error.
 */
async function diffSides(
  basePath: string,
  headPath: string,
  ref: string | undefined,
  tf: TfInputOptions,
  registry: CatalogRegistry,
): Promise<DiffRecord> {
  const at = ref === undefined ? basePath : `${basePath} at ${ref}`;
  let got: BaseAtRef | undefined;
  try {
    got = ref === undefined ? undefined : baseAtRef(ref, basePath);
  } catch (e) {
    throw new SideError(`cannot read the base, ${at}: ${e instanceof GitReadError ? e.message : ioReason(e)}`);
  }
  try {
    const headGone = ref !== undefined && !existsSync(headPath);
    if (headGone && got && 'absent' in got) throw new SideError(`${headPath} is neither at ${ref} nor on the disk`);
    const copy = got && 'path' in got ? got.path : undefined;
    if ([headPath, ref === undefined ? basePath : copy].some((p) => p !== undefined && needsHclParser(p))) await loadHclParser();
    const unread = copy === undefined || headGone ? [] : baseModules(headPath, copy, ref!, tf, at);
    const { base, head } = analyseSides(
      { name: at, read: baseReader(basePath, got, tf) },
      { name: headPath, read: headGone ? undefined : () => readInput(headPath, tf) },
      registry,
    );
    return diffAnalyses(
      { analysis: base, path: basePath, ...(ref !== undefined ? { ref } : {}), unread },
      { analysis: head, path: headPath },
    );
  } finally {
    if (got && 'cleanup' in got) got.cleanup();
  }
}

/** The base's copy at REF given the working tree's downloaded modules it reads alike (./base-modules.ts); those it is not. */
function baseModules(headPath: string, copy: string, ref: string, tf: TfInputOptions, at: string): UnreadModule[] {
  try {
    return giveBaseModules(headPath, copy, ref, tf);
  } catch (e) {
    throw new SideError(`cannot read the base, ${at}: ${ioReason(e)}`);
  }
}

/** How the base is read: from the disk (no `--base-ref`), from its text or its folder at REF; not where it is absent. */
function baseReader(path: string, got: BaseAtRef | undefined, tf: TfInputOptions): (() => AnalysisInput) | undefined {
  if (got === undefined) return () => readInput(path, tf);
  if ('text' in got) return () => inputForFile(path, got.text, tf);
  // The copy at REF stands for the repository (its own root): --root names a folder of the disk, not of the copy.
  if ('path' in got) return () => readInput(got.path, { ...tf, root: undefined });
  return undefined;
}

/** A side of the diff: how it is named in errors, and how it is read (none where the file is not on that side). */
export interface SideReader {
  name: string;
  read: (() => AnalysisInput) | undefined;
}

/**
 * Both sides read and analysed, the base first, with one evaluation cache: a VM the change left alone is evaluated
 * and checked once, and compared by its findings alone. The cache is unbounded. It holds what the base's analysis
 * holds anyway (its evaluations and findings) until the head's is made. A bound below the base's VM count would
 * drop each of its VMs before the head asks for it: the head reads its VMs in the base's order, so each of its
 * misses pushes out the next VM it will ask for, the least recently used.
 */
export function analyseSides(
  base: SideReader,
  head: SideReader,
  registry: CatalogRegistry,
): { base?: Analysis; head?: Analysis; cache: EvaluationCache } {
  const cache = new EvaluationCache(Number.POSITIVE_INFINITY);
  const b = base.read && analyseSide('base', base.name, base.read, registry, cache);
  const h = head.read && analyseSide('head', head.name, head.read, registry, cache);
  return { base: b, head: h, cache };
}

/** One side read and analysed; a side that cannot be read, or does not parse, is a SideError. */
function analyseSide(which: string, name: string, read: () => AnalysisInput, registry: CatalogRegistry, cache: EvaluationCache): Analysis {
  let input: AnalysisInput;
  try {
    input = read();
  } catch (e) {
    throw new SideError(`cannot read the ${which}, ${name}: ${ioReason(e)}`);
  }
  // Every finding: the per-file cap is for display, and a finding past it on one side only is neither new nor gone.
  const a = analyze(input.text, { registry, cache, frontEnd: input.frontEnd, allFindings: true });
  if (!a.spec) {
    const first = a.diagnostics.find((d) => d.severity === 'error');
    const where = first ? lineOf(input.text, first.span.start) : undefined;
    throw new SideError(
      `the ${which}, ${name}, does not parse${first ? `: ${where ? `line ${where}: ` : ''}${first.message} (${first.code})` : ''}`,
    );
  }
  return a;
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
