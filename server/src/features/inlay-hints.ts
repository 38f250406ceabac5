/** Inlay hints: the computed IOPS and throughput beside disks and workloads. */
import { InlayHintKind, type Connection } from 'vscode-languageserver/node';
import { inlayHints } from '../../../core/src';
import type { ClientSupport, ServerContext } from '../context';

export function registerInlayHints({ connection, documents, lifecycle }: ServerContext): void {
  connection.languages.inlayHint.on(
    lifecycle.guard('inlay hints', [], (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const e = documents.analysisOf(doc);
      if (!e.analysis.spec) return [];
      const range = { start: e.index.offset(params.range.start), end: e.index.offset(params.range.end) };
      return inlayHints(e.analysis, range).map((h) => ({
        position: e.index.position(h.offset),
        label: h.label,
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: h.tooltip,
      }));
    }),
  );
}

/** New settings change the figures: have the client ask again, when it accepts being asked. */
export function refreshInlayHints(connection: Connection, client: ClientSupport): void {
  if (client.inlayHintRefresh) connection.languages.inlayHint.refresh().catch(() => undefined);
}
