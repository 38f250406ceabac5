#!/usr/bin/env node
// Bundles the VS Code extension with esbuild: the client (client/src/extension.ts → dist/extension.js) and
// the language server (server/src/main.ts → dist/server.js, catalogs and schemas inlined by the JSON loader).
// Two separate bundles: the server runs in its own process and shares no code with the client at runtime.
//
//   node scripts/bundle.mjs                 development: sourcemaps, not minified
//   node scripts/bundle.mjs --production    what the .vsix ships: minified, no sourcemaps
//   node scripts/bundle.mjs --metafile      also writes dist/*.meta.json (what takes the space)
import { build } from 'esbuild';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const metafile = process.argv.includes('--metafile');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: production ? 'none' : 'inline',
  metafile,
  logLevel: 'warning',
  absWorkingDir: root,
};

const targets = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js' },
  // server/src/main.ts starts the server itself when it is the process's main module (`require.main ===
  // module` still holds in the bundle, whose top level is that module); vscode-languageclient forks
  // dist/server.js with --node-ipc.
  { entryPoints: ['server/src/main.ts'], outfile: 'dist/server.js' },
];

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const t of targets) {
  const result = await build({ ...common, ...t });
  if (metafile) writeFileSync(join(root, t.outfile.replace(/\.js$/, '.meta.json')), JSON.stringify(result.metafile));
  const kib = (statSync(join(root, t.outfile)).size / 1024).toFixed(1);
  process.stdout.write(`${t.outfile}  ${kib} KiB${production ? ' (production)' : ''}\n`);
}
