/** Protocol faults written as raw frames to the server's stdin: it answers as LSP says, survives, or exits cleanly. */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { frame, RawServer } from './raw-server';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
const URI = 'file:///faults/storage.perf.yaml';
const at = { textDocument: { uri: URI }, position: { line: 13, character: 15 } };

function open(s: RawServer, uri = URI, text = EXAMPLE): void {
  s.notifyServer('textDocument/didOpen', { textDocument: { uri, languageId: 'storage-perf', version: 1, text } });
}

/** A hover on the example answers with the disk's figures: the server is alive and its state intact. */
async function assertAlive(s: RawServer): Promise<void> {
  const r = await s.response(s.request('textDocument/hover', at));
  assert.match((r.result as { contents: { value: string } }).contents.value, /Disk data/, JSON.stringify(r));
}

describe('LSP faults (raw frames)', function () {
  this.timeout(30000);
  let s: RawServer;
  afterEach(() => s?.kill());

  it('shutdown then exit: exit code 0', async () => {
    s = new RawServer();
    await s.initialize();
    const r = await s.response(s.request('shutdown'));
    assert.equal(r.result, null);
    s.notifyServer('exit');
    assert.deepEqual(await s.exitWithin(5000), { code: 0, signal: null });
  });

  it('shutdown with "params": null, as clients built on lsp-types send it (Helix, Zed): result null, then exit 0', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    const r = await s.response(s.request('shutdown', null));
    assert.equal(r.error, undefined, JSON.stringify(r));
    assert.equal(r.result, null);
    const after = await s.response(s.request('textDocument/hover', at));
    assert.equal(after.error?.code, -32600, JSON.stringify(after));
    s.notifyServer('exit', null);
    assert.deepEqual(await s.exitWithin(5000), { code: 0, signal: null });
  });

  it('exit without shutdown: exit code 1', async () => {
    s = new RawServer();
    await s.initialize();
    s.notifyServer('exit');
    assert.deepEqual(await s.exitWithin(5000), { code: 1, signal: null });
  });

  it('requests after shutdown fail with InvalidRequest; exit then gives 0', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    await s.response(s.request('shutdown'));
    for (const method of ['textDocument/hover', 'textDocument/diagnostic', 'textDocument/documentSymbol', 'textDocument/completion']) {
      const r = await s.response(
        s.request(method, method === 'textDocument/hover' || method === 'textDocument/completion' ? at : { textDocument: { uri: URI } }),
      );
      assert.equal(r.error?.code, -32600, `${method}: ${JSON.stringify(r)}`);
    }
    // the extension's own requests too (one of them writes files)
    for (const method of ['storagePerf/report', 'storagePerf/generateFio']) {
      const r = await s.response(s.request(method, { uri: URI }));
      assert.equal(r.error?.code, -32600, `${method}: ${JSON.stringify(r)}`);
    }
    s.notifyServer('exit');
    assert.deepEqual(await s.exitWithin(5000), { code: 0, signal: null });
  });

  it('requests before initialize fail with ServerNotInitialized', async () => {
    s = new RawServer();
    const r = await s.response(s.request('textDocument/hover', at));
    assert.equal(r.error?.code, -32002, JSON.stringify(r));
    await s.initialize();
    open(s);
    await assertAlive(s);
  });

  it('unknown methods: requests get MethodNotFound, notifications are ignored', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    s.notifyServer('storagePerf/noSuchNotification', { x: 1 });
    s.notifyServer('$/noSuchThing', {});
    for (const method of ['storagePerf/noSuchRequest', 'workspace/noSuch', '$/noSuchRequest']) {
      const r = await s.response(s.request(method, {}));
      assert.equal(r.error?.code, -32601, `${method}: ${JSON.stringify(r)}`);
    }
    await assertAlive(s);
  });

  it('malformed frames are dropped and the server keeps answering', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    const bad = [
      frame('{not json'), // body that is not JSON
      frame('[1, 2, 3]'),
      frame('42'),
      frame('"text"'),
      frame('null'), // JSON that is no message
      frame({ jsonrpc: '2.0' }),
      frame({ jsonrpc: '2.0', id: 77 }), // neither request, notification nor response
      frame({ jsonrpc: '2.0', id: 987654, result: 'a response to a request never made' }),
      frame({ jsonrpc: '1.0', id: 5, method: 'textDocument/hover', params: at }),
      frame({ jsonrpc: '2.0', method: 42, params: {} }),
      frame(Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('latin1')), // bytes that are not UTF-8
    ];
    for (const b of bad) s.write(b);
    await assertAlive(s);
    // A header block without a (numeric) Content-Length: the JSON-RPC reader reports it and reads on, but
    // whatever came in the same chunk waits for the next chunk. So each is written in one write (read at once)
    // between two hovers: the first is answered, which tells that the chunk has been read; the second waits
    // behind the header. assertAlive's request, written after that answer, comes in a chunk of its own and
    // brings both in. (No pause between writes, which a busy machine could run together into one chunk.)
    const hover = (id: number) => frame({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: at });
    for (const [i, header] of ['X-Garbage: yes\r\n\r\n', 'Content-Length: many\r\n\r\n'].entries()) {
      const [ahead, behind] = [9000 + 2 * i, 9001 + 2 * i];
      s.write(hover(ahead) + header + hover(behind));
      await s.response(ahead);
      await assertAlive(s);
      assert.match(JSON.stringify((await s.response(behind)).result), /Disk data/, 'the hover written behind the bad header');
    }
    assert.equal(s.child.exitCode, null);
  });

  it('a well-framed body that is not JSON: JSON-RPC Parse error (-32700, id null), then the next request answered', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    s.write(frame('{"jsonrpc": "2.0", "id": 31, "method": "textDocument/hover", '));
    const parseError = await s.waitFor((m) => m.error?.code === -32700, 10000, 'a Parse error');
    assert.equal(parseError.id, null);
    assert.match(parseError.error!.message, /^Parse error/);
    assert.ok(!s.messages.some((m) => m.id === 31), 'the broken request is not answered as a request');
    await assertAlive(s);
  });

  it('input that ends inside a frame (a Content-Length longer than what came): stderr says so, exit code 1', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 32, method: 'textDocument/hover', params: at });
    s.write(`Content-Length: ${body.length + 100}\r\n\r\n${body}`);
    s.child.stdin!.end();
    assert.deepEqual(await s.exited, { code: 1, signal: null });
    assert.match(s.stderr, /input ended inside a frame: \d+ bytes dropped/);
  });

  it("console output of the server's code and its libraries reaches the client as window/logMessage on stdio", async () => {
    // A preloaded module stands for a library that writes to the console once the server runs.
    const dir = mkdtempSync(join(tmpdir(), 'sp-console-'));
    const preload = join(dir, 'chatty.js');
    writeFileSync(preload, "setTimeout(() => { console.log('chatty: hello'); console.error('chatty: trouble'); }, 0);\n");
    try {
      s = new RawServer(['--stdio'], ['--require', preload]);
      await s.initialize();
      const logged = (text: string) => (m: { method?: string; params?: unknown }) =>
        m.method === 'window/logMessage' && (m.params as { message: string }).message.includes(text);
      const hello = await s.waitFor(logged('chatty: hello'), 10000, 'the console.log line');
      const trouble = await s.waitFor(logged('chatty: trouble'), 10000, 'the console.error line');
      assert.equal((hello.params as { type: number }).type, 4); // Log
      assert.equal((trouble.params as { type: number }).type, 1); // Error
      assert.doesNotMatch(s.stderr, /chatty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('wrong parameters: the server logs, answers and lives on', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    const requests: Array<[string, unknown]> = [
      ['textDocument/hover', 42],
      ['textDocument/hover', { textDocument: { uri: URI }, position: { line: -1, character: 1e12 } }],
      ['textDocument/hover', { textDocument: { uri: URI }, position: { line: 1e9, character: -5 } }],
      ['textDocument/completion', { textDocument: { uri: URI }, position: { line: 2 ** 31, character: 2 ** 31 } }],
      [
        'textDocument/codeAction',
        {
          textDocument: { uri: URI },
          range: { start: { line: 9, character: 0 }, end: { line: 0, character: 0 } },
          context: { diagnostics: [] },
        },
      ],
      [
        'textDocument/inlayHint',
        { textDocument: { uri: URI }, range: { start: { line: -5, character: -5 }, end: { line: 1e9, character: 1e9 } } },
      ],
      ['textDocument/diagnostic', { textDocument: { uri: 'file:///never/opened.perf.yaml' } }],
      ['textDocument/documentSymbol', {}],
    ];
    const ids = requests.map(([m, p]) => s.request(m, p));
    s.notifyServer('textDocument/didOpen', {});
    s.notifyServer('textDocument/didChange', {
      textDocument: { uri: 'file:///never/opened.perf.yaml', version: 2 },
      contentChanges: [{ text: 'x' }],
    });
    s.notifyServer('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [
        { range: { start: { line: 999, character: 0 }, end: { line: 1000, character: 0 } }, text: '# appended past the end\n' },
      ],
    });
    s.notifyServer('textDocument/didClose', { textDocument: { uri: 'file:///never/opened.perf.yaml' } });
    for (const id of ids) {
      const r = await s.response(id);
      assert.ok('result' in r || r.error, JSON.stringify(r));
    }
    await assertAlive(s);
    // Params the handlers cannot read are refused before them, as InvalidParams naming what is wrong. (A failure
    // inside a handler, which these used to provoke, is logged with the handler's name: test/server/gate.test.ts.)
    const refused = await s.response(ids[0]);
    assert.deepEqual(refused.error, { code: -32602, message: 'textDocument/hover: params must be an object or an array, not number' });
    assert.match(
      (await s.response(ids[ids.length - 1])).error?.message ?? '',
      /textDocument\/documentSymbol: textDocument.uri must be a string/,
    );
  });

  it('custom requests with a missing field: InvalidParams (-32602) naming the field, never an internal TypeError', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    const requests: Array<[string, unknown, string]> = [
      ['storagePerf/report', {}, 'storagePerf/report: uri must be a string (it is missing)'],
      ['storagePerf/diffWithBase', { uri: URI }, 'storagePerf/diffWithBase: baseText must be a string (it is missing)'],
      ['storagePerf/generateFio', {}, 'storagePerf/generateFio: uri must be a string (it is missing)'],
      ['storagePerf/compareFio', { uri: URI }, 'storagePerf/compareFio: resultText must be a string (it is missing)'],
      ['storagePerf/clearFio', {}, 'storagePerf/clearFio: uri must be a string (it is missing)'],
    ];
    const ids = requests.map(([m, p]) => s.request(m, p));
    for (const [i, id] of ids.entries()) assert.deepEqual((await s.response(id)).error, { code: -32602, message: requests[i][2] });
    await assertAlive(s);
  });

  it('JSON-RPC conformance: params null, a code action without context, a second initialize, a second shutdown', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    for (const method of ['textDocument/hover', 'textDocument/codeAction', 'textDocument/documentSymbol', 'storagePerf/report']) {
      const r = await s.response(s.request(method, null));
      assert.equal(r.error?.code, -32602, `${method}: ${JSON.stringify(r)}`);
    }
    const range = { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } };
    const noContext = await s.response(s.request('textDocument/codeAction', { textDocument: { uri: URI }, range }));
    assert.equal(noContext.error?.code, -32602, JSON.stringify(noContext));
    const again = await s.response(s.request('initialize', { processId: null, rootUri: null, capabilities: {} }));
    assert.equal(again.error?.code, -32600, JSON.stringify(again));
    await assertAlive(s);
    await s.response(s.request('shutdown'));
    const twice = await s.response(s.request('shutdown'));
    assert.equal(twice.error?.code, -32600, JSON.stringify(twice));
    const reinit = await s.response(s.request('initialize', { processId: null, rootUri: null, capabilities: {} }));
    assert.equal(reinit.error?.code, -32600, JSON.stringify(reinit));
    s.notifyServer('exit');
    assert.deepEqual(await s.exitWithin(5000), { code: 0, signal: null });
  });

  describe('framing errors: the broken frame is dropped, said so on stderr, and the next request is answered', () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 4242, method: 'textDocument/hover', params: at });
    const cases: Array<[string, string, RegExp]> = [
      ['a Content-Length too short', `Content-Length: ${body.length - 10}\r\n\r\n${body}`, /bytes before a Content-Length header/],
      ['a Content-Length too long', `Content-Length: ${body.length + 10}\r\n\r\n${body}`, /Content-Length longer than its body/],
      ['a Content-Length far too long', `Content-Length: ${body.length + 5000}\r\n\r\n${body}`, /Content-Length longer than its body/],
      ['a header without Content-Length', `Content-Type: application/json\r\n\r\n${body}`, /without a valid Content-Length/],
      ['no header at all', body, /bytes before a Content-Length header|without a valid Content-Length/],
    ];
    for (const [what, broken, said] of cases)
      it(what, async () => {
        s = new RawServer();
        await s.initialize();
        open(s);
        // The broken frame and the next request in one write: the server reads them as one chunk.
        const next = 5000;
        s.write(broken + frame({ jsonrpc: '2.0', id: next, method: 'textDocument/hover', params: at }));
        assert.match(JSON.stringify((await s.response(next)).result), /Disk data/);
        await s.stderrMatching(said);
        assert.ok(!s.messages.some((m) => m.id === 4242), 'the broken frame is not answered');
        // and in separate writes: the next frame arrives after the broken one was read
        s.write(broken);
        await assertAlive(s);
      });
  });

  it('a cancellation storm: every request is answered or cancelled, then the server answers normally', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    const ids: number[] = [];
    for (let i = 0; i < 300; i++) {
      const id = s.request(i % 2 ? 'textDocument/diagnostic' : 'textDocument/hover', i % 2 ? { textDocument: { uri: URI } } : at);
      ids.push(id);
      s.notifyServer('$/cancelRequest', { id });
      s.notifyServer('$/cancelRequest', { id: id + 100000 }); // ids that do not exist
    }
    for (const id of ids) {
      const r = await s.response(id);
      assert.ok('result' in r || r.error?.code === -32800 || r.error?.code === -32802, JSON.stringify(r));
    }
    await assertAlive(s);
  });

  it('the client vanishes: stdin closed without shutdown ends the server with code 1', async () => {
    s = new RawServer();
    await s.initialize();
    open(s);
    s.child.stdin!.end();
    assert.deepEqual(await s.exitWithin(5000), { code: 1, signal: null });
  });

  it('stdin closed after shutdown ends the server with code 0', async () => {
    s = new RawServer();
    await s.initialize();
    await s.response(s.request('shutdown'));
    s.child.stdin!.end();
    assert.deepEqual(await s.exitWithin(5000), { code: 0, signal: null });
  });

  it('the parent process dies (initialize named its process id): the server exits within seconds', async function () {
    this.timeout(20000);
    // A stand-in parent: it lives until killed. The server polls the id every 3 s.
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      s = new RawServer();
      await s.initialize(undefined, parent.pid!);
      open(s);
      await assertAlive(s);
      parent.kill('SIGKILL');
      const started = Date.now();
      const exit = await s.exitWithin(10000);
      assert.deepEqual(exit, { code: 1, signal: null }, `still running ${Date.now() - started} ms after the parent died`);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
