/**
 * Requests beyond LSP that the VS Code extension sends: the report of an open spec (status bar, report
 * view), fio job files for it, and the comparison of a fio result with the model's prediction. Each answers
 * from the analysis the server already holds for the document, so the editor never computes anything.
 * The names and wire shapes are in protocol/src/requests.ts.
 */
import { mkdirSync } from 'node:fs';
import { writeAtomic, ioReason } from '../../protocol/src/file-io';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ResponseError, ErrorCodes,
  type CodeAction, type Connection, type CreateFile, type TextDocumentEdit,
} from 'vscode-languageserver/node';
import { fileReport, fmt, fmtMoney, valueSpan, type Analysis, type Diagnostic, type Target } from '../../core/src';
import {
  ClearFioRequest, CompareFioRequest, FioRefactorActionKind, FioSourceActionKind, GenerateFioRequest, ReportRequest, WriteFioCommand,
  type CompareFioParams, type CompareFioResult, type CompareRow, type GenerateFioParams, type GenerateFioResult, type SpecReport, type UriParams,
} from '../../protocol/src/requests';
import { generateFioJobs } from '../../core/src/fio/generate';
import { comparisonDiagnostics, FioResultError, type Comparison, type FioMeasurement } from '../../core/src/fio/compare';
import { compareFioOutput, compareMeasurements } from '../../core/src/fio/measure';

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

function rows(vm: string, cs: Comparison[]): CompareRow[] {
  return cs.map((c) => {
    const pick = (f?: { read_iops: number; write_iops: number; read_mibps: number; write_mibps: number }) =>
      f === undefined ? undefined : c.metric === 'iops' ? f.read_iops + f.write_iops : f.read_mibps + f.write_mibps;
    return {
      vm, workload: c.workload, job: c.job, metric: c.metric, unit: c.metric === 'iops' ? 'IOPS' : 'MiB/s',
      predicted: pick(c.predicted), measured: pick(c.measured),
      ratio: c.ratio === undefined ? undefined : Number.isFinite(c.ratio) ? c.ratio : null,
      verdict: c.verdict, note: c.verdict === 'within' ? undefined : c.causes[0],
    };
  });
}

function summaryOf(cs: Comparison[]): string {
  const measured = cs.filter((c) => c.verdict !== 'missing' && c.verdict !== 'unmatched');
  const within = measured.filter((c) => c.verdict === 'within').length;
  const off = (v: Comparison['verdict'], word: string) => {
    const n = cs.filter((c) => c.verdict === v).length;
    return n ? `${n} ${word}` : '';
  };
  const rest = [off('below', 'below'), off('above', 'above'), off('failed', 'failed'), off('missing', 'not in the result'), off('unmatched', 'without a prediction')].filter(Boolean);
  return `${fmt(within)} of ${fmt(measured.length)} measured jobs within expectation${rest.length ? `; ${rest.join(', ')}` : ''}.`;
}

/** Where generated files go: next to the spec, when the spec is a file. */
function fioUri(specUri: string, fileName: string): string | undefined {
  if (!specUri.startsWith('file:')) return undefined;
  try {
    return new URL(encodeURIComponent(fileName), specUri).href;
  } catch {
    return undefined;
  }
}

/** Whether a code action of `kind` answers a request for the kinds `only` (none: every kind; a kind covers its sub-kinds). */
export function kindWanted(kind: string, only: string[] | undefined): boolean {
  return !only?.length || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

/**
 * "Generate fio jobs for VM 'x'": offered for the VM under the cursor — as a refactoring when the cursor is on
 * the VM's name (the light bulb shows it), as a source action anywhere in the VM (the editor's "Source
 * Action..." menu). Its edit creates the files next to the spec when the client can create files from an
 * edit; otherwise it carries the server command that writes them.
 */
export function fioCodeActions(uri: string, analysis: Analysis, start: number, end: number, only: string[] | undefined, canCreateFiles: boolean): CodeAction[] {
  if (!analysis.spec || !analysis.catalog) return [];
  const wants = (kind: string) => kindWanted(kind, only);
  const out: CodeAction[] = [];
  for (const vm of analysis.vms) {
    const tree = analysis.parsed.tree;
    const body = valueSpan(tree, vm.spec.path);
    const name = valueSpan(tree, `${vm.spec.path}/name`);
    if (!body || start < body.start || end > body.end) continue;
    const onName = !!name && start <= name.end && end >= name.start;
    // Without an explicit request for source actions, a client asks on every cursor move: answer only on the name.
    const kind = onName && wants(FioRefactorActionKind) ? FioRefactorActionKind : only?.length && wants(FioSourceActionKind) ? FioSourceActionKind : undefined;
    if (!kind) continue;
    const specName = baseName(pathOf(uri));
    const files = generateFioJobs(analysis, { vm: vm.spec.name, specName });
    if (!files.length) continue;
    const names = files.map((f) => f.fileName);
    const title = `Generate fio jobs for VM '${vm.spec.name}' (${names.join(', ')})${files.some((f) => f.destructive) ? ' — WRITES TO RAW DEVICES' : ''}`;
    const targets = files.map((f) => ({ f, target: fioUri(uri, f.fileName) }));
    if (canCreateFiles && targets.every((t) => t.target)) {
      const documentChanges: Array<CreateFile | TextDocumentEdit> = [];
      for (const { f, target } of targets) {
        documentChanges.push({ kind: 'create', uri: target!, options: { overwrite: true } });
        documentChanges.push({ textDocument: { uri: target!, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: f.text }] });
      }
      out.push({ title, kind, edit: { documentChanges } });
    } else {
      out.push({ title, kind, command: { title, command: WriteFioCommand, arguments: [uri, vm.spec.name] } });
    }
  }
  return out;
}

