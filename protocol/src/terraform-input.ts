/**
 * Which front end reads a file, with the I/O it needs (the core stays pure): a Terraform plan for `.json`, a
 * module's .tf files (the file's folder and the local modules it calls) for `.tf`, a workload sidecar
 * (`terraform: plan.json`) with its plan read from beside it, else the YAML spec's.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  diag,
  frontEndFor,
  isTerraformSourcePath,
  joinTfFiles,
  sidecarFrontEnd,
  sidecarPlanPath,
  terraformFilesFrontEnd,
  type ParsedSpec,
  type TfFile,
  type TfVar,
} from '../../core/src';
import { ioReason } from './file-io';
import { hclParser } from './hcl-parser';

/** What `analyze` is given for a file: the text to analyse (a module's files joined) and its front end. */
export interface AnalysisInput {
  text: string;
  frontEnd?: (text: string) => ParsedSpec;
  /** `-var` values the front end was given (a change of the text, `--set`, builds it again with them). */
  vars?: TfVar[];
}

/** Values of the root module's variables given on the command line: `-var-file FILE` (in order) and `-var NAME=VALUE`. */
export interface TfInputOptions {
  varFiles?: string[];
  vars?: TfVar[];
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
export function frontEndForFile(file: string, text: string): ((text: string) => ParsedSpec) | undefined {
  const plan = frontEndFor(file) ? undefined : sidecarPlanPath(text);
  if (plan === undefined) return frontEndFor(file);
  let path: string;
  try {
    path = resolve(dirname(pathOf(file)), plan);
  } catch {
    return sidecarFrontEnd({ error: `${plan} is not beside a file on disk` });
  }
  try {
    if (isTerraformSourcePath(path) || statSync(path).isDirectory()) return sidecarFrontEnd(terraformFiles(path));
    return sidecarFrontEnd({ text: readFileSync(path, 'utf8') });
  } catch (e) {
    return sidecarFrontEnd({ error: `cannot read ${plan}: ${ioReason(e)}` });
  }
}

/** A sidecar's .tf file or module folder, read as its VMs (the HCL parser must be loaded). */
function terraformFiles(path: string): { parsed: () => ParsedSpec } | { error: string } {
  if (!hclParser()) return { error: 'the HCL parser is not loaded' };
  const input = statSync(path).isDirectory() ? folderInput(path) : inputForFile(path, readFileSync(path, 'utf8'));
  if (!input) return { error: `${path} has no .tf file` };
  return { parsed: () => input.frontEnd!(input.text) };
}

/** Whether a file's analysis needs the HCL parser: a .tf file, a folder, or a sidecar that names .tf files. */
export function needsHclParser(path: string): boolean {
  try {
    if (isTerraformSourcePath(path) || statSync(path).isDirectory()) return true;
    if (!/\.perf\.ya?ml$/i.test(path)) return false;
    const plan = sidecarPlanPath(readFileSync(path, 'utf8'));
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
  if (!isTerraformSourcePath(file)) return { text, frontEnd: frontEndForFile(file, text) };
  let path: string;
  try {
    path = pathOf(file);
  } catch {
    // Not a file on disk (an unsaved editor buffer): the file alone.
    return terraformInput(undefined, { path: 'main.tf', text }, options);
  }
  return terraformInput(dirname(path), { path: basename(path), text }, options);
}

/** The analysis input of a module folder (the CLI's `evaluate FOLDER`), or undefined when it has no .tf file. */
export function folderInput(folder: string, options: TfInputOptions = {}): AnalysisInput | undefined {
  const first = tfFilesIn(folder)[0];
  if (first === undefined) return undefined;
  return terraformInput(folder, { path: first, text: readFileSync(join(folder, first), 'utf8') }, options);
}

function terraformInput(root: string | undefined, entry: TfFile, options: TfInputOptions): AnalysisInput {
  const parse = hclParser();
  if (!parse) throw new Error('the HCL parser is not loaded: await loadHclParser() first');
  const vars = root === undefined ? { files: [], unreadable: [] } : varFiles(root, options.varFiles ?? []);
  const refused: string[] = [];
  const files = root === undefined ? [entry] : [...moduleFiles(root, entry, refused), ...vars.files];
  const frontEnd = terraformFilesFrontEnd(parse, files, options.vars);
  const problems = [
    ...vars.unreadable.map((why) => diag('terraform-var-file', why, { start: 0, end: Math.min(1, entry.text.length) })),
    ...refused.map((why) => diag('terraform-module-size', why, { start: 0, end: Math.min(1, entry.text.length) })),
  ];
  if (!problems.length) return { text: joinTfFiles(files).text, frontEnd, vars: options.vars };
  // A variable file that cannot be read is said on the entry file's first character: the module is read without it.
  const withFindings = (text: string): ParsedSpec => {
    const parsed = frontEnd(text);
    parsed.diagnostics.unshift(...problems);
    return parsed;
  };
  return { text: joinTfFiles(files).text, frontEnd: withFindings, vars: options.vars };
}

/**
 * The variable definitions files Terraform loads for a root module, in its order: `terraform.tfvars`,
 * `terraform.tfvars.json`, then `*.auto.tfvars` and `*.auto.tfvars.json` by name, then each `-var-file` as given: one that cannot be read is left out and named in `unreadable` (a finding on the entry file).
 */
function varFiles(root: string, given: string[]): { files: TfFile[]; unreadable: string[] } {
  let names: string[] = [];
  try {
    names = readdirSync(root).filter((f) => statSync(join(root, f)).isFile());
  } catch {
    names = [];
  }
  const auto = names.filter((f) => /\.auto\.tfvars(?:\.json)?$/.test(f)).sort();
  const first = ['terraform.tfvars', 'terraform.tfvars.json'].filter((f) => names.includes(f));
  const found = [...first, ...auto].map((f) => join(root, f));
  const files: TfFile[] = [];
  const unreadable: string[] = [];
  const read = (f: string) => files.push({ path: relative(root, f).split(sep).join('/'), text: readFileSync(f, 'utf8') });
  for (const f of found)
    try {
      read(f);
    } catch {
      // Gone between the listing and the read: as if it were not there.
    }
  for (const f of given.map((g) => resolve(g)))
    try {
      read(f);
    } catch (e) {
      unreadable.push(
        `cannot read the variable file ${f} (--var-file, or the terraformVarFiles setting): ${ioReason(e)}; the module is read without it`,
      );
    }
  return { files, unreadable };
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

/** The entry, the other .tf files of its folder, and those of the local module folders they name. */
function moduleFiles(root: string, entry: TfFile, refused: string[]): TfFile[] {
  const files: TfFile[] = [entry];
  let bytes = 0;
  const seen = new Set<string>([resolve(root)]);
  const queue: string[] = [resolve(root)];
  while (queue.length && seen.size <= MAX_FOLDERS && files.length <= MAX_FILES) {
    const folder = queue.shift()!;
    const rel = relative(root, folder).split(sep).join('/');
    for (const name of tfFilesIn(folder)) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === entry.path) {
        sources(entry.text, folder, root, seen, queue);
        continue;
      }
      let text: string;
      try {
        const size = statSync(join(folder, name)).size;
        if (bytes + size > MAX_MODULE_BYTES) {
          refused.push(
            `${path} is left out: the module's files would take more than ${MAX_MODULE_BYTES} bytes (${size} bytes in it); split it or run on the plan JSON`,
          );
          continue;
        }
        text = readFileSync(join(folder, name), 'utf8');
        bytes += Buffer.byteLength(text);
      } catch {
        continue;
      }
      files.push({ path, text });
      sources(text, folder, root, seen, queue);
    }
  }
  return files;
}

/** Local module sources a file names (`source = "./disk"`), queued when under the root folder. */
function sources(text: string, folder: string, root: string, seen: Set<string>, queue: string[]): void {
  for (const m of text.matchAll(/(?:\bsource\s*=|"source"\s*:)\s*"(\.\.?\/[^"]*)"/g)) {
    const target = resolve(folder, m[1]);
    const rel = relative(root, target);
    if (rel.startsWith('..') || seen.has(target)) continue;
    seen.add(target);
    queue.push(target);
  }
}

/** The .tf files of a module folder (and of the local modules they call), or none. */
export function moduleFilesIn(folder: string): TfFile[] {
  const first = tfFilesIn(folder)[0];
  if (first === undefined) return [];
  return moduleFiles(folder, { path: first, text: readFileSync(join(folder, first), 'utf8') }, []);
}
