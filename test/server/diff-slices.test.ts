/**
 * storagePerf/diffWithBase analyses the base in slices, as a document's analysis runs: a request that comes while
 * a large base is analysed is answered before the diff; and the same base asked for again is not analysed again.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CatalogRegistry } from '../../core/src';
import { distinctFleet } from '../../bench/fleet';
import { AnalysedDocuments } from '../../server/src/documents';
import { frame, RawServer } from '../robustness/raw-server';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
const URI = 'file:///diff-slices/storage.perf.yaml';

describe('diffWithBase: the base analysed in slices, memoised by its text', function () {
  this.timeout(120000);
  let s: RawServer | undefined;
  afterEach(() => s?.kill());

  it('a hover sent right after the diff request is answered before the diff, while the base is analysed', async () => {
    s = new RawServer();
    await s.initialize();
    s.notifyServer('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'storage-perf', version: 1, text: EXAMPLE } });
    const at = { textDocument: { uri: URI }, position: { line: 13, character: 15 } };
    // The open document analysed first, so that the hover needs nothing but its analysis.
    await s.response(s.request('textDocument/hover', at));
    // A base of 2,000 distinct VMs: hundreds of slices of analysis, none of them in the evaluation cache.
    const base = distinctFleet('gcp-2024', 2000).text;
    s.write(
      frame({ jsonrpc: '2.0', id: 1, method: 'storagePerf/diffWithBase', params: { uri: URI, baseText: base, baseRef: 'HEAD' } }) +
        frame({ jsonrpc: '2.0', id: 2, method: 'textDocument/hover', params: at }),
    );
    const diff = await s.response(1, 100000);
    assert.ok(diff.result && 'record' in (diff.result as object), JSON.stringify(diff).slice(0, 500));
    const order = s.messages.filter((m) => m.method === undefined && (m.id === 1 || m.id === 2)).map((m) => m.id);
    assert.deepEqual(order, [2, 1], 'the hover is answered while the base is analysed');
  });

  it('the analysis yields between slices, and the same base text is analysed once', async () => {
    const docs = new AnalysedDocuments({ current: {}, registry: new CatalogRegistry() });
    const doc = TextDocument.create(URI, 'storage-perf', 1, EXAMPLE);
    docs.analysisOf(doc);
    const base = distinctFleet('gcp-2024', 500, 2).text;
    let settled = false;
    const first = docs.analyzedTextInSlices(URI, base);
    void first.then(() => (settled = true));
    // One turn of the event loop: a request that came meanwhile would be handled here, before the base is done.
    await new Promise((res) => setImmediate(res));
    await new Promise((res) => setImmediate(res));
    assert.equal(settled, false, 'the base is still being analysed after two turns of the event loop');
    const a = await first;
    assert.equal(a.vms.length, 500);
    assert.equal(docs.analyzedTextInSlices(URI, base), first, 'the same text: the same analysis, not a new one');
    assert.equal(await docs.analyzedTextInSlices(URI, `${base}\n`), await docs.analyzedTextInSlices(URI, `${base}\n`));
    assert.notEqual(await docs.analyzedTextInSlices(URI, `${base}\n`), a);
  });
});
