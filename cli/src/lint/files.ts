/**
 * Which files a lint run reads: explicit files as given, folders searched for `*.perf.yaml` honouring the
 * repository's `.gitignore` files, a Terraform module's folder (one with .tf files and no spec under it) as that
 * module, and `-` for standard input.
 *
 * Matching uses the `ignore` package rather than hand-made glob code: gitignore's rules (anchoring, `**`,
 * negation, directory-only patterns, escaping) are subtle, and `ignore` follows git's own behaviour, is tested
 * against `git check-ignore`, and is what ESLint and many other tools rely on.
 */
import ignore, { type Ignore } from 'ignore';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ioReason, MAX_INPUT_BYTES, readBounded, readRootOf } from '../../../protocol/src/file-io';
import { isTerraformSourcePath, sidecarPlanPath } from '../../../core/src';

/** What a folder search picks up: the names the editor treats as specs (the extension's filename patterns). */
export const SPEC_SUFFIXES = ['.perf.yaml', '.perf.yml'];
/** Never searched: git's own data and installed packages. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

export interface Target {
  /** Absolute path; undefined for standard input. */
  file?: string;
  /** What reports call it. */
  display: string;
  /**
   * For a file found in a folder (not named on the command line): the folder its real path must be in, so that a
   * link found there is read only when it stays in the repository (or with --follow-links).
   */
  root?: string;
}

interface Layer {
  base: string;
  ig: Ignore;
}

/** `/`-separated path relative to `cwd` when under it, absolute otherwise. */
export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return abs.split(sep).join('/');
  return rel.split(sep).join('/');
}

function readRules(file: string): string | undefined {
  try {
    return readBounded(file, { maxBytes: MAX_INPUT_BYTES });
  } catch {
    return undefined;
  }
}

function layerOf(dir: string, file: string): Layer | undefined {
  const rules = readRules(join(dir, file));
  return rules === undefined ? undefined : { base: dir, ig: ignore().add(rules) };
}

/** The repository root above `dir` (the nearest folder holding `.git`), if any. */
function repoRoot(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The ignore rules that apply inside `dir` from the folders above it, up to the repository root. */
function inheritedLayers(dir: string): Layer[] {
  const root = repoRoot(dir);
  if (!root) return [];
  const chain: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    chain.unshift(d);
    if (d === root) break;
  }
  const layers: Layer[] = [];
  const exclude = layerOf(join(root, '.git', 'info'), 'exclude');
  if (exclude) layers.push({ base: root, ig: exclude.ig });
  // The folder's own .gitignore is read by the walk itself.
  for (const d of chain.slice(0, -1)) {
    const l = layerOf(d, '.gitignore');
    if (l) layers.push(l);
  }
  return layers;
}

/** Git's precedence: the deepest file with a matching rule decides; within a file, the last rule. */
function isIgnored(layers: Layer[], abs: string, isDir: boolean): boolean {
  let ignored = false;
  for (const l of layers) {
    const rel = relative(l.base, abs);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) continue;
    const r = l.ig.test(rel.split(sep).join('/') + (isDir ? '/' : ''));
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

function walk(dir: string, layers: Layer[], out: string[]): void {
  const own = layerOf(dir, '.gitignore');
  const here = own ? [...layers, own] : layers;
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (ALWAYS_SKIPPED.has(e.name)) continue;
    const abs = join(dir, e.name);
    // Symbolic links to folders are not followed (no cycles); links to files are read like files.
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      try {
        isFile = statSync(abs).isFile();
      } catch {
        continue; // a dangling link
      }
      isDir = false;
    }
    if (isDir) {
      if (!isIgnored(here, abs, true)) walk(abs, here, out);
    } else if (isFile && SPEC_SUFFIXES.some((s) => e.name.endsWith(s)) && !isIgnored(here, abs, false)) {
      out.push(abs);
    }
  }
}

