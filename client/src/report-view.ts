/**
 * The report view: one webview beside the editor showing the server's report of a spec, kept up to date; with
 * the changes since the last commit above it when asked (`storagePerf.showChanges`): the server's diff of the
 * committed text (read through the Git extension) against the open one.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DiffWithBaseRequest, type DiffWithBaseParams, type DiffWithBaseResult } from '../../protocol/src/requests';
import { changesHtml } from './changes-html';
import { baseName, debounce, errorText, requestReport } from './common';
import type { GitBase } from './git-base';
import { messageHtml, reportHtml } from './report-html';

export class ReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private doc: vscode.TextDocument | undefined;
  /** Whether the view shows the changes since the last commit above the report. */
  private changes = false;
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly later = debounce(400, () => void this.render());

  constructor(
    private readonly client: LanguageClient,
    private readonly extensionUri: vscode.Uri,
    private readonly git: GitBase,
  ) {
    this.disposables.push(
      // A commit (or a checkout) changes what the open text is compared with.
      git.onDidChangeHead(() => {
        if (this.changes) this.later();
      }),
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

  /** Shows the report of `doc`, with the changes since its last commit above it when `changes` is set. */
  async show(doc: vscode.TextDocument, changes = false): Promise<void> {
    this.doc = doc;
    this.changes = changes;
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
    this.panel.title = `${changes ? 'Changes' : 'Report'}: ${baseName(doc.uri)}`;
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
        const [report, changes] = await Promise.all([requestReport(this.client, doc), this.changes ? this.changesSection(doc) : undefined]);
        html = report
          ? reportHtml(report, { nonce, title, note: 'Follows the file as you edit it.', changes })
          : messageHtml('The language server has no analysis of this file.', { nonce, title });
      } catch (e) {
        html = messageHtml(`The language server could not report on this file: ${errorText(e)}`, { nonce, title });
      }
    }
    if (generation === this.generation && this.panel === panel) panel.webview.html = html;
  }

  /** The changes since the last commit, or why there are none to show; never an error thrown at the view. */
  private async changesSection(doc: vscode.TextDocument): Promise<string> {
    try {
      const base = await this.git.committed(doc.uri);
      if ('none' in base) return changesHtml({ message: base.none });
      const params: DiffWithBaseParams = {
        uri: this.client.code2ProtocolConverter.asUri(doc.uri),
        baseText: base.text,
        baseRef: base.commit.slice(0, 7),
      };
      const r = await this.client.sendRequest<DiffWithBaseResult>(DiffWithBaseRequest, params);
      return changesHtml('record' in r ? { record: r.record, commit: base.commit } : { message: r.unavailable });
    } catch (e) {
      return changesHtml({ message: `The changes since the last commit could not be computed: ${errorText(e)}` });
    }
  }

  dispose(): void {
    this.later.cancel();
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
