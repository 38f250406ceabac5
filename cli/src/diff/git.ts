/**
 * `storage-perf diff --base-ref REF`: the base read from git, never checked out. A spec or a plan is one
 * `git show REF:./PATH` (run from the file's folder, so the path is the one the user gave); a `.tf` file, a module
 * folder or a workload sidecar (which names a plan or .tf files beside it) is read as its folder's files at REF, written under a temporary folder so that
 * the module is read exactly as `evaluate` reads it from the disk.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isTerraformSourcePath, sidecarPlanPath } from '../../../core/src';

/** Files of a module folder worth reading at REF: Terraform's own, its variables, plans and sidecars. */
const MODULE_FILE = /\.(?:tf|tf\.json|tfvars|tfvars\.json|json|ya?ml)$/i;
/** Bounds on what one base reads from git. */
const MAX_FILES = 2000;
const MAX_BYTES = 512 * 1024 * 1024;

export class GitReadError extends Error {}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: MAX_BYTES, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; code?: string; message: string };
    if (err.code === 'ENOENT') throw new GitReadError('git is not installed (or not on PATH)');
    const said = (err.stderr ?? '').trim().split('\n')[0] || err.message;
    throw new GitReadError(said.replace(/^fatal: /, ''));
  }
}

const isFolder = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** A file's text at REF (`git show REF:./FILE`). */
export function showAtRef(ref: string, path: string): string {
  const abs = resolve(path);
  return git(['show', `${ref}:./${basename(abs)}`], dirname(abs));
}

/**
 * What the base is at REF: a file's text (`text`), or, for Terraform read from several files, a temporary copy of
 * the folder at REF (`path`, to read as `evaluate` does; `cleanup` removes it).
 */
export type BaseAtRef = { text: string } | { path: string; cleanup: () => void };

export function baseAtRef(ref: string, path: string): BaseAtRef {
  const abs = resolve(path);
  if (!isFolder(abs) && !isTerraformSourcePath(path)) {
    const text = showAtRef(ref, path);
    // A workload sidecar reads the plan or .tf files it names from beside it: those too as they are at REF.
    if (sidecarPlanPath(text) === undefined) return { text };
  }
  const folder = isFolder(abs) ? abs : dirname(abs);
  // -z: names as they are, not quoted (a name with a space or non-ASCII letters would be).
  const names = git(['ls-tree', '-r', '-z', '--name-only', ref, '--', '.'], folder)
    .split('\0')
    .filter((f) => f && MODULE_FILE.test(f));
  if (!names.length) throw new GitReadError(`no file of ${isFolder(abs) ? 'the folder' : "the file's folder"} at ${ref}`);
  if (names.length > MAX_FILES) throw new GitReadError(`more than ${MAX_FILES} files under the folder at ${ref}`);
  const root = mkdtempSync(join(tmpdir(), 'storage-perf-diff-'));
  const copy = join(root, basename(folder));
  try {
    for (const name of names) {
      const target = join(copy, name);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, git(['show', `${ref}:./${name}`], folder));
    }
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  return { path: isFolder(abs) ? copy : join(copy, basename(abs)), cleanup };
}
