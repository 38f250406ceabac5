/** Completion: keys, values (catalog editions, disk types, machine types) and units where the cursor is. */
import { CompletionItemKind, MarkupKind, type CompletionItem } from 'vscode-languageserver/node';
import { complete, LineIndex } from '../../../core/src';
import type { ServerContext } from '../context';

/** What triggers completion besides typing a word: after a key's colon, a space, a list's dash. */
export const COMPLETION_TRIGGERS = [':', ' ', '-'];

export function registerCompletion({ connection, documents, settings, lifecycle }: ServerContext): void {
  connection.onCompletion(
    lifecycle.guard('completion', [], (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const text = doc.getText();
      const offset = doc.offsetAt(params.position);
      const e = documents.structured(doc);
      // The current text's own index: the structure may come from an older analysis.
      const idx = new LineIndex(text);
      return complete(text, offset, e.analysis, settings.registry).map((c, i): CompletionItem => ({
        label: c.label,
        kind: c.kind === 'key' ? CompletionItemKind.Property : c.kind === 'unit' ? CompletionItemKind.Unit : CompletionItemKind.Value,
        detail: c.detail,
        documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
        sortText: String(c.sort ?? i).padStart(5, '0'),
        filterText: c.label,
        textEdit: { range: idx.range(c.replace), newText: c.insertText },
      }));
    }),
  );
}
