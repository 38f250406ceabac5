/**
 * The files a Terraform module read takes in, kept between analyses (the language server's; the CLI reads each
 * file once a run and keeps none): each file's text, read through the one bounded reader (`readBounded` of
 * ./file-io.ts) and read again only when it changed, and each file's parse by its text, so that an edit of the
 * open `.tf` file parses that file again and not the module's other files.
 *
 * A file is known to be unchanged in one of two ways. When the client watches the module's files and reports
 * their changes (`workspace/didChangeWatchedFiles`, registered by the server), a file it watches is trusted until
 * `changed` names it. Any other file (the client does not watch, or the file is outside its workspace folder) is
 * checked before each use: its size, modification time, inode and device as `stat` gives them, against those of
 * the file that was read. An editor's buffer of a file (open, maybe unsaved) wins over the disk.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { TfParseMemo, TfParsed } from '../../core/src';
import { isInside, readBoundedBytes, ReadRefused, type ReadBounds } from './file-io';

/** The file names a client is asked to watch (glob patterns of `workspace/didChangeWatchedFiles`). */
export const WATCHED_PATTERNS = ['**/*.tf', '**/*.tf.json', '**/*.tfvars', '**/*.tfvars.json'];

/** Whether a path is one the watch patterns cover. */
export const isWatchedName = (path: string): boolean => /\.(?:tf|tf\.json|tfvars|tfvars\.json)$/i.test(path);

/** What identifies the bytes read: a file rewritten (or replaced) changes at least one of these. */
interface Stamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dev: number;
}

const stampOf = (st: Stats): Stamp => ({ size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, dev: st.dev });
const sameStamp = (a: Stamp, b: Stamp) =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.dev === b.dev;

/** A file's text as read, with what it was read under and whether the client's watching covers it. */
interface Held {
  text: string;
  stamp: Stamp;
  /** The bounds it was read with: read again under others (a new root, `followLinks`, limit). */
  bounds: string;
  trusted: boolean;
}

const boundsKey = (b: ReadBounds) => `${b.maxBytes}\0${b.root ?? ''}\0${b.followLinks ? 1 : 0}`;

/** Reads and hits since the cache was made: what the benchmark and the tests count. */
export interface ModuleFileCounts {
  /** Uses answered by a held text (or a buffer). */
  hits: number;
  /** Files read from disk. */
  reads: number;
  /** Parses answered by a held parse, and parses done. */
  parseHits: number;
  parses: number;
}

export class ModuleFiles {
  /** The folder whose files the client reports changes of (its workspace folder, real path), once it watches. */
  private watchedFolder: string | undefined;
  private readonly held = new Map<string, Held>();
  private readonly buffers = new Map<string, string>();
  private readonly parsed = new Map<string, { text: string; parsed: TfParsed }>();
  private recording: Set<string> | undefined;
  readonly counts: ModuleFileCounts = { hits: 0, reads: 0, parseHits: 0, parses: 0 };

  /**
   * The client now reports changes of the watched file names under `folder` (undefined: it does not): those files
   * are trusted without a `stat` from now on. Files held before are checked once more on their next use.
   */
  watch(folder: string | undefined): void {
    let real = folder;
    try {
      real = folder === undefined ? undefined : realpathSync(folder);
    } catch {
      real = undefined;
    }
    this.watchedFolder = real;
    for (const h of this.held.values()) h.trusted = false;
  }

  /** The text of `path`: a buffer of it, else the held text if it is still the file's, else read (and held). */
  read(path: string, bounds: ReadBounds): string {
    this.recording?.add(path);
    const key = boundsKey(bounds);
    let h = this.held.get(path);
    if (h && (h.bounds !== key || !(h.trusted || this.unchanged(path, h.stamp)))) h = undefined;
    if (!h) {
      const { bytes, stats } = readBoundedBytes(path, bounds);
      this.counts.reads++;
      h = { text: bytes.toString('utf8'), stamp: stampOf(stats), bounds: key, trusted: this.covered(path) };
      this.held.set(path, h);
    } else this.counts.hits++;
    const buffer = this.buffers.get(path);
    if (buffer === undefined) return h.text;
    // Allowed on disk (read above, through the reader), and held to the same limit.
    if (Buffer.byteLength(buffer) > bounds.maxBytes) throw new ReadRefused(path, `over the limit of ${bounds.maxBytes} bytes`);
    return buffer;
  }

  /** The client says `path` changed on disk (created, changed or deleted): read it again on its next use. */
  changed(path: string): void {
    this.held.delete(path);
    this.parsed.delete(path);
  }

  /** An editor's buffer of `path` (opened or edited): it is the file's text from now on. */
  setBuffer(path: string, text: string): void {
    this.buffers.set(path, text);
  }

  /** The buffer was closed: the file's text is the disk's again. */
  dropBuffer(path: string): void {
    this.buffers.delete(path);
  }

  /** `fn`'s value and the paths it read through this cache (a document's module files). */
  track<T>(fn: () => T): { value: T; used: Set<string> } {
    const outer = this.recording;
    const used = new Set<string>();
    this.recording = used;
    try {
      return { value: fn(), used };
    } finally {
      this.recording = outer;
      if (outer) for (const p of used) outer.add(p);
    }
  }

  /** Keeps only the files in `used` (what the open documents' modules read), for memory. */
  sweep(used: ReadonlySet<string>): void {
    for (const p of [...this.held.keys()]) if (!used.has(p)) this.held.delete(p);
    for (const p of [...this.parsed.keys()]) if (!used.has(p)) this.parsed.delete(p);
  }

  /** The parse memo of the module whose root folder is `folder` (the core names files relative to it). */
  parses(folder: string): TfParseMemo {
    return {
      get: (path, text) => {
        const p = this.parsed.get(join(folder, path));
        if (p?.text !== text) return undefined;
        this.counts.parseHits++;
        return p.parsed;
      },
      set: (path, text, parsed) => {
        this.counts.parses++;
        this.parsed.set(join(folder, path), { text, parsed });
      },
    };
  }

  /** The held files' count, for tests and the benchmark. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Whether the client's watching covers the file: a watched name in the watched folder, reached through no link
   * (a change of a link's target is reported under the target's name).
   */
  private covered(path: string): boolean {
    if (this.watchedFolder === undefined || !isWatchedName(path)) return false;
    try {
      const real = realpathSync(path);
      return real === path && isInside(this.watchedFolder, real);
    } catch {
      return false;
    }
  }

  private unchanged(path: string, stamp: Stamp): boolean {
    try {
      return sameStamp(stampOf(statSync(path)), stamp);
    } catch {
      return false;
    }
  }
}
