/** The report view: one webview beside the editor showing the server's report of a spec, kept up to date. */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { LanguageClient } from 'vscode-languageclient/node';
import { baseName, debounce, errorText, requestReport } from './common';
import { messageHtml, reportHtml } from './report-html';

export class ReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private doc: vscode.TextDocument | undefined;
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly later = debounce(400, () => void this.render());

  constructor(
    private readonly client: LanguageClient,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.doc) this.later();
      }),
      vscode.languages.onDidChangeDiagnostics((e) => {
        if (this.doc && e.uris.some((u) => u.toString() === this.doc!.uri.toString())) this.later();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === this.doc) this.later();
      }),
    );
  }

  async show(doc: vscode.TextDocument): Promise<void> {
    this.doc = doc;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        'storagePerf.report',
        '',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        {
          enableScripts: false,
          enableCommandUris: false,
          localResourceRoots: [],
        },
      );
      this.panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'images', 'icon.png');
      this.panel.onDidDispose(
        () => {
          this.panel = undefined;
          this.doc = undefined;
          this.later.cancel();
        },
        undefined,
        this.disposables,
      );
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    this.panel.title = `Report: ${baseName(doc.uri)}`;
    await this.render();
  }

  private async render(): Promise<void> {
    const panel = this.panel,
      doc = this.doc;
    if (!panel || !doc) return;
    const generation = ++this.generation;
    const nonce = randomBytes(16).toString('base64');
    const title = vscode.workspace.asRelativePath(doc.uri);
    let html: string;
    if (doc.isClosed) {
      html = messageHtml('The spec was closed. Open it and run “Storage Perf: Show Report” again.', { nonce, title });
    } else {
      try {
        const report = await requestReport(this.client, doc);
        html = report
          ? reportHtml(report, { nonce, title, note: 'Follows the file as you edit it.' })
          : messageHtml('The language server has no analysis of this file.', { nonce, title });
      } catch (e) {
        html = messageHtml(`The language server could not report on this file: ${errorText(e)}`, { nonce, title });
      }
    }
    if (generation === this.generation && this.panel === panel) panel.webview.html = html;
  }

  dispose(): void {
    this.later.cancel();
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
