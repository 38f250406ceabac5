/** What every feature of the server is given: the connection, the documents, the settings, the lifecycle, and what the client supports. */
import type { ClientCapabilities, Connection } from 'vscode-languageserver/node';
import type { AnalysedDocuments } from './documents';
import type { Lifecycle } from './lifecycle';
import type { ServerSettings } from './settings';

/** What the client said at initialize that it supports, as far as the features depend on it. */
export interface ClientSupport {
  /** It pulls diagnostics (textDocument/diagnostic): the server then never pushes them. */
  pullDiagnostics: boolean;
  /** It accepts workspace/diagnostic/refresh and workspace/inlayHint/refresh (LSP: only then may they be sent). */
  diagnosticRefresh: boolean;
  inlayHintRefresh: boolean;
  /** It applies workspace edits that create files (the fio code action's edit needs it). */
  createFiles: boolean;
  /** A pulled report may hold the diagnostics of related documents (a .tf file's module's other files). */
  relatedDocuments: boolean;
  /** It registers file watchers when asked (workspace/didChangeWatchedFiles with dynamicRegistration). */
  watchFiles: boolean;
}

export function clientSupport(caps: ClientCapabilities): ClientSupport {
  const we = caps.workspace?.workspaceEdit;
  return {
    pullDiagnostics: !!caps.textDocument?.diagnostic,
    diagnosticRefresh: !!caps.workspace?.diagnostics?.refreshSupport,
    inlayHintRefresh: !!caps.workspace?.inlayHint?.refreshSupport,
    createFiles: !!we?.documentChanges && !!we.resourceOperations?.includes('create'),
    relatedDocuments: !!caps.textDocument?.diagnostic?.relatedDocumentSupport,
    watchFiles: !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration,
  };
}

export interface ServerContext {
  connection: Connection;
  documents: AnalysedDocuments;
  settings: ServerSettings;
  lifecycle: Lifecycle;
  /** All false until initialize fills it in: before then the server assumes no support. */
  client: ClientSupport;
}
