/** The real language server over stdio, driven as an editor drives it. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DocumentDiagnosticRequest,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from '../../cli/src/lsp-client';
import { applyEdits, LineIndex } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
const URI = 'file:///project/storage.perf.yaml';

function posOf(text: string, needle: string, nth = 0, delta = 0) {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found`);
  return new LineIndex(text).position(at + delta);
}

function applyLsp(
  text: string,
  edits: Array<{ range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }>,
): string {
  const idx = new LineIndex(text);
  return applyEdits(
    text,
    edits.map((e) => ({ start: idx.offset(e.range.start), end: idx.offset(e.range.end), newText: e.newText })),
  );
}

/**
 * Calls `then` once the answer that a request handler is returning has been queued for writing (the JSON-RPC
 * library queues it a few promise steps after the handler returns; setImmediate runs after all of those). The
 * connection writes in order, so whatever the test sends from `then` on reaches the server after that answer.
 */
function afterAnswer(then: () => void): void {
  setImmediate(then);
}

describe('language server over stdio', function () {
  this.timeout(30000);
  let client: LspClient;

  beforeEach(async () => {
    client = new LspClient({ pull: true });
    await client.initialize();
  });
  afterEach(async () => {
    await client.stop();
  });

  it('advertises its features', () => {
    const caps = client.capabilities!;
    assert.ok(
      caps.hoverProvider &&
        caps.completionProvider &&
        caps.codeActionProvider &&
        caps.documentSymbolProvider &&
        caps.inlayHintProvider &&
        caps.diagnosticProvider,
    );
  });

  it('pull diagnostics: the vCPU cap warning on the machine_type key, with code and source', async () => {
    client.open(URI, EXAMPLE);
    const diags = await client.pullDiagnostics(URI);
    const d = diags.find((x) => x.code === 'capped-by-vcpu');
    assert.ok(d, JSON.stringify(diags));
    assert.equal(d.source, 'storage-perf');
    assert.equal(d.severity, 2);
    const line = EXAMPLE.split('\n')[d.range.start.line];
    assert.equal(line.slice(d.range.start.character, d.range.end.character), 'machine_type');
    // the code links to its entry in the installed reference of codes
    const href = new URL(d.codeDescription!.href);
    assert.equal(href.hash, '#capped-by-vcpu');
    assert.match(readFileSync(fileURLToPath(href), 'utf8'), /<a id="capped-by-vcpu"><\/a>/);
  });

  it('hover on a disk shows computed IOPS, the binding limit and cost', async () => {
    client.open(URI, EXAMPLE);
    const h = await client.hover(URI, posOf(EXAMPLE, 'name: data', 0, 7));
    assert.ok(h);
    const md = h.contents.value;
    assert.match(md, /Disk data/);
    assert.match(md, /15,000 IOPS/);
    // Its figures are its own while wal is idle; the limit they share is said once.
    assert.match(md, /data and wal together ≤ 15,000 read and write IOPS/);
    assert.match(md, /\| vm /);
    assert.match(md, /\$85\.00\/month/);
    // n2-standard-8's 15,000 IOPS are shared by the pd-ssd and the WAL's pd-balanced.
    assert.match(md, /n2-standard-8 limit for pd-ssd: 15,000 IOPS/);
  });

  it('hover on a workload shows its figures and target', async () => {
    client.open(URI, EXAMPLE);
    const h = await client.hover(URI, posOf(EXAMPLE, 'name: oltp', 0, 7));
    assert.match(h!.contents.value, /Workload oltp/);
    assert.match(h!.contents.value, /Target met/);
  });

  it('completion offers disk types for the provider and units after a number', async () => {
    const text = EXAMPLE.replace('type: pd-ssd', 'type: ');
    client.open(URI, text);
    const items = await client.completion(URI, posOf(text, '        type: ', 0, 14));
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('pd-ssd') && labels.includes('hyperdisk-balanced'), labels.join(','));
    assert.ok(!labels.includes('network-ssd'));
    const t2 = EXAMPLE.replace('size: 500GiB', 'size: 500');
    client.change(URI, 2, [{ text: t2 }]);
    const units = await client.completion(URI, posOf(t2, 'size: 500', 0, 9));
    assert.ok(units.some((i) => i.label === '500GiB'));
  });

  it('completion offers the keys a disk may still have', async () => {
    const text = EXAMPLE.replace('        size: 500GiB\n', '        size: 500GiB\n        \n');
    client.open(URI, text);
    const at = posOf(text, 'size: 500GiB\n', 0, 'size: 500GiB\n'.length + 8);
    const labels = (await client.completion(URI, at)).map((i) => i.label);
    assert.ok(labels.includes('replication') && labels.includes('provisioned_iops'), labels.join(','));
    assert.ok(!labels.includes('size') && !labels.includes('type'));
  });

  it('code action: the preferred quick fix for the vCPU cap changes the machine, keeping comments', async () => {
    client.open(URI, EXAMPLE);
    const diags = await client.pullDiagnostics(URI);
    const d = diags.find((x) => x.code === 'capped-by-vcpu')!;
    const actions = await client.codeActions(URI, d.range, [d]);
    const fix = actions.find((a) => /n2-standard-16/.test(a.title));
    assert.ok(fix, actions.map((a) => a.title).join(' | '));
    // data alone: 15,000 IOPS (n2-standard-8's pd-ssd row) become its own 21,000; wal's 3,600 were its own already.
    assert.match(fix.title, /\+6,000 read IOPS/);
    const after = applyLsp(EXAMPLE, fix.edit!.changes![URI]);
    assert.equal(after, EXAMPLE.replace('machine_type: n2-standard-8', 'machine_type: n2-standard-16'));
    client.change(URI, 2, [{ text: after }]);
    assert.ok(!(await client.pullDiagnostics(URI)).some((x) => x.code === 'capped-by-vcpu'));
  });

  it('code action: a request for other kinds only (context.only) gets no quick fix', async () => {
    client.open(URI, EXAMPLE);
    const d = (await client.pullDiagnostics(URI)).find((x) => x.code === 'capped-by-vcpu')!;
    const ask = (only: string[]) =>
      client.request<Array<{ title: string; kind?: string }>>(CodeActionRequest.type, {
        textDocument: { uri: URI },
        range: d.range,
        context: { diagnostics: [d], only },
      });
    assert.ok((await ask(['quickfix'])).some((a) => /n2-standard-16/.test(a.title)));
    const others = await ask(['source.fixAll', 'refactor']);
    assert.deepEqual(
      others.filter((a) => a.kind === 'quickfix').map((a) => a.title),
      [],
    );
  });

  it('code action: resize a disk to meet a target, title says what it buys', async () => {
    const text = EXAMPLE.replace('iops: 12000', 'iops: 25000').replace('n2-standard-8', 'n2-standard-32');
    client.open(URI, text);
    const diags = await client.pullDiagnostics(URI);
    const d = diags.find((x) => x.code === 'target-unreachable');
    assert.ok(d, JSON.stringify(diags.map((x) => x.message)));
    const actions = await client.codeActions(URI, d.range, [d]);
    const resize = actions.find((a) => a.title.startsWith("Resize 'data'"));
    assert.ok(resize, actions.map((a) => a.title).join(' | '));
    assert.equal(resize.isPreferred, true);
    assert.match(resize.title, /\+\$\d+\.\d\d\/month/);
    const after = applyLsp(text, resize.edit!.changes![URI]);
    client.change(URI, 2, [{ text: after }]);
    assert.ok(!(await client.pullDiagnostics(URI)).some((x) => x.code === 'target-unreachable'));
  });

  it('incremental edits; a mid-edit invalid document keeps the last good analysis for hovers', async () => {
    client.open(URI, EXAMPLE);
    await client.pullDiagnostics(URI);
    const at = posOf(EXAMPLE, 'vms:', 0, 4);
    client.change(URI, 2, [{ range: { start: at, end: at }, text: ' [oops' }]);
    const diags = await client.pullDiagnostics(URI);
    assert.equal(diags.length, 1);
    assert.equal(diags[0].code, 'yaml-syntax');
    const h = await client.hover(URI, posOf(EXAMPLE, 'name: data', 0, 7));
    assert.match(h!.contents.value, /Disk data/);
    client.change(URI, 3, [{ range: { start: at, end: { line: at.line, character: at.character + 6 } }, text: '' }]);
    assert.ok((await client.pullDiagnostics(URI)).some((x) => x.code === 'capped-by-vcpu'));
  });

  it('document symbols and inlay hints', async () => {
    client.open(URI, EXAMPLE);
    const syms = await client.documentSymbols(URI);
    assert.equal(syms[0].name, 'db');
    assert.deepEqual(
      syms[0].children!.map((c) => c.name),
      ['data', 'wal', 'oltp', 'wal-writes'],
    );
    const hints = await client.inlayHints(URI, { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } });
    assert.ok(
      hints.some((h) => /15,000\/15,000 IOPS · 480\/480 MiB\/s · \$85\.00\/mo/.test(h.label)),
      hints.map((h) => h.label).join(' | '),
    );
  });

  it('configuration: the default catalog comes from workspace/configuration', async () => {
    await client.stop();
    client = new LspClient({ pull: true, settings: { catalog: 'gcp-2020' } });
    await client.initialize();
    const text = EXAMPLE.replace('catalog: gcp-2024\n', '');
    client.open(URI, text);
    const h = await client.hover(URI, posOf(text, 'name: data', 0, 7));
    assert.match(h!.contents.value, /gcp-2020/);
  });

  it('configuration: a settings change is not answered "unchanged" to a pull with the old result id', async () => {
    await client.stop();
    const settings: Record<string, unknown> = {};
    client = new LspClient({ pull: true, settings });
    await client.initialize();
    // pd-balanced is not a disk type of gcp-2020: switching the default edition adds an error.
    const text = EXAMPLE.replace('catalog: gcp-2024\n', '');
    client.open(URI, text);
    type Report = { kind: string; resultId?: string; items?: Array<{ code?: string | number }> };
    const pull = (previousResultId?: string) =>
      client.request<Report>(DocumentDiagnosticRequest.type, { textDocument: { uri: URI }, previousResultId });
    const first = await pull();
    assert.ok(first.resultId && !first.items!.some((d) => d.code === 'unknown-disk-type'));
    settings.catalog = 'gcp-2020';
    // The server reads the new settings with workspace/configuration: once the answer is on its way, a pull
    // reaches the server after it, and is answered with the new settings.
    const asked = new Promise<void>((res) => {
      client.connection.onRequest(ConfigurationRequest.type, (params) => {
        afterAnswer(res);
        return params.items.map((i) => (i.section === 'storagePerf' ? settings : null));
      });
    });
    client.notify(DidChangeConfigurationNotification.type, { settings: null });
    await asked;
    const last = await pull(first.resultId);
    assert.equal(last.kind, 'full', JSON.stringify(last));
    assert.ok(
      last.items!.some((d) => d.code === 'unknown-disk-type'),
      JSON.stringify(last),
    );
    assert.notEqual(last.resultId, first.resultId);
  });

  it('refresh requests only go to a client that supports them', async () => {
    let refreshes = 0;
    let configurations = 0;
    let asked!: () => void;
    const configured = new Promise<void>((res) => {
      asked = res;
    });
    client.connection.onRequest('workspace/diagnostic/refresh', () => {
      refreshes++;
      return null;
    });
    client.connection.onRequest('workspace/inlayHint/refresh', () => {
      refreshes++;
      return null;
    });
    client.connection.onRequest(ConfigurationRequest.type, (params) => {
      configurations++;
      afterAnswer(asked);
      return params.items.map(() => ({}));
    });
    client.notify(DidChangeConfigurationNotification.type, { settings: null });
    client.open(URI, EXAMPLE);
    await client.pullDiagnostics(URI);
    await configured;
    assert.ok(configurations >= 1);
    // What the server sends after reading the settings arrives before the answer to a later request.
    await client.pullDiagnostics(URI);
    assert.equal(refreshes, 0);
  });
});

