/**
 * The open documents and their analyses. Each document is analysed once per version, on first use; features
 * that need structure fall back on the last analysis that parsed while the text is mid-edit.
 */
import { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, EvaluationCache, LineIndex, type Analysis, type CatalogRegistry } from '../../core/src';
import type { Settings } from '../../protocol/src/settings';
import { frontEndForFile } from '../../protocol/src/terraform-input';

/** What an analysis takes from the settings (settings.ts keeps them): read at each analysis. */
export interface AnalysisSettings {
  readonly current: Settings;
  readonly registry: CatalogRegistry;
}

/**
 * Analysis runs on the server's one thread, on every pause in typing: a file with thousands of VMs would block
 * every other request for seconds (about 1 ms per VM with workloads). Past this many VMs the rest are only
 * parsed and checked, and a `too-many-vms` warning says so; `storage-perf evaluate` has no such limit.
 */
export const MAX_EDITOR_VMS = 500;

/** One analysis of one version of a document, with the index that turns its offsets into positions. */
export interface Entry {
  version: number;
  analysis: Analysis;
  index: LineIndex;
  /**
   * Set when this entry stands in for a newer text whose YAML does not parse: the 1-based line of that text's
   * first syntax error. Its figures are not the text's the user sees, and the features that show them say so.
   */
  staleSince?: { line: number };
}

/** An analysis with a spec and no YAML syntax error: a mid-edit text that broke the YAML is not one. */
const parsed = (a: Analysis) => !!a.spec && !a.diagnostics.some((d) => d.code === 'yaml-syntax');

export class AnalysedDocuments {
  /** The documents the client has open, kept in sync by vscode-languageserver. */
  readonly text = new TextDocuments(TextDocument);
  private readonly cache = new Map<string, Entry>();
  /** The newest analysis of each document that parsed: hovers use it while the text is mid-edit. */
  private readonly lastGood = new Map<string, Entry>();
  private evaluations = new EvaluationCache();
  /** How long the newest analysis took, ms: diagnostics wait for a pause in typing a few times as long. */
  lastAnalysisMs = 10;

  constructor(private readonly settings: AnalysisSettings) {
    this.text.onDidClose((e) => {
      this.cache.delete(e.document.uri);
      this.lastGood.delete(e.document.uri);
    });
  }

  get(uri: string): TextDocument | undefined {
    return this.text.get(uri);
  }

  all(): TextDocument[] {
    return this.text.all();
  }

  /** The analysis of the document's current version. */
  analysisOf(doc: TextDocument): Entry {
    const cached = this.cache.get(doc.uri);
    if (cached && cached.version === doc.version) return cached;
    const text = doc.getText();
    const started = performance.now();
    const { current, registry } = this.settings;
    const analysis = analyze(text, {
      registry,
      cache: this.evaluations,
      defaultCatalog: current.catalog,
      defaultRegion: current.region,
      maxVms: MAX_EDITOR_VMS,
      frontEnd: frontEndForFile(doc.uri, text),
    });
    this.lastAnalysisMs = performance.now() - started;
    const entry = { version: doc.version, analysis, index: new LineIndex(text) };
    this.cache.set(doc.uri, entry);
    if (parsed(analysis)) this.lastGood.set(doc.uri, entry);
    return entry;
  }

  /**
   * Another text analysed as this server analyses documents: a fix's outcome. It shares the evaluation cache, so
   * only the VM the fix changes is evaluated again.
   */
  analyzeText(text: string): Analysis {
    const { current, registry } = this.settings;
    return analyze(text, {
      registry,
      cache: this.evaluations,
      defaultCatalog: current.catalog,
      defaultRegion: current.region,
      maxVms: MAX_EDITOR_VMS,
    });
  }

  /** For features that need structure: the current analysis if it parsed, else the last one that did. */
  structured(doc: TextDocument): Entry {
    const cur = this.analysisOf(doc);
    const good = parsed(cur.analysis) ? undefined : this.lastGood.get(doc.uri);
    if (!good) return cur;
    const error = cur.analysis.diagnostics.find((d) => d.code === 'yaml-syntax');
    return { ...good, staleSince: { line: cur.index.position(error?.span.start ?? 0).line + 1 } };
  }

  /** New settings: every document is analysed again on next use. The last good analyses stay: they are only a fallback for mid-edit hovers. */
  invalidate(): void {
    this.cache.clear();
    this.evaluations = new EvaluationCache();
  }
}
