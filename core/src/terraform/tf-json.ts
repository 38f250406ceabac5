/**
 * Terraform's JSON configuration syntax (`*.tf.json`) read as the syntax tree the .tf reader reads: the same
 * blocks, attributes and expressions, placed on the JSON text. A string is an HCL template (`"${var.size}"`), and
 * one that is a single interpolation is that expression's value, as Terraform reads it. JSON says nothing of
 * which objects are nested blocks (Terraform asks the provider's schema): the block types the mappers read are
 * known here, and any other object is a map attribute.
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { named, type HclParse, type HclSyntaxNode } from './hcl-values';
import { withoutInheritance } from '../own-keys';

/** Nested block types of the resources read (the providers' schemas), and Terraform's own. */
const BLOCKS = new Set([
  'boot_disk',
  'initialize_params',
  'attached_disk',
  'scratch_disk',
  'secondary_disk',
  'disk',
  'resources',
  'root_block_device',
  'ebs_block_device',
  'ephemeral_block_device',
  'network_interface',
  'scheduling',
  'instance_market_options',
  'block_device_mappings',
  'ebs',
  'placement',
  'launch_template',
  'mixed_instances_policy',
  'instances_distribution',
  'launch_template_specification',
  'override',
  'version',
  'target_size',
  'autoscaling_policy',
  'lifecycle',
]);
/** Top-level block types and how many labels each has before its body. */
const TOP: Record<string, number> = withoutInheritance({
  resource: 2,
  data: 2,
  module: 1,
  provider: 1,
  variable: 1,
  output: 1,
  locals: 0,
  terraform: 0,
});

export const isTfJsonPath = (path: string): boolean => /\.tf\.json$/i.test(path);

type Made = HclSyntaxNode & { namedChildren: HclSyntaxNode[] };

function node(type: string, at: { offset: number; length: number }, text: string, children: HclSyntaxNode[] = []): Made {
  return { type, startIndex: at.offset, endIndex: at.offset + at.length, text, namedChildren: children, hasError: false, isMissing: false };
}

/** The file's body, or the place of its first JSON error. */
export function jsonBody(parse: HclParse, text: string): { body?: HclSyntaxNode; error?: number } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length || !root || root.type !== 'object') return { error: errors[0]?.offset ?? 0 };
  const r = new JsonReader(parse, text);
  return { body: node('body', root, text, r.blocksOf(root)) };
}

class JsonReader {
  constructor(
    readonly parse: HclParse,
    readonly text: string,
  ) {}

  blocksOf(root: Node): HclSyntaxNode[] {
    const out: HclSyntaxNode[] = [];
    for (const p of root.children ?? []) {
      const [k, v] = p.children ?? [];
      const kind = String(k?.value);
      if (!v || TOP[kind] === undefined) continue;
      this.labelled(kind, k, v, TOP[kind], [], out);
    }
    return out;
  }

  /** `{ "type": { "name": { body } } }` down to its labels; a body may be an array of bodies (providers). */
  private labelled(kind: string, key: Node, v: Node, labels: number, got: HclSyntaxNode[], out: HclSyntaxNode[]): void {
    if (labels === 0) {
      for (const b of v.type === 'array' ? (v.children ?? []) : [v])
        if (b.type === 'object') out.push(node('block', b, this.slice(b), [node('identifier', key, kind), ...got, this.body(b)]));
      return;
    }
    if (v.type !== 'object') return;
    for (const p of v.children ?? []) {
      const [k, inner] = p.children ?? [];
      if (k && inner) this.labelled(kind, key, inner, labels - 1, [...got, node('string_lit', k, JSON.stringify(k.value))], out);
    }
  }

  private body(obj: Node): HclSyntaxNode {
    const parts: HclSyntaxNode[] = [];
    for (const p of obj.children ?? []) {
      const [k, v] = p.children ?? [];
      if (!k || !v) continue;
      const name = String(k.value);
      const items = v.type === 'array' ? (v.children ?? []) : [v];
      if (BLOCKS.has(name) && items.length && items.every((i) => i.type === 'object'))
        for (const i of items) parts.push(node('block', i, this.slice(i), [node('identifier', k, name), this.body(i)]));
      else parts.push(node('attribute', p, this.slice(p), [node('identifier', k, name), this.expression(v)]));
    }
    return node('body', obj, this.slice(obj), parts);
  }

  private slice(n: Node): string {
    return this.text.slice(n.offset, n.offset + n.length);
  }

  /** A JSON value as an HCL expression; its `text` is a string's content (a `provider = "google.west"` reads as written in HCL). */
  private expression(v: Node): HclSyntaxNode {
    const text = v.type === 'string' ? String(v.value) : this.slice(v);
    if (v.type === 'string') return node('expression', v, text, [this.template(v)]);
    if (v.type === 'number') return node('expression', v, text, [node('numeric_lit', v, text)]);
    if (v.type === 'boolean') return node('expression', v, text, [node('bool_lit', v, text)]);
    if (v.type === 'array')
      return node('expression', v, text, [
        node(
          'tuple',
          v,
          text,
          (v.children ?? []).map((c) => this.expression(c)),
        ),
      ]);
    if (v.type === 'object') {
      const elems = (v.children ?? []).map((p) => {
        const [k, val] = p.children ?? [];
        const key = node('expression', k, String(k.value), [node('string_lit', k, JSON.stringify(k.value), [this.literal(k)])]);
        return node('object_elem', p, this.slice(p), [key, this.expression(val)]);
      });
      return node('expression', v, text, [node('object', v, text, elems)]);
    }
    return node('expression', v, text, []);
  }

  private literal(s: Node): HclSyntaxNode {
    return node('template_literal', s, String(s.value));
  }

  /** A string: a literal, or an HCL template parsed where it is written (a lone `${x}` is x itself). */
  private template(s: Node): HclSyntaxNode {
    const value = String(s.value);
    if (!value.includes('${')) return node('string_lit', s, this.slice(s), value ? [this.literal(s)] : []);
    const lone = /^\$\{([^{}]*)\}$/.exec(value);
    const source = lone ? lone[1] : this.slice(s);
    // Placed on the JSON text: the snippet parsed is `v = <source>`, the source at the string (or inside `"${`).
    const parsed = this.parsedExpression(source, s.offset + (lone ? 3 : 0) - 4);
    if (!parsed) return node('string_lit', s, this.slice(s), [node('ERROR', s, value)]);
    return lone ? parsed : (named(parsed)[0] ?? parsed);
  }

  private parsedExpression(source: string, delta: number): HclSyntaxNode | undefined {
    let tree: ReturnType<HclParse> = null;
    try {
      tree = this.parse(`v = ${source}\n`);
      const root = tree?.rootNode;
      if (!root || root.hasError) return undefined;
      const body = named(root).find((c) => c.type === 'body') ?? root;
      const attr = named(body).find((c) => c.type === 'attribute');
      const e = attr && named(attr).find((c) => c.type === 'expression');
      return e && copy(e, delta);
    } catch {
      return undefined;
    } finally {
      tree?.delete?.();
    }
  }
}

/** A syntax node copied out of the parser's tree (freed after), moved by `delta` onto the file's text. */
function copy(n: HclSyntaxNode, delta: number): HclSyntaxNode {
  return {
    type: n.type,
    startIndex: n.startIndex + delta,
    endIndex: n.endIndex + delta,
    text: n.text,
    hasError: n.hasError,
    isMissing: n.isMissing,
    namedChildren: named(n).map((c) => copy(c, delta)),
  };
}
