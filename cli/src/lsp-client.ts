/**
 * A small LSP client over stdio: starts the language server as a child process and speaks the protocol to
 * it, as an editor would. The linter uses it; so do the protocol tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  ExitNotification,
  ConfigurationRequest,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification,
  DocumentDiagnosticRequest,
  HoverRequest,
  CompletionRequest,
  CodeActionRequest,
  DocumentSymbolRequest,
  InlayHintRequest,
  RegistrationRequest,
  type ProtocolConnection,
  type Diagnostic,
  type InitializeResult,
  type Position,
  type Range,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { SETTINGS_SECTION } from '../../protocol/src/settings';

/**
 * The language server lint starts: in a clone, its bin, which runs the server's bundle with its code cache (or
 * the compiled code, when newer); in a packed CLI, the bundle beside this file (dist/server.js).
 */
export const SERVER_BIN = [resolve(__dirname, '../../../server/bin/storage-perf-language-server.js'), resolve(__dirname, 'server.js')].find(
  (p) => existsSync(p),
)!;

export class ServerFailure extends Error {}

export interface ClientOptions {
  /** Command and arguments that start the server; default: this project's server over stdio. */
  command?: string[];
  /** Answers to workspace/configuration for the `storagePerf` section. */
  settings?: Record<string, unknown>;
  /** Answers for other configuration sections (another server under comparison asks for its own). */
  sections?: Record<string, unknown>;
  /** Advertise pull diagnostics (textDocument/diagnostic). */
  pull?: boolean;
  /** Advertise and accept file watchers registered by the server (workspace/didChangeWatchedFiles). */
  watchFiles?: boolean;
  /** Per-request time limit: a server that does not answer in time is treated as hung. */
  timeoutMs?: number;
  cwd?: string;
  /**
   * The server, already started with the default command (cli/bin starts it before loading the CLI's own code,
   * so that the two processes start side by side); without it, the client starts one.
   */
  started?: ChildProcess;
}

export class LspClient {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcess;
  capabilities?: InitializeResult['capabilities'];
  private readonly pushed = new Map<string, { version?: number; diagnostics: Diagnostic[]; at: number }>();
  private readonly pushCounts = new Map<string, number>();
  private readonly waiters: Array<() => void> = [];
  private exited?: string;
  /** What the server registered (client/registerCapability), when `watchFiles` lets it. */
  readonly registrations: Array<{ method: string; registerOptions?: unknown }> = [];
  private readonly timeoutMs: number;
  stderr = '';

