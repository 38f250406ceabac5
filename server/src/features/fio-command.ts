/**
 * The server command behind the "Generate fio jobs" code action for clients that cannot create files from a
 * workspace edit: it writes the job files next to the spec and says so.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { generateFioJobs } from '../../../core/src';
import { ioReason } from '../../../protocol/src/file-io';
import { writeAllInside } from '../../../protocol/src/file-write';
import { WriteFioCommand } from '../../../protocol/src/requests';
import type { ServerContext } from '../context';
import { pathOf, specNameOf } from '../uri';
import { evaluated } from './fio';

/** The commands workspace/executeCommand runs, for the server's capabilities. */
export const SERVER_COMMANDS = [WriteFioCommand];

export function registerFioCommand(ctx: ServerContext): void {
  const { connection, lifecycle } = ctx;
  connection.onExecuteCommand(
    lifecycle.guardRequest('workspace/executeCommand', async (p: { command: string; arguments?: unknown[] }): Promise<string[]> => {
      if (p.command !== WriteFioCommand) throw new ResponseError(ErrorCodes.InvalidParams, `unknown command '${p.command}'`);
      const [uri, vm] = p.arguments ?? [];
      if (typeof uri !== 'string' || (vm !== undefined && typeof vm !== 'string'))
        throw new ResponseError(ErrorCodes.InvalidParams, `${WriteFioCommand} takes the spec's URI and a VM name`);
      if (!uri.startsWith('file:'))
        throw new ResponseError(ErrorCodes.InvalidParams, 'the spec is not a file: save it first; the fio jobs are written next to it');
      const a = evaluated(ctx, uri);
      if (vm !== undefined && !a.vms.some((v) => v.spec.name === vm))
        throw new ResponseError(ErrorCodes.InvalidParams, `the spec has no VM '${vm}'`);
      const dir = dirname(pathOf(uri));
      const files = generateFioJobs(a, { vm, specName: specNameOf(uri) });
      let written: string[];
      try {
        mkdirSync(dir, { recursive: true });
        // Job files are generated: a link at a job's name is replaced, never written through.
        written = writeAllInside(
          dir,
          files.map((f) => ({ name: f.fileName, text: f.text })),
        ).written.map((name) => pathToFileURL(join(dir, name)).href);
      } catch (e) {
        throw new ResponseError(ErrorCodes.InternalError, `cannot write the fio jobs to ${dir}: ${ioReason(e)}`);
      }
      const warn = files.some((f) => f.destructive) ? ' WARNING: some jobs write to raw block devices and destroy their data.' : '';
      const message = `storage-perf: wrote ${files.map((f) => f.fileName).join(', ')} next to the spec.${warn}`;
      if (warn) void connection.window.showWarningMessage(message);
      else void connection.window.showInformationMessage(message);
      return written;
    }),
  );
}
