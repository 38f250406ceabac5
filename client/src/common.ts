/** Small pieces the extension's modules share. */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ReportRequest, type SpecReport } from '../../protocol/src/requests';
import { SETTINGS_SECTION } from '../../protocol/src/settings';

export const SECTION = SETTINGS_SECTION;
export const LANGUAGE_ID = 'storage-perf';

const SPEC_NAME = /\.perf\.ya?ml$/i;

/** A spec: the own language, or a `*.perf.yaml` file a user keeps in the YAML language. */
export function isSpec(doc: vscode.TextDocument): boolean {
  return doc.languageId === LANGUAGE_ID || (doc.languageId === 'yaml' && SPEC_NAME.test(doc.uri.path));
}

/** The spec a command applies to: its argument when it has one, else the active editor's document. */
export function specUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const doc = vscode.window.activeTextEditor?.document;
  return doc && isSpec(doc) ? doc.uri : undefined;
}

export async function requestReport(
  client: LanguageClient,
  doc: vscode.TextDocument,
  token?: vscode.CancellationToken,
): Promise<SpecReport | null> {
  return client.sendRequest<SpecReport | null>(ReportRequest, { uri: client.code2ProtocolConverter.asUri(doc.uri) }, token);
}

/** The file name without its folders, for messages. */
export function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/** Runs `fn` once `ms` after the last call. */
export function debounce<A extends unknown[]>(ms: number, fn: (...args: A) => void): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (...args: A) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
  return Object.assign(run, {
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  });
}

export function errorText(e: unknown): string {
  return (e as Error)?.message ?? String(e);
}
