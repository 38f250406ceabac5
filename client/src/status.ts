/** The status-bar item: the monthly cost of the spec in the active editor, from the server's report. */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { baseName, debounce, errorText, isSpec, requestReport } from './common';

export class CostStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('storagePerf.cost', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped on every refresh, so that a slow answer for an older state never overwrites a newer one. */
  private generation = 0;
  private readonly later = debounce(300, () => this.refresh());

  constructor(private readonly client: LanguageClient) {
    this.item.name = 'Storage Perf: monthly cost';
    this.item.command = 'storagePerf.showReport';
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.later();
      }),
      // New diagnostics mean the server has analysed a new state of the file (or new settings).
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) this.later();
      }),
    );
  }

  refresh(): void {
    const generation = ++this.generation;
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !isSpec(doc)) {
      this.item.hide();
      return;
    }
    requestReport(this.client, doc).then(
      (report) => {
        if (generation !== this.generation) return;
        if (!report) {
          this.item.hide();
          return;
        }
        const where = [report.catalog, report.region].filter(Boolean).join(', ');
        if (report.monthly_cost_text) {
          // The bar has room for "at least $95.00/mo"; what is missing goes to the tooltip.
          this.item.text = `$(database) ${report.monthly_cost_text.replace(/ \(.*\)$/, '')}/mo`;
          this.item.tooltip = `Storage Perf: ${report.monthly_cost_text} a month for the machines and disks of ${baseName(doc.uri)}${where ? ` (${where})` : ''}. Click for the report.`;
        } else {
          this.item.text = '$(database) no cost';
          this.item.tooltip = `Storage Perf: ${baseName(doc.uri)} has no prices${where ? ` in ${where}` : ''} (or does not evaluate yet). Click for the report.`;
        }
        this.item.show();
      },
      (e) => {
        if (generation !== this.generation) return;
        this.item.text = '$(database) $(warning)';
        this.item.tooltip = `Storage Perf: no report for ${baseName(doc.uri)}: ${errorText(e)}`;
        this.item.show();
      },
    );
  }

  dispose(): void {
    this.later.cancel();
    this.disposables.forEach((d) => d.dispose());
  }
}
