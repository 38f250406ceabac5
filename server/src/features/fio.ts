/**
 * The fio requests: job files for an open spec (`storagePerf/generateFio`), a fio result compared with the
 * model's prediction (`storagePerf/compareFio`), kept and shown on the spec as `fio-measurement` diagnostics
 * until the document closes or `storagePerf/clearFio`. Each answers from the analysis the server already holds
 * for the document, so the editor never computes anything.
 */
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import {
  compareFioOutput,
  compareMeasurements,
  comparisonDiagnostics,
  fmt,
  generateFioJobs,
  type Analysis,
  type Comparison,
  type Diagnostic,
  type FioMeasurement,
} from '../../../core/src';
import {
  ClearFioRequest,
  CompareFioRequest,
  GenerateFioRequest,
  type CompareFioParams,
  type CompareFioResult,
  type CompareRow,
  type GenerateFioParams,
  type GenerateFioResult,
  type UriParams,
} from '../../../protocol/src/requests';
import type { ServerContext } from '../context';
import { specNameOf } from '../uri';

/** What the server keeps of an imported fio result, and the diagnostics it gives the current analysis. */
export interface FioResults {
  /** `fio-measurement` diagnostics for the document's current analysis (none without an imported result). */
  diagnostics(uri: string, analysis: Analysis): Diagnostic[];
  /** Changes whenever a document's imported result does: part of the pull diagnostics' result id. */
  generation(uri: string): number;
  forget(uri: string): void;
}

/** The analysis of an open document that evaluates, or the request's error saying why there is none. */
export function evaluated({ documents }: ServerContext, uri: string): Analysis {
  const doc = documents.get(uri);
  const a = doc ? documents.analysisOf(doc).analysis : undefined;
  if (!a) throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not open in the language server`);
  if (!a.spec || !a.catalog) throw new ResponseError(ErrorCodes.InvalidParams, 'the spec does not evaluate yet: fix its errors first');
  return a;
}

/** Registers the fio requests; `onChanged` is called when a document's imported result changes. */
export function registerFio(ctx: ServerContext, onChanged: (uri: string) => void): FioResults {
  const { connection, lifecycle } = ctx;
  const results = new ImportedFioResults(connection);

  connection.onRequest(
    GenerateFioRequest,
    lifecycle.guardRequest(GenerateFioRequest, (p: GenerateFioParams): GenerateFioResult => {
      const files = generateFioJobs(evaluated(ctx, p.uri), { vm: p.vm, specName: p.specName ?? specNameOf(p.uri) });
      return { files: files.map(({ jobs: _jobs, ...file }) => file) };
    }),
  );

  connection.onRequest(
    CompareFioRequest,
    lifecycle.guardRequest(CompareFioRequest, (p: CompareFioParams): CompareFioResult => {
      const a = evaluated(ctx, p.uri);
      const { vm, measurements, comparisons } = compareFioOutput(a, p.resultText, { vm: p.vm, specName: specNameOf(p.uri) });
      if (vm === undefined)
        throw new ResponseError(
          ErrorCodes.InvalidParams,
          `cannot tell which VM (${a.vms.map((v) => `'${v.spec.name}'`).join(', ')}) the result was measured on: name it`,
        );
      const counts: CompareFioResult['counts'] = {};
      for (const c of comparisons) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
      if (p.show !== false) {
        results.keep(p.uri, vm, measurements);
        onChanged(p.uri);
      }
      return { vm, comparisons, counts, rows: rows(vm, comparisons), summary: summaryOf(comparisons) };
    }),
  );

  connection.onRequest(
    ClearFioRequest,
    lifecycle.guardRequest(ClearFioRequest, (p: UriParams): boolean => {
      const had = results.forget(p.uri);
      if (had) onChanged(p.uri);
      return had;
    }),
  );

  return results;
}

class ImportedFioResults implements FioResults {
  private readonly imported = new Map<string, { vm: string; measurements: FioMeasurement[]; generation: number }>();
  /** The diagnostics computed for an analysis: diagnostics are asked for again and again between edits. */
  private readonly computed = new WeakMap<Analysis, { generation: number; diagnostics: Diagnostic[] }>();
  private generations = 0;

  constructor(private readonly connection: Connection) {}

  keep(uri: string, vm: string, measurements: FioMeasurement[]): void {
    this.imported.set(uri, { vm, measurements, generation: ++this.generations });
  }

  diagnostics(uri: string, analysis: Analysis): Diagnostic[] {
    const r = this.imported.get(uri);
    if (!r || !analysis.spec || !analysis.catalog || !analysis.vms.some((v) => v.spec.name === r.vm)) return [];
    const hit = this.computed.get(analysis);
    if (hit && hit.generation === r.generation) return hit.diagnostics;
    // The spec's own diagnostics must survive a failure here: log it and add nothing.
    let diagnostics: Diagnostic[] = [];
    try {
      diagnostics = comparisonDiagnostics(analysis, r.vm, compareMeasurements(analysis, r.vm, r.measurements, specNameOf(uri)));
    } catch (e) {
      this.connection.console.error(`fio-measurement diagnostics failed: ${(e as Error)?.stack ?? String(e)}`);
    }
    this.computed.set(analysis, { generation: r.generation, diagnostics });
    return diagnostics;
  }

  generation(uri: string): number {
    return this.imported.get(uri)?.generation ?? 0;
  }

  /** Drops the document's imported result; whether it had one. */
  forget(uri: string): boolean {
    return this.imported.delete(uri);
  }
}

function rows(vm: string, cs: Comparison[]): CompareRow[] {
  return cs.map((c) => {
    const pick = (f?: { read_iops: number; write_iops: number; read_mibps: number; write_mibps: number }) =>
      f === undefined ? undefined : c.metric === 'iops' ? f.read_iops + f.write_iops : f.read_mibps + f.write_mibps;
    return {
      vm,
      workload: c.workload,
      job: c.job,
      metric: c.metric,
      unit: c.metric === 'iops' ? 'IOPS' : 'MiB/s',
      predicted: pick(c.predicted),
      measured: pick(c.measured),
      ratio: c.ratio === undefined ? undefined : Number.isFinite(c.ratio) ? c.ratio : null,
      verdict: c.verdict,
      note: c.verdict === 'within' ? undefined : c.causes[0],
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
  const rest = [
    off('below', 'below'),
    off('above', 'above'),
    off('failed', 'failed'),
    off('missing', 'not in the result'),
    off('unmatched', 'without a prediction'),
  ].filter(Boolean);
  return `${fmt(within)} of ${fmt(measured.length)} measured jobs within expectation${rest.length ? `; ${rest.join(', ')}` : ''}.`;
}
