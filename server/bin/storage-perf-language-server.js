#!/usr/bin/env node
'use strict';
// The sources are TypeScript compiled by the root `prepare` script into ../../out.
require('../../out/server/src/main.js').main();
