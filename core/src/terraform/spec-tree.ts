/**
 * The spec a Terraform front end builds, as the same source map the YAML parser gives: every value at its
 * JSON pointer (/vms/0/machine_type), with the span of the Terraform text it was read from. The converter of
 * ../document/convert.ts then reads it unchanged, so every check, figure and fix finds its values and places
 * its findings on the Terraform source.
 */
import type { Span } from '../text';
import type { NodeEntry, YamlNode, YamlTree } from '../document/yaml-nodes';
import { escapePointer } from '../document/yaml-tree';

/** A value read from Terraform, with where it was written (and its attribute name's place, when it has one). */
export class Located {
  constructor(
    readonly value: string | number | boolean,
    readonly span: Span,
    readonly key?: Span,
  ) {}
}

/** A mapping or list of the built spec, placed on the source of the block it comes from. */
export interface SpecMap {
  span: Span;
  fields: Record<string, SpecValue | undefined>;
}
export interface SpecSeq {
  span: Span;
  items: SpecValue[];
}
export type SpecValue = Located | SpecMap | SpecSeq;

export const map = (span: Span, fields: Record<string, SpecValue | undefined>): SpecMap => ({ span, fields });
export const seq = (span: Span, items: SpecValue[]): SpecSeq => ({ span, items });

/** The source map of a built spec: the nodes the converter and the checks look up by JSON pointer. */
export function specTree(root: SpecMap): YamlTree {
  const nodes = new Map<string, NodeEntry>();
  const node = toNode(root, '', undefined, nodes);
  return { root: node, problems: [], nodes, value: undefined, generated: true };
}

function toNode(v: SpecValue, path: string, key: Span | undefined, nodes: Map<string, NodeEntry>): YamlNode {
  let n: YamlNode;
  if (v instanceof Located) {
    n = { kind: 'scalar', start: v.span.start, end: v.span.end, text: String(v.value), value: v.value, quoted: false };
    nodes.set(path, { key: keyNode(v.key ?? key), value: n });
    return n;
  }
  if ('items' in v) {
    n = { kind: 'seq', start: v.span.start, end: v.span.end, items: [], flow: true };
    nodes.set(path, { key: keyNode(key), value: n });
    v.items.forEach((it, i) => (n as { items: YamlNode[] }).items.push(toNode(it, `${path}/${i}`, undefined, nodes)));
    return n;
  }
  const m: YamlNode = { kind: 'map', start: v.span.start, end: v.span.end, entries: [], flow: true };
  nodes.set(path, { key: keyNode(key), value: m });
  for (const [k, child] of Object.entries(v.fields)) {
    if (child === undefined) continue;
    const value = toNode(child, `${path}/${escapePointer(k)}`, undefined, nodes);
    m.entries.push({ key: { kind: 'scalar', start: value.start, end: value.start, text: k, value: k, quoted: false }, value });
  }
  return m;
}

function keyNode(span: Span | undefined): YamlNode | undefined {
  return span && { kind: 'scalar', start: span.start, end: span.end, text: '', value: '', quoted: false };
}
