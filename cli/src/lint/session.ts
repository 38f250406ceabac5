/**
 * One lint run over one language server: start it, initialize it as an editor would, open each file, collect
 * its diagnostics (pulled when the server offers that, else pushed), apply preferred quick fixes when asked,
 * and shut the server down. Files are processed concurrently; any failure of the server aborts the run.
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic, Range, TextEdit as LspTextEdit } from 'vscode-languageserver-protocol/node';
import { applyEdits, LineIndex, type FixType, type TextEdit } from '../../../core/src';
import { fixTypesOfKind } from '../../../protocol/src/requests';
import { ServerFailure, type ClientOptions } from '../lsp-client';
import { ioReason, MAX_NAMED_BYTES, readBounded, readBoundedBytes } from '../../../protocol/src/file-io';
import { stampOf, writeAtomic } from '../../../protocol/src/file-write';
import type { Target } from './files';
import { LintClient } from './lint-client';
import { findingCount, firstInvalidByte, introducesErrors, roundOf, type Doc, type FixGroup, type FixRun, type Read } from './fix-support';
import { RANK, type FileResult, type Finding, type Severity } from './types';

/** Files in flight at once: enough to keep the server busy, few enough to bound its memory. */
const CONCURRENCY = 16;
/** Fix rounds before a file is declared non-converging (each round re-lints). */
export const MAX_FIX_ROUNDS = 25;

/** For servers that push without versions: how long no newer push must come before the last one counts. */
const QUIET_MS = 200;

const SEVERITY_OF: Record<number, Severity> = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

export interface SessionOptions {
  client: ClientOptions;
  cwd: string;
  fix?: 'fix' | 'dry-run';
  /** Which fixes --fix applies: `problem` (corrections) by default, `sizing` and `workload` (design changes) only when asked. */
  fixTypes?: FixType[];
  /** --force: replace a read-only file, write a hard-linked one in place. */
  force?: boolean;
  /** --follow-links: a file found in a folder is read through a link out of its repository too. */
  followLinks?: boolean;
  /** The text of standard input, when `-` is among the targets. */
  stdinText?: string;
  stdinName?: string;
}

function toFinding(d: Diagnostic): Finding {
  const r = d.range;
  return {
    severity: SEVERITY_OF[d.severity ?? 1] ?? 'error',
    code: d.code === undefined ? 'unknown' : String(d.code),
    message: (typeof d.message === 'string' ? d.message : d.message.value).replace(/\s*[\r\n]+\s*/g, ' '),
    source: d.source,
    line: r.start.line + 1,
    column: r.start.character + 1,
    endLine: r.end.line + 1,
    endColumn: r.end.character + 1,
    range: r,
  };
}

