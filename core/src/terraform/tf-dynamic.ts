/**
 * A `dynamic` block's instances, when its `for_each` is known before plan (`for_each = var.mixed ? [] : [1]`): one
 * scope per element, its iterator (the block's label, or `iterator = name`) bound to `{ key, value }`, in which the
 * `content` block is read as a written block of that type. An unknown `for_each` says why, never a guess.
 * See https://developer.hashicorp.com/terraform/language/expressions/dynamic-blocks
 */
import type { Node } from 'jsonc-parser';
import { unknownsOf } from './hcl-convert';
import { evaluate, named, objectNode, whyText, type HclSyntaxNode, type Scope, type Why } from './hcl-values';
import { bodyOf, exprOf, labelsOf, nameOf } from './tf-body';

/** The most instances one dynamic block is read as. */
const MAX_DYNAMIC = 1000;

/** `said`: unknown because the resource it is over has a count unknown until plan, which that resource's finding says. */
export type Dynamic = { label: string; content: HclSyntaxNode | undefined; scopes: Scope[] } | { label: string; why: string; said?: true };

export function dynamicBlocks(block: HclSyntaxNode, scope: Scope): Dynamic {
  const label = labelsOf(block)[0] ?? '';
  const parts = bodyOf(block) ? named(bodyOf(block)!) : [];
  const attr = (n: string) => parts.find((p) => p.type === 'attribute' && nameOf(p) === n);
  const content = parts.find((p) => p.type === 'block' && nameOf(p) === 'content');
  const forEach = attr('for_each') && exprOf(attr('for_each')!);
  const iterator = (attr('iterator') && exprOf(attr('iterator')!)?.text.trim()) || label;
  const why: Why[] = [];
  // Over a resource's instances first: the iterator stands for each instance, which joins it (./tf-targets.ts).
  const over = forEach ? overResource(forEach, scope) : undefined;
  if (over === null) return { label, why: 'are unknown until plan', said: true };
  if (over) return { label, content: content && bodyOf(content), scopes: over(iterator) };
  const v = forEach && evaluate(forEach, { ...scope, why });
  const partly = v?.type === 'object' ? unknownsOf(v) : undefined;
  if (partly) why.push(...([...partly.keys.values()][0] ?? []));
  const entries: Array<[Node, Node]> | undefined = partly
    ? undefined
    : v?.type === 'array'
      ? (v.children ?? []).map((c, i) => [{ type: 'number', value: i, offset: c.offset, length: c.length } as Node, c])
      : v?.type === 'object'
        ? (v.children ?? []).map((p) => [p.children![0], p.children![1]])
        : undefined;
  if (v && !entries && !partly) why.push({ text: 'for_each needs a list, a set or a map', error: true });
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

/**
 * `for_each = google_compute_disk.data` (or `google_compute_disk.data[*]`) where that resource's instances are known:
 * one block per instance, its iterator standing for the instance (`attached_disk.value.self_link` joins it,
 * ./tf-targets.ts); its attributes are known only after apply.
 */
function overResource(e: HclSyntaxNode, scope: Scope): ((iterator: string) => Scope[]) | null | undefined {
  const parts = named(e);
  const splat = parts.length === 3 && (parts[2].type === 'splat' || parts[2].type === 'index');
  if ((parts.length !== 2 && !splat) || parts[0].type !== 'variable_expr' || parts[1].type !== 'get_attr') return undefined;
  if (splat && !/^\[\s*\*\s*\]$|^\.\*$/.test(parts[2].text.trim())) return undefined;
  if (NOT_RESOURCES.has(parts[0].text)) return undefined;
  const instances = scope.resourceInstances?.(`${parts[0].text}.${named(parts[1])[0]?.text ?? ''}`);
  if (instances === null) return null;
  if (!instances || instances.length > MAX_DYNAMIC) return undefined;
  return (iterator) =>
    instances.map((i) => {
      const names = new Map(scope.names);
      names.set(iterator, undefined);
      return { ...scope, names, instanceOf: new Map(scope.instanceOf).set(iterator, i.address) };
    });
}

const NOT_RESOURCES = new Set(['var', 'local', 'each', 'count', 'module', 'data', 'path', 'terraform', 'self']);
