/**
 * Diagnostics: pushed (textDocument/publishDiagnostics) after a pause in typing, or pulled
 * (textDocument/diagnostic) by clients that support it, which are asked to pull again when they go stale.
 * Besides the analysis's own, a document has the `fio-measurement` diagnostics of an imported fio result.
 */
import {
  DocumentDiagnosticReportKind,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type DocumentDiagnosticReport,
  type FullDocumentDiagnosticReport,
  type Diagnostic as LspDiagnostic,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LineIndex } from '../../../core/src';
import type { ServerContext } from '../context';
import type { Entry } from '../documents';
import { toLsp } from '../lsp-diagnostic';
import type { FioResults } from './fio';

/** Diagnostics wait for a pause in typing: a few times what the last analysis took, within bounds. */
const DEBOUNCE_MIN_MS = 5;
const DEBOUNCE_MAX_MS = 150;

export interface DiagnosticsFeature {
  /** Every document's diagnostics are stale (new settings): push them again, or have the client pull. */
  refreshAll(): void;
  /** One document's diagnostics changed without an edit (an imported fio result). */
  refresh(uri: string): void;
  /** At shutdown: no push may follow. */
  stop(): void;
}

export function registerDiagnostics(ctx: ServerContext, fio: FioResults): DiagnosticsFeature {
  const { connection, documents, client } = ctx;
  const diagnosticsOf = (uri: string, e: Entry): LspDiagnostic[] =>
    [...e.analysis.diagnostics, ...fio.diagnostics(uri, e.analysis)].map((d) => toLsp(e, d));
  const push = pushScheduler(ctx, diagnosticsOf);
  registerPull(ctx, fio, diagnosticsOf);
  documents.text.onDidOpen((e) => push.schedule(e.document));
  documents.text.onDidChangeContent((e) => push.schedule(e.document));
  documents.text.onDidClose((e) => {
    push.cancel(e.document.uri);
    fio.forget(e.document.uri);
    if (!client.pullDiagnostics) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });
  const askToPull = () => connection.languages.diagnostics.refresh().catch(() => undefined);
  return {
    refreshAll() {
      if (!client.pullDiagnostics) documents.all().forEach((d) => push.schedule(d));
      else if (client.diagnosticRefresh) askToPull();
    },
    refresh(uri) {
      if (client.pullDiagnostics) {
        if (client.diagnosticRefresh) askToPull();
      } else {
        const d = documents.get(uri);
        if (d) push.schedule(d);
      }
    },
    stop: () => push.stop(),
  };
}

type DiagnosticsOf = (uri: string, e: Entry) => LspDiagnostic[];

/** What a client is told when the analysis of a document threw: a fault of ours, to be reported. */
function analysisFailed(uri: string, err: unknown): string {
  return `storage-perf could not analyse ${uri.slice(uri.lastIndexOf('/') + 1)}: internal error (${(err as Error)?.message ?? String(err)}); please report it`;
}

function registerPull(ctx: ServerContext, fio: FioResults, diagnosticsOf: DiagnosticsOf): void {
  const { connection, documents, settings, lifecycle } = ctx;
  const empty = (): DocumentDiagnosticReport => ({ kind: DocumentDiagnosticReportKind.Full, items: [] });
  connection.languages.diagnostics.on(
    lifecycle.guard(
      'pull diagnostics',
      Promise.resolve(empty()),
      async (params, token: CancellationToken): Promise<DocumentDiagnosticReport> => {
        const uri = params.textDocument.uri;
        // The analysis runs in slices; other requests are answered meanwhile.
        // An analysis that failed is answered as an error, never as a document without findings.
        const e = await documents.settled(uri).catch((err: unknown) => {
          connection.console.error(`pull diagnostics failed: ${(err as Error)?.stack ?? String(err)}`);
          throw new ResponseError(ErrorCodes.InternalError, analysisFailed(uri, err));
        });
        if (!e) return empty();
        // Cancelled by the client (a newer edit): RequestCancelled, not ServerCancelled, which would ask it to retry.
        if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
        // By the text, not the version (a client may change the text under one version); new settings and an
        // imported fio result change the diagnostics without changing the text.
        const resultId = `${settings.generation}:${e.hash}:${fio.generation(uri)}`;
        if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
        const items = diagnosticsOf(uri, e);
        const related = ctx.client.relatedDocuments && e.related ? relatedReports(uri, e.related) : undefined;
        return { kind: DocumentDiagnosticReportKind.Full, resultId, items, ...(related ? { relatedDocuments: related } : {}) };
      },
    ),
  );
}

