/**
 * The protocol's lifecycle and how handlers fail. Requests before initialize and after shutdown are errors, not
 * empty answers; a handler's own failure is logged and never thrown into the connection.
 */
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { FioResultError } from '../../core/src';

export class Lifecycle {
  initialized = false;
  shuttingDown = false;

  constructor(private readonly connection: Connection) {}

  /** Throws the protocol's error for a request before initialize or after shutdown. */
  check(): void {
    if (!this.initialized) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the server is not initialized');
    if (this.shuttingDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shutting down');
  }

  /** Whether the server may still send on its own (a debounced push): initialized and not shutting down. */
  get running(): boolean {
    return this.initialized && !this.shuttingDown;
  }

  /** An LSP feature's handler: a failure is logged and answered with `fallback`, an empty result. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  guard<F extends (...args: any[]) => any>(name: string, fallback: ReturnType<F>, fn: F): F {
    return ((...args: Parameters<F>) => {
      this.check();
      try {
        return fn(...args);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        this.connection.console.error(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
        return fallback;
      }
    }) as F;
  }

  /**
   * A custom request's handler: there is no empty answer to fall back on, so a failure is logged and answered
   * as an error. A fio result that cannot be read is the caller's mistake: InvalidParams.
   */
  guardRequest<P, R>(name: string, fn: (p: P) => R): (p: P) => R {
    return (p: P): R => {
      this.check();
      try {
        return fn(p);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        if (e instanceof FioResultError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
        this.connection.console.error(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
        throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${(e as Error)?.message ?? String(e)}`);
      }
    };
  }
}
