/**
 * Requests the protocol refuses, refused before any handler sees them. vscode-languageserver reads a request's
 * params before it calls the handler (`params.workDoneToken`), so `params: null` failed there as an internal
 * error (-32603); and its initialize handler sets the connection up again before ours can refuse a second one.
 * The gate runs first, on every message: a request it refuses is sent on to one handler that answers with the
 * error, so the answer still goes out under the request's own id.
 */
import { ErrorCodes, Message, type MessageStrategy, type RequestMessage } from 'vscode-languageserver/node';
import { ClearFioRequest, CompareFioRequest, DiffWithBaseRequest, GenerateFioRequest, ReportRequest } from '../../protocol/src/requests';

/** The method a refused request is renamed to; its handler throws the refusal (server.ts). */
export const REFUSED = 'storagePerf/$refused';

export interface Refusal {
  code: number;
  message: string;
}

/** The lifecycle as far as the gate needs it: undefined until the server is started. */
export interface GateState {
  readonly initialized: boolean;
  readonly shuttingDown: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isPosition = (v: unknown) => isObject(v) && typeof v.line === 'number' && typeof v.character === 'number';
const isRange = (v: unknown) => isObject(v) && isPosition(v.start) && isPosition(v.end);

/** What each LSP request needs in its params, beyond `textDocument.uri`, that the handlers read unchecked. */
const NEEDS: Record<string, (p: Record<string, unknown>) => string | undefined> = {
  'textDocument/hover': (p) => (isPosition(p.position) ? undefined : 'position must be a Position'),
  'textDocument/completion': (p) => (isPosition(p.position) ? undefined : 'position must be a Position'),
  'textDocument/inlayHint': (p) => (isRange(p.range) ? undefined : 'range must be a Range'),
  'textDocument/codeAction': (p) =>
    !isRange(p.range)
      ? 'range must be a Range'
      : !isObject(p.context) || !Array.isArray(p.context.diagnostics)
        ? 'context must be a CodeActionContext with diagnostics'
        : undefined,
};

/** What each storagePerf/* request reads from its params: each field named with the type it must have. */
const CUSTOM_FIELDS: Record<string, Array<[string, 'string' | 'string?' | 'boolean?']>> = {
  [ReportRequest]: [['uri', 'string']],
  [DiffWithBaseRequest]: [
    ['uri', 'string'],
    ['baseText', 'string'],
    ['baseRef', 'string'],
  ],
  [GenerateFioRequest]: [
    ['uri', 'string'],
    ['vm', 'string?'],
    ['specName', 'string?'],
  ],
  [CompareFioRequest]: [
    ['uri', 'string'],
    ['resultText', 'string'],
    ['vm', 'string?'],
    ['show', 'boolean?'],
  ],
  [ClearFioRequest]: [['uri', 'string']],
};

/** Why a storagePerf/* request's params lack a field it reads (the first one, by name), or undefined. */
function customInvalid(method: string, params: unknown): string | undefined {
  const fields = CUSTOM_FIELDS[method];
  if (!fields) return undefined;
  // Given by position (VS Code's client sends a custom request's one parameter so), the handler reads the first.
  const given = Array.isArray(params) ? (params as unknown[])[0] : params;
  if (!isObject(given) || Array.isArray(given)) return 'params must be an object';
  for (const [name, type] of fields) {
    const v = given[name];
    const optional = type.endsWith('?');
    if (optional && v === undefined) continue;
    const want = type.replace('?', '');
    if (typeof v !== want)
      return `${name} must be a ${want}${v === undefined ? ' (it is missing)' : `, not ${v === null ? 'null' : typeof v}`}`;
  }
  return undefined;
}

/**
 * Requests LSP gives no params (`params?: void`): clients built on Rust's lsp-types (Helix, Zed) send
 * `"params": null` for them, which is read as none.
 */
const NO_PARAMS = new Set(['shutdown']);

/** Why the params of `method` are invalid, or undefined. JSON-RPC 2.0: params, when present, are an object or an array. */
function invalidParams(method: string, params: unknown): string | undefined {
  if (params === undefined && method in CUSTOM_FIELDS) return customInvalid(method, params);
  if (params === undefined || (params === null && NO_PARAMS.has(method)))
    return method.startsWith('textDocument/') ? 'params are missing' : undefined;
  if (!isObject(params)) return `params must be an object or an array, not ${params === null ? 'null' : typeof params}`;
  if (method.startsWith('storagePerf/')) return customInvalid(method, params);
  if (!method.startsWith('textDocument/') || Array.isArray(params)) return undefined;
  if (!isObject(params.textDocument) || typeof params.textDocument.uri !== 'string') return 'textDocument.uri must be a string';
  return NEEDS[method]?.(params);
}

/** Why the protocol refuses this request now, or undefined when a handler may have it. */
export function refusal(method: string, params: unknown, state: GateState | undefined): Refusal | undefined {
  if (method === REFUSED) return { code: ErrorCodes.MethodNotFound, message: `unknown method ${method}` };
  if (state?.shuttingDown) return { code: ErrorCodes.InvalidRequest, message: 'the server is shutting down' };
  if (method === 'initialize' && state?.initialized)
    return { code: ErrorCodes.InvalidRequest, message: 'the server is already initialized: initialize is sent once' };
  if (method !== 'initialize' && !state?.initialized)
    return { code: ErrorCodes.ServerNotInitialized, message: 'the server is not initialized' };
  const why = invalidParams(method, params);
  return why ? { code: ErrorCodes.InvalidParams, message: `${method}: ${why}` } : undefined;
}

/** The connection's message strategy: refused requests are renamed to REFUSED with the refusal as params. */
export function protocolGate(state: () => GateState | undefined): MessageStrategy {
  return {
    handleMessage(message, next) {
      if (Message.isRequest(message)) {
        // The library reads a request's params before its handler (`params.workDoneToken`): none is undefined.
        if (message.params === null && NO_PARAMS.has(message.method)) delete (message as RequestMessage).params;
        const refused = refusal(message.method, message.params, state());
        if (refused) {
          const request = message as RequestMessage;
          request.method = REFUSED;
          request.params = refused;
        }
      }
      return next(message);
    },
  };
}
