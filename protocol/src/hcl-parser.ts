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
import { directWalk, plainTree, type Binding } from './hcl-walk';

const RUNTIME = 'tree-sitter.wasm';
const GRAMMAR = 'tree-sitter-hcl.wasm';

let loading: Promise<HclParse> | undefined;
let loaded: HclParse | undefined;
let copied: ((text: string, walk?: 'direct' | 'cursor') => ReturnType<HclParse>) | undefined;

/** The path of a .wasm file: beside this code (a bundle), else in its package. */
function wasmPath(file: string, pkg: string): string {
  const beside = join(__dirname, file);
  return existsSync(beside) ? beside : require.resolve(`${pkg}/${file}`);
}

/** Loads the parser once per process; later calls get the same. */
export function loadHclParser(): Promise<HclParse> {
  loading ??= (async () => {
    const runtime = wasmPath(RUNTIME, 'web-tree-sitter');
    // The options object becomes web-tree-sitter's Emscripten module (./hcl-walk.ts calls its exports).
    const binding: Partial<Binding> & { locateFile: () => string } = { locateFile: () => runtime };
    await Parser.init(binding);
    const language = await Language.load(readFileSync(wasmPath(GRAMMAR, '@tree-sitter-grammars/tree-sitter-hcl')));
    const parser = new Parser();
    parser.setLanguage(language);
    const direct = directWalk(binding, language.types);
    copied = (text, walk) => {
      const tree = parser.parse(text);
      if (!tree) return null;
      try {
        const cursor = walk === 'cursor' ? undefined : direct?.(tree);
        return walk === 'direct' && !cursor ? null : { rootNode: plainTree(cursor ?? tree.walk(), text) };
      } finally {
        // The WebAssembly heap is not garbage-collected: the tree is freed once copied.
        tree.delete();
      }
    };
    loaded = (text) => copied!(text);
    return loaded;
  })();
  return loading;
}

/**
 * For tests, once the parser is loaded: the tree of `text` copied by the direct walk (null where it cannot run) or
 * by web-tree-sitter's `TreeCursor`.
 */
export function copiedTree(text: string, walk: 'direct' | 'cursor'): ReturnType<HclParse> {
  return copied ? copied(text, walk) : null;
}

/** The parser if it is loaded. */
export function hclParser(): HclParse | undefined {
  return loaded;
}
