/**
 * The VS Code extension's cost to its users: the size of what it ships (the production bundles and the
 * .vsix) and its activation time.
 *
 * Activation is measured outside VS Code: the production client bundle (dist/extension.js) is loaded with a
 * stand-in for the `vscode` module and its activate() is timed. activate() resolves once the language
 * server (dist/server.js, forked over Node IPC exactly as in VS Code) has answered `initialize`, so the
 * figure is the extension's own work — loading the client, starting the server, the LSP handshake —
 * without VS Code's (which the end-to-end test exercises, with code-server).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(__dirname, '../..');
// Bundled afresh for the benchmark, beside the packaged dist/ (which a test may be installing meanwhile).
const DIST = join(ROOT, 'out', 'bench-dist');
/** The spec the stub workspace holds. */
const SPEC = join(ROOT, 'examples', 'storage.perf.yaml');

/**
 * A `vscode` module that accepts whatever the client asks of it: every property is a callable object whose
 * calls return another such object (so `onDidX(...)` yields something with `dispose()`, `createOutputChannel()`
 * something with `appendLine()`), iterates as empty and is never a thenable. Only the values the client
 * and vscode-languageclient actually read are real.
 */
function stubVscode(extensionPath: string): Record<string, unknown> {
  const cache = new Map<string, unknown>();
  const anything = (path: string): unknown => {
    const hit = cache.get(path);
    if (hit) return hit;
    const target = function () {
      /* a call returns another stub */
    } as unknown as Record<string | symbol, unknown>;
    const assigned = new Map<string | symbol, unknown>();
    const proxy: unknown = new Proxy(target, {
      set(_t, key, value) {
        assigned.set(key, value);
        return true;
      },
      get(_t, key) {
        if (assigned.has(key)) return assigned.get(key);
        if (key === 'then') return undefined;
        if (key === Symbol.iterator)
          return function* () {
            /* empty */
          };
        if (key === Symbol.toPrimitive) return () => '';
        if (key === 'length') return 0;
        if (typeof key === 'symbol') return undefined;
        return anything(`${path}.${key}`);
      },
      apply: () => anything(`${path}()`),
      construct: () => anything(`new ${path}`) as object,
    });
    cache.set(path, proxy);
    return proxy;
  };
  const configuration = { get: (_k: string, d?: unknown) => d, has: () => false, inspect: () => undefined, update: async () => undefined };
  const real: Record<string, unknown> = {
    version: '1.100.3',
    env: { appName: 'bench', language: 'en', machineId: 'bench', sessionId: 'bench', uiKind: 1, remoteName: undefined },
    workspace: new Proxy(
      {
        isTrusted: true,
        workspaceFolders: undefined,
        textDocuments: [],
        notebookDocuments: [],
        getConfiguration: () => configuration,
        // A workspace with a spec in it: the extension stays idle in one without (a .tf file alone activates it).
        findFiles: async () => [{ scheme: 'file', fsPath: SPEC, path: SPEC, toString: () => `file://${SPEC}` }],
        fs: { readFile: async (uri: { fsPath: string }) => readFileSync(uri.fsPath) },
      },
      {
        get: (t, k) =>
          k in t ? (t as Record<string | symbol, unknown>)[k] : typeof k === 'string' ? anything(`workspace.${k}`) : undefined,
      },
    ),
    window: new Proxy(
      { activeTextEditor: undefined, visibleTextEditors: [], visibleNotebookEditors: [] },
      {
        get: (t, k) => (k in t ? (t as Record<string | symbol, unknown>)[k] : typeof k === 'string' ? anything(`window.${k}`) : undefined),
      },
    ),
    Uri: {
      file: (p: string) => ({ scheme: 'file', fsPath: p, path: p, toString: () => `file://${p}` }),
      parse: (s: string) => ({ toString: () => s }),
    },
    _extensionPath: extensionPath,
  };
  // The bundle reads the module through esbuild's ESM interop, which copies the module's own keys: every
  // name the API declares must be one. They are taken from the API's type declarations.
  const declarations = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  for (const m of declarations.matchAll(/^\texport (?:namespace|class|enum|const|let|function) (\w+)/gm)) {
    if (!(m[1] in real)) real[m[1]] = anything(m[1]);
  }
  return real;
}

