#!/usr/bin/env node
// Bundles the storage-perf command and its language server with esbuild, each into one file (catalogs and
// schemas inlined): a process that loads one file starts in half the time of one that resolves and reads the
// hundreds of modules of out/ and node_modules, and `lint` starts two processes. The root `prepare` and
// `build` scripts run this after tsc; cli/bin/storage-perf.js runs the bundle only while it is newer than
// what tsc compiled, so that `tsc -p .` alone never leaves the command running older code.
//
//   node scripts/bundle-cli.mjs [OUT_DIR]     default: out/bundle/dist (three levels down, so that the
//                                             bundles find package.json and docs/ as the compiled code does)
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { copyHclWasm } from './hcl-wasm.mjs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes OUT_DIR/storage-perf.js (the CLI, exporting main) and OUT_DIR/server.js (the server, started as main),
 * each with its code cache (`codeCache`; the packed CLI leaves them out: it loads its bundles with `require`).
 */
export async function bundleCli(outDir, { minify = true, codeCache = true } = {}) {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // ESM entry points first: some dependencies' "main" is a UMD wrapper esbuild cannot follow (jsonc-parser's).
    mainFields: ['module', 'main'],
    minify,
    legalComments: 'none',
    logLevel: 'warning',
    absWorkingDir: root,
    // web-tree-sitter's ES module finds itself through import.meta.url, which a CommonJS bundle lacks: its
    // CommonJS build is bundled instead.
    alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
    // A native module (extended attributes, protocol/src/xattrs.ts): loaded from node_modules when present.
    external: ['@napi-rs/xattr'],
  };
  // The server beside the CLI: the CLI's lint starts server.js when it finds it next to itself.
  await build({ ...common, entryPoints: ['cli/src/main.ts'], outfile: join(outDir, 'storage-perf.js') });
  await build({ ...common, entryPoints: ['server/src/main.ts'], outfile: join(outDir, 'server.js') });
  copyHclWasm(outDir);
  if (codeCache) for (const name of ['storage-perf.js', 'server.js']) writeCodeCache(join(outDir, name));
}

/**
 * V8's code cache of a bundle, beside it, for cli/bin/load-bundle.js: written by this Node in a process of its own,
 * so that the cache is of this Node's V8 (another Node rejects it and compiles as usual).
 */
function writeCodeCache(file) {
  const loader = join(root, 'cli/bin/load-bundle.js');
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(loader)}).writeCodeCache(${JSON.stringify(file)})`], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`cannot write the code cache of ${file}: ${r.stderr || r.error}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleCli(resolve(process.argv[2] ?? join(root, 'out/bundle/dist')));
}
