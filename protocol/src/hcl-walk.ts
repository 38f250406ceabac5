/**
 * A tree-sitter tree copied out of the WebAssembly into plain objects (./hcl-parser.ts): what the core reads,
 * without a call into the WebAssembly per access. The copy walks a tree cursor once; each step is a call into the
 * WebAssembly. web-tree-sitter's `TreeCursor` writes the cursor into the module's transfer buffer before each call
 * and reads it back after each move (eight accesses of the heap around every call); the walk here keeps the cursor
 * in that buffer and calls the same exported functions of the module directly (`directWalk`), which copies the
 * tree in less time. Where the module does not have them (another build of web-tree-sitter), it walks with
 * `TreeCursor`; a test holds both walks to the same trees.
 */
import type { HclSyntaxNode } from '../../core/src';

/** A syntax node copied out of the WebAssembly tree: what the core reads, without a call into it per access. */
export class PlainNode implements HclSyntaxNode {
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

/** What the copy reads of a tree cursor: web-tree-sitter's `TreeCursor` has it. */
export interface Cursor {
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
export function plainTree(c: Cursor, text: string): PlainNode {
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

/** A function the module exports: it reads the cursor from the transfer buffer (a move writes it back there). */
type Call = (tree: number) => number;

/**
 * The exports of web-tree-sitter's Emscripten module that the direct walk calls: the options object given to
 * `Parser.init` becomes that module, so these are on it once loaded (web-tree-sitter's own `TreeCursor` calls them).
 */
export interface Binding {
  _ts_init(): number;
  setValue(address: number, value: number, type: 'i32'): void;
  _ts_tree_cursor_current_node_type_id_wasm: Call;
  _ts_tree_cursor_current_node_is_named_wasm: Call;
  _ts_tree_cursor_current_node_is_missing_wasm: Call;
  _ts_tree_cursor_start_index_wasm: Call;
  _ts_tree_cursor_end_index_wasm: Call;
  _ts_tree_cursor_goto_first_child_wasm: Call;
  _ts_tree_cursor_goto_next_sibling_wasm: Call;
  _ts_tree_cursor_goto_parent_wasm: Call;
  _ts_tree_cursor_delete_wasm: Call;
}

const CALLS = [
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_node_is_named_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_delete_wasm',
] as const;

/** What web-tree-sitter's `TreeCursor` holds: the cursor's four words (and `Tree` its address), by index. */
interface Handles {
  0: number;
  1: number;
  2: number;
  3: number;
}

/** The cursor kept in the transfer buffer: the same calls as `TreeCursor`'s, without copying it in and out. */
class DirectCursor implements Cursor {
  constructor(
    private readonly b: Binding,
    private readonly types: readonly string[],
    private readonly tree: number,
  ) {}
  get nodeType(): string {
    // As TreeCursor's nodeType: a symbol without a name (the error symbol) is ERROR.
    return this.types[this.b._ts_tree_cursor_current_node_type_id_wasm(this.tree)] || 'ERROR';
  }
  get nodeIsNamed(): boolean {
    return this.b._ts_tree_cursor_current_node_is_named_wasm(this.tree) === 1;
  }
  get nodeIsMissing(): boolean {
    return this.b._ts_tree_cursor_current_node_is_missing_wasm(this.tree) === 1;
  }
  get startIndex(): number {
    return this.b._ts_tree_cursor_start_index_wasm(this.tree);
  }
  get endIndex(): number {
    return this.b._ts_tree_cursor_end_index_wasm(this.tree);
  }
  gotoFirstChild(): boolean {
    return this.b._ts_tree_cursor_goto_first_child_wasm(this.tree) === 1;
  }
  gotoNextSibling(): boolean {
    return this.b._ts_tree_cursor_goto_next_sibling_wasm(this.tree) === 1;
  }
  gotoParent(): boolean {
    return this.b._ts_tree_cursor_goto_parent_wasm(this.tree) === 1;
  }
  delete(): void {
    this.b._ts_tree_cursor_delete_wasm(this.tree);
  }
}

/**
 * A walk of a tree that keeps the cursor in the module's transfer buffer, or undefined where the module lacks a
 * function it calls. The cursor is made by web-tree-sitter (`tree.walk()`), written into the buffer once, and
 * freed from there (its moves may reallocate what it points to).
 */
export function directWalk(
  binding: Partial<Binding>,
  types: readonly string[],
): ((tree: { walk(): unknown }) => Cursor | undefined) | undefined {
  if (typeof binding._ts_init !== 'function' || typeof binding.setValue !== 'function') return undefined;
  if (CALLS.some((name) => typeof binding[name] !== 'function')) return undefined;
  const b = binding as Binding;
  const buffer = b._ts_init();
  return (tree) => {
    const address = (tree as unknown as Handles)[0];
    if (typeof address !== 'number' || !address) return undefined;
    const cursor = tree.walk() as Handles;
    for (let i = 0; i < 4; i++) b.setValue(buffer + 4 * i, cursor[i as 0 | 1 | 2 | 3], 'i32');
    return new DirectCursor(b, types, address);
  };
}