interface ExtensionModule {
  activate(ctx: unknown): Promise<void>;
  deactivate(): Promise<void>;
}

async function activationTimes(runs: number): Promise<{ load: number[]; activate: number[]; deactivate: number[] }> {
  const bundle = join(DIST, 'extension.js');
  const vscode = stubVscode(ROOT);
  const M = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = M._load;
  // Counts the server processes the client forks: a run that did not start the server measures nothing.
  const forked: ChildProcess[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension's own require of child_process, counted
  const cp = require('node:child_process') as typeof import('node:child_process');
  const countingCp = {
    ...cp,
    fork: (...args: Parameters<typeof cp.fork>) => {
      const c = cp.fork(...args);
      forked.push(c);
      return c;
    },
  };
  M._load = function (request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (request === 'child_process' || request === 'node:child_process') return countingCp;
    return original.call(this, request, parent, isMain);
  };
  const out = { load: [] as number[], activate: [] as number[], deactivate: [] as number[] };
  try {
    for (let i = 0; i < runs; i++) {
      delete require.cache[require.resolve(bundle)];
      let t0 = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads the bundle afresh each round, as VS Code does
      const ext = require(bundle) as ExtensionModule;
      out.load.push(performance.now() - t0);
      const subscriptions: { dispose(): unknown }[] = [];
      const context = {
        subscriptions,
        extensionUri: { fsPath: ROOT, path: ROOT, scheme: 'file' },
        extensionPath: ROOT,
        // The client starts the server it finds at dist/server.js next to itself.
        asAbsolutePath: (p: string) => (p.startsWith('dist/') ? join(DIST, p.slice('dist/'.length)) : join(ROOT, p)),
        extension: { packageJSON: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) },
        globalState: { get: () => undefined, update: async () => undefined },
        workspaceState: { get: () => undefined, update: async () => undefined },
      };
      t0 = performance.now();
      await ext.activate(context);
      out.activate.push(performance.now() - t0);
      if (forked.length !== i + 1 || forked[i].exitCode !== null) throw new Error('activate() did not leave a running language server');
      t0 = performance.now();
      await ext.deactivate();
      for (const s of subscriptions) s.dispose();
      out.deactivate.push(performance.now() - t0);
    }
  } finally {
    M._load = original;
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export async function benchExtension(): Promise<string[]> {
  // The bundles as the .vsix ships them.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), '--production', '--no-typecheck', `--outdir=${DIST}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`bundling failed: ${built.stderr}`);
  const out = ['## VS Code extension: size and activation', '', '| file | size | gzip |', '|---|---|---|'];
  for (const f of ['extension.js', 'server.js']) {
    const buf = readFileSync(join(DIST, f));
    out.push(`| ${f} (production bundle) | ${kib(buf.length)} | ${kib(gzipSync(buf).length)} |`);
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (existsSync(vsix)) out.push(`| ${pkg.name}-${pkg.version}.vsix (as last packaged) | ${kib(statSync(vsix).size)} | (zip) |`);

  const runs = 5;
  const t = await activationTimes(runs);
  out.push(
    '',
    `Activation (median of ${runs}; the production client bundle with a stand-in \`vscode\` module; activate() ends when the forked server has answered \`initialize\`):`,
    '',
    '| step | median ms |',
    '|---|---|',
    `| require dist/extension.js | ${median(t.load).toFixed(1)} |`,
    `| activate() — client start, server fork, LSP initialize | ${median(t.activate).toFixed(1)} |`,
    `| deactivate() — LSP shutdown/exit | ${median(t.deactivate).toFixed(1)} |`,
  );
  return out;
}
