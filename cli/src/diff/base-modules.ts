/**
 * `diff --base-ref REF` of a Terraform module whose working tree `terraform init` has run in: git does not hold
 * `.terraform/modules`, so the base's copy (./git.ts) is given the downloaded modules it would read alike. A registry
 * or git call whose `source` and `version` are the same at REF as in the working tree gets the working tree's record
 * in `modules.json` and its folder's `.tf` files (with the calls in it, `web.child`), each read through the one
 * bounded reader, held to the root by real path. Any other call of the base is not given: the base says "run
 * `terraform init`" for it, as before, and the diff says the head's VMs of it were not read at the base rather than
 * calling them added.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { isLocalSource, isTerraformSourcePath, remoteModuleCalls, type ModuleCallSource, type UnreadModule } from '../../../core/src';
import { ioReason, isFolder, MAX_INPUT_BYTES, readBounded, ReadRefused, readRootOf } from '../../../protocol/src/file-io';
import { hclParser } from '../../../protocol/src/hcl-parser';
import { moduleRecords, sourceRefusal, type SourceBounds } from '../../../protocol/src/module-sources';
import { MAX_MODULE_BYTES, moduleFilesIn, type TfInputOptions } from '../../../protocol/src/terraform-input';

/** A record of `modules.json`, as `terraform init` writes it (`Version` and any other field kept as they are). */
interface Recorded {
  Key: string;
  Source: string;
  Dir: string;
  [field: string]: unknown;
}

/** Bounds on what is copied from the working tree's `.terraform/modules` (those of one module read). */
const MAX_FILES = 2000;

/** The root module's folder of a path `diff` reads: a module folder, a `.tf` file's folder; none for another file. */
const moduleFolderOf = (p: string) => (isFolder(p) ? p : isTerraformSourcePath(p) ? dirname(p) : undefined);

/** `module.web.module.child` of the key `web.child`. */
const addressOf = (key: string) => key.replace(/^|\./g, (m) => `${m}module.`);

/**
 * Gives the copy of the base at REF (`copy`: the path `baseAtRef` made) the downloaded modules of `head` (the path
 * as on the disk) that its calls read alike; returns the base's calls of other than local sources that it could not
 * be given, each with why. Nothing when the head is no module or has no `modules.json`.
 */
export function giveBaseModules(head: string, copy: string, ref: string, tf: TfInputOptions): UnreadModule[] {
  const headDir = moduleFolderOf(head);
  const copyDir = moduleFolderOf(copy);
  const json = headDir && join(headDir, '.terraform', 'modules', 'modules.json');
  // A base that holds its own `.terraform/modules` (committed) reads it.
  if (!headDir || !copyDir || !json || !existsSync(json) || existsSync(join(copyDir, '.terraform', 'modules'))) return [];
  const headFiles = moduleFilesIn(headDir);
  const parse = hclParser();
  if (!headFiles.length || !parse) return [];
  const bounds: SourceBounds = { root: tf.root ?? readRootOf(join(headDir, headFiles[0].path), tf.workspace), followLinks: tf.followLinks };
  const records = recordsOf(headDir, bounds);
  const headCalls = remoteModuleCalls(parse, headFiles);
  const baseCalls = remoteModuleCalls(parse, moduleFilesIn(copyDir));
  // The working tree's record unread (the head reads none of it either), or a side that does not parse (said by
  // its analysis): the base is read as before.
  if (!records || !headCalls || !baseCalls) return [];
  const unread: UnreadModule[] = [];
  const given = new Set<string>();
  const copier = new Copier(headDir, copyDir, bounds);
  for (const [key, call] of baseCalls) {
    let why = differs(call, headCalls.get(key), ref);
    // Not downloaded in the working tree either: neither side reads it, and each says so alike.
    if (why === undefined && !records.some((r) => r.Key === key)) continue;
    why ??= copier.copy(records.filter((r) => r.Key === key || r.Key.startsWith(`${key}.`)));
    if (why === undefined) given.add(key);
    else unread.push({ module: addressOf(key), why });
  }
  const kept = records.filter((r) => !r.Key || isLocalSource(r.Source) || [...given].some((k) => r.Key === k || r.Key.startsWith(`${k}.`)));
  mkdirSync(join(copyDir, '.terraform', 'modules'), { recursive: true });
  writeFileSync(join(copyDir, '.terraform', 'modules', 'modules.json'), JSON.stringify({ Modules: kept }, null, 2));
  return unread;
}

