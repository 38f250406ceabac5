/** The server's full collections after much text analysed (server/src/collector.ts). */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { builtinRegistry } from '../../core/src';
import { GarbageCollector } from '../../server/src/collector';
import { AnalysedDocuments } from '../../server/src/documents';

describe('garbage collection after much text analysed', () => {
  it('collects once each time the text analysed since the last collection reaches the budget', () => {
    let calls = 0;
    const c = new GarbageCollector(1000, () => calls++);
    for (let i = 0; i < 9; i++) c.analysedText(300); // 2,700 characters: at 1,200 and 2,400 (each 4th)
    assert.equal(calls, 2);
    assert.equal(c.collections, 2);
  });

  it('small documents edited a few times never collect', () => {
    let calls = 0;
    const c = new GarbageCollector(1024 * 1024, () => calls++);
    for (let i = 0; i < 50; i++) c.analysedText(2000);
    assert.equal(calls, 0);
  });

  it("V8's full collection is available to the server at run time", () => {
    // The default collector: without it the server would grow as docs/performance.md describes.
    const c = new GarbageCollector(1);
    c.analysedText(1);
    assert.equal(c.collections, 1);
  });
});

describe("the heap's growth, limited once analyses are replaced", () => {
  it('a document analysed once leaves V8 its own factor; its first edit limits the growth', () => {
    const docs = new AnalysedDocuments({ current: {}, registry: builtinRegistry });
    const text = readFileSync(join(__dirname, '../../../examples/storage.perf.yaml'), 'utf8');
    const doc = TextDocument.create('file:///x/storage.perf.yaml', 'yaml', 1, text);
    docs.analysisOf(doc);
    // One analysis per document (what lint does): V8's own factor, faster there.
    assert.equal(docs.collector.heapGrowthLimited, false);
    docs.analysisOf(TextDocument.update(doc, [{ text: text.replace('500GiB', '600GiB') }], 2));
    assert.equal(docs.collector.heapGrowthLimited, true);
  });
});
