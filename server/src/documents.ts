/**
 * The open documents and their analyses. Each text of a document is analysed once, on first use; features
 * that need structure fall back on the last analysis that parsed while the text is mid-edit.
 */
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  analysisSteps,
  analyze,
  EvaluationCache,
  finishSteps,
  LineIndex,
  type Analysis,
  type AnalysisSteps,
  type AnalyzeOptions,
  type CatalogRegistry,
  type Diagnostic,
} from '../../core/src';
import type { Settings } from '../../protocol/src/settings';
import { ModuleFiles } from '../../protocol/src/module-files';
import { inputForFile, type TfInputOptions } from '../../protocol/src/terraform-input';
import { GarbageCollector } from './collector';
import { pathOf } from './uri';

/** The Terraform variable values the settings give (lint's --var-file and --var). */
function terraformOptions(s: Settings, workspace: string | undefined): TfInputOptions {
  const vars = (s.terraformVars ?? []).flatMap((v) => {
    const at = v.indexOf('=');
    return at > 0 ? [{ name: v.slice(0, at), value: v.slice(at + 1) }] : [];
  });
  const root = typeof s.terraformRoot === 'string' && s.terraformRoot ? { root: s.terraformRoot } : {};
  return { varFiles: s.terraformVarFiles ?? [], vars, workspace, followLinks: s.followLinks === true, ...root };
}

/** What an analysis takes from the settings (settings.ts keeps them): read at each analysis. */
export interface AnalysisSettings {
  readonly current: Settings;
  readonly registry: CatalogRegistry;
  /** The workspace folder, which paths named by a document's content stay in (with the repository it is in). */
  readonly workspace?: string;
}

/**
 * One analysis of one text of a document, with the index that turns its offsets into positions. It is found
 * again by its text, not by the document's version: a client may send new text under the same version number.
 */
export interface Entry {
  version: number;
  /**
   * A hash of the text, and how many times a file its module read changed since it opened: with the settings'
   * generation, what identifies the diagnostics of a pull.
   */
  hash: string;
  analysis: Analysis;
  /** The document's text analysed (a .tf file's analysis text holds the rest of its module after it). */
  text: string;
  index: LineIndex;
  /** A .tf file's module: the findings in its other files (the files of a called module), by file. */
  related?: Array<{ path: string; text: string; diagnostics: Diagnostic[] }>;
  /**
   * Set when this entry stands in for a newer text whose YAML does not parse: the 1-based line of that text's
   * first syntax error. Its figures are not the text's the user sees, and the features that show them say so.
   */
  staleSince?: { line: number };
}

/** An analysis with a spec and no YAML syntax error: a mid-edit text that broke the YAML is not one. */
const parsed = (a: Analysis) => !!a.spec && !a.diagnostics.some((d) => d.code === 'yaml-syntax');

/**
 * How long one slice of an analysis runs before the server answers what else has come in. Short enough that a
 * hover or a completion is answered at once; long enough that the slices' overhead does not matter.
 */
const SLICE_MS = 8;

/** An analysis under way in slices: the text it is of, its remaining steps, and who waits for it. */
interface Run {
  text: string;
  steps: AnalysisSteps;
  /** CPU time of its slices so far, ms. */
  ms: number;
  done: Promise<Entry | undefined>;
  settle(e: Entry | undefined): void;
  /** The analysis threw: `done` rejects with what it threw. */
  fail(error: unknown): void;
}

