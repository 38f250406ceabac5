/**
 * Entry point of `storage-perf-language-server`: `--stdio` for any LSP client, `--node-ipc` for VS Code
 * (the connection kind is read from the command line by vscode-languageserver).
 */
import {
  createConnection,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  type ConnectionOptions,
} from 'vscode-languageserver/node';
import { FrameResync, parseErrorReplying } from './framing';
import { protocolGate } from './gate';
import type { Lifecycle } from './lifecycle';
import { startServer } from './server';

const say = (message: string) => process.stderr.write(`storage-perf-language-server: ${message}\n`);

/**
 * The connection on the transport the command line names. On stdio the input passes through FrameResync, so a
 * broken frame costs that frame, not the rest of the session; stdout carries only frames, so the console goes to
 * stderr until the connection exists, then to the client (vscode-languageserver redirects it only when it opens
 * stdio itself).
 */
function connect(options: ConnectionOptions, lifecycle: () => Lifecycle) {
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all, options);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) console[level] = (...a: unknown[]) => say(a.join(' '));
  const input = process.stdin.pipe(new FrameResync(say));
  // Our own reader and writer, so that a frame whose body is not JSON gets JSON-RPC's -32700 (the library's
  // reader drops it unanswered). Given a reader, vscode-languageserver no longer ends the process with its input,
  // so that is done here as it would: 0 after a shutdown request, 1 without (the client is gone).
  const writer = new StreamMessageWriter(process.stdout);
  const reader = new StreamMessageReader(input, { contentTypeDecoder: parseErrorReplying(writer, say) });
  const ended = () => process.exit(lifecycle().shuttingDown ? 0 : 1);
  input.on('end', ended);
  input.on('close', ended);
  const connection = createConnection(ProposedFeatures.all, reader, writer, options);
  // From here console output reaches the client as window/logMessage (its output channel), as it does when the
  // library opens stdio itself; what the frame guard says about the transport stays on stderr.
  const log = connection.console;
  console.log = console.debug = (...a: unknown[]) => log.log(a.join(' '));
  console.info = (...a: unknown[]) => log.info(a.join(' '));
  console.warn = (...a: unknown[]) => log.warn(a.join(' '));
  console.error = (...a: unknown[]) => log.error(a.join(' '));
  return connection;
}

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
  process.on('uncaughtException', (e) => say(String(e?.stack ?? e)));
  process.on('unhandledRejection', (e) => say(String((e as Error)?.stack ?? e)));
  // The gate reads the lifecycle only when messages come, after listen(): by then it is assigned.
  const lifecycle: Lifecycle = startServer(connect({ messageStrategy: protocolGate(() => lifecycle) }, () => lifecycle));
}

if (require.main === module) main();
