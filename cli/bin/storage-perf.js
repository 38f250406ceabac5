#!/usr/bin/env node
'use strict';
// A reader that stops early (`storage-perf lint . | head`) closes the pipe: later writes fail with EPIPE. That
// must not turn into an unhandled error and exit 1 ("findings"); the command's own exit code stands.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
}
// The sources are TypeScript compiled by the root `prepare` script into ../../out.
require('../../out/cli/src/main.js').main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
