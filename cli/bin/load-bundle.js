'use strict';
// The command and its language server as esbuild bundles (scripts/bundle-cli.mjs), loaded with V8's code cache
// of each, which the build writes beside it (`<bundle>.cache`): compiling a 1 MB bundle was about 55 ms of a
// process that loads it in about 130 (measured on the 2-core development machine), and `lint` starts two such
// processes. Node 22 caches compiled code itself (module.enableCompileCache); Node 20, which we support, does
// not. A cache V8 rejects (another Node version) costs only the usual compile.
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const out = join(__dirname, '../../out');

const newer = (a, b) => {
  try {
    return statSync(a).mtimeMs >= statSync(b).mtimeMs;
  } catch {
    return false;
  }
};

/**
 * The bundle's path while it is newer than what tsc compiled (undefined otherwise: after a `tsc -p .` alone the
 * compiled code runs, never an older bundle).
 */
function freshBundle(name, compiled) {
  const file = join(out, 'bundle/dist', name);
  return newer(file, join(out, compiled)) ? file : undefined;
}

/** The bundle as a script, compiled from `cachedData` when V8 accepts it; the cache must be of this very text. */
function compile(file, cachedData) {
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
  return new Script(wrapped, { filename: file, cachedData });
}

/** Runs the compiled bundle as `require` would, and gives its exports. */
function run(script, file) {
  const mod = { exports: {}, id: file, filename: file, loaded: false };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports;
}

/** Runs a CommonJS bundle as `require` would, compiled from its code cache when there is one. */
function loadBundle(file) {
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    return require(file);
  }
  return run(compile(file, cachedData), file);
}

/**
 * Writes the bundle's code cache (`<bundle>.cache`), after running its top level so that what that compiles is
 * in the cache too. For the build (scripts/bundle-cli.mjs), in a process of its own: a bundle's top level only
 * defines (the server starts only as a process's main module).
 */
function writeCodeCache(file) {
  const script = compile(file);
  run(script, file);
  writeFileSync(`${file}.cache`, script.createCachedData());
}

module.exports = { freshBundle, loadBundle, out, writeCodeCache };
