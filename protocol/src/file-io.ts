/**
 * File I/O shared by the CLI and the server: atomic writes, so that files storage-perf writes (fixed specs, fio
 * job files, reports) hold the old text or the new, never part of either; and the reason an I/O call failed.
 * Node only: the VS Code extension writes through `vscode.workspace.fs` and never imports this module.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes through a temporary file in the same folder and a rename. An existing file keeps its permissions, and
 * a symbolic link keeps pointing where it did (the file it points to is replaced). What is not a regular file
 * (`/dev/stdout`, a named pipe) cannot be replaced by a rename and is written to directly.
 */
export function writeAtomic(path: string, text: string): void {
  let st: Stats | undefined;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (st && !st.isFile()) {
    writeFileSync(path, text);
    return;
  }
  const real = st ? realpathSync(path) : path;
  const mode = st ? st.mode & 0o7777 : 0o666;
  const tmp = join(dirname(real), `.${basename(real)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { encoding: 'utf8', mode, flag: 'wx' });
    // The creation mode passes through the umask: without this, a group-writable file would lose g+w.
    if (st) chmodSync(tmp, mode);
    renameSync(tmp, real);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* it was not created */
    }
    throw e;
  }
}

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
 * Reads a file that must be a regular file of at most `maxBytes`, as UTF-8. It is checked before it is opened:
 * opening a FIFO blocks until someone writes to it, and a device (`/dev/zero`) never ends.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  const st = statSync(path);
  if (!st.isFile()) throw new Error(`${kindOf(st)}, not a regular file`);
  if (st.size > maxBytes) throw new Error(`${st.size} bytes, over the limit of ${maxBytes} bytes`);
  return readFileSync(path, 'utf8');
}
