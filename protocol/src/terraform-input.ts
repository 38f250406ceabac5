/**
 * Which front end reads a file, with the I/O it needs (the core stays pure): a Terraform plan for `.json`, a
 * module's .tf files (the file's folder and the local modules it calls) for `.tf`, a workload sidecar
 * (`terraform: plan.json`) with its plan read from beside it, else the YAML spec's.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  frontEndFor,
  isTerraformPlanPath,
  isTerraformSourcePath,
  joinTfFiles,
  localKey,
  sidecarFrontEnd,
  diag,
  sidecarPlanPath,
  planFrontEndWithSources,
  terraformFilesFrontEnd,
  type ParsedSpec,
  type ModuleDirs,
  type TfFile,
  type TfVar,
} from '../../core/src';
import { ioReason, isInside, MAX_INPUT_BYTES, readBounded, ReadRefused, readRootOf, type ReadBounds } from './file-io';
import { hclParser } from './hcl-parser';
import { installedModules, relPath, sourceRefusal } from './module-sources';
import type { ModuleFiles } from './module-files';

/** What `analyze` is given for a file: the text to analyse (a module's files joined) and its front end. */
export interface AnalysisInput {
  text: string;
  frontEnd?: (text: string) => ParsedSpec;
  /** `-var` values the front end was given (a change of the text, `--set`, builds it again with them). */
  vars?: TfVar[];
  /** Where the module calls' folders were found, and which were refused (`--set` builds the front end again with them). */
  modules?: ModuleDirs;
}

/** Values of the root module's variables given on the command line: `-var-file FILE` (in order) and `-var NAME=VALUE`. */
export interface TfInputOptions {
  varFiles?: string[];
  vars?: TfVar[];
  /** The folder paths named by a file's content must stay in (default: `readRootOf` the file and `workspace`). */
  root?: string;
  /** The workspace folder (the server's) or working directory (the CLI's): see `readRootOf`. */
  workspace?: string;
  /** Follow links out of the root (`--follow-links`). */
  followLinks?: boolean;
  /** The files read kept between reads, and their parses (the server's, ./module-files.ts); none: read each. */
  cache?: ModuleFiles;
}

/** Where a read of a path named by content may go, and the cache it goes through. */
interface Bounds {
  root?: string;
  followLinks?: boolean;
  cache?: ModuleFiles;
}

/** A path a file's content names, read through the one bounded reader (through the cache, when there is one). */
function readNamed(path: string, b: Bounds): string {
  return readVia(b.cache, path, { maxBytes: MAX_INPUT_BYTES, root: b.root, followLinks: b.followLinks });
}

function readVia(cache: ModuleFiles | undefined, path: string, bounds: ReadBounds): string {
  return cache ? cache.read(path, bounds) : readBounded(path, bounds);
}

/** Why a folder named by content is refused (its real path outside the root), or undefined. */
function folderRefusal(folder: string, b: Bounds): string | undefined {
  if (b.root === undefined || b.followLinks) return undefined;
  const real = realpathSync(folder);
  const root = realpathSync(b.root);
  return isInside(root, real)
    ? undefined
    : `its real path ${real} is outside ${root}; links out of it are followed only when asked (--follow-links)`;
}

/** Bounds on what a module read takes in: folders of modules called, and files. */
const MAX_FOLDERS = 200;
const MAX_FILES = 2000;
/**
 * The most bytes of .tf and .tf.json files a module read takes in (the entry file's own text aside): a large
 * `.tf.json` takes about 60 bytes of memory per byte read, and 100 MB of it ended the process at 3 GB. A file past
 * it is left out and named in a `terraform-module-size` finding.
 */
export const MAX_MODULE_BYTES = 32 * 1024 * 1024;

/** A path of a path or file: URI; throws for another scheme (an unsaved buffer, `untitled:`), which is on no disk. */
function pathOf(file: string): string {
  if (file.startsWith('file:')) return fileURLToPath(file);
  if (/^[a-z][a-z0-9+.-]+:/i.test(file) && !/^[a-z]:[\\/]/i.test(file)) throw new Error(`${file} is not a file on disk`);
  return file;
}

