/**
 * Diagnostics: pushed (textDocument/publishDiagnostics) after a pause in typing, or pulled
 * (textDocument/diagnostic) by clients that support it, which are asked to pull again when they go stale.
 * Besides the analysis's own, a document has the `fio-measurement` diagnostics of an imported fio result.
 */
import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Diagnostic as LspDiagnostic,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from '../context';
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
  const diagnosticsOf = (doc: TextDocument): LspDiagnostic[] => {
    const e = documents.analysisOf(doc);
    return [...e.analysis.diagnostics, ...fio.diagnostics(doc.uri, e.analysis)].map((d) => toLsp(e, d));
  };
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

function registerPull(ctx: ServerContext, fio: FioResults, diagnosticsOf: (doc: TextDocument) => LspDiagnostic[]): void {
  const { connection, documents, settings, lifecycle } = ctx;
  connection.languages.diagnostics.on(
    lifecycle.guard('pull diagnostics', { kind: DocumentDiagnosticReportKind.Full, items: [] }, (params, token: CancellationToken) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
      // Cancelled by the client (a newer edit): RequestCancelled, not ServerCancelled, which would ask it to retry.
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      // New settings and an imported fio result change the diagnostics without changing the document.
      const resultId = `${settings.generation}:${doc.version}:${fio.generation(doc.uri)}`;
      if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
      return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnosticsOf(doc) };
    }),
  );
}

/**
 * Leading and trailing debounce: an edit that comes when the server is keeping up (no analysis waiting, and
 * the last edit longer ago than an analysis takes) is analysed at once; edits faster than that wait until
 * typing pauses for a few times the last analysis time, so a long file is not re-analysed per keystroke.
 */
function pushScheduler(ctx: ServerContext, diagnosticsOf: (doc: TextDocument) => LspDiagnostic[]) {
  const { connection, documents, lifecycle, client } = ctx;
  const timers = new Map<string, NodeJS.Timeout>();
  const lastChange = new Map<string, number>();
  const send = lifecycle.guard('diagnostics', undefined, (doc: TextDocument) => {
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: diagnosticsOf(doc) });
  });
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
            send(current);
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
