/**
 * The one writer of storage-perf: every file it writes (a spec fixed by `lint --fix`, fio job files, a SARIF or
 * other report, an SVG) goes through here. Writes are atomic (a temporary file in the same folder, then a rename),
 * so a file holds the old text or the new, never part of either, and they refuse what would lose or misplace
 * bytes. docs/robustness.md lists what is refused and why.
 *
 * Two kinds of file:
 * - `user`: a file someone wrote (a spec being fixed). A symbolic link is refused (the file it points to may be
 *   another project's), and so is a file with several hard links (a rename would split them) unless `force`, which
 *   then writes in place through the one inode.
 * - `generated`: an output storage-perf makes (fio jobs, reports). A symbolic link or hard link at its name is
 *   replaced by the new file: the name is written, never what it points to.
 * Either kind: a read-only file is refused unless `force`; the owner, group and mode of a replaced file are kept
 * (the owner and group when running as root, the group otherwise where the user may); a file that changed since it
 * was read (`expect`) is refused; the temporary file is removed when SIGINT, SIGTERM or SIGHUP arrives.
 * Extended attributes are copied onto the new file where the native module of `./xattrs` loads (see there).
 * Node only: the VS Code extension writes through `vscode.workspace.fs` and never imports this module.
 */
import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { copyXattrs } from './xattrs';

/** A write refused for a reason of the file's own (a link, read-only, changed on disk), said in `message`. */
export class WriteRefused extends Error {}

/** What a file was when it was read: a write that finds it otherwise refuses ("changed on disk"). */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export interface WriteOptions {
  /** `user` (default): a file someone wrote, never written through a link; `generated`: an output of ours. */
  kind?: 'user' | 'generated';
  /** Replace a read-only file; write a hard-linked user file in place. */
  force?: boolean;
  /** The file as it was read; the write is refused when it is no longer so just before the rename. */
  expect?: FileStamp;
}

export function stampOf(st: Stats): FileStamp {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

const sameStamp = (a: FileStamp, b: FileStamp) => a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** Temporary files written and not yet renamed: removed if the process is told to stop meanwhile. */
const pending = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let cleanupInstalled = false;

function onSignal(signal: NodeJS.Signals): void {
  for (const p of pending) {
    try {
      unlinkSync(p);
    } catch {
      /* already renamed or removed */
    }
  }
  pending.clear();
  // Nobody else listens: end as the signal would have, with our handlers out of the way.
  if (process.listenerCount(signal) === 1) {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  }
}

/**
 * With a listener, a signal waits for the JavaScript that runs to finish: a write between its temporary file and
 * the rename completes (or removes the temporary file), and the handler then ends the process as the signal would.
 * Installed at the first write and kept: removed, a signal that arrived meanwhile would be lost.
 */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  for (const s of SIGNALS) process.on(s, onSignal);
}

/** For tests only: blocks just before the rename by reading the named pipe this variable names. */
function testPause(): void {
  const fifo = process.env.STORAGE_PERF_TEST_PAUSE_BEFORE_RENAME;
  if (fifo) readFileSync(fifo);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return undefined;
  }
}

/** The refusals that hold before anything is written; what `st` is decides how it is written. */
function check(path: string, st: Stats | undefined, opts: WriteOptions): void {
  const user = (opts.kind ?? 'user') === 'user';
  const name = basename(path);
  if (st?.isFile() !== false && opts.expect && (!st || !sameStamp(stampOf(st), opts.expect)))
    throw new WriteRefused(`${name} changed on disk since it was read; not written (run again)`);
  if (!st) return;
  if (st.isSymbolicLink()) {
    if (user)
      throw new WriteRefused(
        `${name} is a symbolic link; storage-perf does not write through links (run it on the file the link points to)`,
      );
    return;
  }
  if (!st.isFile()) {
    if (user) throw new WriteRefused(`${name} is not a regular file`);
    return;
  }
  if ((st.mode & 0o222) === 0 && !opts.force) throw new WriteRefused(`${name} is read-only; not written (--force replaces it)`);
}

/** Keeps the replaced file's owner and group: as root always, else where the user may (their own groups). */
function keepOwner(tmp: string, st: Stats): void {
  const uid = process.getuid?.();
  if (uid === undefined || (st.uid === uid && st.gid === process.getgid?.())) return;
  try {
    chownSync(tmp, uid === 0 ? st.uid : uid, st.gid);
  } catch {
    /* not allowed: the group the user's files get */
  }
}

/**
 * Writes a temporary file beside `path` holding `text`, with the mode (and owner) of `st` when given. Returns its
 * path, registered for removal on a signal.
 */
