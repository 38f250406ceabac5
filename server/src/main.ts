/**
 * Entry point of `storage-perf-language-server`: `--stdio` for any LSP client, `--node-ipc` for VS Code
 * (the connection kind is read from the command line by vscode-languageserver).
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

export function main(): void {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write('usage: storage-perf-language-server --stdio | --node-ipc | --socket=PORT\n');
    return;
  }
  if (!args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket') || a.startsWith('--pipe'))) {
    process.stderr.write('storage-perf-language-server: choose a transport: --stdio (editors), --node-ipc (VS Code)\n');
    process.exitCode = 2;
    return;
  }
  // An LSP server must not die on a stray error: log it to stderr (the client's output channel) and go on.
  process.on('uncaughtException', (e) => process.stderr.write(`storage-perf-language-server: ${e?.stack ?? e}\n`));
  process.on('unhandledRejection', (e) => process.stderr.write(`storage-perf-language-server: ${(e as Error)?.stack ?? e}\n`));
  startServer(createConnection(ProposedFeatures.all));
}

if (require.main === module) main();
