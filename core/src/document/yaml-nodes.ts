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
 * values are strings, or numbers written the way JavaScript writes them): 56 bytes a scalar instead of 72.
 * One class per kind, so that code reading `kind` sees as few shapes as it did.
 * Being classes, a spread (`{ ...n }`) would lose `kind` and `text`: copy a node field by field.
 */
export class ParsedScalar implements ScalarNode {
  declare readonly kind: 'scalar';
  /**
   * @param own undefined where the text is the value (a string, or a number as String() writes it); true where
   * the value was quoted (its text is then the value); otherwise the text, which says more than the value
   * (`0x1F`, `~`, `1e3`, a tagged value).
   */
  constructor(
    readonly value: unknown,
    public start: number,
    public end: number,
    private readonly own: string | true | undefined,
  ) {}
  get text(): string {
    const own = this.own;
    return typeof own === 'string' ? own : typeof this.value === 'string' ? this.value : String(this.value);
  }
  get quoted(): boolean {
    return this.own === true;
  }
}
export class ParsedMap implements MapNode {
  declare readonly kind: 'map';
  constructor(
    public entries: MapEntry[],
    readonly flow: boolean,
    public start: number,
    public end: number,
  ) {}
}
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
