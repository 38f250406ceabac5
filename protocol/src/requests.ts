/**
 * The requests beyond LSP that the storage-perf language server answers, with their parameters and results:
 * the report of an open spec (status bar, report view), the diff of it against its last committed version, fio job files for it, and the comparison of a fio
 * result with the model's prediction. Also the names of its own command and code action kinds.
 *
 * The server, the VS Code extension and the tests share these. The extension's bundle takes this module in,
 * so it holds names and types only (and the mapping of fix types to code action kinds, a few lines of string
 * work): the core's types are imported type-only, and nothing here pulls in the server or an LSP library.
 */
import type { CodeActionKind } from 'vscode-languageserver-protocol';
import type { Alternative, Comparison, DiffRecord, FileReport, FioFile, FixType, Target } from '../../core/src';

export const ReportRequest = 'storagePerf/report';
/** The open document against another text of it (its last committed version): `storage-perf diff`'s record. */
export const DiffWithBaseRequest = 'storagePerf/diffWithBase';
export const GenerateFioRequest = 'storagePerf/generateFio';
export const CompareFioRequest = 'storagePerf/compareFio';
/** Drops the imported fio result of a document: its `fio-measurement` diagnostics go away. */
export const ClearFioRequest = 'storagePerf/clearFio';

/**
 * The server-side command behind "Generate fio jobs for this VM" for clients that cannot create files from a
 * workspace edit: the server writes the files next to the spec. (Not `storagePerf.generateFio`: that is the
 * VS Code extension's own command, and a server command of the same name would clash with it.)
 */
export const WriteFioCommand = 'storagePerf.server.writeFioJobs';

// LSP's base kinds spelled out, typed against the library's constants, which a type-only import keeps out of
// the extension's bundle.
const SOURCE: typeof CodeActionKind.Source = 'source';
const REFACTOR: typeof CodeActionKind.Refactor = 'refactor';
/** Kinds of the "Generate fio jobs" code action: a source action anywhere in a VM, a refactoring on its name. */
export const FioSourceActionKind = `${SOURCE}.storagePerf.generateFio`;
/**
 * The code action kind of a quick fix that changes the design (machine, disk type, size, device count): a
 * sub-kind of quickfix, so editors list it with the others, and `storage-perf lint --fix` applies it only with
 * `--fix-type sizing`.
 */
export const SizingQuickFixKind = 'quickfix.sizing';
/** The kind of a quick fix that changes a workload (its block size or queue depth): applied with `--fix-type workload`. */
export const WorkloadQuickFixKind = 'quickfix.workload';

const QUICKFIX: typeof CodeActionKind.QuickFix = 'quickfix';

/**
 * The code action kind of a quick fix of these types (core's `fixTypesOf`): `quickfix` for a correction,
 * `quickfix.sizing`, `quickfix.workload`, and `quickfix.sizing.workload` for a design change that sets a
 * workload's queue depth too (applied only where both types are asked for).
 */
export function quickFixKind(types: readonly FixType[]): string {
  const design = types.filter((t) => t !== 'problem');
  return design.length ? `${QUICKFIX}.${design.join('.')}` : QUICKFIX;
}

/** The fix types a quick fix of this kind needs (`quickFixKind` read back); a kind not of ours is a correction. */
export function fixTypesOfKind(kind: string | undefined): FixType[] {
  const parts = (kind ?? QUICKFIX).split('.');
  const types = parts[0] === QUICKFIX ? parts.slice(1).filter((t): t is FixType => t === 'sizing' || t === 'workload') : [];
  return types.length ? types : ['problem'];
}

export const FioRefactorActionKind = `${REFACTOR}.storagePerf.generateFio`;

export interface UriParams {
  uri: string;
}

type WorkloadReport = FileReport['vms'][number]['workloads'][number];

/** A workload of the report with the targets it was given (throughput in MiB/s). */
export interface ReportWorkload extends WorkloadReport {
  target: Target;
}

/** `storagePerf/report`: the JSON report of the document, with targets, and the cost already formatted. */
export interface SpecReport extends Omit<FileReport, 'vms'> {
  /**
   * The monthly cost (machines and disks) as the hover and the CLI write it: `$95.00`, or `at least $95.00 (IOPS
   * price unknown in europe-west4)` when a price is missing; null where nothing is priced.
   */
  monthly_cost_text: string | null;
  /** What the advice found for the spec's findings, each with the VM's cost and figures once applied. */
  alternatives: Alternative[];
  vms: Array<Omit<FileReport['vms'][number], 'workloads'> & { workloads: ReportWorkload[] }>;
}

export interface GenerateFioParams extends UriParams {
  /** Only this VM (default: every VM). */
  vm?: string;
  /** How the files' "compare" hint names the spec (default: its file name). */
  specName?: string;
}
/** A job file as the extension writes it: the core's FioFile without the job models. */
export type FioFileText = Omit<FioFile, 'jobs'>;
export interface GenerateFioResult {
  files: FioFileText[];
}

export interface CompareFioParams extends UriParams {
  /** fio's output, `--output-format=json` (fio's own message lines around it are tolerated). */
  resultText: string;
  /** The VM the result was measured on; default: the VM whose job names the result matches best. */
  vm?: string;
  /**
   * Keep the result and show it on the spec as `fio-measurement` diagnostics, recomputed as the spec changes,
   * until the document closes or `storagePerf/clearFio` (default true).
   */
  show?: boolean;
}
/** One comparison flattened for a table: the figure the verdict is read from, measured and predicted. */
export interface CompareRow {
  vm: string;
  workload?: string;
  job: string;
  metric: 'iops' | 'mibps';
  unit: 'IOPS' | 'MiB/s';
  predicted?: number;
  measured?: number;
  /** Measured ÷ predicted; null when the prediction is zero. */
  ratio?: number | null;
  verdict: Comparison['verdict'];
  /** The most likely cause when the verdict is not "within". */
  note?: string;
}
export interface CompareFioResult {
  /** The VM the result was compared with. */
  vm: string;
  comparisons: Comparison[];
  /** How many comparisons have each verdict. */
  counts: Partial<Record<Comparison['verdict'], number>>;
  rows: CompareRow[];
  /** One sentence: how many jobs agree with the prediction. */
  summary: string;
}

export interface DiffWithBaseParams extends UriParams {
  /** The base's text: the document as the last commit has it (the client reads it; the server runs no git). */
  baseText: string;
  /** What the base is, as the record names it (`ref`): a commit, e.g. `HEAD` or its short hash. */
  baseRef: string;
}

/**
 * `storagePerf/diffWithBase`: the diff record of the base text's analysis against the document's (the core's
 * `diffAnalyses`, as `storage-perf diff` gives it); or, where there is none, why (`unavailable`): the document is
 * not open, a side does not parse, or the spec reads other files (a workload sidecar's plan) that the base text
 * alone does not give as they were.
 */
export type DiffWithBaseResult = { record: DiffRecord } | { unavailable: string };
/** The parts of the diff record the extension shows. */
export type { DiffFinding, DiffRecord, DiskDiff, FigureChange, Money, MoneyChange, VmDiff, WorkloadDiff } from '../../core/src';
