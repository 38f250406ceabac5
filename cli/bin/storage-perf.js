#!/usr/bin/env node
'use strict';
// A reader that stops early (`storage-perf lint . | head`) closes the pipe: later writes fail with EPIPE. That
// must not turn into an unhandled error and exit 1 ("findings"); the command's own exit code stands.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
}
// The sources are TypeScript compiled by the root `prepare` script into ../../out, which then bundles the command
// and its language server into ../../out/bundle/dist (scripts/bundle-cli.mjs): one file each, which start faster.
// The bundles run only while they are newer than what tsc compiled: after a `tsc -p .` alone, the compiled code.
const { statSync } = require('node:fs');
const { join } = require('node:path');
const out = join(__dirname, '../../out');
const newer = (a, b) => {
  try {
    return statSync(a).mtimeMs >= statSync(b).mtimeMs;
  } catch {
    return false;
  }
};
const bundled =
  newer(join(out, 'bundle/dist/storage-perf.js'), join(out, 'cli/src/main.js')) &&
  newer(join(out, 'bundle/dist/server.js'), join(out, 'server/src/main.js'));
// lint talks to a language server in a process of its own: start it now, so that it loads while this process
// loads the CLI (unless --server-command names another server, or only the usage is asked for). It is handed to
// lint, which shuts it down; whatever ends the command first (a usage error) ends the server too.
const args = process.argv.slice(2);
const server =
  args[0] === 'lint' && !args.some((a) => a === '-h' || a === '--help' || a.startsWith('--server-command'))
    ? require('node:child_process').spawn(
        process.execPath,
        [bundled ? join(out, 'bundle/dist/server.js') : join(__dirname, '../../server/bin/storage-perf-language-server.js'), '--stdio'],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      )
    : undefined;
require(bundled ? join(out, 'bundle/dist/storage-perf.js') : join(out, 'cli/src/main.js'))
  .main(args, { server })
  .then((code) => {
    process.exitCode = code;
    if (server && server.exitCode === null && server.signalCode === null) server.kill();
  });