describe('language server with push diagnostics', function () {
  this.timeout(30000);
  it('publishes diagnostics after open and after each change', async () => {
    const client = new LspClient({ pull: false });
    try {
      await client.initialize();
      client.open(URI, EXAMPLE, 1);
      const first = await client.pushedDiagnostics(URI, 1);
      assert.ok(first.some((d) => d.code === 'capped-by-vcpu'));
      client.change(URI, 2, [{ text: EXAMPLE.replace('n2-standard-8', 'n2-standard-16') }]);
      const second = await client.pushedDiagnostics(URI, 2);
      assert.ok(!second.some((d) => d.code === 'capped-by-vcpu'));
    } finally {
      await client.stop();
    }
  });

  it('a spec opened at start-up is analysed again once the settings are read (the user catalog loaded)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-push-'));
    const catalogPath = join(dir, 'mine.json');
    writeFileSync(
      catalogPath,
      readFileSync(join(ROOT, 'catalogs/gcp-2024.json'), 'utf8').replace('"edition": "gcp-2024"', '"edition": "mine"'),
    );
    // The settings reach the server only through workspace/configuration, as from VS Code's middleware.
    const client = new LspClient({ pull: false, settings: { catalogPath } });
    // A busy editor answers workspace/configuration after the spec has been opened and analysed: here, once
    // the diagnostics of that first analysis (without the user catalog) have been published.
    let answeredAt!: (at: number) => void;
    const answered = new Promise<number>((res) => {
      answeredAt = res;
    });
    let early: Awaited<ReturnType<LspClient['pushedDiagnostics']>> = [];
    client.connection.onRequest(ConfigurationRequest.type, async (params) => {
      early = await client.pushedDiagnostics(URI, 1);
      answeredAt(performance.now());
      return params.items.map(() => ({ catalogPath }));
    });
    try {
      await client.initialize();
      client.open(URI, EXAMPLE.replace('catalog: gcp-2024', 'catalog: mine'), 1);
      // The publication that reflects the loaded settings: the first one after they were answered.
      const settled = await client.publishedAfter(URI, await answered);
      assert.ok(
        early.some((d) => d.code === 'unknown-catalog'),
        'the first analysis, before the settings, lacks the user catalog',
      );
      assert.ok(!settled.some((d) => d.code === 'unknown-catalog'), JSON.stringify(settled.map((d) => d.message)));
      assert.ok(settled.some((d) => d.code === 'capped-by-vcpu'));
    } finally {
      await client?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('push diagnostics timing', function () {
  this.timeout(30000);
  it('a burst of edits is coalesced, and the last version is published', async () => {
    const client = new LspClient({ pull: false });
    try {
      await client.initialize();
      client.open(URI, EXAMPLE, 1);
      await client.pushedDiagnostics(URI, 1);
      await new Promise((r) => setTimeout(r, 200));
      const at = posOf(EXAMPLE, '500GiB', 0, 1);
      const edit = (v: number, digit: string) =>
        client.change(URI, v, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: digit }]);
      edit(2, '1');
      await client.pushedDiagnostics(URI, 2);
      const before = client.pushCount(URI);
      for (let v = 3; v < 23; v++) edit(v, String(v % 10));
      const last = await client.pushedDiagnostics(URI, 22);
      assert.ok(client.pushCount(URI) - before <= 3, `${client.pushCount(URI) - before} publications for 20 edits`);
      assert.equal(client.lastPushed(URI)?.version, 22);
      assert.ok(last.some((d) => d.code === 'capped-by-vcpu'));
    } finally {
      await client.stop();
    }
  });
});

