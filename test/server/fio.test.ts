/** The fio features of the language server, over stdio as an editor drives them. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../../cli/src/lsp-client';
import { analyze, generateFioJobs, LineIndex } from '../../core/src';
import {
  ClearFioRequest,
  CompareFioRequest,
  FioRefactorActionKind,
  SizingQuickFixKind,
  WorkloadQuickFixKind,
  FioSourceActionKind,
  WriteFioCommand,
  type CompareFioResult,
} from '../../protocol/src/requests';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
const MIXED = readFileSync(join(ROOT, 'test/fixtures/fio/mixed-randrw.json'), 'utf8');
const URI = 'file:///project/storage.perf.yaml';

interface Action {
  title: string;
  kind?: string;
  edit?: {
    documentChanges?: Array<{
      kind?: string;
      uri?: string;
      options?: { overwrite?: boolean };
      textDocument?: { uri: string; version: null | number };
      edits?: Array<{ range: { start: { line: number; character: number } }; newText: string }>;
    }>;
  };
  command?: { command: string; arguments?: unknown[] };
}

function rangeOf(text: string, needle: string, delta = 0, length = 0) {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const idx = new LineIndex(text);
  return { start: idx.position(at + delta), end: idx.position(at + delta + length) };
}

/** A client that declares the capabilities an editor like VS Code does, or leaves them out. */
async function start(o: {
  pull: boolean;
  createFiles: boolean;
}): Promise<{ client: LspClient; refreshes: () => number; refreshed: (n: number) => Promise<void> }> {
  const client = new LspClient({ pull: o.pull });
  let refreshes = 0;
  const waiting: Array<() => void> = [];
  client.connection.onRequest('workspace/diagnostic/refresh', () => {
    refreshes++;
    waiting.splice(0).forEach((w) => w());
    return null;
  });
  client.connection.onRequest('window/showMessageRequest', () => null);
  const result = await client.request<{ capabilities: LspClient['capabilities'] }>(
    { method: 'initialize' },
    {
      processId: process.pid,
      rootUri: null,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceEdit: o.createFiles
            ? { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] }
            : { documentChanges: false },
          ...(o.pull ? { diagnostics: { refreshSupport: true } } : {}),
        },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          publishDiagnostics: { versionSupport: true },
          ...(o.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
        },
      },
    },
  );
  client.capabilities = result.capabilities;
  client.notify({ method: 'initialized' }, {});
  // Waits for the server's n-th refresh request itself (the test's time limit bounds the wait), not a poll.
  const refreshed = async (n: number) => {
    while (refreshes < n) await new Promise<void>((res) => waiting.push(res));
  };
  return { client, refreshes: () => refreshes, refreshed };
}

function codeActions(client: LspClient, uri: string, range: ReturnType<typeof rangeOf>, only?: string[]) {
  return client.request<Action[]>(
    { method: 'textDocument/codeAction' },
    { textDocument: { uri }, range, context: { diagnostics: [], ...(only ? { only } : {}) } },
  );
}

