/**
 * File I/O shared by the CLI and the server: atomic writes, so that files storage-perf writes (fixed specs, fio
 * job files, reports) hold the old text or the new, never part of either; and the reason an I/O call failed.
 * Node only: the VS Code extension writes through `vscode.workspace.fs` and never imports this module.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';

/** The writer moved to file-write.ts; kept here for the modules that import it from here. */
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
 * Reads a file that must be a regular file of at most `maxBytes`, as UTF-8. It is checked before it is opened:
 * opening a FIFO blocks until someone writes to it, and a device (`/dev/zero`) never ends.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  const st = statSync(path);
  if (!st.isFile()) throw new Error(`${kindOf(st)}, not a regular file`);
  if (st.size > maxBytes) throw new Error(`${st.size} bytes, over the limit of ${maxBytes} bytes`);
  return readFileSync(path, 'utf8');
}