export class AnalysedDocuments {
  /** The documents the client has open, kept in sync by vscode-languageserver. */
  readonly text = new TextDocuments(TextDocument);
  private readonly cache = new Map<string, Entry>();
  /** The newest analysis of each document that parsed: hovers use it while the text is mid-edit. */
  private readonly lastGood = new Map<string, Entry>();
  private readonly running = new Map<string, Run>();
  /** Per document, swept after each of its analyses: what its current and previous texts use, no more. */
  private readonly evaluations = new Map<string, EvaluationCache>();
  /**
   * Per document, the two other texts last analysed with every finding (a diff's base, and its open text when that
   * was capped), by their hash, under way or done, the newest last. The Changes view asks again after each pause in
   * typing, with the same base.
   */
  private readonly others = new Map<string, Map<string, Promise<Analysis>>>();
  /** How long the newest analysis took, ms: diagnostics wait for a pause in typing a few times as long. */
  lastAnalysisMs = 10;
  /** Full collections after much text analysed: the heap stays near what is alive (./collector.ts). */
  readonly collector = new GarbageCollector();
  /** The files documents' modules read, kept between analyses and read again on change (./module-watch.ts). */
  readonly moduleFiles = new ModuleFiles();
  /** Per document, the files its newest analysis read through `moduleFiles`. */
  private readonly uses = new Map<string, Set<string>>();
  /** Per document, how many times a file its module read changed: part of what identifies its diagnostics. */
  private readonly moduleChanges = new Map<string, number>();

  constructor(private readonly settings: AnalysisSettings) {
    this.text.onDidClose((e) => {
      this.cancel(e.document.uri);
      this.evaluations.delete(e.document.uri);
      this.others.delete(e.document.uri);
      this.cache.delete(e.document.uri);
      this.lastGood.delete(e.document.uri);
      this.uses.delete(e.document.uri);
      this.moduleChanges.delete(e.document.uri);
      this.moduleFiles.sweep(new Set([...this.uses.values()].flatMap((u) => [...u])));
    });
  }

  /** The open documents whose newest analysis read `path` through `moduleFiles`. */
  usersOf(path: string): string[] {
    return [...this.uses].filter(([, used]) => used.has(path)).map(([uri]) => uri);
  }

  /** The folders whose files each open document's module read (a file created there may join its module). */
  foldersRead(): Array<{ uri: string; folders: Set<string> }> {
    return [...this.uses].map(([uri, used]) => ({ uri, folders: new Set([...used].map((p) => dirname(p))) }));
  }

  /**
   * A file the document's module read changed (on disk, or in another document's buffer): its analysis is
   * dropped, so that the next use reads the module again, and its diagnostics are no longer the same.
   */
  moduleChanged(uri: string): void {
    this.cancel(uri);
    this.cache.delete(uri);
    this.moduleChanges.set(uri, (this.moduleChanges.get(uri) ?? 0) + 1);
  }

  get(uri: string): TextDocument | undefined {
    return this.text.get(uri);
  }

  all(): TextDocument[] {
    return this.text.all();
  }

  /**
   * The analysis of the document's current text, at once: a request that needs it (a hover on this document,
   * a code action) finishes an analysis under way rather than waiting for its slices. Evaluations are cached
   * by content, so after the first analysis of a file what remains is the VMs an edit touched.
   */
  analysisOf(doc: TextDocument): Entry {
    const text = doc.getText();
    const cached = this.cache.get(doc.uri);
    // The same string object, usually: comparing it costs nothing unless the text changed.
    if (cached && cached.text === text) return cached;
    let run = this.running.get(doc.uri);
    if (run && run.text !== text) {
      this.cancel(doc.uri);
      run = undefined;
    }
    const steps = run ? run.steps : this.steps(doc.uri, text);
    const started = performance.now();
    let analysis: Analysis;
    try {
      analysis = finishSteps(steps);
    } catch (e) {
      if (run) this.failed(doc.uri, run, e);
      throw e;
    }
    return this.store(doc, text, analysis, performance.now() - started + (run?.ms ?? 0));
  }

  /**
   * The analysis of the document's current text, run in slices between other requests. Undefined when a newer
   * text (or new settings) made it moot before it finished: whoever asked for the newer one gets that.
   */
  analysed(doc: TextDocument): Promise<Entry | undefined> {
    const text = doc.getText();
    const cached = this.cache.get(doc.uri);
    if (cached && cached.text === text) return Promise.resolve(cached);
    const run = this.running.get(doc.uri);
    if (run?.text === text) return run.done;
    this.cancel(doc.uri);
    const next = this.startRun(doc.uri, text);
    this.running.set(doc.uri, next);
    setImmediate(() => this.slice(doc, next));
    return next.done;
  }