export interface Collected {
  targets: Target[];
  problems: string[];
  /** The workload sidecars among the targets whose Terraform module is one too (the server is told: Settings). */
  sidecarsWithModule: string[];
}

/** Resolves the command line's paths to files, in the order given (each folder's files sorted). */
export function collectTargets(paths: string[], cwd: string, stdinName?: string): Collected {
  const targets: Target[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  // Each spec is read once for the module it names, if it is a sidecar (the folder's and the final pass ask it).
  const modules = new Map<string, string | undefined>();
  const moduleOf = (spec: string) => {
    if (!modules.has(spec)) modules.set(spec, sidecarModule(spec));
    return modules.get(spec);
  };
  const add = (abs: string, root?: string) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    targets.push({ file: abs, display: displayPath(abs, cwd), ...(root === undefined ? {} : { root }) });
  };
  for (const p of paths) {
    if (p === '-') {
      if (!seen.has('-')) targets.push({ display: stdinName ?? '<stdin>' });
      seen.add('-');
      continue;
    }
    const abs = resolve(cwd, p);
    let st;
    try {
      st = statSync(abs);
    } catch (e) {
      problems.push(`cannot read ${p}: ${ioReason(e)}`);
      continue;
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      try {
        walk(abs, inheritedLayers(abs), found);
      } catch (e) {
        problems.push(`cannot search ${p}: ${ioReason(e)}`);
        continue;
      }
      // A folder without specs that holds .tf files is a Terraform module: linted as one (its main.tf, or its
      // first .tf file, with the rest of the folder read beside it). A folder with specs is linted for them only,
      // as before: a repository's `lint .` does not start reading its Terraform unasked.
      const module = found.length ? undefined : moduleEntry(abs);
      if (module) add(module);
      else if (!found.length) problems.push(`no *.perf.yaml files (or .tf files of a Terraform module) under ${p} (after .gitignore)`);
      // The repository the folder is in (else the working directory, when the folder is in it; else the folder):
      // `readRootOf` takes a file of the folder, which `*` stands for.
      const root = readRootOf(join(abs, '*'), cwd);
      found.forEach((f) => add(f, root));
      // A workload sidecar of the folder names the Terraform it covers: that module is linted too, so that
      // `lint DIR` reports its findings as `evaluate` of it does (the sidecar's own are about its workloads).
      for (const f of found) {
        const named = moduleOf(f);
        if (named && relative(abs, named).split(sep)[0] !== '..') add(named);
      }
    } else {
      add(abs); // a file named explicitly is linted whatever its name, ignored or not
    }
  }
  // A sidecar linted with its module reports only what its workloads bring: the module's lint reports the rest.
  const sidecarsWithModule = targets.flatMap((t) => {
    if (!t.file || isTerraformSourcePath(t.file)) return [];
    const module = moduleOf(t.file);
    return module && seen.has(module) ? [t.file] : [];
  });
  return { targets, problems, sidecarsWithModule };
}

/** The entry .tf file of the module a workload sidecar names (`terraform: main.tf` or a folder), if any. */
function sidecarModule(spec: string): string | undefined {
  let named: string | undefined;
  try {
    named = sidecarPlanPath(readBounded(spec, { maxBytes: MAX_INPUT_BYTES }));
  } catch {
    return undefined;
  }
  if (!named) return undefined;
  const target = resolve(dirname(spec), named);
  try {
    if (statSync(target).isDirectory()) return moduleEntry(target);
  } catch {
    return undefined;
  }
  return isTerraformSourcePath(target) ? moduleEntry(dirname(target)) : undefined;
}

/** The .tf file a module folder is read from: main.tf, else the first .tf file by name; undefined without one. */
function moduleEntry(folder: string): string | undefined {
  const tf = readdirSync(folder)
    .filter((f) => isTerraformSourcePath(f) && statSync(join(folder, f)).isFile())
    .sort();
  const entry = tf.includes('main.tf') ? 'main.tf' : tf[0];
  return entry && join(folder, entry);
}
