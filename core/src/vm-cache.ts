/**
 * The memo of per-VM work across analyses of a document, keyed by the VM's content rather than its place.
 * Inserting a VM at the top of a file moves every VM below it (its JSON pointer /vms/N and its offsets) without
 * changing what any of them is: those VMs keep their evaluation, and their findings are moved to the new place
 * (spans shifted, pointers renamed) instead of being checked again.
 */
import type { Catalog } from './catalog';
import type { Diagnostic, FixData } from './diagnostics';
import type { DiskSpec, VmSpec, WorkloadSpec } from './document/types';
import { vmContent } from './document/vm-content';
import type { VmEval } from './model/types';
import { workloadAt } from './model/workload';
import type { Span } from './text';

/**
 * Where a VM stands in the text: its pointer, the offset its node starts at, and where its name's value ends and
 * how long it is (findings are shared by VMs that differ only by name: spans after the name move with its length).
 */
export interface VmPlace {
  path: string;
  start: number;
  nameEnd: number;
  nameLength: number;
}

/** A VM's findings as they were at one place in the text. */
interface Findings extends VmPlace {
  diagnostics: Diagnostic[];
}

interface Entry {
  evaluation: VmEval;
  /** By the VM's source text and what the checks read beyond the VM (see `findingsKey`). */
  findings: Map<string, Findings>;
  bytes: number;
}

/** Each evaluation the cache moved onto another VM, and the evaluation first made for that content. */
const origins = new WeakMap<VmEval, VmEval>();

/**
 * The evaluation first made for this evaluation's content (itself when the cache made none before it): VMs
 * written alike share it, so that work that depends on the content alone (a VM's report but its name) is done
 * once for them all.
 */
export function contentOrigin(e: VmEval): VmEval {
  return origins.get(e) ?? e;
}

/** What an entry holds besides its keys, roughly: a VM's evaluation and its advice, measured on the benchmark spec. */
const ENTRY_BYTES = 24 * 1024;

/**
 * Memo of per-VM evaluations and findings. A VM's evaluation depends only on its content, the catalog and the
 * region; its findings also on its source text (spans) and a few spec-wide values, which the caller puts in the
 * findings key.
 *
 * Two ways to bound it, by who holds it:
 * - Swept after each analysis (a document's cache in the language server): it keeps what the last two analyses
 *   used (`sweep`) and has no other bound, `forDocument()`. What it holds the document's analysis holds anyway,
 *   but for the VMs an edit changed.
 * - Used across inputs without sweeps (`evaluate` over many files): bounded by an estimate of its size, least
 *   recently used first out (`maxBytes`).
 *
 * A bound by size below what one analysis asks for gives no hit at all on the next analysis: it asks for the VMs
 * in the same order, so each miss evicts the entry it will ask for next.
 */
