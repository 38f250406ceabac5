/** The YAML tree's nodes: each key and value with its source span. Read by yaml-events, built up by yaml-tree. */
import type { Span } from '../text';

export interface ScalarNode extends Span {
  kind: 'scalar';
  text: string;
  value: unknown;
  quoted: boolean;
}
export interface MapEntry {
  key: YamlNode;
  value: YamlNode;
  /** Brought in by a merge key (`<<: *base`): the key and value are the merged mapping's, in its text. */
  merged?: boolean;
}
export interface MapNode extends Span {
  kind: 'map';
  entries: MapEntry[];
  flow: boolean;
}
export interface SeqNode extends Span {
  kind: 'seq';
  items: YamlNode[];
  flow: boolean;
}
export type YamlNode = ScalarNode | MapNode | SeqNode;

/*
 * The YAML parser's nodes are instances of these classes, not object literals, for memory: a spec of 10,000 VMs
 * has 550,000 scalars and 100,000 collections, alive as long as its analysis. What a class's nodes share (their
 * kind) sits once on its prototype, and a scalar keeps its text only where it is not its value (most keys and
 * values are strings, or numbers written the way JavaScript writes them): 48 bytes a scalar instead of 72.
 * Few classes, so that code reading `kind` sees as few shapes as it did.
 * Being classes, a spread (`{ ...n }`) or a structured clone would lose `kind`, a scalar's `text` and a mapping's
 * `entries`: copy a node with `withSpan` or `withEntries`.
 */
export class ParsedScalar implements ScalarNode {
  declare readonly kind: 'scalar';
  /** `value` is a string, or a number whose text is what String() writes: its text. */
  constructor(
    readonly value: unknown,
    public start: number,
    public end: number,
  ) {}
  get text(): string {
    return typeof this.value === 'string' ? this.value : String(this.value);
  }
  get quoted(): boolean {
    return false;
  }
}
/** A scalar whose text the value does not give back (`0x1F`, `~`, a tagged value), or quoted (its text is its value). */
export class ParsedTextScalar extends ParsedScalar {
  /** @param own the text, or true where the value was quoted. */
  constructor(
    value: unknown,
    start: number,
    end: number,
    private readonly own: string | true,
  ) {
    super(value, start, end);
  }
  override get text(): string {
    return this.own === true ? String(this.value) : this.own;
  }
  override get quoted(): boolean {
    return this.own === true;
  }
}
export class ParsedMap implements MapNode {
  declare readonly kind: 'map';
  constructor(
    /**
     * Keys and values in turn (key 0, value 0, key 1, ...), not an object for each entry (300,000 in 10,000 VMs,
     * 14 MB): read them with `entryCount`, `keyAt`, `valueAt`. Entries a merge key brings in come last.
     */
    public kv: YamlNode[],
    readonly flow: boolean,
    public start: number,
    public end: number,
  ) {}
  /** The entries as objects, made on each read: for code that reads a few mappings (the tree's own code reads `kv`). */
  get entries(): MapEntry[] {
    const kv = this.kv;
    const from = mergedFrom.get(this) ?? kv.length >> 1;
    const out: MapEntry[] = [];
    for (let i = 0; i < kv.length; i += 2)
      out.push(i >> 1 < from ? { key: kv[i], value: kv[i + 1] } : { key: kv[i], value: kv[i + 1], merged: true });
    return out;
  }
}
/**
 * Of a mapping with a merge key, the index of its first entry the merge brought in: beside the few mappings that
 * have one rather than a field of every mapping.
 */
export const mergedFrom = new WeakMap<ParsedMap, number>();
export class ParsedSeq implements SeqNode {
  declare readonly kind: 'seq';
  constructor(
    public items: YamlNode[],
    readonly flow: boolean,
    public start: number,
    public end: number,
  ) {}
}
(ParsedScalar.prototype as { kind: string }).kind = 'scalar';
(ParsedMap.prototype as { kind: string }).kind = 'map';
(ParsedSeq.prototype as { kind: string }).kind = 'seq';

/** How many entries a mapping has; with `keyAt` and `valueAt`, read without making an object for each. */
export function entryCount(map: MapNode): number {
  return map instanceof ParsedMap ? map.kv.length >> 1 : map.entries.length;
}
export function keyAt(map: MapNode, i: number): YamlNode {
  return map instanceof ParsedMap ? map.kv[2 * i] : map.entries[i].key;
}
export function valueAt(map: MapNode, i: number): YamlNode {
  return map instanceof ParsedMap ? map.kv[2 * i + 1] : map.entries[i].value;
}

/** A copy of a node at another span, whatever made it (a spread would lose what a parsed node has on its prototype). */
export function withSpan(n: YamlNode, start: number, end: number): YamlNode {
  if (n.kind === 'scalar') return { kind: 'scalar', text: n.text, value: n.value, quoted: n.quoted, start, end };
  if (n.kind === 'map') return { kind: 'map', entries: n.entries, flow: n.flow, start, end };
  return { kind: 'seq', items: n.items, flow: n.flow, start, end };
}

/** A copy of a mapping with other entries (as `withSpan`, never a spread). */
export function withEntries(map: MapNode, entries: MapEntry[]): MapNode {
  return { kind: 'map', entries, flow: map.flow, start: map.start, end: map.end };
}

/** A node and, for a mapping's value, its key. */
export interface NodeEntry {
  key?: YamlNode;
  value: YamlNode;
}

export interface TreeProblem {
  code: string;
  message: string;
  span: Span;
}
export interface YamlTree {
  root?: YamlNode;
  problems: TreeProblem[];
  /** Every node in the document, by JSON pointer ("" is the root, "/vms/0/name" a value). */
  nodes: ReadonlyMap<string, NodeEntry>;
  /** The plain value of the document (aliases shared, not copied). In a parsed YAML tree, made on each read: read it once. */
  value: unknown;
  /** Built by another front end over generated text (a Terraform plan): its values are not edited in place. */
  generated?: boolean;
  /**
   * Set by the YAML parser: `nodes` holds exactly the paths of `root`'s structure, so a mapping's entries are its
   * fields. Trees other front ends put together by path (a sidecar's workloads under a plan's VMs) need not.
   */
  mirrorsRoot?: boolean;
  /**
   * Set when values are not nested by place (a Terraform module: a VM's disk is a block of its own, elsewhere
   * in the files): what is under the cursor is then the smallest value or key that holds it.
   */
  scattered?: boolean;
  /** In a generated tree, whether a path is the file's own text, which a fix may edit (a sidecar's keys). */
  editable?: (path: string) => boolean;
}
