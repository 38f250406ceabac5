/** The protocol gate's refusals and the lifecycle's guard, in process (the wire is tested in test/robustness). */
import * as assert from 'node:assert/strict';
import type { Connection } from 'vscode-languageserver/node';
import { refusal } from '../../server/src/gate';
import { Lifecycle } from '../../server/src/lifecycle';

const running = { initialized: true, shuttingDown: false };
const doc = { textDocument: { uri: 'file:///a.perf.yaml' } };
const range = { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } };

describe('protocol gate', () => {
  it('params that are not an object or an array: InvalidParams naming the method', () => {
    for (const params of [null, 42, 'x', true])
      assert.deepEqual(refusal('textDocument/hover', params, running), {
        code: -32602,
        message: `textDocument/hover: params must be an object or an array, not ${params === null ? 'null' : typeof params}`,
      });
  });

  it('LSP requests without what their handlers read: InvalidParams; complete ones pass', () => {
    const cases: Array<[string, unknown, RegExp | undefined]> = [
      ['textDocument/hover', {}, /textDocument.uri must be a string/],
      ['textDocument/hover', doc, /position must be a Position/],
      ['textDocument/hover', { ...doc, position: { line: 1, character: 2 } }, undefined],
      ['textDocument/codeAction', { ...doc, range }, /context must be a CodeActionContext/],
      ['textDocument/codeAction', { ...doc, range, context: { diagnostics: [] } }, undefined],
      ['textDocument/inlayHint', { ...doc, range: { start: 0 } }, /range must be a Range/],
      ['textDocument/documentSymbol', undefined, /params are missing/],
      ['shutdown', undefined, undefined],
      // LSP gives shutdown no params; clients built on Rust's lsp-types send "params": null.
      ['shutdown', null, undefined],
    ];
    for (const [method, params, why] of cases) {
      const r = refusal(method, params, running);
      if (why) assert.ok(r?.code === -32602 && why.test(r.message), `${method}: ${JSON.stringify(r)}`);
      else assert.equal(r, undefined, method);
    }
  });

  it('storagePerf/* requests without a field they read: InvalidParams naming the field; complete ones pass', () => {
    const uri = 'file:///a.perf.yaml';
    const cases: Array<[string, unknown, RegExp | undefined]> = [
      ['storagePerf/report', {}, /^storagePerf\/report: uri must be a string \(it is missing\)$/],
      ['storagePerf/report', undefined, /params must be an object/],
      ['storagePerf/report', { uri }, undefined],
      // By position, as VS Code's client sends a custom request's one parameter: the first is the one read.
      ['storagePerf/report', [{ uri }], undefined],
      ['storagePerf/report', [{}], /uri must be a string \(it is missing\)/],
      ['storagePerf/diffWithBase', { uri, baseRef: 'HEAD' }, /baseText must be a string \(it is missing\)/],
      ['storagePerf/diffWithBase', { uri, baseText: '', baseRef: 7 }, /baseRef must be a string, not number/],
      ['storagePerf/diffWithBase', { uri, baseText: '', baseRef: 'HEAD' }, undefined],
      ['storagePerf/generateFio', { uri, vm: 3 }, /vm must be a string, not number/],
      ['storagePerf/generateFio', { uri }, undefined],
      ['storagePerf/compareFio', { uri }, /resultText must be a string/],
      ['storagePerf/compareFio', { uri, resultText: '{}', show: 'yes' }, /show must be a boolean/],
      ['storagePerf/clearFio', { uri: null }, /uri must be a string, not null/],
    ];
    for (const [method, params, why] of cases) {
      const r = refusal(method, params, running);
      if (why) assert.ok(r?.code === -32602 && why.test(r.message), `${method}: ${JSON.stringify(r)}`);
      else assert.equal(r, undefined, `${method}: ${JSON.stringify(r)}`);
    }
  });

  it('the lifecycle: before initialize, a second initialize, anything after shutdown', () => {
    assert.equal(refusal('initialize', { capabilities: {} }, { initialized: false, shuttingDown: false }), undefined);
    assert.equal(refusal('textDocument/hover', null, { initialized: false, shuttingDown: false })?.code, -32002);
    assert.equal(refusal('initialize', { capabilities: {} }, running)?.code, -32600);
    for (const method of ['shutdown', 'initialize', 'textDocument/hover'])
      assert.equal(refusal(method, {}, { initialized: true, shuttingDown: true })?.code, -32600, method);
    assert.equal(refusal('storagePerf/$refused', { code: 0, message: 'x' }, running)?.code, -32601);
  });
});

describe('lifecycle guard', () => {
  it("a handler's own failure is logged with the handler's name and answered with the empty result", () => {
    const logged: string[] = [];
    const connection = { console: { error: (m: string) => logged.push(m) } } as unknown as Connection;
    const lifecycle = new Lifecycle(connection);
    lifecycle.initialized = true;
    const hover = lifecycle.guard('hover', null, (): { x: number } | null => {
      throw new TypeError('boom');
    });
    assert.equal(hover(), null);
    assert.match(logged.join('\n'), /hover failed: TypeError: boom/);
  });
});
