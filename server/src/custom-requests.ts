/**
 * Requests beyond LSP that the VS Code extension sends: the report of an open spec (status bar, report
 * view), fio job files for it, and the comparison of a fio result with its prediction. Each answers from
 * the analysis the server already holds for the document, so the editor never computes anything itself.
 *
 * The wire shapes are exported as types: the extension imports them type-only.
 */
import { fileURLToPath } from 'node:url';
import { ResponseError, ErrorCodes, type Connection } from 'vscode-languageserver/node';
import { fileReport, fmtMoney, type Analysis, type FileReport, type Target } from '../../core/src';

type WorkloadReport = FileReport['vms'][number]['workloads'][number];

export const ReportRequest = 'storagePerf/report';
export const GenerateFioRequest = 'storagePerf/generateFio';
export const CompareFioRequest = 'storagePerf/compareFio';

export interface UriParams { uri: string }

/** A workload of the report with the targets it was given (MiB/s for throughput). */
export interface ReportWorkload extends WorkloadReport { target: Target }

/** `storagePerf/report`: the JSON report of the document, with targets, and the cost already formatted. */
export interface SpecReport extends Omit<FileReport, 'vms'> {
  /** The monthly cost as the hover and the CLI write it (`$95.00`), or null where there are no prices. */
  monthly_cost_text: string | null;
  vms: Array<Omit<FileReport['vms'][number], 'workloads'> & { workloads: ReportWorkload[] }>;
}

export interface GenerateFioParams extends UriParams { vm?: string }
export interface FioFile { fileName: string; text: string }
export interface GenerateFioResult { files: FioFile[] }

export interface CompareFioParams extends UriParams { resultText: string; vm?: string }
/** One comparison of a measured figure with the predicted one. */
export interface CompareRow {
  vm?: string; workload?: string; job?: string; metric: string;
  predicted?: number; measured?: number; unit?: string; ratio?: number; verdict?: string; note?: string;
}
export interface CompareFioResult { rows: CompareRow[]; summary?: string }

/** What the fio module of the core offers, as far as these requests use it. */
interface FioModule {
  generateFioJobs(analysis: Analysis, opts: Record<string, unknown>): FioFile[];
  parseFioResult(text: string): unknown;
  compareResults(analysis: Analysis, result: unknown, opts: Record<string, unknown>): unknown;
}

let fioModule: FioModule | null | undefined;

/** The core's fio support when this build has it. Loaded on first use: most sessions never need it. */
function fio(): FioModule | null {
  if (fioModule !== undefined) return fioModule;
  try {
    // A plain require inside try: the bundler includes the module when it exists and leaves a build
    // without it working (the requests then answer that fio support is missing).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const m = require('../../core/src/fio') as Partial<FioModule>;
    fioModule = typeof m.generateFioJobs === 'function' && typeof m.parseFioResult === 'function' && typeof m.compareResults === 'function' ? (m as FioModule) : null;
  } catch {
    fioModule = null;
  }
  return fioModule;
}

function pathOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function specReport(uri: string, analysis: Analysis): SpecReport {
  const report = fileReport(pathOf(uri), analysis);
  const targets = new Map<string, Target>();
  for (const vm of analysis.vms) for (const w of vm.workloads) targets.set(`${vm.spec.name}\u0000${w.spec.name}`, w.spec.target);
  return {
    ...report,
    monthly_cost_text: report.monthly_cost === null || !report.currency ? null : fmtMoney(report.monthly_cost, report.currency),
    vms: report.vms.map((vm) => ({
      ...vm,
      workloads: vm.workloads.map((w) => ({ ...w, target: targets.get(`${vm.name}\u0000${w.name}`) ?? {} })),
    })),
  };
}

/** Comparison rows from whatever shape the core's compareResults returns: an array, or an object holding one. */
function rowsOf(value: unknown): { rows: CompareRow[]; summary?: string } {
  if (Array.isArray(value)) return { rows: value as CompareRow[] };
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const rows = Array.isArray(o.rows) ? o.rows : Array.isArray(o.comparisons) ? o.comparisons : [];
    return { rows: rows as CompareRow[], summary: typeof o.summary === 'string' ? o.summary : undefined };
  }
  return { rows: [] };
}

export function registerCustomRequests(connection: Connection, getAnalysis: (uri: string) => Analysis | undefined): void {
  const analysisFor = (uri: string): Analysis => {
    const a = getAnalysis(uri);
    if (!a) throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not open in the language server`);
    return a;
  };
  const fioOrFail = (): FioModule => {
    const m = fio();
    if (!m) throw new ResponseError(ErrorCodes.InternalError, 'this build of the storage-perf language server has no fio support');
    return m;
  };
  const wrap = <P, R>(name: string, fn: (p: P) => R) => (p: P): R => {
    try {
      return fn(p);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      connection.console.error(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
      throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${(e as Error)?.message ?? String(e)}`);
    }
  };

  connection.onRequest(ReportRequest, wrap(ReportRequest, (p: UriParams): SpecReport | null => {
    const a = getAnalysis(p.uri);
    return a ? specReport(p.uri, a) : null;
  }));

  connection.onRequest(GenerateFioRequest, wrap(GenerateFioRequest, (p: GenerateFioParams): GenerateFioResult => {
    const a = analysisFor(p.uri);
    if (!a.spec) throw new ResponseError(ErrorCodes.InvalidParams, 'the spec does not parse: fix its errors first');
    return { files: fioOrFail().generateFioJobs(a, p.vm ? { vm: p.vm } : {}) };
  }));

  connection.onRequest(CompareFioRequest, wrap(CompareFioRequest, (p: CompareFioParams): CompareFioResult => {
    const a = analysisFor(p.uri);
    const m = fioOrFail();
    let result: unknown;
    try {
      result = m.parseFioResult(p.resultText);
    } catch (e) {
      throw new ResponseError(ErrorCodes.InvalidParams, `not a fio JSON result: ${(e as Error)?.message ?? String(e)}`);
    }
    return rowsOf(m.compareResults(a, result, p.vm ? { vm: p.vm } : {}));
  }));
}