describe('language server: fio', function () {
  this.timeout(30000);
  let client: LspClient;
  afterEach(async () => {
    await client?.stop();
  });

  it('"Generate fio jobs" on the VM\'s name: a workspace edit that creates the files next to the spec', async () => {
    ({ client } = await start({ pull: true, createFiles: true }));
    assert.deepEqual(client.capabilities!.codeActionProvider, {
      codeActionKinds: [
        'quickfix',
        SizingQuickFixKind,
        WorkloadQuickFixKind,
        `${SizingQuickFixKind}.workload`,
        FioRefactorActionKind,
        FioSourceActionKind,
      ],
    });
    client.open(URI, EXAMPLE);
    const actions = await codeActions(client, URI, rangeOf(EXAMPLE, 'name: db', 7));
    const gen = actions.filter((a) => /^Generate fio jobs/.test(a.title));
    assert.equal(gen.length, 1, actions.map((a) => a.title).join(' | '));
    const [action] = gen;
    assert.equal(action.title, "Generate fio jobs for VM 'db' (db-data.fio, db-wal.fio)");
    assert.equal(action.kind, FioRefactorActionKind);
    assert.equal(action.command, undefined);
    // The same text the CLI writes, one create + insert per file.
    const expected = generateFioJobs(analyze(EXAMPLE), { vm: 'db', specName: 'storage.perf.yaml' });
    const changes = action.edit!.documentChanges!;
    assert.equal(changes.length, 2 * expected.length);
    expected.forEach((f, i) => {
      const target = `file:///project/${f.fileName}`;
      assert.deepEqual(changes[2 * i], { kind: 'create', uri: target, options: { overwrite: true } });
      const edit = changes[2 * i + 1];
      assert.deepEqual(edit.textDocument, { uri: target, version: null });
      assert.deepEqual(
        edit.edits!.map((e) => [e.range.start, e.newText]),
        [[{ line: 0, character: 0 }, f.text]],
      );
    });
  });

  it('a source action anywhere in the VM when asked for source actions; nothing on other lines otherwise', async () => {
    ({ client } = await start({ pull: true, createFiles: true }));
    client.open(URI, EXAMPLE);
    const inDisk = rangeOf(EXAMPLE, 'type: pd-balanced', 2);
    const source = await codeActions(client, URI, inDisk, ['source']);
    assert.deepEqual(
      source.map((a) => [a.title, a.kind]),
      [["Generate fio jobs for VM 'db' (db-data.fio, db-wal.fio)", FioSourceActionKind]],
    );
    assert.deepEqual(
      (await codeActions(client, URI, inDisk)).filter((a) => /fio/.test(a.title)),
      [],
    );
    assert.deepEqual(await codeActions(client, URI, rangeOf(EXAMPLE, 'provider: gcp', 2), ['source']), []);
    // Asked for quick fixes only: no fio action even on the name.
    assert.deepEqual(
      (await codeActions(client, URI, rangeOf(EXAMPLE, 'name: db', 7), ['quickfix'])).filter((a) => /fio/.test(a.title)),
      [],
    );
  });

  it('a client that cannot create files gets a command; the server writes the files next to the spec', async () => {
    ({ client } = await start({ pull: false, createFiles: false }));
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-fio-lsp-'));
    try {
      const uri = pathToFileURL(join(dir, 'storage.perf.yaml')).href;
      client.open(uri, EXAMPLE);
      const [action] = (await codeActions(client, uri, rangeOf(EXAMPLE, 'name: db', 7))).filter((a) => /^Generate fio jobs/.test(a.title));
      assert.equal(action.edit, undefined);
      assert.deepEqual(action.command, { title: action.title, command: WriteFioCommand, arguments: [uri, 'db'] });
      assert.deepEqual(client.capabilities!.executeCommandProvider?.commands, [WriteFioCommand]);
      const written = await client.request<string[]>(
        { method: 'workspace/executeCommand' },
        { command: action.command!.command, arguments: action.command!.arguments },
      );
      assert.deepEqual(
        readdirSync(dir)
          .filter((f) => f.endsWith('.fio'))
          .sort(),
        ['db-data.fio', 'db-wal.fio'],
      );
      assert.deepEqual(
        written.sort(),
        ['db-data.fio', 'db-wal.fio'].map((f) => pathToFileURL(join(dir, f)).href),
      );
      for (const f of ['db-data.fio', 'db-wal.fio']) {
        const r = spawnSync('fio', ['--parse-only', join(dir, f)], { encoding: 'utf8' });
        assert.equal(r.status, 0, r.stderr);
      }
      await assert.rejects(
        client.request({ method: 'workspace/executeCommand' }, { command: WriteFioCommand, arguments: [uri, 'nope'] }),
        /the spec has no VM 'nope'/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the write-fio-jobs command replaces a link at a job file’s name, never writing where it points', async () => {
    ({ client } = await start({ pull: false, createFiles: false }));
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-fio-lsp-'));
    try {
      writeFileSync(join(dir, 'authorized_keys'), 'ssh-ed25519 AAAA\n');
      symlinkSync(join(dir, 'authorized_keys'), join(dir, 'db-data.fio'));
      const uri = pathToFileURL(join(dir, 'storage.perf.yaml')).href;
      client.open(uri, EXAMPLE);
      await client.request({ method: 'workspace/executeCommand' }, { command: WriteFioCommand, arguments: [uri, 'db'] });
      assert.equal(readFileSync(join(dir, 'authorized_keys'), 'utf8'), 'ssh-ed25519 AAAA\n');
      assert.ok(lstatSync(join(dir, 'db-data.fio')).isFile());
      assert.match(readFileSync(join(dir, 'db-data.fio'), 'utf8'), /^\[global\]/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an imported fio result becomes fio-measurement diagnostics on the workload (pull), until cleared', async () => {
    let refreshes: () => number;
    let refreshed: (n: number) => Promise<void>;
    ({ client, refreshes, refreshed } = await start({ pull: true, createFiles: true }));
    client.open(URI, EXAMPLE);
    assert.ok(!(await client.pullDiagnostics(URI)).some((d) => d.code === 'fio-measurement'));
    // The server refreshes once after initialization; count from there.
    await refreshed(1);
    const before = refreshes();
    const result = await client.request<CompareFioResult>({ method: CompareFioRequest }, { uri: URI, resultText: MIXED });
    assert.equal(result.vm, 'db');
    const oltp = result.comparisons.find((c) => c.job === 'oltp')!;
    assert.ok(['within', 'below', 'above'].includes(oltp.verdict));
    const row = result.rows.find((r) => r.job === 'oltp')!;
    assert.equal(row.measured, oltp.measured!.read_iops + oltp.measured!.write_iops);
    assert.equal(row.unit, 'IOPS');
    assert.match(result.summary, /^1 of 1 measured jobs within expectation|^0 of 1 measured jobs within expectation/);
    await refreshed(before + 1);
    assert.equal(refreshes(), before + 1, 'the server asks the client to pull again');

    const diags = (await client.pullDiagnostics(URI)).filter((d) => d.code === 'fio-measurement');
    assert.equal(diags.length, 1);
    const d = diags[0];
    const line = EXAMPLE.split('\n')[d.range.start.line];
    assert.equal(line.slice(d.range.start.character, d.range.end.character), 'oltp');
    assert.match(String(d.message), /^fio oltp: measured [\d,]+ IOPS against 15,000 predicted, [\d.]+× — /);
    assert.equal(d.severity, oltp.verdict === 'within' ? 3 : 2);

    // Recomputed as the spec changes: a bigger machine raises the prediction.
    const edited = EXAMPLE.replace('n2-standard-8', 'n2-standard-16');
    client.change(URI, 2, [{ text: edited }]);
    const after = (await client.pullDiagnostics(URI)).find((x) => x.code === 'fio-measurement')!;
    assert.doesNotMatch(String(after.message), /against 15,000 predicted/);

    assert.equal(await client.request<boolean>({ method: ClearFioRequest }, { uri: URI }), true);
    assert.ok(!(await client.pullDiagnostics(URI)).some((x) => x.code === 'fio-measurement'));
  });

  it('push diagnostics carry the measurement too; bad results are answered with clear errors', async () => {
    ({ client } = await start({ pull: false, createFiles: false }));
    client.open(URI, EXAMPLE);
    await client.pushedDiagnostics(URI, 1);
    const before = performance.now();
    await client.request<CompareFioResult>(
      { method: CompareFioRequest },
      { uri: URI, resultText: readFileSync(join(ROOT, 'test/fixtures/fio/failed-job.json'), 'utf8') },
    );
    const pushed = await client.publishedAfter(URI, before);
    const failed = pushed.find(
      (d) => d.code === 'fio-measurement' && /^fio oltp: fio reported error 22 \(EINVAL\) — failed; likely: EINVAL/.test(String(d.message)),
    );
    assert.ok(failed, JSON.stringify(pushed.map((d) => d.message)));
    assert.equal(failed.severity, 2);
    await assert.rejects(client.request({ method: CompareFioRequest }, { uri: URI, resultText: 'fio: nothing' }), /not fio JSON output/);
    await assert.rejects(
      client.request({ method: CompareFioRequest }, { uri: URI, resultText: MIXED, vm: 'nope' }),
      /the spec has no VM 'nope'/,
    );
    await assert.rejects(
      client.request({ method: CompareFioRequest }, { uri: 'file:///elsewhere.perf.yaml', resultText: MIXED }),
      /is not open/,
    );
  });

  it("the extension's result rows: a queue-bound probe reads within its range", async () => {
    // A measurement of the latency probe at the slow end of the guidance (2.5 ms per I/O, queue depth 4).
    ({ client } = await start({ pull: true, createFiles: true }));
    client.open(URI, EXAMPLE);
    const lat = generateFioJobs(analyze(EXAMPLE), { vm: 'db' })
      .flatMap((f) => f.jobs)
      .find((j) => j.name === 'read-lat@data')!;
    const json = JSON.parse(MIXED);
    json.jobs = [
      {
        ...json.jobs[0],
        jobname: lat.name,
        read: { ...json.jobs[0].read, iops: lat.expected_iops.low, bw_bytes: lat.expected_iops.low * 4096 },
        write: { ...json.jobs[0].write, iops: 0, bw_bytes: 0 },
      },
    ];
    const r = await client.request<CompareFioResult>({ method: CompareFioRequest }, { uri: URI, resultText: JSON.stringify(json) });
    const row = r.rows.find((x) => x.job === lat.name)!;
    assert.equal(row.verdict, 'within');
    assert.equal(row.measured, lat.expected_iops.low);
    assert.equal(row.predicted, lat.predicted.read_iops);
    assert.equal(row.note, undefined);
  });
});
