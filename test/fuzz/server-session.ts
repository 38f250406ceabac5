/**
 * Edit sequences replayed through the real language server: didOpen, then incremental didChange events, then
 * pulled diagnostics compared with a full analysis of the same text in this process.
 */
import * as assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, LineIndex } from '../../core/src';
import type { LspClient } from '../../cli/src/lsp-client';
import { editRange, type Edit, type Seed } from './pipeline';

let session = 0;

export async function checkServerSession(client: LspClient, seed: Seed, edits: Edit[]): Promise<void> {
  const uri = `file:///fuzz/session-${++session}.perf.yaml`;
  let doc = TextDocument.create(uri, 'storage-perf', 1, seed.text);
  client.open(uri, seed.text, 1);
  // Several edits per didChange, as editors batch them: each range is relative to the text after the previous one.
  for (let i = 0; i < edits.length;) {
    const batch = edits.slice(i, i + 1 + (i % 3));
    i += batch.length;
    const changes = batch.map((e) => {
      const { start, end } = editRange(doc.getText(), e);
      const change = { range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: e.text };
      doc = TextDocument.update(doc, [change], doc.version + 1);
      return change;
    });
    client.change(uri, doc.version, changes);
  }
  const text = doc.getText();
  const got = await client.pullDiagnostics(uri);
  const idx = new LineIndex(text);
  const want = analyze(text).diagnostics.map((d) => ({
    range: idx.range(d.span),
    code: d.code,
    message: d.message,
  }));
  assert.deepEqual(
    got.map((d) => ({ range: d.range, code: d.code, message: d.message })),
    want,
    `server and full analysis differ for:\n${JSON.stringify(text)}`,
  );
  for (const d of got) {
    const { start, end } = d.range;
    assert.ok(start.line < doc.lineCount && end.line < doc.lineCount, `${d.code} range beyond the last line`);
    assert.ok(doc.offsetAt(start) <= doc.offsetAt(end), `${d.code} range reversed`);
  }
  client.close(uri);
}
