/** The `storage-perf` command: dispatches to its commands (argument parsing is in args.ts). */
import type { ChildProcess } from 'node:child_process';
import { UsageError } from './args';
import { evaluateCommand } from './evaluate';
import { version } from './version';
import { commandSafe, escapeData } from './workflow-text';

const USAGE = `usage: storage-perf <command> [options]

commands:
  evaluate FILE... [--format table|json] [--catalog-file PATH]   computed IOPS, throughput and cost per disk, VM and workload
  lint PATH... [--format stylish|compact|json|sarif|github|junit] [--fail-on SEVERITY] [--fix]
                                                                 the findings the editor shows, for CI (via the language server)
  fio FILE [--vm NAME] [--out DIR] [--destructive]               fio job files with the model's prediction beside every job
  compare FILE --fio-result RESULT.json [--vm NAME] [--format table|json] [--svg OUT.svg]
                                                                 fio's JSON output against the prediction, with verdicts
  diff BASE HEAD [--base-ref REF] [--format table|markdown|json] [--fail-on SEVERITY]
                                                                 what a change does to delivered figures, targets, cost and findings

run 'storage-perf <command> --help' for a command's options; 'storage-perf --version' for the version`;

/** `server`: the language server, already started for `lint` (see cli/bin/storage-perf.js). */
export async function main(argv: string[], started: { server?: ChildProcess } = {}): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'evaluate':
        return await evaluateCommand(rest);
      // The other commands are loaded when run: evaluate does not load what they need (an LSP client, git, a
      // writer), which was a fifth of its start.
      case 'lint':
        return await (await import('./lint/index.js')).lintCommand(rest, started.server);
      case 'fio':
        return await (await import('./fio.js')).fioCommand(rest);
      case 'compare':
        return await (await import('./compare.js')).compareCommand(rest);
      case 'diff':
        return await (await import('./diff/index.js')).diffCommand(rest);
      case undefined:
        process.stderr.write(USAGE + '\n');
        return 2;
      case '-V':
      case '--version':
        process.stdout.write(`storage-perf ${version()}\n`);
        return 0;
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE + '\n');
        return 0;
      default:
        process.stderr.write(`storage-perf: unknown command '${escapeData(command)}'\n${USAGE}\n`);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      // A usage error may quote an argument (a path): escaped, it stays one line in a CI log.
      process.stderr.write(`storage-perf ${escapeData(command)}: ${commandSafe(e.message)}\n`);
      return 2;
    }
    process.stderr.write(`storage-perf ${escapeData(command)}: internal error: ${internalError(e)}\n`);
    return 2;
  }
}

/** An internal error's message escaped (it may quote a name), then the stack's frames as they are. */
function internalError(e: unknown): string {
  if (!(e instanceof Error)) return escapeData(String(e));
  const head = `${e.name}: ${e.message}`;
  const stack = e.stack ?? head;
  return stack.startsWith(head) ? escapeData(head) + stack.slice(head.length) : escapeData(e.message);
}
