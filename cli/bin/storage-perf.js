#!/usr/bin/env node
'use strict';
// The sources are TypeScript compiled by the root `prepare` script into ../../out.
require('../../out/cli/src/main.js').main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
