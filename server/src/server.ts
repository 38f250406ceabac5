/**
 * The language server: a thin protocol layer over the analysis core. It keeps documents and their analyses,
 * converts offsets to positions and core results to LSP shapes, and nothing else.
 */
import {
  CodeActionKind, DiagnosticSeverity, DocumentDiagnosticReportKind, InlayHintKind, SymbolKind, TextDocumentSyncKind,
  CompletionItemKind, MarkupKind, ResponseError, LSPErrorCodes, ErrorCodes,
  type CodeAction, type CompletionItem, type Connection, type Diagnostic as LspDiagnostic, type DocumentSymbol,
  type InitializeParams, type InitializeResult, type Range, type TextEdit as LspTextEdit, type CancellationToken,
} from 'vscode-languageserver/node';
import { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  analyze, complete, CatalogRegistry, EvaluationCache, DIAGNOSTIC_CODES, fixEdits, hover, inlayHints, LineIndex, parseCatalogText, symbols,
  type Analysis, type Diagnostic, type FixData, type SymbolEntry,
} from '../../core/src';
import { fioCodeActions, kindWanted, registerCustomRequests } from './custom-requests';
import { FioRefactorActionKind, FioSourceActionKind, WriteFioCommand } from '../../protocol/src/requests';
import { SETTINGS_SECTION, type Settings } from '../../protocol/src/settings';


const SOURCE = 'storage-perf';
/** An analysis with a spec and no YAML syntax error: a mid-edit text that broke the YAML is not one. */
const parsed = (a: Analysis) => !!a.spec && !a.diagnostics.some((d) => d.code === 'yaml-syntax');
/**
 * The reference of every diagnostic code (docs/lint.md, one anchor per code) in this installation: next to the
 * bundle (dist/) or to the compiled sources (out/server/src). Diagnostics link to it as their codeDescription;
 * there is no website to link to instead. The bundle's place is tried first: three folders up from an
 * installed extension's dist/ is outside the extension (its folder's parent's parent), where some other
 * docs/lint.md may be.
 */
const CODE_DOCS = [resolve(__dirname, '../docs/lint.md'), resolve(__dirname, '../../../docs/lint.md')].find((p) => existsSync(p));
const CODE_DOCS_URI = CODE_DOCS ? pathToFileURL(CODE_DOCS).href : undefined;
/** Diagnostics wait for a pause in typing: a few times what the last analysis took, within bounds. */
const DEBOUNCE_MIN_MS = 5;
const DEBOUNCE_MAX_MS = 150;
/**
 * Analysis runs on the server's one thread, on every pause in typing: a file with thousands of VMs would block
 * every other request for seconds (about 1 ms per VM with workloads). Past this many VMs the rest are only
 * parsed and checked, and a `too-many-vms` warning says so; `storage-perf evaluate` has no such limit.
 */
export const MAX_EDITOR_VMS = 500;

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

