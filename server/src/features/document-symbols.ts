/** Document symbols (outline, breadcrumbs): VMs, their disks and workloads. */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver/node';
import { symbols, type SymbolEntry } from '../../../core/src';
import type { ServerContext } from '../context';

export function registerDocumentSymbols({ connection, documents, lifecycle }: ServerContext): void {
  connection.onDocumentSymbol(
    lifecycle.guard('symbols', [], (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const e = documents.structured(doc);
      const conv = (s: SymbolEntry): DocumentSymbol => ({
        name: s.name,
        // The outline stays while the YAML is broken, but the details are the last parsed text's: marked so.
        detail: e.staleSince ? `${s.detail} (line ${e.staleSince.line}: YAML error; as last parsed)`.trim() : s.detail,
        kind: s.kind === 'vm' ? SymbolKind.Class : s.kind === 'disk' ? SymbolKind.Field : SymbolKind.Event,
        range: e.index.range(s.span),
        selectionRange: e.index.range(s.selection),
        children: s.children.map(conv),
      });
      return symbols(e.analysis).map(conv);
    }),
  );
}