/**
 * A .tf file's module findings in its other files (a called module's), for a client that takes them: so that a
 * linted root module shows what `evaluate` of it shows, and a child module's files get its caller's inputs.
 */
function relatedReports(uri: string, related: NonNullable<Entry['related']>): Record<string, FullDocumentDiagnosticReport> {
  const out: Record<string, FullDocumentDiagnosticReport> = {};
  if (!uri.startsWith('file:')) return out;
  const folder = dirname(fileURLToPath(uri));
  for (const r of related) {
    const entry = { index: new LineIndex(r.text) };
    const href = pathToFileURL(resolve(folder, r.path)).href;
    out[href] = { kind: DocumentDiagnosticReportKind.Full, items: r.diagnostics.map((d) => toLsp(entry, d)) };
  }
  return out;
}

/**
 * Leading and trailing debounce: an edit that comes when the server is keeping up (no analysis waiting, and
 * the last edit longer ago than an analysis takes) is analysed at once; edits faster than that wait until
 * typing pauses for a few times the last analysis time, so a long file is not re-analysed per keystroke.
 */
function pushScheduler(ctx: ServerContext, diagnosticsOf: DiagnosticsOf) {
  const { connection, documents, lifecycle, client } = ctx;
  const timers = new Map<string, NodeJS.Timeout>();
  const lastChange = new Map<string, number>();
  const publish = lifecycle.guard('diagnostics', undefined, (doc: TextDocument, e: Entry) => {
    void connection.sendDiagnostics({ uri: doc.uri, version: e.version, diagnostics: diagnosticsOf(doc.uri, e) });
  });
  // The analysis runs in slices; one that a newer text made moot publishes nothing (the newer one will).
  const send = (doc: TextDocument) =>
    documents.analysed(doc).then(
      (e) => {
        if (e && lifecycle.running && documents.get(doc.uri) === doc && e.text === doc.getText()) publish(doc, e);
      },
      (err: unknown) => {
        connection.console.error(`diagnostics failed: ${(err as Error)?.stack ?? String(err)}`);
        // Said where the user looks: no diagnostics would read as a document without findings.
        if (lifecycle.running) void connection.window.showErrorMessage(analysisFailed(doc.uri, err));
      },
    );
  return {
    schedule(doc: TextDocument): void {
      if (client.pullDiagnostics) return;
      const pending = timers.get(doc.uri);
      clearTimeout(pending);
      const lastAnalysisMs = documents.lastAnalysisMs;
      const pause = Math.min(DEBOUNCE_MAX_MS, Math.max(DEBOUNCE_MIN_MS, 3 * lastAnalysisMs));
      const now = performance.now();
      const idle = !pending && now - (lastChange.get(doc.uri) ?? -Infinity) > Math.min(pause, lastAnalysisMs + DEBOUNCE_MIN_MS);
      lastChange.set(doc.uri, now);
      timers.set(
        doc.uri,
        setTimeout(
          () => {
            timers.delete(doc.uri);
            const current = documents.get(doc.uri);
            if (!current || !lifecycle.running) return;
            void send(current);
          },
          idle ? 0 : pause,
        ),
      );
    },
    /** The document closed: no push for it, and its next open starts afresh. */
    cancel(uri: string): void {
      clearTimeout(timers.get(uri));
      timers.delete(uri);
      lastChange.delete(uri);
    },
    stop(): void {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
