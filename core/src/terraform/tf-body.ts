/**
 * A block's body as the .tf reader reads it: its attributes and nested blocks, each with the offset of the file
 * it is written in, so that a body merged from several files (an override file's attributes over the
 * original's, as Terraform merges them) is read as one. Also the references a body's expressions make, as a
 * plan's `configuration` lists them.
 */
import type { Node } from 'jsonc-parser';
import type { Span } from '../text';
import { arrayNode, named, objectNode, referencesOf, type HclSyntaxNode } from './hcl-values';
import { readsAsVm } from './plan';

/** An attribute or nested block, with the offset of its file in the analysed text. */
export interface Part {
  node: HclSyntaxNode;
  base: number;
}

export const nameOf = (n: HclSyntaxNode) => named(n)[0]?.text ?? '';
export const exprOf = (attr: HclSyntaxNode) => named(attr).find((c) => c.type === 'expression');
export const bodyOf = (block: HclSyntaxNode) => named(block).find((c) => c.type === 'body');
export const labelsOf = (block: HclSyntaxNode) =>
  named(block)
    .slice(1)
    .filter((c) => c.type === 'string_lit' || c.type === 'identifier')
    .map((c) => (c.type === 'string_lit' ? c.text.slice(1, -1) : c.text));

/** The span of a block's labels (`"google_compute_disk" "data"`) in a file at `base`: where findings on it go. */
export function labelSpan(b: HclSyntaxNode, base: number): Span {
  const labels = named(b)
    .slice(1)
    .filter((c) => c.type === 'string_lit' || c.type === 'identifier');
  const first = labels[0] ?? b;
  const last = labels[labels.length - 1] ?? b;
  return { start: base + first.startIndex, end: base + last.endIndex };
}

/** A body's attributes and blocks, placed in a file at `base`. */
export const partsOf = (body: HclSyntaxNode | undefined, base: number): Part[] => (body ? named(body).map((node) => ({ node, base })) : []);

/** The attribute of this name among the parts. */
export const attributeIn = (parts: Part[], name: string) => parts.find((p) => p.node.type === 'attribute' && nameOf(p.node) === name);

/** Whether a file is an override file (`override.tf`, `*_override.tf`), merged into the blocks it names. */
export const isOverridePath = (path: string): boolean => /(?:^|\/)(?:override|[^/]*_override)\.tf(?:\.json)?$/i.test(path);

/**
 * A body with an override file's block merged in, as Terraform merges them: each attribute it sets replaces the
 * original's of that name; a nested block type it has replaces every original block of that type.
 */
export function overridden(parts: Part[], over: Part[]): Part[] {
  const attr = (p: Part) => p.node.type === 'attribute';
  const block = (p: Part) => p.node.type === 'block';
  const overAttrs = new Map(over.filter(attr).map((p) => [nameOf(p.node), p]));
  const overBlocks = new Set(over.filter(block).map((p) => nameOf(p.node)));
  const merged = parts
    .filter((p) => !(block(p) && overBlocks.has(nameOf(p.node))))
    .map((p) => (attr(p) && overAttrs.get(nameOf(p.node))) || p);
  const had = new Set(parts.filter(attr).map((p) => nameOf(p.node)));
  return [...merged, ...over.filter((p) => attr(p) && !had.has(nameOf(p.node))), ...over.filter(block)];
}

/** A resource's `expressions` as a plan's `configuration` gives them: each attribute's references, blocks as lists. */
export function expressions(parts: Part[], offset: number): Node {
  const entries: Array<[string, Node, number]> = [];
  const blocks = new Map<string, Node[]>();
  for (const { node: c, base } of parts) {
    const at = base + c.startIndex;
    if (c.type === 'attribute') {
      const e = exprOf(c);
      const refs = e ? [...new Set(referencesOf(e))] : [];
      const list = arrayNode(
        refs.map((r) => ({ type: 'string', value: r, offset: at, length: 0 }) as Node),
        at,
        0,
      );
      // Placed on the attribute: a finding about its value goes where it is written.
      entries.push([nameOf(c), objectNode([['references', list, at]], at, c.endIndex - c.startIndex), at]);
    } else if (c.type === 'block' && bodyOf(c)) {
      const inner = bodyOf(c)!;
      const block = expressions(partsOf(inner, base), base + inner.startIndex);
      const same = blocks.get(nameOf(c));
      if (same) same.push(block);
      else blocks.set(nameOf(c), [block]);
    }
  }
  for (const [name, items] of blocks) entries.push([name, arrayNode(items, offset, 0), offset]);
  return objectNode(entries, offset, 0);
}

export const blocksOf = (body: HclSyntaxNode) => named(body).filter((c) => c.type === 'block');

/** The resources of a module's files that run VMs, by configuration address (`prefix` the module's). */
export const vmResources = (files: ReadonlyArray<{ body: HclSyntaxNode }> = [], prefix: string) =>
  files
    .flatMap((f) => blocksOf(f.body).filter((r) => nameOf(r) === 'resource' && readsAsVm(labelsOf(r)[0] ?? '')))
    .map((r) => `${prefix}${labelsOf(r).slice(0, 2).join('.')}`);
