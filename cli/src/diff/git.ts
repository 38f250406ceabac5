/**
 * `storage-perf diff --base-ref REF`: the base read from git, never checked out. A spec or a plan is one
 * `git show REF:./PATH` (run from the file's folder, or the nearest one on the disk where the change deleted it, so
 * the path is the one the user gave); a `.tf` file, a module folder or a workload sidecar (which names a plan or .tf
 * files beside it) is read as its folder's files at REF, written under a temporary folder so that the module is read
 * exactly as `evaluate` reads it from the disk. A path that is not at REF is absent: the change adds it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix, relative, resolve, sep } from 'node:path';
import { isTerraformSourcePath, sidecarPlanPath } from '../../../core/src';
import { isFolder } from '../../../protocol/src/file-io';

/** Files of a module folder worth reading at REF: Terraform's own, its variables, plans and sidecars. */
const MODULE_FILE = /\.(?:tf|tf\.json|tfvars|tfvars\.json|json|ya?ml)$/i;
/** Bounds on what one base reads from git. */
const MAX_FILES = 2000;
const MAX_BYTES = 512 * 1024 * 1024;

/** Why git could not give the base; `quiet` when git said nothing (a revision `rev-parse --quiet` does not know). */
export class GitReadError extends Error {
  constructor(
    message: string,
    readonly quiet = false,
  ) {
    super(message);
  }
}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: MAX_BYTES, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; code?: string; message: string };
    if (err.code === 'ENOENT') throw new GitReadError('git is not installed (or not on PATH)');
    const said = (err.stderr ?? '').trim().split('\n')[0];
    throw new GitReadError(said ? said.replace(/^fatal: /, '') : err.message, !said);
  }
}

/**
 * The nearest folder on the disk that holds `abs` (itself, when it is one), and `abs` relative to it with `/`
 * ('' for itself): where git runs, so that a path the change deleted, its folder too, is still read at REF.
 */
function onDisk(abs: string): { cwd: string; rel: string } {
  let cwd = abs;
  for (let up = dirname(cwd); !isFolder(cwd) && up !== cwd; up = dirname(cwd)) cwd = up;
  return { cwd, rel: relative(cwd, abs).split(sep).join('/') };
}

/** REF is a commit git knows, or a GitReadError says why not. */
function verifyRef(ref: string, cwd: string): void {
  try {
    git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd);
  } catch (e) {
    // --quiet: nothing said of a revision git does not know; still said when it cannot look (no repository).
    if (e instanceof GitReadError && e.quiet) throw new GitReadError(`unknown revision '${ref}'`);
    throw e;
  }
}

/** What `rel` (of `cwd`) is at REF: a file, a folder, or nothing (the change adds it). */
function kindAtRef(ref: string, cwd: string, rel: string): 'file' | 'folder' | undefined {
  // The folder git runs in, on the disk: a folder at REF where git has any file under it.
  if (!rel) return git(['ls-tree', '-z', '--name-only', ref, '--', '.'], cwd) ? 'folder' : undefined;
  for (const entry of git(['ls-tree', '-z', ref, '--', rel], cwd).split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab >= 0 && entry.slice(tab + 1) === rel) return entry.split(' ')[1] === 'tree' ? 'folder' : 'file';
  }
  return undefined;
}

/**
 * What the base is at REF: a file's text (`text`), or, for Terraform read from several files, a temporary copy of
 * the folder at REF (`path`, to read as `evaluate` does; `cleanup` removes it), or `absent` where the path is not at
 * REF: the change adds it.
 */
export type BaseAtRef = { text: string } | { path: string; cleanup: () => void } | { absent: true };

export function baseAtRef(ref: string, path: string): BaseAtRef {
  const abs = resolve(path);
  const { cwd, rel } = onDisk(abs);
  verifyRef(ref, cwd);
  const kind = kindAtRef(ref, cwd, rel);
  if (!kind) return { absent: true };
  if (kind === 'file' && !isTerraformSourcePath(path)) {
    const text = git(['show', `${ref}:./${rel}`], cwd);
    // A workload sidecar reads the plan or .tf files it names from beside it: those too as they are at REF.
    if (sidecarPlanPath(text) === undefined) return { text };
  }
  // The module's files are copied where they are in the repository, with the local modules they call
  // (`../../modules/vm`), under a temporary folder that stands for the repository: read as `evaluate` reads them.
  const top = realpathSync(git(['rev-parse', '--show-toplevel'], cwd).trim());
  const here = relative(top, realpathSync(cwd)).split(sep).join('/');
  const folder = posix.join(here, kind === 'folder' ? rel : posix.dirname(rel)).replace(/^\.$/, '');
  const names = moduleFilesAtRef(ref, top, folder);
  // A folder with nothing of a module at REF: the change adds the module.
  if (!names.length) return { absent: true };
  const root = mkdtempSync(join(tmpdir(), 'storage-perf-diff-'));
  try {
    mkdirSync(join(root, '.git'));
    for (const name of names) {
      const target = join(root, name);
      if (relative(root, target).split(sep)[0] === '..') throw new GitReadError(`'${name}' at ${ref} is outside its folder: refused`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, git(['show', `${ref}:${name}`], top));
    }
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const copy = join(root, folder);
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  return { path: kind === 'folder' ? copy : join(copy, basename(abs)), cleanup };
}

/**
 * The module files at REF (repository paths) of `folder` (its subfolders too: a sidecar's plan) and of the folders its
 * local module sources name, at any depth, inside the repository; bounded by MAX_FILES.
 */
function moduleFilesAtRef(ref: string, top: string, folder: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>([folder]);
  const queue = [folder];
  for (let first = true; queue.length; first = false) {
    const at = queue.shift()!;
    const prefix = at ? `${at}/` : '';
    // -z: names as they are, not quoted (a name with a space or non-ASCII letters would be).
    const names = git(['ls-tree', ...(first ? ['-r'] : []), '-z', '--name-only', '--full-name', ref, '--', at ? `${at}/` : '.'], top)
      .split('\0')
      .filter((f) => f.startsWith(prefix) && MODULE_FILE.test(f));
    // Git itself never makes an entry named `..` or `.`, but a tree can be built by hand: written as it is named,
    // such an entry would land outside the temporary folder.
    const bad = names.find((n) => n.split('/').some((part) => part === '..' || part === '.' || part === ''));
    if (bad !== undefined)
      throw new GitReadError(
        `the tree at ${ref} holds an entry named '${bad.slice(prefix.length)}', which would be written outside its folder: refused`,
      );
    out.push(...names);
    if (out.length > MAX_FILES) throw new GitReadError(`more than ${MAX_FILES} files under the folder and the modules it calls at ${ref}`);
    for (const name of names.filter((n) => isTerraformSourcePath(n) && posix.dirname(n) === (at || '.'))) {
      for (const m of git(['show', `${ref}:${name}`], top).matchAll(/(?:\bsource\s*=|"source"\s*:)\s*"(\.\.?\/[^"]*)"/g)) {
        const target = posix
          .normalize(posix.join(at || '.', m[1]))
          .replace(/\/$/, '')
          .replace(/^\.$/, '');
        if (target.startsWith('..') || seen.has(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return out;
}
