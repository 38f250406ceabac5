#!/usr/bin/env node
// Bundles the VS Code extension with esbuild: the client (client/src/extension.ts → dist/extension.js) and
// the language server (server/src/main.ts → dist/server.js, catalogs and schemas inlined by the JSON loader).
// Two separate bundles: the server runs in its own process and shares no code with the client at runtime (the
// client imports the request names and types of protocol/, never the server's modules: checked below).
//
//   node scripts/bundle.mjs                 development: sourcemaps, not minified
//   node scripts/bundle.mjs --production    what the .vsix ships: minified, no sourcemaps
//   node scripts/bundle.mjs --metafile      also writes dist/*.meta.json (what takes the space)
//   node scripts/bundle.mjs --no-typecheck  skips type-checking the client first
//   node scripts/bundle.mjs --outdir=DIR    bundles into DIR instead of dist/
import { build } from 'esbuild';
import { copyHclWasm } from './hcl-wasm.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const metafile = process.argv.includes('--metafile');
// Another folder than dist/ (the benchmark bundles there, leaving the packaged bundles alone).
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The native module of protocol/src/xattrs.ts is not packaged: the extension's writes go without it.
  external: ['vscode', '@napi-rs/xattr'],
  // ESM entry points first: some dependencies' "main" is a UMD wrapper whose require() calls of its own
  // modules esbuild cannot follow (jsonc-parser's), which leaves the bundle requiring files it lacks.
  mainFields: ['module', 'main'],
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: production ? 'none' : 'inline',
  logLevel: 'warning',
  absWorkingDir: root,
  // web-tree-sitter's ES module finds itself through import.meta.url, which a CommonJS bundle lacks: its
  // CommonJS build is bundled instead.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
};

const targets = [
  // The client takes only names and types from protocol/: no module of the server may end up in its bundle.
  { entryPoints: ['client/src/extension.ts'], outfile: `${outdir}/extension.js`, forbidden: /^(server|cli)\// },
  // server/src/main.ts starts the server itself when it is the process's main module (`require.main ===
  // module` still holds in the bundle, whose top level is that module); vscode-languageclient forks
  // dist/server.js with --node-ipc.
  { entryPoints: ['server/src/main.ts'], outfile: `${outdir}/server.js` },
];

// esbuild does not type-check, and the project's build (tsc -p .) does not compile the client (it needs the
// vscode types): check it here, so that a change to the server's request types cannot break it unnoticed.
if (!process.argv.includes('--no-typecheck')) {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'client'], { cwd: root, stdio: 'inherit' });
  if (tsc.status !== 0) {
    process.stderr.write('bundle: the client does not type-check (tsc -p client)\n');
    process.exit(1);
  }
}

rmSync(resolve(root, outdir), { recursive: true, force: true });
for (const { forbidden, ...t } of targets) {
  // The metafile lists every module a bundle took in: always asked for, to check that list.
  const result = await build({ ...common, ...t, metafile: true });
  if (metafile) writeFileSync(resolve(root, t.outfile.replace(/\.js$/, '.meta.json')), JSON.stringify(result.metafile));
  const strays = forbidden ? Object.keys(result.metafile.inputs).filter((f) => forbidden.test(f)) : [];
  if (strays.length) {
    process.stderr.write(`bundle: ${t.outfile} must not include ${strays.join(', ')}\n`);
    process.exit(1);
  }
  const kib = (statSync(resolve(root, t.outfile)).size / 1024).toFixed(1);
  process.stdout.write(`${t.outfile}  ${kib} KiB${production ? ' (production)' : ''}\n`);
}
// The server reads .tf files with the HCL parser's WebAssembly, shipped beside it.
copyHclWasm(resolve(root, outdir));