function writeTemp(path: string, text: string, st: Stats | undefined): string {
  installCleanup();
  // Required here, not at the top: every command loads this module (through ./file-io), few of them write, and
  // loading node:crypto was a tenth of the command's own start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  const keep = st?.isFile() ? st : undefined;
  const mode = keep ? keep.mode & 0o7777 : 0o666;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  pending.add(tmp);
  try {
    writeFileSync(tmp, text, { encoding: 'utf8', mode, flag: 'wx' });
    if (keep) {
      keepOwner(tmp, keep);
      // The creation mode passes through the umask, and chown clears set-id bits: set the mode last.
      chmodSync(tmp, mode);
      const lost = copyXattrs(path, tmp);
      if (lost) throw new WriteRefused(`${basename(path)}: ${lost}; not written`);
    }
  } catch (e) {
    removeTemp(tmp);
    throw e;
  }
  return tmp;
}

function removeTemp(tmp: string): void {
  pending.delete(tmp);
  try {
    unlinkSync(tmp);
  } catch {
    /* it was not created */
  }
}

/** Writes through the file's own inode: its hard links, owner, mode and extended attributes stay. */
function writeInPlace(path: string, text: string, opts: WriteOptions): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    if (opts.expect && !sameStamp(stampOf(fstatSync(fd)), opts.expect))
      throw new WriteRefused(`${basename(path)} changed on disk since it was read; not written (run again)`);
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, done);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `path` atomically, or refuses with a WriteRefused that says why. What is not a regular file
 * (`/dev/stdout`, a named pipe) cannot be replaced by a rename: a generated output is written to it directly.
 */
export function writeAtomic(path: string, text: string, opts: WriteOptions = {}): void {
  const st = lstatOrUndefined(path);
  check(path, st, opts);
  if (st && !st.isFile() && !st.isSymbolicLink()) {
    writeFileSync(path, text);
    return;
  }
  if (st?.isFile() && st.nlink > 1 && (opts.kind ?? 'user') === 'user') {
    if (!opts.force)
      throw new WriteRefused(
        `${basename(path)} has ${st.nlink} hard links; a rename would split them (--force writes it in place, keeping the links)`,
      );
    writeInPlace(path, text, opts);
    return;
  }
  const tmp = writeTemp(path, text, st);
  try {
    testPause();
    // An edit saved since the file was read must not be lost: look again just before the rename.
    if (opts.expect) check(path, lstatOrUndefined(path), opts);
    renameSync(tmp, path);
    pending.delete(tmp);
  } catch (e) {
    removeTemp(tmp);
    throw e;
  }
}

/** Whether `name` is one plain file name: no folder part, not `.` or `..`, nothing that leaves the folder. */
export function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/** What writeAllInside wrote, by name; `failed` when it stopped part way. */
export interface BatchResult {
  written: string[];
}

/**
 * Writes generated files into `dir`, all or none where the disk allows: every file is first written to its
 * temporary file (a full disk fails here, and nothing is replaced), then each is renamed into place. A rename
 * failing part way throws an error naming the files already written. A name that is not a plain file name
 * (`../x`, `a/b`) is refused before anything is written.
 */
export function writeAllInside(dir: string, files: Array<{ name: string; text: string }>, opts: WriteOptions = {}): BatchResult {
  const bad = files.find((f) => !isPlainName(f.name));
  if (bad) throw new WriteRefused(`'${bad.name}' is not a plain file name inside ${dir}; nothing written`);
  const o: WriteOptions = { ...opts, kind: 'generated' };
  const planned = files.map((f) => {
    const path = join(dir, f.name);
    const st = lstatOrUndefined(path);
    check(path, st, o);
    return { ...f, path, st };
  });
  const temps: string[] = [];
  try {
    for (const f of planned) temps.push(f.st && !f.st.isFile() && !f.st.isSymbolicLink() ? '' : writeTemp(f.path, f.text, f.st));
  } catch (e) {
    temps.filter(Boolean).forEach(removeTemp);
    throw new Error(`${(e as Error).message}; nothing written`, { cause: e });
  }
  const written: string[] = [];
  try {
    testPause();
    planned.forEach((f, i) => {
      if (temps[i]) {
        renameSync(temps[i], f.path);
        pending.delete(temps[i]);
      } else writeFileSync(f.path, f.text);
      written.push(f.name);
    });
  } catch (e) {
    temps.slice(written.length).filter(Boolean).forEach(removeTemp);
    const what = written.length ? `only ${written.join(', ')} written, the others not` : 'nothing written';
    throw new Error(`${(e as Error).message}; ${what}`, { cause: e });
  }
  return { written };
}
