/**
 * The syntax nodes the .tf reader walks (tree-sitter's, given by the caller: the core never loads the parser) and
 * the JSON nodes it builds for values: the nodes the plan mappers read (`values` of a plan resource), placed on the
 * HCL text.
 */
import type { Node } from 'jsonc-parser';
import { isList, isMap, type Value } from './hcl-convert';

/** The part of a tree-sitter syntax node the reader uses (web-tree-sitter's `Node` has it). */
export interface HclSyntaxNode {
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly text: string;
  readonly namedChildren: ReadonlyArray<HclSyntaxNode | null>;
  readonly hasError: boolean;
  readonly isMissing: boolean;
}

/** Parses HCL text (a tree-sitter parser set to the HCL grammar); `delete` frees a tree that lives outside the JS heap. */
export type HclParse = (text: string) => { rootNode: HclSyntaxNode; delete?(): void } | null;

/**
 * Each node's named children. The parser's nodes (protocol/src/hcl-parser.ts) hold theirs in an array without
 * nulls, given as it is (never changed by a caller); children with nulls are read once into an array kept by a
 * WeakMap. A look-up in the WeakMap for every node was a third of the .tf reading's time (and its entries work for
 * the garbage collector): an analysis of a 150 KB module took 1.7–2.1 s with it, 1.0–1.5 s without.
 */
const children = new WeakMap<HclSyntaxNode, HclSyntaxNode[]>();
export function named(n: HclSyntaxNode): HclSyntaxNode[] {
  const own = n.namedChildren;
  if (Array.isArray(own) && !own.includes(null)) return own as HclSyntaxNode[];
  let c = children.get(n);
  if (!c) children.set(n, (c = n.namedChildren.filter((x): x is HclSyntaxNode => x !== null)));
  return c;
}

export function scalar(type: 'string' | 'number' | 'boolean' | 'null', value: unknown, offset: number, length: number): Node {
  return { type, value, offset, length } as Node;
}

/** A node moved to another place (a variable's value shown where it is used), its inner places kept. */
export function placed(n: Node, offset: number, length: number): Node {
  return { ...n, offset, length };
}

/** jsonc-parser's nodes are read-only to its users; these are built here, parents set as they are joined. */
type Building = { -readonly [K in keyof Node]: Node[K] };
const setParent = (n: Node, parent: Node) => ((n as Building).parent = parent);

export function objectNode(entries: Array<[string, Node, number]>, offset: number, length: number): Node {
  const obj = { type: 'object', offset, length, children: [] as Node[] } as Node;
  for (const [key, value, keyAt] of entries) {
    const prop = { type: 'property', offset: keyAt, length: value.offset + value.length - keyAt, parent: obj, children: [] } as Node;
    const k = { ...scalar('string', key, keyAt, key.length), parent: prop } as Node;
    // Values are built for their place (a variable's value is copied where it is used): joined as they are.
    setParent(value, prop);
    (prop as Building).children = [k, value];
    obj.children!.push(prop);
  }
  return obj;
}

export function arrayNode(items: Node[], offset: number, length: number): Node {
  const arr = { type: 'array', offset, length, children: [] as Node[] } as Node;
  for (const it of items) {
    setParent(it, arr);
    arr.children!.push(it);
  }
  return arr;
}

/** A plain value as JSON nodes, every one placed at one span (the expression that computed it). */
export function valueNode(v: Value, offset: number, length: number): Node {
  if (isList(v))
    return arrayNode(
      v.map((x) => valueNode(x, offset, length)),
      offset,
      length,
    );
  if (isMap(v))
    return objectNode(
      Object.entries(v).map(([k, x]) => [k, valueNode(x, offset, length), offset]),
      offset,
      length,
    );
  if (v === null) return scalar('null', null, offset, length);
  return scalar(typeof v as 'string' | 'number' | 'boolean', v, offset, length);
}