/** `file` is a path or a file: URI; the text is the file's (an editor's buffer may differ from the disk). */
export function frontEndForFile(file: string, text: string, options: TfInputOptions = {}): ((text: string) => ParsedSpec) | undefined {
  const plan = frontEndFor(file) ? undefined : sidecarPlanPath(text);
  if (plan === undefined) return planBesideSources(file) ?? frontEndFor(file);
  let path: string;
  let b: Bounds;
  try {
    const own = pathOf(file);
    path = resolve(dirname(own), plan);
    b = { root: options.root ?? readRootOf(own, options.workspace), followLinks: options.followLinks, cache: options.cache };
  } catch {
    return sidecarFrontEnd({ error: `${plan} is not beside a file on disk` });
  }
  try {
    if (isTerraformSourcePath(path) || statSync(path).isDirectory()) return sidecarFrontEnd(terraformFiles(path, b));
    return sidecarFrontEnd({ text: readNamed(path, b) });
  } catch (e) {
    if (e instanceof ReadRefused) return sidecarFrontEnd({ error: `${plan} is refused: ${e.reason}` });
    return sidecarFrontEnd({ error: `cannot read ${plan}: ${ioReason(e)}` });
  }
}

/**
 * A plan's front end that joins through the .tf files beside it (core's `planFrontEndWithSources`: which instance an
 * index expression names, evaluated with the plan's variables), when the HCL parser is loaded and the plan's folder
 * has .tf files; else undefined (the plan alone).
 */
function planBesideSources(file: string): ((text: string) => ParsedSpec) | undefined {
  const parse = hclParser();
  if (!parse || !isTerraformPlanPath(file)) return undefined;
  let folder: string;
  try {
    folder = dirname(pathOf(file));
  } catch {
    return undefined;
  }
  const modules: ModuleDirs = {};
  const files = moduleFilesIn(folder, modules);
  return files.length ? planFrontEndWithSources({ parse, files, modules }) : undefined;
}

/** A sidecar's .tf file or module folder, read as its VMs (the HCL parser must be loaded). */
function terraformFiles(path: string, b: Bounds): { parsed: () => ParsedSpec } | { error: string } {
  if (!hclParser()) return { error: 'the HCL parser is not loaded' };
  const folder = statSync(path).isDirectory();
  const refused = folderRefusal(folder ? path : dirname(path), b);
  if (refused) throw new ReadRefused(path, refused);
  const input = folder ? folderInput(path, b) : inputForFile(path, readNamed(path, b), b);
  if (!input) return { error: `${path} has no .tf file` };
  return { parsed: () => input.frontEnd!(input.text) };
}

/** Whether a file's analysis needs the HCL parser: a .tf file, a folder, or a sidecar that names .tf files. */
export function needsHclParser(path: string): boolean {
  try {
    if (isTerraformSourcePath(path) || statSync(path).isDirectory()) return true;
    // A plan with its .tf files beside it joins through them.
    if (isTerraformPlanPath(path)) return tfFilesIn(dirname(path)).length > 0;
    if (!/\.perf\.ya?ml$/i.test(path)) return false;
    const plan = sidecarPlanPath(readBounded(path, { maxBytes: MAX_INPUT_BYTES }));
    return plan !== undefined && !/\.json$/i.test(plan);
  } catch {
    return false;
  }
}

/**
 * The analysis input of a file: for a `.tf` file, its module (the file first, at its own offsets, then the other
 * .tf files of its folder and of the local modules they call), which needs the HCL parser loaded
 * (`loadHclParser`); for anything else, the file's text and `frontEndForFile`'s front end.
 */
export function inputForFile(file: string, text: string, options: TfInputOptions = {}): AnalysisInput {
  if (!isTerraformSourcePath(file)) return { text, frontEnd: frontEndForFile(file, text, options) };
  let path: string;
  try {
    path = pathOf(file);
  } catch {
    // Not a file on disk (an unsaved editor buffer): the file alone.
    return terraformInput(undefined, { path: 'main.tf', text }, options);
  }
  return terraformInput(
    dirname(path),
    { path: basename(path), text },
    { ...options, root: options.root ?? readRootOf(path, options.workspace) },
  );
}

