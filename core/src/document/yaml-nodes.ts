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
  /** The plain value of the document (aliases shared, not copied). */
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