  /** The analysis of a document's current text, however many edits come while it runs; undefined once closed. */
  async settled(uri: string): Promise<Entry | undefined> {
    for (let doc = this.get(uri); doc; doc = this.get(uri)) {
      const e = await this.analysed(doc);
      if (e && e.text === this.get(uri)?.getText()) return e;
    }
    return undefined;
  }

  private startRun(uri: string, text: string): Run {
    let settle!: (e: Entry | undefined) => void;
    let fail!: (error: unknown) => void;
    const done = new Promise<Entry | undefined>((res, rej) => {
      settle = res;
      fail = rej;
    });
    // Whoever waits for the run is told it failed; a run that nobody waits for any more fails unheard.
    done.catch(() => undefined);
    return { text, steps: this.steps(uri, text), ms: 0, done, settle, fail };
  }

  /**
   * An analysis threw (a fault of ours): whoever waits for it is told, rather than left waiting for a run that
   * will never end, and the next request for the document starts afresh.
   */
  private failed(uri: string, run: Run, error: unknown): void {
    if (this.running.get(uri) === run) this.running.delete(uri);
    run.fail(error);
  }

  /** Runs the analysis for SLICE_MS, then lets the server answer what came in meanwhile. */
  private slice(doc: TextDocument, run: Run): void {
    if (this.running.get(doc.uri) !== run) return;
    const started = performance.now();
    try {
      for (let r = run.steps.next(); ; r = run.steps.next()) {
        if (r.done) {
          run.settle(this.store(doc, run.text, r.value, run.ms + performance.now() - started));
          return;
        }
        if (performance.now() - started >= SLICE_MS) break;
      }
    } catch (e) {
      this.failed(doc.uri, run, e);
      return;
    }
    run.ms += performance.now() - started;
    setImmediate(() => this.slice(doc, run));
  }

  private cancel(uri: string): void {
    const run = this.running.get(uri);
    this.running.delete(uri);
    run?.settle(undefined);
  }

  private steps(uri: string, text: string): AnalysisSteps {
    const { current, registry } = this.settings;
    const options = { ...terraformOptions(current, this.settings.workspace), cache: this.moduleFiles };
    const { value: input, used } = this.moduleFiles.track(() => inputForFile(uri, text, options));
    this.uses.set(uri, used);
    return analysisSteps(input.text, {
      registry,
      cache: this.cacheOf(uri),
      defaultCatalog: current.catalog,
      defaultRegion: current.region,
      frontEnd: input.frontEnd,
      workloadFindingsOnly: !!current.sidecarsWithModule?.includes(pathOf(uri)),
    });
  }

  private cacheOf(uri: string): EvaluationCache {
    let c = this.evaluations.get(uri);
    if (!c) this.evaluations.set(uri, (c = EvaluationCache.forDocument()));
    return c;
  }

  /** A finished analysis becomes the document's (a run that `analysisOf` finished settles here too). */
  private store(doc: TextDocument, text: string, analysis: Analysis, ms: number): Entry {
    this.lastAnalysisMs = ms;
    this.collector.analysedText(text.length);
    if (this.cache.has(doc.uri)) this.collector.replacedAnalysis();
    // A .tf file is analysed with the rest of its module, after it: this document shows its own findings, and
    // those in the module's other files are kept for a client that takes related documents' diagnostics.
    const related = analysis.parsed.sources && relatedFindings(analysis, text.length);
    if (analysis.parsed.sources) analysis.diagnostics = analysis.diagnostics.filter((d) => d.span.start <= text.length);
    this.evaluations.get(doc.uri)?.sweep();
    const run = this.running.get(doc.uri);
    const hash = `${createHash('sha1').update(text).digest('base64')}.${this.moduleChanges.get(doc.uri) ?? 0}`;
    const entry = { version: doc.version, hash, analysis, text, index: new LineIndex(text), ...(related?.length ? { related } : {}) };
    this.cache.set(doc.uri, entry);
    if (parsed(analysis)) this.lastGood.set(doc.uri, entry);
    if (run?.text === text) {
      this.running.delete(doc.uri);
      run.settle(entry);
    }
    return entry;
  }

