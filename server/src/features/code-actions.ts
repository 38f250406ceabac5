/**
 * Code actions: the quick fixes the diagnostics carry, and "Generate fio jobs for VM 'x'" — a refactoring on
 * the VM's name (the light bulb shows it), a source action anywhere in the VM (the editor's "Source Action..."
 * menu).
 */
import {
  CodeActionKind,
  type CodeAction,
  type CreateFile,
  type TextDocumentEdit,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import { fixEdits, fixTypesOf, generateFioJobs, titleWithCost, valueSpan, type Analysis, type FixData } from '../../../core/src';
import {
  FioRefactorActionKind,
  FioSourceActionKind,
  quickFixKind,
  SizingQuickFixKind,
  WorkloadQuickFixKind,
  WriteFioCommand,
} from '../../../protocol/src/requests';
import type { Entry } from '../documents';
import type { ServerContext } from '../context';
import { toLsp } from '../lsp-diagnostic';
import { specNameOf } from '../uri';

export const CODE_ACTION_KINDS = [
  CodeActionKind.QuickFix,
  SizingQuickFixKind,
  WorkloadQuickFixKind,
  quickFixKind(['sizing', 'workload']),
  FioRefactorActionKind,
  FioSourceActionKind,
];

export function registerCodeActions({ connection, documents, lifecycle, client }: ServerContext): void {
  connection.onCodeAction(
    lifecycle.guard('code actions', [], (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const e = documents.analysisOf(doc);
      const start = e.index.offset(params.range.start);
      const end = e.index.offset(params.range.end);
      const only = params.context.only;
      const actions = quickFixes(doc.uri, e, start, end, (t) => documents.analyzeText(doc.uri, t)).filter((a) => kindWanted(a.kind!, only));
      // A failure here must not take the quick fixes above with it.
      try {
        actions.push(...fioCodeActions(doc.uri, e.analysis, start, end, only, client.createFiles));
      } catch (err) {
        connection.console.error(`fio code action failed: ${(err as Error)?.stack ?? String(err)}`);
      }
      return actions;
    }),
  );
}

/** Whether a code action of `kind` answers a request for the kinds `only` (none: every kind; a kind covers its sub-kinds). */
function kindWanted(kind: string, only: string[] | undefined): boolean {
  return !only?.length || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

// Editors ask for code actions on every cursor move: a design fix's cost (a whole analysis of the fixed text) is
// computed once per analysis of the document.
const priced = new WeakMap<Analysis, Map<FixData, string>>();
function pricedTitle(a: Analysis, fix: FixData, analyzeText: (text: string) => Analysis): string {
  let titles = priced.get(a);
  if (!titles) priced.set(a, (titles = new Map()));
  let title = titles.get(fix);
  if (title === undefined) titles.set(fix, (title = titleWithCost(a, fix, analyzeText)));
  return title;
}

/** The fixes of the diagnostics that touch the offsets `start` to `end`; a design change says what it costs. */
function quickFixes(uri: string, e: Entry, start: number, end: number, analyzeText: (text: string) => Analysis): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of e.analysis.diagnostics) {
    if (!d.fixes?.length || d.span.end < start || d.span.start > end) continue;
    for (const fix of d.fixes) {
      const edits = fixEdits(e.analysis.parsed.text, e.analysis.parsed.tree, fix);
      if (!edits.length) continue;
      const types = fixTypesOf(d.code, fix);
      const design = !types.includes('problem');
      actions.push({
        title: design ? pricedTitle(e.analysis, fix, analyzeText) : fix.title,
        kind: quickFixKind(types),
        diagnostics: [toLsp(e, d)],
        isPreferred: !!fix.preferred,
        edit: { changes: { [uri]: edits.map((x): LspTextEdit => ({ range: e.index.range(x), newText: x.newText })) } },
      });
    }
  }
  return actions;
}

/** Where generated files go: next to the spec, when the spec is a file. */
function fioUri(specUri: string, fileName: string): string | undefined {
  if (!specUri.startsWith('file:')) return undefined;
  try {
    return new URL(encodeURIComponent(fileName), specUri).href;
  } catch {
    return undefined;
  }
}

/**
 * "Generate fio jobs" for the VM under the cursor. Its edit creates the files next to the spec when the client
 * can create files from an edit; otherwise it carries the server command that writes them.
 */
function fioCodeActions(
  uri: string,
  analysis: Analysis,
  start: number,
  end: number,
  only: string[] | undefined,
  canCreateFiles: boolean,
): CodeAction[] {
  if (!analysis.spec || !analysis.catalog) return [];
  const wants = (kind: string) => kindWanted(kind, only);
  const out: CodeAction[] = [];
  for (const vm of analysis.vms) {
    const tree = analysis.parsed.tree;
    const body = valueSpan(tree, vm.spec.path);
    const name = valueSpan(tree, `${vm.spec.path}/name`);
    if (!body || start < body.start || end > body.end) continue;
    const onName = !!name && start <= name.end && end >= name.start;
    // Without an explicit request for source actions, a client asks on every cursor move: answer only on the name.
    const kind =
      onName && wants(FioRefactorActionKind)
        ? FioRefactorActionKind
        : only?.length && wants(FioSourceActionKind)
          ? FioSourceActionKind
          : undefined;
    if (!kind) continue;
    const files = generateFioJobs(analysis, { vm: vm.spec.name, specName: specNameOf(uri) });
    if (!files.length) continue;
    const names = files.map((f) => f.fileName);
    const title = `Generate fio jobs for VM '${vm.spec.name}' (${names.join(', ')})${files.some((f) => f.destructive) ? ' — WRITES TO RAW DEVICES' : ''}`;
    const targets = files.map((f) => ({ f, target: fioUri(uri, f.fileName) }));
    if (canCreateFiles && targets.every((t) => t.target)) {
      const documentChanges: Array<CreateFile | TextDocumentEdit> = [];
      for (const { f, target } of targets) {
        documentChanges.push({ kind: 'create', uri: target!, options: { overwrite: true } });
        documentChanges.push({
          textDocument: { uri: target!, version: null },
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: f.text }],
        });
      }
      out.push({ title, kind, edit: { documentChanges } });
    } else {
      out.push({ title, kind, command: { title, command: WriteFioCommand, arguments: [uri, vm.spec.name] } });
    }
  }
  return out;
}
