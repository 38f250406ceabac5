/**
 * File reads shared by the CLI and the server: the one reader of paths that user content or settings name (regular
 * files only, bounded, held inside the root), and the reason an I/O call failed. The one writer is ./file-write.ts.
 * Node only: the VS Code extension reads and writes through `vscode.workspace.fs` and never imports this module.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The writer moved to ./file-write.ts; kept here for the modules that import it from here. */
export { writeAtomic } from './file-write';

/** Why a file operation failed, for a message: the error code (ENOENT, EACCES, ...) or else its message. */
export function ioReason(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? String(e);
}

/**
 * The largest catalog file read, in bytes. The biggest built-in catalog is under 200 kB; a file a hundred times
 * that is not a catalog, and reading it would stall the server's one thread.
 */
export const MAX_CATALOG_BYTES = 16 * 1024 * 1024;

/** What a path that is not a regular file is, for a message: opening a FIFO or a device could block for ever. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'EISDIR: a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The largest file read for an analysis (a spec, a plan, a .tf or .tfvars file), in bytes: a file past it is
 * refused whatever its size says (procfs files say 0 bytes and never end).
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * The largest file named on the command line read (a spec, a plan, fio's output): about the longest string V8
 * makes (2^29 - 24 characters), past which the read fails anyway; bounded so that `/proc/self/pagemap` ends.
 */
export const MAX_NAMED_BYTES = 512 * 1024 * 1024;

/** What one read call takes. */
const CHUNK_BYTES = 64 * 1024;

/** A read the reader refused: `reason` says why (not a regular file, over the limit, outside the root). */
export class ReadRefused extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'ReadRefused';
  }
}

/** Where a read may go: a byte limit and, for a path a file's content names, the folder it must stay in. */
export interface ReadBounds {
  maxBytes: number;
  /** The workspace or repository folder the real path (links resolved) must be in; none: anywhere. */
  root?: string;
  /** Follow links out of `root` (`--follow-links`, `storagePerf.followLinks`): safety is the default. */
  followLinks?: boolean;
  /**
   * Read a named pipe too, waiting for its writer as `cat` does: only for a file the user names on the command
   * line (`evaluate <(…)`, `/dev/stdin`), never for one a file's content or a setting names.
   */
  pipes?: boolean;
}

/**
 * The one reader of files named by user content or settings, as UTF-8. The path's links are resolved and its
 * real path held inside `root`; it is opened without blocking (O_NONBLOCK: a named pipe with no writer would
 * block `open` for ever) and refused unless the opened file is a regular file; at most `maxBytes` are read, counted
 * as read (a procfs file stats as 0 bytes). A refusal throws `ReadRefused`; an I/O error (ENOENT) throws as is.
 */
export function readBounded(path: string, bounds: ReadBounds): string {
  return readBoundedBytes(path, bounds).bytes.toString('utf8');
}

/** `readBounded`'s bytes, with the opened file's status (its stamp is of the bytes read). */
export function readBoundedBytes(path: string, bounds: ReadBounds): { bytes: Buffer; stats: Stats } {
  // Resolved only to be held to the root: `/dev/fd/63` (`<(…)`) has no real path, and is opened as named.
  let real = path;
  if (bounds.root !== undefined && !bounds.followLinks) {
    real = realpathSync(path);
    const root = realpathSync(bounds.root);
    if (!isInside(root, real))
      throw new ReadRefused(
        path,
        `its real path ${real} is outside ${root}; links out of it are followed only when asked (--follow-links)`,
      );
  }
  const fd = openSync(real, constants.O_RDONLY | (bounds.pipes ? 0 : (constants.O_NONBLOCK ?? 0)));
  try {
    const st = fstatSync(fd);
    if (!st.isFile() && !(bounds.pipes && (st.isFIFO() || st.isSocket()))) throw new ReadRefused(path, `${kindOf(st)}, not a regular file`);
    return { bytes: readUpTo(fd, path, bounds.maxBytes), stats: st };
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's bytes, read in chunks until its end; past `maxBytes` it is refused (its stated size is not trusted).
 * Chunks are of a fixed size, a multiple of 8 bytes (procfs' pagemap refuses other reads), so at most one chunk
 * more than the limit is read.
 */
function readUpTo(fd: number, path: string, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) throw new ReadRefused(path, `over the limit of ${maxBytes} bytes`);
  }
  return Buffer.concat(chunks, total);
}

/** Whether `path` is `root` or under it (both absolute, links resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The folder a file's content may name paths in: the repository the file is in (the nearest folder above it
 * holding `.git`), else `folder` (the workspace folder, the CLI's working directory) when the file is in it, else
 * the file's own folder.
 */
export function readRootOf(file: string, folder?: string): string {
  let dir: string;
  try {
    dir = dirname(realpathSync(file));
  } catch {
    dir = dirname(resolve(file));
  }
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) break;
  }
  if (folder !== undefined) {
    let f = resolve(folder);
    try {
      f = realpathSync(f);
    } catch {
      /* kept as given */
    }
    if (isInside(f, dir)) return f;
  }
  return dir;
}

/**
 * Reads a catalog file (named by a flag or a setting, so anywhere): a regular file of at most `maxBytes`, as
 * UTF-8, through `readBounded`.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  return readBounded(path, { maxBytes });
}

/** Whether a path is a folder (through links, as a command's argument is read); false where it is not there. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
