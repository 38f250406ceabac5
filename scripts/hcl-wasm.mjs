// The WebAssembly files of the HCL parser (web-tree-sitter's runtime and the HCL grammar), copied beside a
// bundle: a bundle has no node_modules to resolve them from, and protocol/src/hcl-parser.ts looks beside itself
// first. Used by bundle.mjs (the extension) and bundle-cli.mjs (the command and its server).
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

export const HCL_WASM = [
  ['web-tree-sitter', 'tree-sitter.wasm'],
  ['@tree-sitter-grammars/tree-sitter-hcl', 'tree-sitter-hcl.wasm'],
];

export function copyHclWasm(outDir) {
  mkdirSync(outDir, { recursive: true });
  for (const [pkg, file] of HCL_WASM) copyFileSync(require.resolve(`${pkg}/${file}`), join(outDir, file));
}
