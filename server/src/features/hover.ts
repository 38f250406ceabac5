/** Hover: what a key or value means and, on VMs, disks and workloads, what the model computes for them. */
import { MarkupKind } from 'vscode-languageserver/node';
import { hover } from '../../../core/src';
import type { ServerContext } from '../context';

export function registerHover({ connection, documents, lifecycle }: ServerContext): void {
  connection.onHover(
    lifecycle.guard('hover', null, (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return null;
      const e = documents.structured(doc);
      const offset = e.index.offset(params.position);
      const h = hover(e.analysis, offset);
      if (!h) return null;
      // Figures of a text that is not the one on screen must not pass for it.
      const value = e.staleSince
        ? `*From the last text that parsed: the YAML has an error on line ${e.staleSince.line}; fix it to see this text's figures.*\n\n${h.markdown}`
        : h.markdown;
      return { contents: { kind: MarkupKind.Markdown, value }, range: e.index.range(h.span) };
    }),
  );
}