/** Why a call of the base is not read alike in the working tree (its source or version differ, or it is gone). */
function differs(base: ModuleCallSource, head: ModuleCallSource | undefined, ref: string): string | undefined {
  const text = (s: string | undefined) => (s === undefined ? 'none' : JSON.stringify(s));
  const downloaded = "the working tree's .terraform/modules holds what terraform init downloaded for the latter";
  if (!head)
    return "the working tree does not call it, so its .terraform/modules does not hold it; run on the base's plan JSON to compare it";
  if (base.source === undefined) return 'its source is not a string written in it';
  if (base.source !== head.source)
    return `its source is ${text(base.source)} at ${ref} and ${text(head.source)} in the working tree; ${downloaded}`;
  if (base.version !== head.version)
    return `its version is ${text(base.version)} at ${ref} and ${text(head.version)} in the working tree; ${downloaded}`;
  return undefined;
}

/** The records of the working tree's `modules.json` with the fields a record needs, or undefined when unread. */
function recordsOf(headDir: string, bounds: SourceBounds): Recorded[] | undefined {
  return moduleRecords(headDir, bounds)?.filter(
    (r): r is Recorded => !!r && typeof r.Key === 'string' && typeof r.Source === 'string' && typeof r.Dir === 'string',
  );
}

/** Copies downloaded module folders from the working tree into the base's copy, within one module read's bounds. */
class Copier {
  private files = 0;
  private bytes = 0;

  constructor(
    private readonly headDir: string,
    private readonly copyDir: string,
    private readonly bounds: SourceBounds,
  ) {}

  /** The records' folders copied, or why not (then none of them is). */
  copy(records: Recorded[]): string | undefined {
    const dirs = records.filter((r) => !isLocalSource(r.Source)).map((r) => posix.normalize(r.Dir.replace(/\\/g, '/')));
    const copied: string[] = [];
    for (const dir of dirs) {
      if (!/^\.terraform\/modules\/[^/]/.test(dir) || dir.split('/').includes('..'))
        return this.undo(copied, `its recorded folder ${dir} is not under .terraform/modules`);
      copied.push(dir);
      try {
        this.folder(join(this.headDir, dir), join(this.copyDir, dir), new Set());
      } catch (e) {
        return this.undo(
          copied,
          `its folder ${dir} in the working tree is ${e instanceof ReadRefused ? `refused: ${e.reason}` : `not read: ${ioReason(e)}`}`,
        );
      }
    }
    return undefined;
  }

  /** The folders copied so far removed, and why. */
  private undo(copied: string[], why: string): string {
    for (const dir of copied) rmSync(join(this.copyDir, dir), { recursive: true, force: true });
    return why;
  }

  /** A folder's .tf and .tf.json files and subfolders (a local module of the package), held to the root. */
  private folder(from: string, to: string, seen: Set<string>): void {
    const why = sourceRefusal(from, this.headDir, this.bounds);
    if (why !== undefined) throw new ReadRefused(from, why);
    const real = realpathSync(from);
    if (seen.has(real)) return;
    seen.add(real);
    for (const name of readdirSync(from).sort()) {
      const path = join(from, name);
      if (isFolder(path)) {
        this.folder(path, join(to, name), seen);
        continue;
      }
      if (!isTerraformSourcePath(name)) continue;
      const text = readBounded(path, { maxBytes: MAX_INPUT_BYTES, ...this.bounds });
      this.bytes += Buffer.byteLength(text);
      if (++this.files > MAX_FILES || this.bytes > MAX_MODULE_BYTES)
        throw new Error(`the downloaded modules hold more than ${MAX_FILES} files or ${MAX_MODULE_BYTES} bytes of them`);
      mkdirSync(to, { recursive: true });
      writeFileSync(join(to, name), text);
    }
  }
}
