#!/usr/bin/env node
'use strict';
// A reader that stops early (`storage-perf lint . | head`) closes the pipe: later writes fail with EPIPE. That
// must not turn into an unhandled error and exit 1 ("findings"); the command's own exit code stands.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
}
// The sources are TypeScript compiled by the root `prepare` script into ../../out, which then bundles the command
// and its language server into ../../out/bundle/dist: one file each, which start faster, loaded with their code
// cache (./load-bundle.js). The bundles run only while they are newer than what tsc compiled: after a `tsc -p .`
// alone, the compiled code.
const { join } = require('node:path');
const { freshBundle, loadBundle, out } = require('./load-bundle.js');
const cli = freshBundle('storage-perf.js', 'cli/src/main.js');
// lint talks to a language server in a process of its own: start it now, so that it loads while this process
// loads the CLI (unless --server-command names another server, or only the usage is asked for). It is handed to
// lint, which shuts it down; whatever ends the command first (a usage error) ends the server too.
// Only the options count: after `--` every argument is a path, whatever it looks like.
const args = process.argv.slice(2);
const end = args.indexOf('--');
const options = end < 0 ? args : args.slice(0, end);
const server =
  args[0] === 'lint' && !options.some((a) => a === '-h' || a === '--help' || a.startsWith('--server-command'))
    ? require('node:child_process').spawn(
        process.execPath,
        [join(__dirname, '../../server/bin/storage-perf-language-server.js'), '--stdio'],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      )
    : undefined;
(cli ? loadBundle(cli) : require(join(out, 'cli/src/main.js')))
  .main(args, { server })
  .then((code) => {
    process.exitCode = code;
    if (server && server.exitCode === null && server.signalCode === null) server.kill();
  });
