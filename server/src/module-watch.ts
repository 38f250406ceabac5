/**
 * A module's files read once and again when they change (`ModuleFiles`, protocol/src/module-files.ts). When the
 * client can register file watchers dynamically, the server asks it to watch the Terraform file names and trusts
 * what it read until `workspace/didChangeWatchedFiles` names a file; otherwise each held file is checked by `stat`
 * before each use. Either way, a document whose module read a changed file is analysed again, and an editor's
 * buffer of a module file (open, maybe unsaved) is what the other documents of its module read.
 */
import { DidChangeWatchedFilesNotification, FileChangeType, type DidChangeWatchedFilesParams } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { dirname } from 'node:path';
import { isWatchedName, WATCHED_PATTERNS } from '../../protocol/src/module-files';
import type { ServerContext } from './context';
import { pathOf } from './uri';

export interface ModuleWatch {
  /** After initialized: registers the watchers when the client can, then trusts what it reports. */
  start(): Promise<void>;
}

/** `refresh(uri)`: the document's diagnostics are stale (push them again, or have the client pull). */
export function registerModuleWatch(ctx: ServerContext, refresh: (uri: string) => void): ModuleWatch {
  const { connection, documents, lifecycle } = ctx;
  const files = documents.moduleFiles;

  /** The documents whose module read `path`, or (a file created or deleted) read another file of its folder. */
  const affected = (path: string, folderToo: boolean): Set<string> => {
    const out = new Set(documents.usersOf(path));
    if (!folderToo) return out;
    const folder = dirname(path);
    for (const { uri, folders } of documents.foldersRead()) if (folders.has(folder)) out.add(uri);
    // A .tf document reads its own folder, even when it held no other file there.
    for (const d of documents.all()) if (isWatchedName(pathOf(d.uri)) && dirname(pathOf(d.uri)) === folder) out.add(d.uri);
    return out;
  };
  const reanalyse = (uris: Iterable<string>, except?: string) => {
    for (const uri of uris) {
      if (uri === except) continue;
      documents.moduleChanged(uri);
      refresh(uri);
    }
  };

  connection.onDidChangeWatchedFiles(
    lifecycle.guard('watched files', undefined, (params: DidChangeWatchedFilesParams) => {
      const uris = new Set<string>();
      for (const c of Array.isArray(params?.changes) ? params.changes : []) {
        if (typeof c?.uri !== 'string' || !c.uri.startsWith('file:')) continue;
        const path = pathOf(c.uri);
        files.changed(path);
        for (const u of affected(path, c.type !== FileChangeType.Changed)) uris.add(u);
      }
      reanalyse(uris);
    }),
  );

  // The editor's buffer of a module file wins over the disk, for every document whose module reads it.
  const buffer = (doc: TextDocument, open: boolean) => {
    const path = pathOf(doc.uri);
    if (!doc.uri.startsWith('file:') || !isWatchedName(path)) return;
    if (open) files.setBuffer(path, doc.getText());
    else files.dropBuffer(path);
    reanalyse(documents.usersOf(path), doc.uri);
  };
  // Fired on open too.
  documents.text.onDidChangeContent((e) => buffer(e.document, true));
  documents.text.onDidClose((e) => buffer(e.document, false));

  return {
    async start() {
      if (!ctx.client.watchFiles) return;
      try {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: WATCHED_PATTERNS.map((globPattern) => ({ globPattern })),
        });
        files.watch(ctx.settings.workspace);
      } catch (e) {
        connection.console.log(`file watchers not registered (module files are checked by stat): ${(e as Error).message}`);
      }
    },
  };
}
