/**
 * Where the folders a module's calls name are on disk, as Terraform finds them: a local source relative to its
 * caller's folder, anywhere inside the root (the repository, `--root`, the workspace), held there by real path; a
 * registry or git source in the folder `terraform init` downloaded it to, as `.terraform/modules/modules.json` of the
 * root module records it. Reads go through the one bounded reader (./file-io.ts); the core joins the calls to the
 * folders (core/src/terraform/tf-module-sources.ts).
 */
import { realpathSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isLocalSource, type InstalledModule } from '../../core/src';
import { isInside, MAX_INPUT_BYTES, readBounded } from './file-io';

/** Where reads may go: the root (none: only the root module's folder) and whether links out of it are followed. */
export interface SourceBounds {
  root?: string;
  followLinks?: boolean;
}

/** A module-relative, `/`-separated path (`../../modules/vm`). */
export function relPath(folder: string, path: string): string {
  return relative(folder, path).split(sep).join('/');
}

/** The real path of a folder, or undefined when it is not there. */
function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why a folder a module's content names is not read, or undefined when it may be: a path outside the root, or
 * whose real path (links resolved) is outside it unless links are followed. A folder that is not there is not
 * refused (the module's own finding says it has no .tf file). `entry` is the root module's folder, the root when
 * none is known.
 */
export function sourceRefusal(folder: string, entry: string, b: SourceBounds): string | undefined {
  const root = realOf(b.root ?? entry) ?? resolve(b.root ?? entry);
  const where = b.root === undefined ? "the root module's folder" : root;
  if (!isInside(root, resolve(folder)) && !isInside(root, realOf(resolve(folder)) ?? resolve(folder)))
    return `it is outside ${where}; name a folder that holds it with --root`;
  const real = realOf(folder);
  if (real === undefined || isInside(root, real) || b.followLinks) return undefined;
  return `its real path ${real} is outside ${where}; links out of it are followed only when asked (--follow-links), or name a folder that holds it with --root`;
}

/**
 * The records of `entry`'s `.terraform/modules/modules.json` as written (read through the one bounded reader), or
 * undefined when it is not there, cannot be read or is not its format.
 */
export function moduleRecords(entry: string, b: SourceBounds): Array<Record<string, unknown>> | undefined {
  try {
    const text = readBounded(join(entry, '.terraform', 'modules', 'modules.json'), {
      maxBytes: MAX_INPUT_BYTES,
      root: b.root ?? entry,
      followLinks: b.followLinks,
    });
    const list = (JSON.parse(text) as { Modules?: unknown })?.Modules;
    return Array.isArray(list) ? (list as Array<Record<string, unknown>>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The modules `terraform init` downloaded for the root module in `entry`, by key, each folder relative to `entry`
 * (`.terraform/modules/web`); none when the file is not there, cannot be read or is not its format.
 */
export function installedModules(entry: string, b: SourceBounds): Map<string, InstalledModule> | undefined {
  const list = moduleRecords(entry, b);
  if (!list) return undefined;
  const out = new Map<string, InstalledModule>();
  for (const m of list) {
    const { Key: key, Source: source, Dir: dir } = m ?? {};
    if (typeof key !== 'string' || !key || typeof source !== 'string' || typeof dir !== 'string') continue;
    // A local source is read where it is written; the record is for the others.
    if (isLocalSource(source)) continue;
    out.set(key, { source, dir: relPath(entry, resolve(entry, dir)) });
  }
  return out;
}
