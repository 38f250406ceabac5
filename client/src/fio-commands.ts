/**
 * The fio commands. The server writes the job files and compares results (the same core code as the CLI's
 * `fio` and `compare`); the extension asks where and whether to write, and shows what came back.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  CompareFioRequest,
  GenerateFioRequest,
  type CompareFioParams,
  type CompareFioResult,
  type GenerateFioParams,
  type GenerateFioResult,
} from '../../protocol/src/requests';

import { baseName, errorText } from './common';

let output: vscode.OutputChannel | undefined;
function channel(): vscode.OutputChannel {
  return (output ??= vscode.window.createOutputChannel('Storage Perf: fio'));
}

export function disposeFioOutput(): void {
  output?.dispose();
  output = undefined;
}

export async function generateFioJobs(client: LanguageClient, doc: vscode.TextDocument): Promise<void> {
  if (doc.isUntitled) {
    void vscode.window.showWarningMessage('Storage Perf: save the spec first; the fio jobs are written next to it.');
    return;
  }
  let result: GenerateFioResult;
  try {
    result = await client.sendRequest<GenerateFioResult>(GenerateFioRequest, {
      uri: client.code2ProtocolConverter.asUri(doc.uri),
    } satisfies GenerateFioParams);
  } catch (e) {
    void vscode.window.showErrorMessage(`Storage Perf: cannot generate fio jobs: ${errorText(e)}`);
    return;
  }
  if (!result.files.length) {
    void vscode.window.showInformationMessage(`Storage Perf: ${baseName(doc.uri)} has no workload to turn into a fio job.`);
    return;
  }
  const folder = vscode.Uri.joinPath(doc.uri, '..', 'fio');
  const targets = result.files.map((f) => ({ ...f, uri: vscode.Uri.joinPath(folder, f.fileName) }));
  const existing = (await Promise.all(targets.map((t) => exists(t.uri)))).filter(Boolean).length;
  const names = targets.map((t) => t.fileName).join(', ');
  const where = vscode.workspace.asRelativePath(folder);
  const detail = `${names}${existing ? `\n\n${existing} of them exist already and will be replaced.` : ''}`;
  const write = `Write ${targets.length === 1 ? 'File' : `${targets.length} Files`}`;
  const answer = await vscode.window.showInformationMessage(
    `Write fio jobs for ${baseName(doc.uri)} to ${where}?`,
    { modal: true, detail },
    write,
  );
  if (answer !== write) return;
  await vscode.workspace.fs.createDirectory(folder);
  for (const t of targets) await vscode.workspace.fs.writeFile(t.uri, new TextEncoder().encode(t.text));
  const first = await vscode.workspace.openTextDocument(targets[0].uri);
  await vscode.window.showTextDocument(first, { preview: true });
  void vscode.window.showInformationMessage(
    `Storage Perf: wrote ${targets.length} fio job file${targets.length === 1 ? '' : 's'} to ${where}. Run them with fio --output-format=json and import the result.`,
  );
}

export async function importFioResults(client: LanguageClient, doc: vscode.TextDocument): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    title: `fio result to compare with ${baseName(doc.uri)}`,
    canSelectMany: false,
    openLabel: 'Compare',
    defaultUri: doc.isUntitled ? undefined : vscode.Uri.joinPath(doc.uri, '..'),
    filters: { 'fio JSON output': ['json'], 'All files': ['*'] },
  });
  if (!picked?.length) return;
  const resultText = new TextDecoder().decode(await vscode.workspace.fs.readFile(picked[0]));
  let result: CompareFioResult;
  try {
    result = await client.sendRequest<CompareFioResult>(CompareFioRequest, {
      uri: client.code2ProtocolConverter.asUri(doc.uri),
      resultText,
    } satisfies CompareFioParams);
  } catch (e) {
    void vscode.window.showErrorMessage(`Storage Perf: cannot compare ${baseName(picked[0])}: ${errorText(e)}`);
    return;
  }
  const out = channel();
  out.appendLine(
    `fio result ${vscode.workspace.asRelativePath(picked[0])} against ${vscode.workspace.asRelativePath(doc.uri)}, VM ${result.vm} (${new Date().toLocaleString()})`,
  );
  out.appendLine(formatComparisons(result.comparisons));
  for (const c of result.comparisons) {
    if (!c.causes.length) continue;
    out.appendLine(`${c.job} (${c.verdict}):`);
    for (const cause of c.causes) out.appendLine(`  - ${cause}`);
  }
  out.appendLine('');
  out.show(true);
  const total = result.comparisons.length;
  const within = result.counts.within ?? 0;
  const message = total
    ? `${within} of ${total} fio jobs on ${result.vm} are within the prediction${countsText(result.counts)}.`
    : 'the result holds no job that matches the spec.';
  void (within < total ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(
    `Storage Perf: ${message}`,
    'Show Details',
  ).then((a) => {
    if (a) out.show();
  });
}

/** The verdicts other than "within", e.g. " (2 below, 1 missing)". */
function countsText(counts: CompareFioResult['counts']): string {
  const rest = Object.entries(counts)
    .filter(([v, n]) => v !== 'within' && n)
    .map(([v, n]) => `${n} ${v}`);
  return rest.length ? ` (${rest.join(', ')})` : '';
}

/** The comparisons as a plain-text table for the output channel: each job's figure in its own metric. */
export function formatComparisons(rows: CompareFioResult['comparisons']): string {
  if (!rows.length) return '(no jobs)';
  const n = (x: number | undefined, digits = 0) =>
    x === undefined || !Number.isFinite(x) ? '' : x.toLocaleString('en-US', { maximumFractionDigits: digits });
  const total = (
    f: { read_iops: number; write_iops: number; read_mibps: number; write_mibps: number } | undefined,
    metric: CompareFioResult['comparisons'][number]['metric'],
  ) => (f === undefined ? undefined : metric === 'iops' ? f.read_iops + f.write_iops : f.read_mibps + f.write_mibps);
  const head = ['job', 'workload', 'predicted', 'measured', 'unit', 'ratio', 'verdict'];
  const cells = rows.map((r) => [
    r.job,
    r.workload ?? '',
    n(total(r.predicted, r.metric), 1),
    n(total(r.measured, r.metric), 1),
    r.metric === 'iops' ? 'IOPS' : 'MiB/s',
    n(r.ratio, 2),
    r.verdict,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
