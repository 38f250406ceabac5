/**
 * A client that sends new text under a version number it used before (a hostile or buggy one) still gets the
 * new text's diagnostics: analyses and pull result ids are keyed by the text, not the version.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DocumentDiagnosticRequest } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../../cli/src/lsp-client';
import { LineIndex } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
const URI = 'file:///project/same-version.perf.yaml';
const CHANGED = `bogus_key: 1\n${EXAMPLE}`;

/** The whole text replaced, under `version`. */
function replaceAll(client: LspClient, text: string, version: number): void {
  const end = new LineIndex(text).position(text.length);
  client.change(URI, version, [{ range: { start: { line: 0, character: 0 }, end }, text: CHANGED }]);
}

interface Report {
  kind: string;
  resultId?: string;
  items?: Array<{ code?: string | number }>;
}

describe('new text under the same document version', function () {
  this.timeout(30000);
  let client: LspClient;
  afterEach(async () => {
    await client.stop();
  });

  it('pull: a full report of the new text, not "unchanged"', async () => {
    client = new LspClient({ pull: true });
    await client.initialize();
    client.open(URI, EXAMPLE, 1);
    const first = await client.request<Report>(DocumentDiagnosticRequest.type, { textDocument: { uri: URI } });
    assert.equal(first.kind, 'full');
    assert.ok(!first.items!.some((d) => d.code === 'unknown-key'));
    replaceAll(client, EXAMPLE, 1);
    const second = await client.request<Report>(DocumentDiagnosticRequest.type, {
      textDocument: { uri: URI },
      previousResultId: first.resultId,
    });
    assert.equal(second.kind, 'full');
    assert.notEqual(second.resultId, first.resultId);
    assert.ok(
      second.items!.some((d) => d.code === 'unknown-key'),
      JSON.stringify(second.items),
    );
    // The same text again: now it is unchanged.
    const third = await client.request<Report>(DocumentDiagnosticRequest.type, {
      textDocument: { uri: URI },
      previousResultId: second.resultId,
    });
    assert.equal(third.kind, 'unchanged');
  });

  it('push: the new text is analysed and published', async () => {
    client = new LspClient({ pull: false });
    await client.initialize();
    client.open(URI, EXAMPLE, 1);
    assert.ok(!(await client.pushedDiagnostics(URI, 1)).some((d) => d.code === 'unknown-key'));
    const sent = performance.now();
    replaceAll(client, EXAMPLE, 1);
    const after = await client.publishedAfter(URI, sent);
    assert.ok(
      after.some((d) => d.code === 'unknown-key'),
      JSON.stringify(after),
    );
  });
});
