/**
 * Requests beyond LSP that the VS Code extension sends: the report of an open spec (status bar, report
 * view), fio job files for it, and the comparison of a fio result with the model's prediction. Each answers
 * from the analysis the server already holds for the document, so the editor never computes anything.
 *
 * The wire shapes are exported as types: the extension imports them type-only.
 */
import { fileURLToPath } from 'node:url';
import { ResponseError, ErrorCodes, type Connection } from 'vscode-languageserver/node';
import { fileReport, fmtMoney, type Analysis, type FileReport, type Target } from '../../core/src';
import { generateFioJobs, type FioFile } from '../../core/src/fio/generate';
import { compareResults, FioResultError, parseFioOutput, parseFioResult, type Comparison, type FioMeasurement } from '../../core/src/fio/compare';

export const ReportRequest = 'storagePerf/report';
export const GenerateFioRequest = 'storagePerf/generateFio';
export const CompareFioRequest = 'storagePerf/compareFio';

export interface UriParams { uri: string }

type WorkloadReport = FileReport['vms'][number]['workloads'][number];

/** A workload of the report with the targets it was given (throughput in MiB/s). */
export interface ReportWorkload extends WorkloadReport { target: Target }

/** `storagePerf/report`: the JSON report of the document, with targets, and the cost already formatted. */
export interface SpecReport extends Omit<FileReport, 'vms'> {
  /** The monthly cost as the hover and the CLI write it (`$95.00`); null where there are no prices. */
  monthly_cost_text: string | null;
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
export interface GenerateFioResult { files: FioFileText[] }

export interface CompareFioParams extends UriParams {
  /** fio's output, `--output-format=json` (fio's own message lines around it are tolerated). */
  resultText: string;
  /** The VM the result was measured on; default: the VM whose job names the result matches best. */
  vm?: string;
}
export interface CompareFioResult {
  /** The VM the result was compared with. */
  vm: string;
  comparisons: Comparison[];
  /** How many comparisons have each verdict. */
  counts: Partial<Record<Comparison['verdict'], number>>;
}

function pathOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

const baseName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

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

/** The VM a fio result was measured on: the one whose generated job names it matches most. */
function vmOf(analysis: Analysis, measurements: FioMeasurement[], specName: string): string | undefined {
  if (analysis.vms.length === 1) return analysis.vms[0].spec.name;
  const names = new Set(measurements.map((m) => m.name));
  let best: { vm: string; hits: number } | undefined;
  for (const vm of analysis.vms) {
    const hits = generateFioJobs(analysis, { vm: vm.spec.name, specName }).flatMap((f) => f.jobs).filter((j) => names.has(j.name)).length;
    if (!best || hits > best.hits) best = { vm: vm.spec.name, hits };
  }
  return best?.vm;
}

export function registerCustomRequests(connection: Connection, getAnalysis: (uri: string) => Analysis | undefined): void {
  const evaluated = (uri: string): Analysis => {
    const a = getAnalysis(uri);
    if (!a) throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not open in the language server`);
    if (!a.spec || !a.catalog) throw new ResponseError(ErrorCodes.InvalidParams, 'the spec does not evaluate yet: fix its errors first');
    return a;
  };
  // Like the server's own handlers: a failure is logged and answered as an error, never thrown into the connection.
  const guard = <P, R>(name: string, fn: (p: P) => R) => (p: P): R => {
    try {
      return fn(p);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      if (e instanceof FioResultError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
      connection.console.error(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
      throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${(e as Error)?.message ?? String(e)}`);
    }
  };

  connection.onRequest(ReportRequest, guard(ReportRequest, (p: UriParams): SpecReport | null => {
    const a = getAnalysis(p.uri);
    return a ? specReport(p.uri, a) : null;
  }));

  connection.onRequest(GenerateFioRequest, guard(GenerateFioRequest, (p: GenerateFioParams): GenerateFioResult => {
    const a = evaluated(p.uri);
    const files = generateFioJobs(a, { vm: p.vm, specName: p.specName ?? baseName(pathOf(p.uri)) });
    return { files: files.map(({ jobs: _jobs, ...file }) => file) };
  }));

  connection.onRequest(CompareFioRequest, guard(CompareFioRequest, (p: CompareFioParams): CompareFioResult => {
    const a = evaluated(p.uri);
    const measurements = parseFioResult(parseFioOutput(p.resultText));
    const specName = baseName(pathOf(p.uri));
    const vm = p.vm ?? vmOf(a, measurements, specName);
    if (!vm || !a.vms.some((v) => v.spec.name === vm)) throw new ResponseError(ErrorCodes.InvalidParams, `the spec has no VM '${vm ?? ''}'`);
    const comparisons = compareResults(generateFioJobs(a, { vm, specName }), measurements);
    const counts: CompareFioResult['counts'] = {};
    for (const c of comparisons) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
    return { vm, comparisons, counts };
  }));
}