describe('the user catalog setting', function () {
  this.timeout(30000);
  it('is found from the workspace folder, with ${workspaceFolder} expanded, and dropped when the setting goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-ws-'));
    mkdirSync(join(dir, 'catalogs'));
    writeFileSync(
      join(dir, 'catalogs', 'mine.json'),
      readFileSync(join(ROOT, 'catalogs/gcp-2024.json'), 'utf8').replace('"edition": "gcp-2024"', '"edition": "mine"'),
    );
    let answer: Record<string, unknown> = { catalogPath: 'catalogs/mine.json' };
    const client = new LspClient({ pull: true });
    // Resolved once the current answer is on its way to the server: a request sent after that reaches the
    // server after the answer, and is answered with the new settings.
    let answered = (): void => undefined;
    const nextAnswer = () =>
      new Promise<void>((res) => {
        answered = res;
      });
    client.connection.onRequest(ConfigurationRequest.type, (params) => {
      const settings = answer;
      afterAnswer(answered);
      return params.items.map(() => settings);
    });
    const codes = async () => (await client.pullDiagnostics(URI)).map((d) => d.code);
    const spec = EXAMPLE.replace('catalog: gcp-2024', 'catalog: mine');
    try {
      // The server runs elsewhere (its working directory is not the workspace): the path is the folder's.
      let read = nextAnswer();
      await client.initialize(pathToFileURL(dir).href);
      await read;
      client.open(URI, spec, 1);
      assert.ok(!(await codes()).includes('unknown-catalog'));
      answer = { catalogPath: '${workspaceFolder}/catalogs/mine.json' };
      read = nextAnswer();
      client.notify({ method: 'workspace/didChangeConfiguration' }, { settings: null });
      await read;
      assert.ok(!(await codes()).includes('unknown-catalog'));
      // The setting removed: the answer no longer has the key, and the catalog is no longer loaded.
      answer = {};
      read = nextAnswer();
      client.notify({ method: 'workspace/didChangeConfiguration' }, { settings: null });
      await read;
      assert.ok((await codes()).includes('unknown-catalog'));
    } finally {
      await client.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the bundled language server (dist/server.js, as the .vsix ships it)', function () {
  this.timeout(60000);
  it('links diagnostic codes to the docs/lint.md beside the bundle, not to one further up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-bundle-'));
    // An installed extension: <extensions>/<ext>/dist/server.js and <ext>/docs/lint.md, and some other
    // docs/lint.md three folders up from dist/ (a user's home folder may well have one).
    const ext = join(dir, 'home', 'extensions', 'ext');
    mkdirSync(join(dir, 'home', 'docs'), { recursive: true });
    writeFileSync(join(dir, 'home', 'docs', 'lint.md'), 'not ours\n');
    mkdirSync(join(ext, 'docs'), { recursive: true });
    cpSync(join(ROOT, 'docs', 'lint.md'), join(ext, 'docs', 'lint.md'));
    let client: LspClient | undefined;
    try {
      const built = spawnSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), '--no-typecheck', `--outdir=${join(ext, 'dist')}`], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      assert.equal(built.status, 0, built.stderr);
      client = new LspClient({ command: [process.execPath, join(ext, 'dist', 'server.js'), '--stdio'], pull: true });
      await client.initialize();
      client.open(URI, EXAMPLE);
      const d = (await client.pullDiagnostics(URI)).find((x) => x.code === 'capped-by-vcpu');
      assert.ok(d?.codeDescription, JSON.stringify(d));
      assert.equal(fileURLToPath(new URL(d.codeDescription.href)), join(ext, 'docs', 'lint.md'));
    } finally {
      await client?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
