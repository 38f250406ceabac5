/**
 * File I/O shared by the CLI and the server: atomic writes, so that files storage-perf writes (fixed specs, fio
 * job files, reports) hold the old text or the new, never part of either; and the reason an I/O call failed.
 * Node only: the VS Code extension writes through `vscode.workspace.fs` and never imports this module.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
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
