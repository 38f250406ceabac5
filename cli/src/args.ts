/**
 * What every command does with its arguments: node:util parseArgs (no dependency, maintained with Node), and
 * the error that makes a command exit with status 2 and its message. Kept apart from main.ts, which imports
 * every command, so that commands do not import main.ts back.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isTerraformSourcePath, type TfVar } from '../../core/src';
import { suggest } from '../../core/src/document/suggest';
import { ioReason, MAX_INPUT_BYTES, readBounded } from '../../protocol/src/file-io';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<const O extends Options>(args: string[], options: O) {
  try {
    return parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(usageMessage(e as Error & { code?: string }, Object.keys(options)));
  }
}

/** parseArgs' message, shortened, with the option the user probably meant. */
function usageMessage(e: Error & { code?: string }, known: string[]): string {
  if (e.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return e.message;
  const flag = /'([^']+)'/.exec(e.message)?.[1] ?? '';
  const near = suggest(flag.replace(/^-+/, ''), [...known, 'catalog-file', 'help']);
  return `unknown option '${flag}'${near ? `; did you mean --${near}?` : ''} (see --help)`;
}

/** The options of every command that reads specs: catalogs of the user's own, and --help. */
const SPEC_COMMAND_OPTIONS = {
  'catalog-file': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * A command's arguments: its own options and those every command that reads specs has. Undefined when they
 * ask for --help, which has printed `usage` (the command exits 0).
 */
export function parseCommand<const O extends Options>(args: string[], options: O, usage: string) {
  const parsed = parse(args, { ...options, ...SPEC_COMMAND_OPTIONS });
  if (!(parsed.values as { help?: boolean }).help) return parsed;
  process.stdout.write(usage + '\n');
  return undefined;
}

/** The catalog files named with --catalog-file (it may be given several times). */
export const catalogFiles = (values: { 'catalog-file'?: string[] }): string[] => values['catalog-file'] ?? [];

/** Terraform's `-var-file` and `-var` for the commands that read .tf files. */
export const TERRAFORM_VAR_OPTIONS = {
  'var-file': { type: 'string', multiple: true },
  var: { type: 'string', multiple: true },
  'follow-links': { type: 'boolean' },
  root: { type: 'string' },
} as const;

/**
 * The --var-file files (of any name, as Terraform takes them; one ending in `.json` is JSON) and --var NAME=VALUE pairs
 * given, checked.
 */
export function terraformVars(values: { 'var-file'?: unknown; var?: unknown; 'follow-links'?: unknown; root?: unknown }): {
  varFiles: string[];
  vars: TfVar[];
  followLinks: boolean;
  workspace: string;
  root?: string;
} {
  const varFiles = (values['var-file'] as string[] | undefined) ?? [];
  for (const f of varFiles) {
    // Any name, as Terraform takes it; but a module's own file holds blocks, which a variable file may not.
    if (isTerraformSourcePath(f)) throw new UsageError(`--var-file takes a file of variable values, not the Terraform source file '${f}'`);
    // Checked here, before any .tf file is read, so that the command names it (not the module it is read with):
    // a regular file, bounded.
    try {
      readBounded(f, { maxBytes: MAX_INPUT_BYTES });
    } catch (e) {
      throw new UsageError(`cannot read the --var-file ${f}: ${ioReason(e)}`);
    }
  }
  const vars = ((values.var as string[] | undefined) ?? []).map((v) => {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/s.exec(v);
    if (!m) throw new UsageError(`--var takes NAME=VALUE, not '${v}'`);
    return { name: m[1], value: m[2] };
  });
  // Paths a file's content names stay in its repository, or the working directory (docs/robustness.md), or --root.
  const root = rootFolder(values.root as string | undefined);
  return { varFiles, vars, followLinks: values['follow-links'] === true, workspace: process.cwd(), ...(root ? { root } : {}) };
}

/** The folder `--root` names (absolute), checked to be a folder: module sources are read inside it. */
function rootFolder(root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  let folder = false;
  try {
    folder = statSync(root).isDirectory();
  } catch (e) {
    throw new UsageError(`--root ${root} cannot be read: ${ioReason(e)}`);
  }
  if (!folder) throw new UsageError(`--root takes a folder, and ${root} is not one`);
  return resolve(root);
}
