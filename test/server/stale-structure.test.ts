/**
 * While the YAML does not parse, hover and document symbols answer from the last text that did: they must say
 * so, and name the line of the error, instead of showing the old text's figures as this text's.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze } from '../../core/src';
import { RawServer } from '../robustness/raw-server';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
const URI = 'file:///stale/storage.perf.yaml';
const at = { textDocument: { uri: URI }, position: { line: 13, character: 15 } };
const BROKEN = `${EXAMPLE}\n  - name: [unclosed\n`;

interface Symbol {
  detail?: string;
  children?: Symbol[];
}
const details = (ss: Symbol[]): string[] => ss.flatMap((s) => [s.detail ?? '', ...details(s.children ?? [])]);

describe('hover and symbols while the YAML is broken', function () {
  this.timeout(30000);
  let s: RawServer;
  afterEach(() => s?.kill());

  it('say the figures are from the last text that parsed, and where the error is; a fixed text drops the note', async () => {
    const error = analyze(BROKEN).diagnostics.find((d) => d.code === 'yaml-syntax');
    assert.ok(error, 'the broken text has a YAML syntax error');
    const line = BROKEN.slice(0, error.span.start).split('\n').length;
    s = new RawServer();
    await s.initialize();
    s.notifyServer('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'storage-perf', version: 1, text: EXAMPLE } });
    const hover = async () => (await s.response(s.request('textDocument/hover', at))).result as { contents: { value: string } };
    const symbols = async () =>
      (await s.response(s.request('textDocument/documentSymbol', { textDocument: { uri: URI } }))).result as Symbol[];
    assert.doesNotMatch((await hover()).contents.value, /last text that parsed/);
    const fresh = details(await symbols());

    s.notifyServer('textDocument/didChange', { textDocument: { uri: URI, version: 2 }, contentChanges: [{ text: BROKEN }] });
    const stale = (await hover()).contents.value;
    assert.match(stale, new RegExp(`^\\*From the last text that parsed: the YAML has an error on line ${line};`));
    assert.match(stale, /Disk data/);
    const marked = details(await symbols());
    assert.equal(marked.length, fresh.length);
    assert.ok(
      marked.every((d) => d.endsWith(`(line ${line}: YAML error; as last parsed)`)),
      JSON.stringify(marked),
    );

    s.notifyServer('textDocument/didChange', { textDocument: { uri: URI, version: 3 }, contentChanges: [{ text: EXAMPLE }] });
    assert.doesNotMatch((await hover()).contents.value, /last text that parsed/);
    assert.deepEqual(details(await symbols()), fresh);
  });
});