  /**
   * Another text analysed as this server analyses the document `uri`: a fix's outcome, a diff's base. It shares the
   * document's evaluation cache, so only the VM the fix changes is evaluated again.
   */
  analyzeText(uri: string, text: string, more: Pick<AnalyzeOptions, 'allFindings'> = {}): Analysis {
    const { current, registry } = this.settings;
    return analyze(text, { registry, cache: this.cacheOf(uri), defaultCatalog: current.catalog, defaultRegion: current.region, ...more });
  }

  /**
   * `analyzeText` with every finding (a diff's base), run in slices like a document's analysis so that other
   * requests are answered in between, and memoised by the text: the same text asked for again is not analysed
   * again (until the settings change or the document closes).
   */
  analyzedTextInSlices(uri: string, text: string): Promise<Analysis> {
    const hash = createHash('sha1').update(text).digest('base64');
    let memo = this.others.get(uri);
    if (!memo) this.others.set(uri, (memo = new Map()));
    const known = memo.get(hash);
    if (known) {
      memo.delete(hash);
      memo.set(hash, known);
      return known;
    }
    const { current, registry } = this.settings;
    const steps = analysisSteps(text, {
      registry,
      cache: this.cacheOf(uri),
      defaultCatalog: current.catalog,
      defaultRegion: current.region,
      allFindings: true,
    });
    const analysis = new Promise<Analysis>((resolve, reject) => {
      const slice = () => {
        try {
          const started = performance.now();
          for (let r = steps.next(); ; r = steps.next()) {
            if (r.done) return resolve(r.value);
            if (performance.now() - started >= SLICE_MS) break;
          }
          setImmediate(slice);
        } catch (e) {
          if (this.others.get(uri)?.get(hash) === analysis) this.others.get(uri)?.delete(hash);
          reject(e);
        }
      };
      setImmediate(slice);
    });
    memo.set(hash, analysis);
    for (const old of memo.keys()) if (memo.size > 2) memo.delete(old);
    return analysis;
  }

  /** For features that need structure: the current analysis if it parsed, else the last one that did. */
  structured(doc: TextDocument): Entry {
    const cur = this.analysisOf(doc);
    const good = parsed(cur.analysis) ? undefined : this.lastGood.get(doc.uri);
    if (!good) return cur;
    const error = cur.analysis.diagnostics.find((d) => d.code === 'yaml-syntax');
    return { ...good, staleSince: { line: cur.index.position(error?.span.start ?? 0).line + 1 } };
  }

  /**
   * New settings: every document is analysed again on next use, and analyses under way are dropped. The last
   * good analyses stay: they are only a fallback for mid-edit hovers.
   */
  invalidate(): void {
    for (const uri of [...this.running.keys()]) this.cancel(uri);
    this.others.clear();
    this.cache.clear();
    this.evaluations.clear();
  }
}

/** The findings of a module's analysis in its files after the first (the document's own), each in its file's terms. */
function relatedFindings(analysis: Analysis, ownLength: number): Entry['related'] {
  const out: NonNullable<Entry['related']> = [];
  for (const s of analysis.parsed.sources ?? []) {
    if (s.start < ownLength) continue;
    const diagnostics = analysis.diagnostics
      .filter((d) => d.span.start >= s.start && d.span.start <= s.end && d.span.start > ownLength)
      .map((d) => ({ ...d, span: { start: d.span.start - s.start, end: Math.min(d.span.end, s.end) - s.start } }));
    if (diagnostics.length) out.push({ path: s.path, text: analysis.parsed.text.slice(s.start, s.end), diagnostics });
  }
  return out;
}