export class EvaluationCache {
  /** A Map iterates in insertion order: re-inserting on use makes its first key the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Keys used since the last `sweep`, and between the two sweeps before it. */
  private used = new Set<string>();
  private usedBefore = new Set<string>();
  private readonly catalogIds = new WeakMap<Catalog, number>();
  /** Evaluations asked for and found (a VM of the same content evaluated before), and asked for and made. */
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes = 48 * 1024 * 1024) {}

  /** A document's cache, swept after each of its analyses: bounded by the sweeps alone (see the class). */
  static forDocument(): EvaluationCache {
    return new EvaluationCache(Number.POSITIVE_INFINITY);
  }

  /** The key of a VM's evaluation: its content without its place, with the catalog object and the region. */
  key(catalog: Catalog, region: string, vm: VmSpec): string {
    let id = this.catalogIds.get(catalog);
    if (id === undefined) this.catalogIds.set(catalog, (id = nextCatalogId++));
    // Without the VM's name and place: replicas named apart share one evaluation, which `evaluation` puts on each
    // VM's own spec.
    return `${id}\u0000${region}\u0000${vmContent(vm)}`;
  }

  /**
   * The VM's content (../document/vm-content) that `key` wrote into a key: the same text, not written again. After
   * the key's last NUL: the content is JSON, which writes a NUL in a value as an escape, never as itself (a region
   * may hold one).
   */
  static contentOf(key: string): string {
    return key.slice(key.lastIndexOf('\u0000') + 1);
  }

  /**
   * The VM's evaluation: the memoised one, moved to the VM's place, or `evaluate()`'s, memoised unless `keep` is
   * false (a content that nothing will ask for again: an entry would only hold memory).
   */
  evaluation(key: string, vm: VmSpec, evaluate: () => VmEval, keep = true): VmEval {
    const hit = this.use(key);
    if (!hit) {
      this.misses++;
      const evaluation = evaluate();
      if (keep) this.add(key, { evaluation, findings: new Map(), bytes: ENTRY_BYTES + 2 * key.length });
      return evaluation;
    }
    this.hits++;
    // Stored at this place again, so that the next analysis gets the same object (and the advice memoised on it).
    const was = hit.evaluation.spec;
    if (was.path !== vm.path || was.name !== vm.name) {
      const moved = rebaseEvaluation(hit.evaluation, vm);
      origins.set(moved, contentOrigin(hit.evaluation));
      hit.evaluation = moved;
    }
    return hit.evaluation;
  }

  /**
   * The evaluation memoised under `key` (for the VM it was made for), without adding one, counting a hit or miss,
   * or changing what is least recently used.
   */
  peek(key: string): VmEval | undefined {
    return this.entries.get(key)?.evaluation;
  }

  /** How many contents it holds. */
  get size(): number {
    return this.entries.size;
  }

  /** The share of evaluations asked for that the cache had (0 when none was asked for). */
  hitRate(): number {
    return this.hits + this.misses ? this.hits / (this.hits + this.misses) : 0;
  }

  /** The findings of the VM at `place`, when they were memoised under `fkey`, moved there. */
  findings(key: string, fkey: string, place: VmPlace): Diagnostic[] | undefined {
    const f = this.entries.get(key)?.findings.get(fkey);
    if (!f) return undefined;
    const same = f.path === place.path && f.start === place.start && f.nameLength === place.nameLength;
    return same ? f.diagnostics : f.diagnostics.map((d) => rebaseDiagnostic(d, f, place));
  }

  /** Memoises the VM's findings (the caller has checked that every span lies within the VM's text). */
  setFindings(key: string, fkey: string, findings: Findings): void {
    const e = this.entries.get(key);
    if (!e) return;
    // The same content under other text (a comment typed inside the VM) is a new key each keystroke: keep the
    // newest two texts (as it is, and one edit ago).
    for (const [k, f] of e.findings) {
      if (e.findings.size < 2 || k === fkey) break;
      e.findings.delete(k);
      this.resize(e, -findingsBytes(k, f));
    }
    const had = e.findings.get(fkey);
    if (had) this.resize(e, -findingsBytes(fkey, had));
    e.findings.set(fkey, findings);
    this.resize(e, findingsBytes(fkey, findings));
    this.trim();
  }

  /**
   * Drops what neither the analysis since the last sweep nor the one before it used: a document's cache then
   * holds its VMs as they are and as they were one analysis ago (an undo), not every VM ever typed.
   */
  sweep(): void {
    for (const [k, e] of this.entries) {
      if (this.used.has(k) || this.usedBefore.has(k)) continue;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
    this.usedBefore = this.used;
    this.used = new Set();
  }

  private resize(e: Entry, by: number): void {
    e.bytes += by;
    this.bytes += by;
  }

  private use(key: string): Entry | undefined {
    this.used.add(key);
    const e = this.entries.get(key);
    if (e) {
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    return e;
  }

  private add(key: string, e: Entry): void {
    this.used.add(key);
    this.entries.set(key, e);
    this.bytes += e.bytes;
    this.trim();
  }

  private trim(): void {
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes || this.entries.size <= 1) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}

let nextCatalogId = 1;

const findingsBytes = (fkey: string, f: Findings) => 2 * fkey.length + 512 * f.diagnostics.length;

/** `path` under `from` renamed to the same place under `to` (/vms/3/disks/0 → /vms/4/disks/0). */
function moved(path: string, from: string, to: string): string {
  return path === from || path.startsWith(`${from}/`) ? to + path.slice(from.length) : path;
}

/** An evaluation of the same content at another place: the same figures on the VM spec found there. */
function rebaseEvaluation(e: VmEval, vm: VmSpec): VmEval {
  // The same content has the same disks and workloads in the same order: each part's spec is the one at its
  // index (an index, not a map of paths: this runs for every replica of a fleet).
  const disk = (s: DiskSpec) => vm.disks[e.spec.disks.indexOf(s)] ?? s;
  const workload = (s: WorkloadSpec) => vm.workloads[e.spec.workloads.indexOf(s)] ?? s;
  return {
    ...e,
    spec: vm,
    disks: e.disks.map((d) => ({ ...d, spec: disk(d.spec) })),
    // Not a spread: an evaluated workload builds its sentence on read, from its prototype.
    workloads: e.workloads.map((w) => workloadAt(w, workload(w.spec))),
    ...(e.unmodelled && { unmodelled: e.unmodelled.map((u) => ({ ...u, spec: disk(u.spec) })) }),
    ...(e.unevaluated && { unevaluated: e.unevaluated.map((u) => ({ ...u, spec: disk(u.spec) })) }),
  };
}

function rebaseDiagnostic(d: Diagnostic, f: Findings, to: VmPlace): Diagnostic {
  // An offset after the name moves by the change of its length too (spans never fall inside a memoised name).
  const at = (o: number) => o - f.start + to.start + (o >= f.nameEnd ? to.nameLength - f.nameLength : 0);
  const shift = (s: Span): Span => ({ start: at(s.start), end: at(s.end) });
  const move = (p: string) => moved(p, f.path, to.path);
  const fix = (x: FixData): FixData =>
    x.kind === 'set-values' ? { ...x, values: x.values.map((v) => ({ ...v, path: move(v.path) })) } : { ...x, path: move(x.path) };
  return {
    ...d,
    span: shift(d.span),
    ...(d.path !== undefined && { path: move(d.path) }),
    ...(d.fixes && { fixes: d.fixes.map(fix) }),
  };
}