/** What the server keeps of an imported fio result, and the diagnostics it gives the current analysis. */
export interface FioResults {
  /** `fio-measurement` diagnostics for the document's current analysis (none without an imported result). */
  diagnostics(uri: string, analysis: Analysis): Diagnostic[];
  /** Changes whenever a document's imported result does: part of the pull diagnostics' result id. */
  generation(uri: string): number;
  forget(uri: string): void;
}

export function registerCustomRequests(
  connection: Connection,
  getAnalysis: (uri: string) => Analysis | undefined,
  /** Called when a document's imported fio result changes: the server re-sends or refreshes diagnostics. */
  onFioResultsChanged: (uri: string) => void = () => undefined,
  /** Throws the protocol's error when a request comes before initialize or after shutdown. */
  checkLifecycle: () => void = () => undefined,
): FioResults {
  const imported = new Map<string, { vm: string; measurements: FioMeasurement[]; generation: number }>();
  const computed = new WeakMap<Analysis, { generation: number; diagnostics: Diagnostic[] }>();
  let generations = 0;
  const evaluated = (uri: string): Analysis => {
    const a = getAnalysis(uri);
    if (!a) throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not open in the language server`);
    if (!a.spec || !a.catalog) throw new ResponseError(ErrorCodes.InvalidParams, 'the spec does not evaluate yet: fix its errors first');
    return a;
  };
  // Like the server's own handlers: a failure is logged and answered as an error, never thrown into the connection.
  const guard = <P, R>(name: string, fn: (p: P) => R) => (p: P): R => {
    checkLifecycle();
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
    const { vm, measurements, comparisons } = compareFioOutput(a, p.resultText, { vm: p.vm, specName: baseName(pathOf(p.uri)) });
    if (vm === undefined) throw new ResponseError(ErrorCodes.InvalidParams, `cannot tell which VM (${a.vms.map((v) => `'${v.spec.name}'`).join(', ')}) the result was measured on: name it`);
    const counts: CompareFioResult['counts'] = {};
    for (const c of comparisons) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
    if (p.show !== false) {
      imported.set(p.uri, { vm, measurements, generation: ++generations });
      onFioResultsChanged(p.uri);
    }
    return { vm, comparisons, counts, rows: rows(vm, comparisons), summary: summaryOf(comparisons) };
  }));

  connection.onRequest(ClearFioRequest, guard(ClearFioRequest, (p: UriParams): boolean => {
    const had = imported.delete(p.uri);
    if (had) onFioResultsChanged(p.uri);
    return had;
  }));

  connection.onExecuteCommand(guard('workspace/executeCommand', async (p: { command: string; arguments?: unknown[] }): Promise<string[]> => {
    if (p.command !== WriteFioCommand) throw new ResponseError(ErrorCodes.InvalidParams, `unknown command '${p.command}'`);
    const [uri, vm] = p.arguments ?? [];
    if (typeof uri !== 'string' || (vm !== undefined && typeof vm !== 'string')) throw new ResponseError(ErrorCodes.InvalidParams, `${WriteFioCommand} takes the spec's URI and a VM name`);
    if (!uri.startsWith('file:')) throw new ResponseError(ErrorCodes.InvalidParams, 'the spec is not a file: save it first; the fio jobs are written next to it');
    const a = evaluated(uri);
    if (vm !== undefined && !a.vms.some((v) => v.spec.name === vm)) throw new ResponseError(ErrorCodes.InvalidParams, `the spec has no VM '${vm}'`);
    const dir = dirname(pathOf(uri));
    const files = generateFioJobs(a, { vm, specName: baseName(pathOf(uri)) });
    const written: string[] = [];
    try {
      mkdirSync(dir, { recursive: true });
      for (const f of files) {
        const path = join(dir, f.fileName);
        writeAtomic(path, f.text);
        written.push(pathToFileURL(path).href);
      }
    } catch (e) {
      throw new ResponseError(ErrorCodes.InternalError, `cannot write the fio jobs to ${dir}: ${ioReason(e)}`);
    }
    const warn = files.some((f) => f.destructive) ? ' WARNING: some jobs write to raw block devices and destroy their data.' : '';
    const message = `storage-perf: wrote ${files.map((f) => f.fileName).join(', ')} next to the spec.${warn}`;
    if (warn) void connection.window.showWarningMessage(message);
    else void connection.window.showInformationMessage(message);
    return written;
  }));

  return {
    diagnostics(uri, analysis) {
      const r = imported.get(uri);
      if (!r || !analysis.spec || !analysis.catalog || !analysis.vms.some((v) => v.spec.name === r.vm)) return [];
      const hit = computed.get(analysis);
      if (hit && hit.generation === r.generation) return hit.diagnostics;
      // The spec's own diagnostics must survive a failure here: log it and add nothing.
      let diagnostics: Diagnostic[] = [];
      try {
        diagnostics = comparisonDiagnostics(analysis, r.vm, compareMeasurements(analysis, r.vm, r.measurements, baseName(pathOf(uri))));
      } catch (e) {
        connection.console.error(`fio-measurement diagnostics failed: ${(e as Error)?.stack ?? String(e)}`);
      }
      computed.set(analysis, { generation: r.generation, diagnostics });
      return diagnostics;
    },
    generation: (uri) => imported.get(uri)?.generation ?? 0,
    forget: (uri) => { imported.delete(uri); },
  };
}
