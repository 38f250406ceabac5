#!/usr/bin/env node
'use strict';
// The sources are TypeScript compiled by the root `prepare` script into ../../out, which then bundles the server
// into ../../out/bundle/dist/server.js: the bundle runs while it is newer than the compiled code
// (cli/bin/load-bundle.js), the compiled code otherwise.
const { freshBundle, loadBundle } = require('../../cli/bin/load-bundle.js');
const bundle = freshBundle('server.js', 'server/src/main.js');
(bundle ? loadBundle(bundle) : require('../../out/server/src/main.js')).main();
