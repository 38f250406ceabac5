/**
 * The linter's LSP client: the protocol client with what a headless client also has to answer, and with every
 * failure of the server turned into a ServerFailure (exit status 2).
 */
import {
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  ErrorCodes,
  LogMessageNotification,
  RegistrationRequest,
  ResponseError,
  ShowMessageNotification,
  ShowMessageRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';
import { SETTINGS_SECTION } from '../../../protocol/src/settings';
import { LspClient, ServerFailure, type ClientOptions } from '../lsp-client';

/** How long to wait for a server to ask for its configuration before opening documents. */
const CONFIG_WAIT_MS = 1000;

/** The connection's own failures (write, read, disposed, inactive), as opposed to errors the server answered. */
const TRANSPORT_ERRORS = new Set<number>([
  ErrorCodes.MessageWriteError,
  ErrorCodes.MessageReadError,
  ErrorCodes.PendingResponseRejected,
  ErrorCodes.ConnectionInactive,
]);

/**
 * The LSP client with what a headless client also has to answer: configuration (remembering that it did),
 * diagnostic refreshes (results pulled before one are stale), registrations, progress and messages.
 */
export class LintClient extends LspClient {
  refreshes = 0;
  readonly messages: Array<{ type: number; message: string }> = [];
  readonly configured: Promise<void>;
  /** Why the server is gone, once it is. */
  private gone?: string;
  private readonly goneEvent: Promise<void>;

  constructor(opts: ClientOptions) {
    super(opts);
    this.goneEvent = new Promise<void>((res) => {
      this.child.once('exit', (code, signal) => {
        this.gone ??= `the language server exited (${signal ?? `code ${code}`})`;
        res();
      });
      this.child.once('error', (e) => {
        this.gone ??= `cannot start the language server: ${e.message}`;
        res();
      });
    });
    // Every request in flight listens for the server's exit; many files mean many listeners.
    this.child.setMaxListeners(0);
    // Writing to a server that died must not take the linter down: the exit is reported instead.
    this.child.stdin?.on('error', () => undefined);
    let configured!: () => void;
    this.configured = new Promise<void>((res) => {
      configured = res;
    });
    const settings = opts.settings ?? {};
    const sections = opts.sections ?? {};
    this.connection.onRequest(ConfigurationRequest.type, (params) => {
      setImmediate(configured);
      return params.items.map((i) => (i.section === SETTINGS_SECTION ? settings : (sections[i.section ?? ''] ?? null)));
    });
    this.connection.onRequest(DiagnosticRefreshRequest.type, () => {
      this.refreshes++;
    });
    this.connection.onRequest(RegistrationRequest.type, () => undefined);
    this.connection.onRequest(UnregistrationRequest.type, () => undefined);
    this.connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    this.connection.onRequest(ShowMessageRequest.type, (p) => {
      this.messages.push(p);
      return null;
    });
    this.connection.onNotification(ShowMessageNotification.type, (p) => {
      this.messages.push(p);
    });
    this.connection.onNotification(LogMessageNotification.type, (p) => {
      if (p.type === 1) this.messages.push(p); // errors only: the rest is the server's chatter
    });
  }

  /**
   * Every way a request can fail becomes a ServerFailure (exit 2 with a message): a write to a server that is
   * already gone fails before its exit is reported, so wait a moment for the exit and report that instead.
   */
  override async request<R>(type: { method: string }, params: unknown): Promise<R> {
    try {
      return await super.request<R>(type, params);
    } catch (e) {
      if (e instanceof ServerFailure) throw e;
      if (e instanceof ResponseError && !TRANSPORT_ERRORS.has(e.code))
        throw new ServerFailure(`the language server answered ${type.method} with an error: ${e.message}`);
      await Promise.race([this.goneEvent, new Promise((res) => setTimeout(res, 1000).unref())]);
      throw new ServerFailure(this.gone ?? `the connection to the language server failed: ${(e as Error).message}`);
    }
  }

  /**
   * A notification to a server that has just died fails to be written; left unhandled, that rejection would end
   * the linter with an exit code that reads as "findings". The exit itself is reported by the next request or wait.
   */
  override notify(type: { method: string }, params: unknown): void {
    if (this.gone) throw new ServerFailure(this.gone);
    this.connection.sendNotification(type.method, params).catch(() => undefined);
  }

  /** Waits until the server has fetched its configuration (or has plainly not asked for it). */
  async settled(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onExit: (() => void) | undefined;
    await Promise.race([
      this.configured,
      new Promise<void>((res) => {
        timer = setTimeout(res, CONFIG_WAIT_MS);
      }),
      new Promise<void>((res) => {
        onExit = res;
        this.child.once('exit', res);
      }),
    ]);
    clearTimeout(timer);
    if (onExit) this.child.off('exit', onExit);
  }
}
