/**
 * What every command does with its arguments: node:util parseArgs (no dependency, maintained with Node), and
 * the error that makes a command exit with status 2 and its message. Kept apart from main.ts, which imports
 * every command, so that commands do not import main.ts back.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { suggest } from '../../core/src/document/suggest';

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
