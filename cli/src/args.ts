/**
 * What every command does with its arguments: node:util parseArgs (no dependency, maintained with Node), and
 * the error that makes a command exit with status 2 and its message. Kept apart from main.ts, which imports
 * every command, so that commands do not import main.ts back.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<const O extends Options>(args: string[], options: O) {
  try {
    return parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

