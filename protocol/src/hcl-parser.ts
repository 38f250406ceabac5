/**
 * The HCL parser the .tf front end is given: web-tree-sitter with the grammar of
 * @tree-sitter-grammars/tree-sitter-hcl, both WebAssembly (no native build). Loading is asynchronous (the
 * WebAssembly is compiled once per process); parsing after that is synchronous. The .wasm files are read from
 * beside this code when a bundle ships them there (scripts/bundle-cli.mjs, scripts/bundle.mjs), else from the
 * installed packages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { HclParse } from '../../core/src';

const RUNTIME = 'tree-sitter.wasm';
const GRAMMAR = 'tree-sitter-hcl.wasm';

let loading: Promise<HclParse> | undefined;
let loaded: HclParse | undefined;

/** The path of a .wasm file: beside this code (a bundle), else in its package. */
function wasmPath(file: string, pkg: string): string {
  const beside = join(__dirname, file);
  return existsSync(beside) ? beside : require.resolve(`${pkg}/${file}`);
}

/** Loads the parser once per process; later calls get the same. */
export function loadHclParser(): Promise<HclParse> {
  loading ??= (async () => {
    const runtime = wasmPath(RUNTIME, 'web-tree-sitter');
    await Parser.init({ locateFile: () => runtime });
    const language = await Language.load(readFileSync(wasmPath(GRAMMAR, '@tree-sitter-grammars/tree-sitter-hcl')));
    const parser = new Parser();
    parser.setLanguage(language);
    // The front end frees each tree when it has read it (the WebAssembly heap is not garbage-collected).
    loaded = (text) => parser.parse(text);
    return loaded;
  })();
  return loading;
}

/** The parser if it is loaded. */
export function hclParser(): HclParse | undefined {
  return loaded;
}