/** The analysis input of a module folder (the CLI's `evaluate FOLDER`), or undefined when it has no .tf file. */
export function folderInput(folder: string, options: TfInputOptions = {}): AnalysisInput | undefined {
  const first = tfFilesIn(folder)[0];
  if (first === undefined) return undefined;
  const b = { ...options, root: options.root ?? readRootOf(join(folder, first), options.workspace) };
  return terraformInput(folder, { path: first, text: readNamed(join(folder, first), b) }, b);
}

function terraformInput(folder: string | undefined, entry: TfFile, options: TfInputOptions): AnalysisInput {
  const parse = hclParser();
  if (!parse) throw new Error('the HCL parser is not loaded: await loadHclParser() first');
  const refused: Refusal[] = [];
  const dirs: ModuleDirs = {};
  const files =
    folder === undefined
      ? [entry]
      : [...moduleFiles(folder, entry, options, refused, dirs), ...varFiles(folder, options.varFiles ?? [], options, refused)];
  const frontEnd = terraformFilesFrontEnd(
    parse,
    files,
    options.vars,
    dirs,
    folder === undefined ? undefined : options.cache?.parses(folder),
  );
  const { text, sources } = joinTfFiles(files);
  if (!refused.length) return { text, frontEnd, vars: options.vars, modules: dirs };
  // Each refusal is a finding on the `source` that named its folder, else on the module's first byte.
  const withRefusals = (t: string): ParsedSpec => {
    const parsed = frontEnd(t);
    for (const r of refused) {
      const start = (r.at && sources.find((x) => x.path === r.at!.path)?.start) ?? 0;
      const span = r.at ? { start: start + r.at.index, end: start + r.at.index + r.at.length } : { start: 0, end: Math.min(1, t.length) };
      parsed.diagnostics.push(diag(r.code ?? 'terraform-file-refused', r.message ?? `${r.path} is not read: ${r.reason}`, span));
    }
    return parsed;
  };
  return { text, frontEnd: withRefusals, vars: options.vars, modules: dirs };
}

/** A file or folder of a module the reader refused, and the `source` value that named its folder (if any). */
interface Refusal {
  path: string;
  reason: string;
  at?: Named;
  /** Another finding than terraform-file-refused, with its own message: a module past its size, a variable file. */
  code?: 'terraform-module-size' | 'terraform-var-file';
  message?: string;
}

/** Where a module folder is named: the file (module-relative path) and the `source` string's place in it. */
interface Named {
  path: string;
  index: number;
  length: number;
}

/**
 * The variable definitions files Terraform loads for a root module, in its order: `terraform.tfvars`,
 * `terraform.tfvars.json`, then `*.auto.tfvars` and `*.auto.tfvars.json` by name (refused ones are findings), then
 * each `-var-file` as given (one that cannot be read is left out and said, on the entry file: the editor's setting
 * may name one; the CLI refuses it before).
 */
function varFiles(folder: string, given: string[], b: Bounds, refused: Refusal[]): TfFile[] {
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((f) => statSync(join(folder, f)).isFile());
  } catch {
    names = [];
  }
  const auto = names.filter((f) => /\.auto\.tfvars(?:\.json)?$/.test(f)).sort();
  const first = ['terraform.tfvars', 'terraform.tfvars.json'].filter((f) => names.includes(f));
  const found: TfFile[] = [...first, ...auto].flatMap((f) => {
    try {
      return [{ path: f, text: readNamed(join(folder, f), b) }];
    } catch (e) {
      refused.push({ path: f, reason: e instanceof ReadRefused ? e.reason : ioReason(e) });
      return [];
    }
  });
  for (const g of given) {
    const f = resolve(g);
    try {
      // Named on the command line or in a setting, so read wherever it is, but bounded and only a regular file.
      // Any name, as Terraform takes it: one ending in .json is JSON, any other HCL.
      const vars = /\.json$/i.test(f) ? 'json' : 'hcl';
      found.push({ path: relPath(folder, f), text: readVia(b.cache, f, { maxBytes: MAX_INPUT_BYTES }), vars });
    } catch (e) {
      const why = e instanceof ReadRefused ? e.reason : ioReason(e);
      refused.push({
        path: f,
        reason: why,
        code: 'terraform-var-file',
        message: `cannot read the variable file ${f} (--var-file, or the terraformVarFiles setting): ${why}; the module is read without it`,
      });
    }
  }
  return found;
}

function tfFilesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((f) => isTerraformSourcePath(f) && statSync(join(folder, f)).isFile())
      .sort();
  } catch {
    return [];
  }
}

/**
 * The entry, the other .tf files of its folder, and those of the module folders they name: local sources anywhere
 * in the root, and what `terraform init` downloaded (`dirs.installed`); each read by its real path (a folder reached
 * through a link is held to the root like any file). Folders refused are put in `dirs.refused`; a folder is read once
 * (a module that calls its caller does not loop).
 */
function moduleFiles(root: string, entry: TfFile, b: Bounds, refused: Refusal[], dirs: ModuleDirs = {}): TfFile[] {
  const files: TfFile[] = [entry];
  const named = new Map<string, Named>();
  let bytes = 0;
  const seen = new Set<string>([resolve(root)]);
  const queue: string[] = [resolve(root)];
  const walk: Walk = { root, seen, queue, named, b, refused: new Map(), local: new Map() };
  const installed = installedModules(root, b);
  for (const m of installed?.values() ?? []) enqueue(resolve(root, m.dir), walk);
  const follow = (text: string, folder: string, path: string) => sources(text, folder, path, walk);
  while (queue.length && seen.size <= MAX_FOLDERS && files.length <= MAX_FILES) {
    const folder = queue.shift()!;
    const rel = relPath(root, folder);
    for (const name of tfFilesIn(folder)) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === entry.path) {
        follow(entry.text, folder, path);
        continue;
      }
      let text: string;
      try {
        const size = statSync(join(folder, name)).size;
        if (bytes + size > MAX_MODULE_BYTES) {
          const message = `${path} is left out: the module's files would take more than ${MAX_MODULE_BYTES} bytes (${size} bytes in it); split it or run on the plan JSON`;
          refused.push({ path, reason: message, code: 'terraform-module-size', message });
          continue;
        }
        text = readNamed(join(folder, name), b);
        bytes += Buffer.byteLength(text);
      } catch (e) {
        if (e instanceof ReadRefused) refused.push({ path, reason: e.reason, at: named.get(folder) });
        continue;
      }
      files.push({ path, text });
      follow(text, folder, path);
    }
  }
  dirs.installed = installed;
  dirs.refused = walk.refused;
  dirs.local = walk.local;
  return files;
}

/** What `sources` adds to: the folders seen and queued, where each was named, and the folders refused, with why. */
interface Walk {
  root: string;
  seen: Set<string>;
  queue: string[];
  named: Map<string, Named>;
  b: Bounds;
  refused: Map<string, string>;
  /** Each local source's folder as read, by `localKey` (see `ModuleDirs.local`). */
  local: Map<string, string>;
}

/** A module folder queued to be read, unless seen already; false when refused (outside the root). */
function enqueue(target: string, w: Walk, at?: Named): boolean {
  if (w.seen.has(target)) return true;
  w.seen.add(target);
  const why = sourceRefusal(target, w.root, w.b);
  if (why) {
    w.refused.set(relPath(w.root, target), why);
    return false;
  }
  if (at) w.named.set(target, at);
  w.queue.push(target);
  return true;
}

/** Local module sources a file names (`source = "../../modules/vm"`), queued when in the root (by real path too). */
function sources(text: string, folder: string, path: string, w: Walk): void {
  for (const m of text.matchAll(/(?:\bsource\s*=|"source"\s*:)\s*("(\.\.?\/[^"]*)")/g)) {
    const target = resolve(folder, m[2]);
    w.local.set(localKey(relPath(w.root, folder), m[2]), relPath(w.root, target));
    enqueue(target, w, { path, index: m.index + m[0].length - m[1].length, length: m[1].length });
  }
}

/**
 * The .tf files of a module folder (and of the modules they call), or none; `dirs` is given where the calls' folders
 * were found (for `planSourceMap`).
 */
export function moduleFilesIn(folder: string, dirs: ModuleDirs = {}): TfFile[] {
  const first = tfFilesIn(folder)[0];
  if (first === undefined) return [];
  const b = { root: readRootOf(join(folder, first)) };
  try {
    return moduleFiles(folder, { path: first, text: readNamed(join(folder, first), b) }, b, [], dirs);
  } catch {
    return [];
  }
}
