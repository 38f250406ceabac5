/**
 * The language server: a thin protocol layer over the analysis core. It keeps documents and their analyses
 * (documents.ts) and settings (settings.ts); each LSP feature is an adapter of its own under features/, which
 * converts offsets to positions and core results to LSP shapes, and nothing else. This module wires them
 * together and answers the lifecycle: initialize, initialized, configuration changes, shutdown.
 */
import { loadHclParser } from '../../protocol/src/hcl-parser';
import {
  ResponseError,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { DIAGNOSTIC_CODES } from '../../core/src';
import { clientSupport, type ServerContext } from './context';
import { AnalysedDocuments } from './documents';
import { CODE_ACTION_KINDS, registerCodeActions } from './features/code-actions';
import { COMPLETION_TRIGGERS, registerCompletion } from './features/completion';
import { registerDiagnostics } from './features/diagnostics';
import { registerDiff } from './features/diff';
import { registerDocumentSymbols } from './features/document-symbols';
import { registerFio } from './features/fio';
import { registerFioCommand, SERVER_COMMANDS } from './features/fio-command';
import { registerHover } from './features/hover';
import { refreshInlayHints, registerInlayHints } from './features/inlay-hints';
import { registerReport } from './features/report';
import { REFUSED, type Refusal } from './gate';
import { Lifecycle } from './lifecycle';
import { registerModuleWatch } from './module-watch';
import { SOURCE } from './lsp-diagnostic';
import { ServerSettings } from './settings';

function capabilities(): InitializeResult['capabilities'] {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    hoverProvider: true,
    completionProvider: { triggerCharacters: COMPLETION_TRIGGERS },
    codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS },
    executeCommandProvider: { commands: SERVER_COMMANDS },
    documentSymbolProvider: true,
    inlayHintProvider: true,
    diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false, identifier: SOURCE },
  };
}

/** Starts answering on `connection`; its lifecycle is returned for the protocol gate (gate.ts). */
export function startServer(connection: Connection): Lifecycle {
  const settings = new ServerSettings(connection);
  const documents = new AnalysedDocuments(settings);
  const lifecycle = new Lifecycle(connection);
  const ctx: ServerContext = {
    connection,
    documents,
    settings,
    lifecycle,
    client: {
      pullDiagnostics: false,
      diagnosticRefresh: false,
      inlayHintRefresh: false,
      createFiles: false,
      relatedDocuments: false,
      watchFiles: false,
    },
  };
  // New settings: every document is analysed again on next use.
  settings.onDidLoad(() => documents.invalidate());

  // The HCL parser (.tf files) loads while the client starts; the first .tf document then never waits for it.
  const hcl = loadHclParser().catch((e: unknown) => connection.console.error(`the HCL parser did not load: ${String(e)}`));

  connection.onInitialize(async (params: InitializeParams): Promise<InitializeResult> => {
    lifecycle.initialized = true;
    // Filled in, not replaced: the features hold this object from their registration on.
    Object.assign(ctx.client, clientSupport(params.capabilities));
    settings.initialize(params);
    await hcl;
    return { capabilities: capabilities(), serverInfo: { name: 'storage-perf-language-server', version: '0.1.0' } };
  });

  const fio = registerFio(ctx, (uri) => diagnostics.refresh(uri));
  const diagnostics = registerDiagnostics(ctx, fio);
  registerHover(ctx);
  registerCompletion(ctx);
  registerCodeActions(ctx);
  registerDocumentSymbols(ctx);
  registerInlayHints(ctx);
  registerReport(ctx);
  registerDiff(ctx);
  registerFioCommand(ctx);
  const watch = registerModuleWatch(ctx, (uri) => diagnostics.refresh(uri));

  /** After new settings the client's diagnostics and inlay hints are stale: have it pull again, or push afresh. */
  const reload = async () => {
    await settings.load();
    diagnostics.refreshAll();
    refreshInlayHints(connection, ctx.client);
  };
  // Documents opened before the settings arrive are analysed without them (and without the user catalog).
  connection.onInitialized(() => {
    // Module files are checked by stat until the client has registered the watchers (module-watch.ts).
    void watch.start();
    return reload();
  });
  connection.onDidChangeConfiguration(async (change) => {
    settings.changed(change.settings);
    await reload();
  });

  // Requests the gate refused: answered with its error, under their own id.
  connection.onRequest(REFUSED, (r: Refusal) => {
    throw new ResponseError(r.code, r.message);
  });
  connection.onShutdown(() => {
    lifecycle.shuttingDown = true;
    diagnostics.stop();
  });

  documents.text.listen(connection);
  connection.listen();
  connection.console.log(`storage-perf language server ready (${Object.keys(DIAGNOSTIC_CODES).length} diagnostic codes)`);
  return lifecycle;
}
