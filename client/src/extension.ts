/**
 * The VS Code extension: a thin client of the storage-perf language server. Everything the user sees about a
 * spec — diagnostics, hovers, quick fixes, inlay hints, the cost in the status bar, the report view — is
 * computed by the server; this file starts it, forwards settings, and turns its answers into UI.
 */
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  DidChangeConfigurationNotification,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { CostStatus } from './status';
import { ReportPanel } from './report-view';
import { GitBase } from './git-base';
import { disposeFioOutput, generateFioJobs, importFioResults } from './fio-commands';
import { selectCatalog } from './catalog-command';
import { isSpec, SECTION, specUri } from './common';
import { serverSettings } from './settings';

let client: LanguageClient | undefined;

/**
 * Whether .tf files get the server: the setting, or a workload sidecar in the workspace (a `*.perf.yaml` whose
 * top level names `terraform:`). HashiCorp's Terraform extension owns the language; this only adds figures.
 */
async function terraformEnabled(): Promise<boolean> {
  if (vscode.workspace.getConfiguration(SECTION).get<boolean>('terraform.enable') === true) return true;
  const specs = await vscode.workspace.findFiles('**/*.perf.{yaml,yml}', '**/node_modules/**', 50);
  for (const uri of specs) {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    if (/^terraform:/m.test(text)) return true;
  }
  return false;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const terraform = await terraformEnabled();
  // Activated by a .tf file (onLanguage:terraform) where Terraform is not enabled and there is no spec: stay idle.
  const opened = vscode.workspace.textDocuments.some((d) => isSpec(d));
  if (!terraform && !opened && !(await vscode.workspace.findFiles('**/*.perf.{yaml,yml}', '**/node_modules/**', 1)).length) return;
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };

  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: 'storage-perf' },
      // Users who keep specs in the YAML language (to use Red Hat's YAML extension on them) still get the server.
      { language: 'yaml', pattern: '**/*.perf.{yaml,yml}' },
      // Terraform files, when enabled: the server reads each with the rest of its module from disk.
      ...(terraform ? [{ scheme: 'file', pattern: '**/*.tf' }] : []),
    ],
    initializationOptions: { settings: serverSettings(vscode.workspace.getConfiguration(SECTION), vscode.workspace.isTrusted) },
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        // The server re-reads its settings through workspace/configuration (which the middleware below
        // filters) when it is told that they changed: it never needs them in the notification itself.
        didChangeConfiguration: (_sections, next) => next(undefined),
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) return answers;
          return answers.map((a, i) =>
            params.items[i]?.section === SECTION && a && typeof a === 'object'
              ? serverSettings(a as Record<string, unknown>, vscode.workspace.isTrusted)
              : a,
          );
        },
      },
    },
  };

  client = new LanguageClient('storagePerf', 'Storage Perf Language Server', serverOptions, clientOptions);
  const c = client;
  const status = new CostStatus(c);
  const git = new GitBase();
  const reports = new ReportPanel(c, context.extensionUri, git);

  context.subscriptions.push(
    status,
    reports,
    git,
    { dispose: disposeFioOutput },
    vscode.commands.registerCommand('storagePerf.showReport', (uri?: vscode.Uri) => withSpec(uri, (doc) => reports.show(doc))),
    vscode.commands.registerCommand('storagePerf.showChanges', (uri?: vscode.Uri) => withSpec(uri, (doc) => reports.show(doc, true))),
    vscode.commands.registerCommand('storagePerf.generateFio', (uri?: vscode.Uri) => withSpec(uri, (doc) => generateFioJobs(c, doc))),
    vscode.commands.registerCommand('storagePerf.importFioResults', (uri?: vscode.Uri) => withSpec(uri, (doc) => importFioResults(c, doc))),
    vscode.commands.registerCommand('storagePerf.selectCatalog', () => selectCatalog(context.extension.packageJSON)),
    vscode.commands.registerCommand('storagePerf.restartServer', async () => {
      await c.restart();
      status.refresh();
    }),
    // A newly trusted workspace may load the user catalog: have the server read its settings again.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void c.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }),
  );

  await c.start();
  status.refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

/** Runs a command on the spec it was invoked for: the given file (explorer, editor title) or the active editor. */
async function withSpec(uri: vscode.Uri | undefined, fn: (doc: vscode.TextDocument) => unknown): Promise<void> {
  const target = specUri(uri);
  if (!target) {
    void vscode.window.showWarningMessage('Storage Perf: open a *.perf.yaml spec first.');
    return;
  }
  const doc = await vscode.workspace.openTextDocument(target);
  if (!isSpec(doc)) {
    void vscode.window.showWarningMessage(`Storage Perf: ${vscode.workspace.asRelativePath(doc.uri)} is not a *.perf.yaml spec.`);
    return;
  }
  await fn(doc);
}