  constructor(private readonly opts: ClientOptions = {}) {
    const [cmd, ...args] = opts.command ?? [process.execPath, SERVER_BIN, '--stdio'];
    this.timeoutMs = opts.timeoutMs ?? 30000;
    this.child = opts.started ?? spawn(cmd, args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (b: Buffer) => {
      this.stderr += b.toString();
      if (this.stderr.length > 65536) this.stderr = this.stderr.slice(-32768);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = `the language server exited (${signal ?? `code ${code}`})`;
      this.waiters.splice(0).forEach((w) => w());
    });
    this.child.on('error', (e) => {
      this.exited = `cannot start the language server: ${e.message}`;
      this.waiters.splice(0).forEach((w) => w());
    });
    // A server started early may have exited before these listeners were there.
    if (this.child.exitCode !== null || this.child.signalCode !== null)
      this.exited = `the language server exited (${this.child.signalCode ?? `code ${this.child.exitCode}`})`;
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((i) =>
        i.section === SETTINGS_SECTION ? (this.opts.settings ?? {}) : (this.opts.sections?.[i.section ?? ''] ?? null),
      ),
    );
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.pushed.set(p.uri, { version: p.version, diagnostics: p.diagnostics, at: performance.now() });
      this.pushCounts.set(p.uri, (this.pushCounts.get(p.uri) ?? 0) + 1);
      this.waiters.splice(0).forEach((w) => w());
    });
    if (opts.watchFiles)
      this.connection.onRequest(RegistrationRequest.type, (params) => {
        this.registrations.push(...params.registrations);
        this.waiters.splice(0).forEach((w) => w());
      });
    this.connection.onError(() => undefined);
    this.connection.onClose(() => {
      this.exited ??= 'the connection to the language server closed';
      this.waiters.splice(0).forEach((w) => w());
    });
    this.connection.listen();
  }

  /** Sends a request; a crash or a timeout becomes a ServerFailure. */
  async request<R>(type: { method: string }, params: unknown): Promise<R> {
    if (this.exited) throw new ServerFailure(this.exited);
    let timer: NodeJS.Timeout | undefined;
    let onExit: (() => void) | undefined;
    const failure = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ServerFailure(`the language server did not answer ${type.method} within ${this.timeoutMs / 1000} s`)),
        this.timeoutMs,
      );
      onExit = () => reject(new ServerFailure(this.exited ?? 'the language server went away'));
      this.child.once('exit', onExit);
    });
    try {
      return await Promise.race([this.connection.sendRequest(type.method, params) as Promise<R>, failure]);
    } finally {
      clearTimeout(timer);
      if (onExit) this.child.off('exit', onExit);
    }
  }

  notify(type: { method: string }, params: unknown): void {
    if (this.exited) throw new ServerFailure(this.exited);
    void this.connection.sendNotification(type.method, params);
  }

  async initialize(rootUri: string | null = null): Promise<InitializeResult> {
    const result = await this.request<InitializeResult>(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      capabilities: {
        workspace: { configuration: true, ...(this.opts.watchFiles ? { didChangeWatchedFiles: { dynamicRegistration: true } } : {}) },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          publishDiagnostics: { versionSupport: true },
          ...(this.opts.pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: true } } : {}),
          hover: { contentFormat: ['markdown', 'plaintext'] },
          completion: { completionItem: { snippetSupport: false } },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, isPreferredSupport: true },
        },
      },
      initializationOptions: { settings: this.opts.settings ?? {} },
    });
    this.capabilities = result.capabilities;
    this.notify(InitializedNotification.type, {});
    return result;
  }

  open(uri: string, text: string, version = 1): void {
    this.notify(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'storage-perf', version, text } });
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void {
    this.notify(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
  }

  close(uri: string): void {
    this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async pullDiagnostics(uri: string): Promise<Diagnostic[]> {
    return (await this.pullReport(uri)).items;
  }

  /** A pulled report: the document's diagnostics and those of the related documents it names, by URI. */
  async pullReport(uri: string): Promise<{ items: Diagnostic[]; related: Record<string, Diagnostic[]> }> {
    const r = await this.request<{ kind: string; items?: Diagnostic[]; relatedDocuments?: Record<string, { items?: Diagnostic[] }> }>(
      DocumentDiagnosticRequest.type,
      { textDocument: { uri } },
    );
    const related: Record<string, Diagnostic[]> = {};
    for (const [u, report] of Object.entries(r.relatedDocuments ?? {})) related[u] = report.items ?? [];
    return { items: r.items ?? [], related };
  }

  /** Waits until diagnostics for `uri` (at `version` when given) have been pushed and nothing newer came for `quietMs`. */
  async pushedDiagnostics(uri: string, version?: number, quietMs = 0): Promise<Diagnostic[]> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      if (this.exited) throw new ServerFailure(this.exited);
      const p = this.pushed.get(uri);
      if (p && (version === undefined || p.version === undefined || p.version >= version) && performance.now() - p.at >= quietMs)
        return p.diagnostics;
      if (Date.now() > deadline) throw new ServerFailure(`no diagnostics for ${uri} within ${this.timeoutMs / 1000} s`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, p ? Math.max(5, quietMs - (performance.now() - p.at)) : 200);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  /** Waits for the first diagnostics for `uri` published after `after` (a performance.now() time). */
  async publishedAfter(uri: string, after: number): Promise<Diagnostic[]> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      if (this.exited) throw new ServerFailure(this.exited);
      const p = this.pushed.get(uri);
      if (p && p.at >= after) return p.diagnostics;
      if (Date.now() > deadline) throw new ServerFailure(`no diagnostics for ${uri} within ${this.timeoutMs / 1000} s`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  /** Waits until the server has registered `method` (client/registerCapability; only with `watchFiles`). */
  async registered(method: string): Promise<unknown> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      if (this.exited) throw new ServerFailure(this.exited);
      const r = this.registrations.find((x) => x.method === method);
      if (r) return r.registerOptions;
      if (Date.now() > deadline) throw new ServerFailure(`${method} was not registered within ${this.timeoutMs / 1000} s`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  /** How many times the server has published diagnostics for `uri`. */
  pushCount(uri: string): number {
    return this.pushCounts.get(uri) ?? 0;
  }

  /** The newest diagnostics pushed for `uri`, with their version and arrival time (performance.now()). */
  lastPushed(uri: string): { version?: number; diagnostics: Diagnostic[]; at: number } | undefined {
    return this.pushed.get(uri);
  }

  hover(uri: string, position: Position) {
    return this.request<{ contents: { value: string }; range?: Range } | null>(HoverRequest.type, { textDocument: { uri }, position });
  }
  completion(uri: string, position: Position) {
    return this.request<Array<{ label: string; textEdit?: { newText: string; range: Range } }>>(CompletionRequest.type, {
      textDocument: { uri },
      position,
    });
  }
  codeActions(uri: string, range: Range, diagnostics: Diagnostic[] = []) {
    return this.request<
      Array<{
        title: string;
        isPreferred?: boolean;
        diagnostics?: Diagnostic[];
        edit?: { changes?: Record<string, Array<{ range: Range; newText: string }>> };
      }>
    >(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics } });
  }
  documentSymbols(uri: string) {
    return this.request<Array<{ name: string; children?: Array<{ name: string }> }>>(DocumentSymbolRequest.type, { textDocument: { uri } });
  }
  inlayHints(uri: string, range: Range) {
    return this.request<Array<{ position: Position; label: string }>>(InlayHintRequest.type, { textDocument: { uri }, range });
  }

  /** shutdown, exit, and wait for the process to end (killing it if it does not). */
  async stop(): Promise<void> {
    if (!this.exited) {
      try {
        await this.request(ShutdownRequest.type, undefined);
        this.notify(ExitNotification.type, undefined);
      } catch {
        // a server that cannot shut down cleanly is killed below
      }
    }
    await new Promise<void>((res) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return res();
      const t = setTimeout(() => {
        this.child.kill('SIGKILL');
      }, 3000);
      this.child.once('exit', () => {
        clearTimeout(t);
        res();
      });
    });
    this.connection.dispose();
  }
}