interface Entry { version: number; analysis: Analysis; index: LineIndex }

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const cache = new Map<string, Entry>();
  /** The newest analysis of each document that parsed: hovers use it while the text is mid-edit. */
  const lastGood = new Map<string, Entry>();
  const timers = new Map<string, NodeJS.Timeout>();
  let settings: Settings = {};
  /** Settings from initializationOptions: the base under what workspace/configuration answers. */
  let initSettings: Settings = {};
  let workspaceFolder: string | undefined;
  let registry = new CatalogRegistry();
  let evaluations = new EvaluationCache();
  let pullDiagnostics = false;
  let configurationRequests = false;
  /** The client accepts workspace/diagnostic/refresh and workspace/inlayHint/refresh (LSP: only then may they be sent). */
  let diagnosticRefresh = false;
  let inlayHintRefresh = false;
  /**
   * Bumped whenever settings are (re)loaded: the same document version may then have other diagnostics, so
   * it is part of the pull diagnostics' result id.
   */
  let settingsGeneration = 0;
  /** The client applies workspace edits that create files (the fio code action's edit needs it). */
  let createFiles = false;
  let shuttingDown = false;
  let initialized = false;
  /** The catalog file whose problems are published as diagnostics on it, to clear them when it is fixed. */
  let catalogProblemsUri: string | undefined;
  let lastAnalysisMs = 10;

  const log = (msg: string) => connection.console.log(msg);
  /** The protocol's lifecycle: requests before initialize and after shutdown are errors, not empty answers. */
  function checkLifecycle(): void {
    if (!initialized) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the server is not initialized');
    if (shuttingDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shutting down');
  }

  // Handlers never throw into the connection: a failure is logged and answered with an empty result.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function guard<F extends (...args: any[]) => any>(name: string, fallback: ReturnType<F>, fn: F): F {
    return ((...args: Parameters<F>) => {
      checkLifecycle();
      try {
        return fn(...args);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        connection.console.error(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
        return fallback;
      }
    }) as F;
  }

  function analysisOf(doc: TextDocument): Entry {
    const cached = cache.get(doc.uri);
    if (cached && cached.version === doc.version) return cached;
    const text = doc.getText();
    const started = performance.now();
    const analysis = analyze(text, { registry, cache: evaluations, defaultCatalog: settings.catalog, defaultRegion: settings.region, maxVms: MAX_EDITOR_VMS });
    lastAnalysisMs = performance.now() - started;
    const entry = { version: doc.version, analysis, index: new LineIndex(text) };
    cache.set(doc.uri, entry);
    if (parsed(analysis)) lastGood.set(doc.uri, entry);
    return entry;
  }

  /** For features that need structure: the current analysis if it parsed, else the last one that did. */
  function structured(doc: TextDocument): Entry {
    const cur = analysisOf(doc);
    return parsed(cur.analysis) ? cur : lastGood.get(doc.uri) ?? cur;
  }

  const toRange = (idx: LineIndex, span: { start: number; end: number }): Range => idx.range(span);

  function toLsp(e: Entry, d: Diagnostic): LspDiagnostic {
    return {
      range: toRange(e.index, d.span),
      severity: SEVERITY[d.severity],
      code: d.code,
      codeDescription: CODE_DOCS_URI && DIAGNOSTIC_CODES[d.code] ? { href: `${CODE_DOCS_URI}#${d.code}` } : undefined,
      source: SOURCE,
      message: d.message,
      data: d.fixes?.length ? { fixes: d.fixes, version: e.version } : undefined,
    };
  }

  function diagnosticsOf(doc: TextDocument): LspDiagnostic[] {
    const e = analysisOf(doc);
    return [...e.analysis.diagnostics, ...fio.diagnostics(doc.uri, e.analysis)].map((d) => toLsp(e, d));
  }

  /**
   * Leading and trailing debounce: an edit that comes when the server is keeping up (no analysis waiting, and
   * the last edit longer ago than an analysis takes) is analysed at once; edits faster than that wait until
   * typing pauses for a few times the last analysis time, so a long file is not re-analysed per keystroke.
   */
  const lastChange = new Map<string, number>();
  function schedulePush(doc: TextDocument): void {
    if (pullDiagnostics) return;
    const pending = timers.get(doc.uri);
    clearTimeout(pending);
    const pause = Math.min(DEBOUNCE_MAX_MS, Math.max(DEBOUNCE_MIN_MS, 3 * lastAnalysisMs));
    const now = performance.now();
    const idle = !pending && now - (lastChange.get(doc.uri) ?? -Infinity) > Math.min(pause, lastAnalysisMs + DEBOUNCE_MIN_MS);
    lastChange.set(doc.uri, now);
    timers.set(doc.uri, setTimeout(() => {
      timers.delete(doc.uri);
      const current = documents.get(doc.uri);
      if (!current || shuttingDown || !initialized) return;
      guard('diagnostics', undefined, () => {
        void connection.sendDiagnostics({ uri: current.uri, version: current.version, diagnostics: diagnosticsOf(current) });
      })();
    }, idle ? 0 : pause));
  }

  /**
   * A catalog path as VS Code users write it: `${workspaceFolder}` expanded, a relative path taken from the
   * workspace folder (as the linter does), not from wherever the server process happens to run.
   */
  function resolveCatalogPath(p: string): string {
    const expanded = workspaceFolder ? p.replace(/\$\{workspaceFolder\}/g, workspaceFolder) : p;
    return workspaceFolder ? resolve(workspaceFolder, expanded) : resolve(expanded);
  }

  async function loadSettings(): Promise<void> {
    if (configurationRequests) {
      try {
        // The answer replaces the settings (a key the client no longer sends is gone), over the start-up options.
        const s = (await connection.workspace.getConfiguration(SETTINGS_SECTION)) as Settings | null;
        if (s && typeof s === 'object') settings = { ...initSettings, ...s };
      } catch (e) {
        log(`workspace/configuration failed: ${(e as Error).message}`);
      }
    }
    registry = new CatalogRegistry();
    if (catalogProblemsUri) void connection.sendDiagnostics({ uri: catalogProblemsUri, diagnostics: [] });
    catalogProblemsUri = undefined;
    const catalogPath = settings.catalogPath ? resolveCatalogPath(settings.catalogPath) : undefined;
    if (catalogPath) {
      try {
        const text = readFileSync(catalogPath, 'utf8');
        const { catalog, problems } = parseCatalogText(text);
        if (catalog) registry.add(catalog);
        else {
          connection.window.showErrorMessage(`storage-perf: catalog ${catalogPath} is invalid: ${problems.slice(0, 3).map((p) => `${p.line}:${p.column} ${p.path ? `${p.path} ` : ''}${p.message}`).join('; ')}`);
          // Also as diagnostics on the catalog file itself, so the editor shows each problem where it is.
          const idx = new LineIndex(text);
          catalogProblemsUri = pathToFileURL(catalogPath).toString();
          void connection.sendDiagnostics({
            uri: catalogProblemsUri,
            diagnostics: problems.map((p) => ({ range: idx.range(p.span), severity: DiagnosticSeverity.Error, source: SOURCE, code: 'invalid-catalog', message: p.path ? `${p.path}: ${p.message}` : p.message })),
          });
        }
      } catch (e) {
        connection.window.showErrorMessage(`storage-perf: cannot load catalog ${catalogPath}: ${(e as Error).message}`);
      }
    }
    // Re-analyse on next use. The last good analyses stay: they are only a fallback for mid-edit hovers.
    cache.clear();
    evaluations = new EvaluationCache();
    settingsGeneration++;
  }

  /** After new settings the client's diagnostics and inlay hints are stale: have it pull again, or push afresh. */
  function refreshAfterSettings(): void {
    if (!pullDiagnostics) documents.all().forEach(schedulePush);
    else if (diagnosticRefresh) connection.languages.diagnostics.refresh().catch(() => undefined);
    if (inlayHintRefresh) connection.languages.inlayHint.refresh().catch(() => undefined);
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    initialized = true;
    const caps = params.capabilities;
    pullDiagnostics = !!caps.textDocument?.diagnostic;
    configurationRequests = !!caps.workspace?.configuration;
    diagnosticRefresh = !!caps.workspace?.diagnostics?.refreshSupport;
    inlayHintRefresh = !!caps.workspace?.inlayHint?.refreshSupport;
    const we = caps.workspace?.workspaceEdit;
    createFiles = !!we?.documentChanges && !!we.resourceOperations?.includes('create');
    const init = params.initializationOptions as { settings?: Settings } | undefined;
    if (init?.settings) initSettings = { ...init.settings };
    settings = { ...initSettings };
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    workspaceFolder = folder?.startsWith('file:') ? fileURLToPath(folder) : undefined;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' ', '-'] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FioRefactorActionKind, FioSourceActionKind] },
        executeCommandProvider: { commands: [WriteFioCommand] },
        documentSymbolProvider: true,
        inlayHintProvider: true,
        diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false, identifier: SOURCE },
      },
      serverInfo: { name: 'storage-perf-language-server', version: '0.1.0' },
    };
  });

  // Documents opened before the settings arrive are analysed without them (and without the user catalog).
  connection.onInitialized(async () => {
    await loadSettings();
    refreshAfterSettings();
  });

  connection.onDidChangeConfiguration(async (change) => {
    const s = (change.settings as Record<string, Settings | undefined> | undefined)?.[SETTINGS_SECTION];
    if (s && typeof s === 'object') settings = { ...initSettings, ...s };
    await loadSettings();
    refreshAfterSettings();
  });

  documents.onDidOpen((e) => schedulePush(e.document));
  documents.onDidChangeContent((e) => schedulePush(e.document));
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    cache.delete(e.document.uri);
    lastGood.delete(e.document.uri);
    lastChange.delete(e.document.uri);
    fio.forget(e.document.uri);
    if (!pullDiagnostics) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.languages.diagnostics.on(guard('pull diagnostics', { kind: DocumentDiagnosticReportKind.Full, items: [] }, (params, token: CancellationToken) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    // Cancelled by the client (a newer edit): RequestCancelled, not ServerCancelled, which would ask it to retry.
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    // New settings and an imported fio result change the diagnostics without changing the document.
    const resultId = `${settingsGeneration}:${doc.version}:${fio.generation(doc.uri)}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnosticsOf(doc) };
  }));

  connection.onHover(guard('hover', null, (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    const e = structured(doc);
    const offset = e.index.offset(params.position);
    const h = hover(e.analysis, offset);
    if (!h) return null;
    return { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(e.index, h.span) };
  }));

  connection.onCompletion(guard('completion', [], (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const text = doc.getText();
    const offset = doc.offsetAt(params.position);
    const e = structured(doc);
    const idx = new LineIndex(text);
    return complete(text, offset, e.analysis, registry).map((c, i): CompletionItem => ({
      label: c.label,
      kind: c.kind === 'key' ? CompletionItemKind.Property : c.kind === 'unit' ? CompletionItemKind.Unit : CompletionItemKind.Value,
      detail: c.detail,
      documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
      sortText: String(c.sort ?? i).padStart(5, '0'),
      filterText: c.label,
      textEdit: { range: idx.range(c.replace), newText: c.insertText },
    }));
  }));

  connection.onCodeAction(guard('code actions', [], (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const e = analysisOf(doc);
    const start = e.index.offset(params.range.start);
    const end = e.index.offset(params.range.end);
    const only = params.context.only;
    const actions: CodeAction[] = [];
    for (const d of kindWanted(CodeActionKind.QuickFix, only) ? e.analysis.diagnostics : []) {
      if (!d.fixes?.length || d.span.end < start || d.span.start > end) continue;
      for (const fix of d.fixes) {
        const edits = fixEdits(e.analysis.parsed.text, e.analysis.parsed.tree, fix);
        if (!edits.length) continue;
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [toLsp(e, d)],
          isPreferred: !!fix.preferred,
          edit: { changes: { [doc.uri]: edits.map((x): LspTextEdit => ({ range: toRange(e.index, x), newText: x.newText })) } },
        });
      }
    }
    // A failure here must not take the quick fixes above with it.
    try {
      actions.push(...fioCodeActions(doc.uri, e.analysis, start, end, only, createFiles));
    } catch (err) {
      connection.console.error(`fio code action failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    return actions;
  }));

  connection.onDocumentSymbol(guard('symbols', [], (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const e = structured(doc);
    const conv = (s: SymbolEntry): DocumentSymbol => ({
      name: s.name,
      detail: s.detail,
      kind: s.kind === 'vm' ? SymbolKind.Class : s.kind === 'disk' ? SymbolKind.Field : SymbolKind.Event,
      range: toRange(e.index, s.span),
      selectionRange: toRange(e.index, s.selection),
      children: s.children.map(conv),
    });
    return symbols(e.analysis).map(conv);
  }));

  connection.languages.inlayHint.on(guard('inlay hints', [], (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const e = analysisOf(doc);
    if (!e.analysis.spec) return [];
    const range = { start: e.index.offset(params.range.start), end: e.index.offset(params.range.end) };
    return inlayHints(e.analysis, range).map((h) => ({
      position: e.index.position(h.offset), label: h.label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: h.tooltip,
    }));
  }));

  connection.onShutdown(() => {
    shuttingDown = true;
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  const fio = registerCustomRequests(connection, (uri) => { const d = documents.get(uri); return d ? analysisOf(d).analysis : undefined; }, (uri) => {
    if (pullDiagnostics) { if (diagnosticRefresh) connection.languages.diagnostics.refresh().catch(() => undefined); }
    else { const d = documents.get(uri); if (d) schedulePush(d); }
  }, checkLifecycle);
  documents.listen(connection);
  connection.listen();
  log(`storage-perf language server ready (${Object.keys(DIAGNOSTIC_CODES).length} diagnostic codes)`);
}

export type { FixData };
