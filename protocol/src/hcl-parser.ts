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
import type { HclParse, HclSyntaxNode } from '../../core/src';

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
    loaded = (text) => {
      const tree = parser.parse(text);
      if (!tree) return null;
      try {
        return { rootNode: plainTree(tree.walk(), text) };
      } finally {
        // The WebAssembly heap is not garbage-collected: the tree is freed once copied.
        tree.delete();
      }
    };
    return loaded;
  })();
  return loading;
}

/** The parser if it is loaded. */
export function hclParser(): HclParse | undefined {
  return loaded;
}

/** A syntax node copied out of the WebAssembly tree: what the core reads, without a call into it per access. */
class PlainNode implements HclSyntaxNode {
  readonly namedChildren: PlainNode[] = [];
  hasError: boolean;
  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly isMissing: boolean,
    private readonly source: string,
  ) {
    this.hasError = type === 'ERROR' || isMissing;
  }
  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }
}

interface Cursor {
  readonly nodeType: string;
  readonly nodeIsNamed: boolean;
  readonly nodeIsMissing: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

/**
 * The tree's named nodes in one walk of a cursor (reading node objects one by one costs a call into the
 * WebAssembly and an object per access, about three times the parse). Indexes are UTF-16 offsets of `text`.
 */
function plainTree(c: Cursor, text: string): PlainNode {
  const node = () => new PlainNode(c.nodeType, c.startIndex, c.endIndex, c.nodeIsMissing, text);
  const root = node();
  // The named nodes holding the cursor's node (an anonymous node's named children go to its named holder).
  const holders: PlainNode[] = [root];
  try {
    if (!c.gotoFirstChild()) return root;
    for (;;) {
      const n = node();
      const kept = c.nodeIsNamed || n.hasError;
      const holder = holders[holders.length - 1];
      if (kept) holder.namedChildren.push(n);
      if (n.hasError) for (const h of holders) h.hasError = true;
      if (c.gotoFirstChild()) {
        holders.push(kept ? n : holder);
        continue;
      }
      while (!c.gotoNextSibling()) {
        if (!c.gotoParent() || holders.length === 1) return root;
        holders.pop();
      }
    }
  } finally {
    c.delete();
  }
}
