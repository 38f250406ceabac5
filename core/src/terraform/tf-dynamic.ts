/**
 * A `dynamic` block's instances, when its `for_each` is known before plan (`for_each = var.mixed ? [] : [1]`): one
 * scope per element, its iterator (the block's label, or `iterator = name`) bound to `{ key, value }`, in which the
 * `content` block is read as a written block of that type. An unknown `for_each` says why, never a guess.
 * See https://developer.hashicorp.com/terraform/language/expressions/dynamic-blocks
 */
import type { Node } from 'jsonc-parser';
import { evaluate, named, objectNode, whyText, type HclSyntaxNode, type Scope, type Why } from './hcl-values';
import { bodyOf, exprOf, labelsOf, nameOf } from './tf-body';

/** The most instances one dynamic block is read as. */
const MAX_DYNAMIC = 1000;

export type Dynamic = { label: string; content: HclSyntaxNode | undefined; scopes: Scope[] } | { label: string; why: string };

export function dynamicBlocks(block: HclSyntaxNode, scope: Scope): Dynamic {
  const label = labelsOf(block)[0] ?? '';
  const parts = bodyOf(block) ? named(bodyOf(block)!) : [];
  const attr = (n: string) => parts.find((p) => p.type === 'attribute' && nameOf(p) === n);
  const content = parts.find((p) => p.type === 'block' && nameOf(p) === 'content');
  const forEach = attr('for_each') && exprOf(attr('for_each')!);
  const iterator = (attr('iterator') && exprOf(attr('iterator')!)?.text.trim()) || label;
  const why: Why[] = [];
  const v = forEach && evaluate(forEach, { ...scope, why });
  const entries: Array<[Node, Node]> | undefined =
    v?.type === 'array'
      ? (v.children ?? []).map((c, i) => [{ type: 'number', value: i, offset: c.offset, length: c.length } as Node, c])
      : v?.type === 'object'
        ? (v.children ?? []).map((p) => [p.children![0], p.children![1]])
        : undefined;
  if (v && !entries) why.push({ text: 'for_each needs a list, a set or a map', error: true });
  if (!entries) return { label, why: whyText(why).replace(/^is /, 'are ') };
  if (entries.length > MAX_DYNAMIC)
    return { label, why: `are ${entries.length} blocks, more than the ${MAX_DYNAMIC} read from one: run on the plan JSON` };
  const scopes = entries.map(([key, value]) => {
    const names = new Map(scope.names);
    names.set(
      iterator,
      objectNode(
        [
          ['key', { ...key }, key.offset],
          ['value', { ...value }, value.offset],
        ],
        value.offset,
        value.length,
      ),
    );
    return { ...scope, names };
  });
  return { label, content: content && bodyOf(content), scopes };
}