function byPosition(a: Finding, b: Finding): number {
  return a.line - b.line || a.column - b.column || RANK[b.severity] - RANK[a.severity] || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/**
 * Lints `targets` over the sessions' servers at once, each with at most CONCURRENCY files in flight, taking files
 * from one shared queue (a server that is slower gets fewer), keeping the order of the targets in the results.
 */
export async function lintAcross(sessions: Session[], targets: Target[]): Promise<FileResult[]> {
  const out: FileResult[] = new Array(targets.length);
  let next = 0;
  let failed: unknown;
  const worker = async (session: Session) => {
    while (next < targets.length && failed === undefined) {
      const i = next++;
      try {
        out[i] = await session.lintOne(targets[i]);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  const inFlight = Math.min(CONCURRENCY, targets.length);
  await Promise.all(sessions.flatMap((s) => Array.from({ length: inFlight }, () => worker(s))));
  if (failed !== undefined) throw failed;
  // A module's findings in files that are not targets themselves (a called module's) follow its entry file; a
  // file two modules call gets the findings of both, each once.
  const linted = new Set(out.map((r) => r.file));
  const byFile = new Map<string | undefined, FileResult>();
  const key = (f: Finding) => `${f.line}:${f.column}:${f.code}:${f.message}`;
  return out.flatMap(({ related, ...r }) =>
    [r, ...(related ?? [])].filter((x, i) => {
      if (i === 0) return true;
      if (linted.has(x.file)) return false;
      const known = byFile.get(x.file);
      if (!known) return !!byFile.set(x.file, x);
      const have = new Set(known.findings.map(key));
      for (const f of x.findings) if (!have.has(key(f))) known.findings.push(f);
      known.findings.sort(byPosition);
      return false;
    }),
  );
}

interface CodeAction {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  diagnostics?: Diagnostic[];
  edit?: { changes?: Record<string, LspTextEdit[]>; documentChanges?: Array<{ textDocument?: { uri: string }; edits?: LspTextEdit[] }> };
}

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

function editsOf(action: CodeAction, uri: string): LspTextEdit[] {
  const e = action.edit;
  if (!e) return [];
  if (e.documentChanges) return e.documentChanges.filter((c) => c.textDocument?.uri === uri).flatMap((c) => c.edits ?? []);
  return e.changes?.[uri] ?? [];
}

export class Session {
  readonly client: LintClient;
  /** The diagnostics a document's last pulled report gave for related documents (a .tf module's other files). */
  private readonly related = new Map<string, Record<string, Diagnostic[]>>();

  constructor(private readonly opts: SessionOptions) {
    this.client = new LintClient(opts.client);
  }

  async start(): Promise<void> {
    await this.client.initialize(pathToFileURL(this.opts.cwd).href);
    await this.client.settled();
    const failure = this.serverFailure();
    if (failure) throw new ServerFailure(failure);
  }

  /** The first error the server reported about itself (an unreadable catalog, ...), if any. */
  serverError(): string | undefined {
    return this.client.messages.find((m) => m.type === 1)?.message;
  }

  serverFailure(): string | undefined {
    const c = this.client.child;
    return c.exitCode !== null || c.signalCode !== null
      ? `the language server exited (${c.signalCode ?? `code ${c.exitCode}`})`
      : undefined;
  }

  async lint(targets: Target[]): Promise<FileResult[]> {
    return lintAcross([this], targets);
  }

  async stop(): Promise<void> {
    await this.client.stop();
  }

  /** Ends the server at once, without the shutdown handshake (it has failed or the run is being abandoned). */
  abort(): void {
    const c = this.client.child;
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    this.client.connection.dispose();
  }

  /** Diagnostics of the document at `version`, opened or changed after the time `mark`. */
  private async diagnostics(uri: string, version: number, mark: number): Promise<Diagnostic[]> {
    const c = this.client;
    if (c.capabilities?.diagnosticProvider) {
      // Pulled results are stale when the server asked for a refresh meanwhile (its settings changed).
      for (let round = 0; ; round++) {
        const before = c.refreshes;
        const report = await c.pullReport(uri);
        this.related.set(uri, report.related);
        if (c.refreshes === before || round >= 2) return report.items;
      }
    }
    await c.publishedAfter(uri, mark);
    for (;;) {
      const p = c.lastPushed(uri)!;
      if (p.version === undefined) return c.pushedDiagnostics(uri, undefined, QUIET_MS);
      if (p.version >= version) return p.diagnostics;
      await c.publishedAfter(uri, p.at + 1e-6);
    }
  }

  private readTarget(t: Target): Read {
    if (!t.file) return { text: this.opts.stdinText ?? '' };
    // One read for the bytes and the stamp, so that the stamp is of the bytes read; bounded as every named file. A
    // file found in a folder is held to its root (a link out of the repository is refused) and is a regular file.
    const bounds = t.root === undefined ? { pipes: true } : { root: t.root, followLinks: this.opts.followLinks };
    const { bytes, stats } = readBoundedBytes(t.file, { maxBytes: MAX_NAMED_BYTES, ...bounds });
    const text = bytes.toString('utf8');
    return { text, stamp: stampOf(stats), badByte: firstInvalidByte(bytes, text) };
  }

  private uriOf(t: Target): string {
    if (t.file) return pathToFileURL(t.file).href;
    return this.opts.stdinName ? pathToFileURL(join(this.opts.cwd, this.opts.stdinName)).href : 'untitled:stdin.perf.yaml';
  }

  async lintOne(t: Target): Promise<FileResult> {
    let read: Read;
    try {
      read = this.readTarget(t);
    } catch (e) {
      return { path: t.display, file: t.file, text: '', findings: [], error: `cannot read ${t.display}: ${ioReason(e)}` };
    }
    const { text } = read;
    const uri = this.uriOf(t);
    const mark = performance.now();
    this.client.open(uri, text, 1);
    const doc: Doc = { uri, version: 1, diags: await this.diagnostics(uri, 1, mark) };
    const result: FileResult = { path: t.display, file: t.file, text, findings: [] };
    if (this.opts.fix && read.badByte !== undefined) {
      // Fixes would turn the bytes that are not UTF-8 into U+FFFD: the file is not touched, whatever the mode.
      result.error = `${t.display} is not valid UTF-8 (byte ${read.badByte}); fixes were not applied and the file was left unchanged`;
    } else if (this.opts.fix) {
      const run = await this.fixRounds(doc, text);
      if (!run.converged) {
        result.error = `${t.display}: quick fixes ${run.cycle ? 'undo each other' : `did not settle after ${run.rounds} rounds`}; the file was left unchanged`;
        await this.relint(doc, text); // the findings of the text as it is on disk
      } else if (run.current !== text) {
        result.text = run.current;
        result.fix = { before: text, after: run.current, rounds: run.rounds, written: false, designChanges: run.designChanges };
        if (this.opts.fix === 'fix' && t.file) {
          try {
            writeAtomic(t.file, run.current, { kind: 'user', force: this.opts.force, expect: read.stamp });
            result.fix.written = true;
          } catch (e) {
            // Nothing was written: the findings are those of the text on disk, and no fix is counted.
            result.error = `cannot write the fixes to ${t.display}: ${ioReason(e)}; the file was left unchanged`;
            result.text = text;
            result.fix = undefined;
            await this.relint(doc, text);
          }
        }
      }
    }
    this.client.close(uri);
    result.findings = doc.diags.map(toFinding).sort(byPosition);
    result.related = this.relatedResults(uri);
    return result;
  }

  /** Sends `text` as the document's new version and takes its diagnostics. */
  private async relint(doc: Doc, text: string): Promise<Diagnostic[]> {
    const at = performance.now();
    this.client.change(doc.uri, ++doc.version, [{ text }]);
    doc.diags = await this.diagnostics(doc.uri, doc.version, at);
    return doc.diags;
  }

  /** Applies the preferred fixes round after round until nothing changes (or they cycle, or too many rounds). */
  private async fixRounds(doc: Doc, text: string): Promise<FixRun> {
    const run: FixRun = { current: text, rounds: 0, converged: false, cycle: false, designChanges: [] };
    const seen = new Set([text]);
    // Each design change takes a round of its own: at most one more round than the file had findings. A round
    // that leaves fewer findings than the one before made progress and is not counted: a file lists at most 100
    // findings of a code, so thousands of them take a round per hundred.
    let budget = MAX_FIX_ROUNDS + doc.diags.length;
    for (;;) {
      const before = doc.diags;
      const groups = roundOf(await this.preferredEdits(doc.uri, run.current, before));
      let next = groups.length
        ? applyEdits(
            run.current,
            groups.flatMap((g) => g.edits),
          )
        : run.current;
      let applied = groups;
      if (next === run.current) {
        run.converged = true;
        return run;
      }
      if (budget === 0) return run;
      run.rounds++;
      let after = await this.relint(doc, next);
      if (groups.length > 1 && introducesErrors(before, after)) {
        // Fixes sound on their own can clash (a rename and an insertion making the same key twice): when the
        // round made an error of a new kind, take the first fix alone; the others are asked for again.
        next = applyEdits(run.current, groups[0].edits);
        applied = groups.slice(0, 1);
        after = await this.relint(doc, next);
      }
      if (seen.has(next)) {
        run.cycle = true; // fixes undoing each other: no progress
        return run;
      }
      seen.add(next);
      run.current = next;
      if (findingCount(after) >= findingCount(before)) budget--;
      run.designChanges.push(...applied.filter((g) => g.design).map((g) => g.title));
    }
  }

  /** The files a document's analysis found problems in besides itself, each as a file result of its own. */
  private relatedResults(uri: string): FileResult[] {
    const out: FileResult[] = [];
    for (const [u, diags] of Object.entries(this.related.get(uri) ?? {})) {
      if (!diags.length || !u.startsWith('file:')) continue;
      const file = fileURLToPath(u);
      const rel = relative(this.opts.cwd, file);
      const path = rel.startsWith('..') || isAbsolute(rel) ? file : rel.split(sep).join('/');
      let text = '';
      try {
        text = readBounded(file, { maxBytes: MAX_NAMED_BYTES });
      } catch {
        continue;
      }
      out.push({ path, file, text, findings: diags.map(toFinding).sort(byPosition) });
    }
    this.related.delete(uri);
    return out;
  }

  /**
   * The edits of each finding's preferred quick fix, as offsets into `text`, one group per fix, in the order of
   * the findings. Fixes whose edits overlap one already taken wait for the next round, when they are asked for
   * again against the new text.
   */
  private async preferredEdits(uri: string, text: string, diags: Diagnostic[]): Promise<FixGroup[]> {
    const idx = new LineIndex(text);
    const lists = await Promise.all(diags.map((d) => this.client.codeActions(uri, d.range, [d]) as Promise<CodeAction[] | null>));
    const groups: FixGroup[] = [];
    const types = this.opts.fixTypes ?? ['problem'];
    // A design change (quickfix.sizing, quickfix.workload) only when each type it is of is asked for; any other
    // quick fix corrects what is written.
    const wanted = (a: CodeAction) => fixTypesOfKind(a.kind).every((t) => types.includes(t));
    const taken: TextEdit[] = [];
    const seen = new Set<string>();
    diags.forEach((d, i) => {
      const actions = (lists[i] ?? []).filter((a) => a.isPreferred && a.edit && wanted(a));
      // The preferred fix for this very finding: the server lists the finding among the action's diagnostics.
      const action = actions.find(
        (a) => !a.diagnostics || a.diagnostics.some((x) => String(x.code) === String(d.code) && sameRange(x.range, d.range)),
      );
      if (!action) return;
      const edits = editsOf(action, uri).map((e) => ({
        start: idx.offset(e.range.start),
        end: idx.offset(e.range.end),
        newText: e.newText,
      }));
      const key = JSON.stringify(edits);
      if (!edits.length || seen.has(key)) return;
      seen.add(key);
      const overlaps = edits.some((e) =>
        taken.some(
          (x) =>
            (e.start < x.end && x.start < e.end) ||
            e.start === x.start ||
            (e.start === e.end && x.start <= e.start && e.start <= x.end) ||
            (x.start === x.end && e.start <= x.start && x.start <= e.end),
        ),
      );
      if (!overlaps) {
        for (const e of edits) taken.push(e);
        groups.push({ edits, title: action.title, design: !fixTypesOfKind(action.kind).includes('problem') });
      }
    });
    return groups;
  }
}
