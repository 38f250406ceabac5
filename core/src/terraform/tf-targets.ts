/**
 * Which instance of another resource an attribute's expression names, read as Terraform reads it for one instance:
 * `google_compute_instance.vm[floor(count.index / var.per_vm)].id`, `aws_instance.node[count.index % 3].id`,
 * `element(aws_instance.node[*].id, count.index)`, through a conditional whose condition is known and through
 * locals (`id = local.launch_template_id`). The answer is an address, or why the index is not known (the
 * attachment is then joined to none: never by guess), or undefined where the expression names no one instance this
 * way (the plan reader's references decide).
 */
import { HclError, toStr, toValue, numberText } from './hcl-convert';
import { evaluate, named, type HclSyntaxNode, type Scope, type Why } from './hcl-values';

/** A resource instance named by address, or why it cannot be known (with the expression that decides it). */
export type Target = { address: string } | { why: Why[]; node: HclSyntaxNode; base: number };

/** The instance keys of a resource of this module (`type.name`), undefined where it has none read. */
export type InstanceKeys = (ref: string) => Array<string | number | undefined> | undefined;

const NOT_RESOURCES = new Set(['var', 'local', 'each', 'count', 'module', 'data', 'path', 'terraform', 'self']);
const MAX_LOCALS = 16;

const keyText = (k: string | number) => (typeof k === 'number' ? `[${k}]` : `[${JSON.stringify(k)}]`);

/** The unwrapped expression: parentheses and a template of one interpolation read as what they hold. */
function unwrap(e: HclSyntaxNode): HclSyntaxNode {
  let n = e;
  for (let i = 0; i < 8; i++) {
    const parts = named(n);
    if (parts.length !== 1) break;
    const [p] = parts;
    const inner = named(p).filter((c) => c.type !== 'quoted_template_start' && c.type !== 'quoted_template_end');
    if (p.type === 'expression') n = p;
    else if (p.type === 'template_expr' && named(p)[0]?.type === 'quoted_template' && named(named(p)[0]).length === 3) {
      const interp = named(named(p)[0])[1];
      const x = interp.type === 'template_interpolation' && named(interp).find((c) => c.type === 'expression');
      if (!x) break;
      n = x;
    } else if (inner.length === 0) break;
    else break;
  }
  return n;
}

/** Whether an expression refers to a resource of the module at all. */
function refersToResource(n: HclSyntaxNode): boolean {
  if (n.type === 'variable_expr' && !NOT_RESOURCES.has(n.text)) return true;
  return named(n).some(refersToResource);
}

/**
 * `path`: the attributes read of the value (`local.vm.id` reads `id` of the local's object), followed into an object
 * written in place; a resource's instance is the same whichever of its attributes is read.
 */
export function targetOf(
  e: HclSyntaxNode,
  scope: Scope,
  prefix: string,
  keys: InstanceKeys,
  depth = 0,
  path: readonly string[] = [],
): Target | undefined {
  const n = unwrap(e);
  const [head, ...steps] = named(n);
  if (!head || depth > MAX_LOCALS) return undefined;
  if (head.type === 'collection_value') {
    const value = path.length ? elementOf(head, path[0]) : undefined;
    return value && targetOf(value, scope, prefix, keys, depth + 1, path.slice(1));
  }
  // try(x, fallback): x's instance where it is created; where it is not, the join finds none and says so.
  if (head.type === 'function_call' && named(head)[0]?.text === 'try') {
    const first = named(named(head)[1] ?? head).find((x) => x.type === 'expression');
    return first && targetOf(first, scope, prefix, keys, depth + 1, path);
  }
  const unknown = (node: HclSyntaxNode, why: Why[]): Target => ({ why, node, base: scope.base });
  if (head.type === 'conditional') {
    const [c, a, b] = named(head);
    const why: Why[] = [];
    const cond = c && evaluate(c, { ...scope, why });
    const v = cond && toValue(cond);
    if (v === true || v === 'true') return a && targetOf(a, scope, prefix, keys, depth, path);
    if (v === false || v === 'false') return b && targetOf(b, scope, prefix, keys, depth, path);
    return refersToResource(head) && c ? unknown(c, why) : undefined;
  }
  if (head.type === 'function_call' && named(head)[0]?.text === 'element') {
    const args = named(named(head)[1] ?? head).filter((x) => x.type === 'expression');
    const ref = args.length === 2 ? splatRef(unwrap(args[0])) : undefined;
    const all = ref && keys(ref);
    if (!ref || !all?.length) return undefined;
    const why: Why[] = [];
    const i = evaluate(args[1], { ...scope, why });
    const iv = i && toValue(i);
    if (typeof iv !== 'number' || !Number.isInteger(iv) || iv < 0) return unknown(args[1], why);
    return { address: address(prefix, ref, all[iv % all.length]) };
  }
  if (head.type !== 'variable_expr') return undefined;
  const first = steps[0]?.type === 'get_attr' ? named(steps[0])[0]?.text : undefined;
  if (head.text === 'local' && first) {
    const expr = scope.locals.get(first);
    const base = scope.localBase.get(first) ?? scope.base;
    const rest = steps.slice(1);
    const attrs = rest.every((x) => x.type === 'get_attr') ? rest.map((x) => named(x)[0]?.text ?? '') : [];
    return expr && targetOf(expr, { ...scope, base, count: undefined, each: undefined, names: undefined }, prefix, keys, depth + 1, attrs);
  }
  // A dynamic block's iterator over a resource's instances (`attached_disk.value.id`): the instance it stands for.
  const instance = scope.instanceOf?.get(head.text);
  if (instance !== undefined && first === 'value') return { address: instance };
  if (NOT_RESOURCES.has(head.text) || !first || scope.names?.has(head.text)) return undefined;
  const ref = `${head.text}.${first}`;
  const next = steps[1];
  if (next?.type !== 'index') {
    // No index: the resource's one instance (one with count or for_each needs one; the references decide).
    const one = keys(ref);
    return one?.length === 1 && one[0] === undefined && next?.type !== 'splat' ? { address: `${prefix}${ref}` } : undefined;
  }
  const inner = named(next)[0];
  const ix = inner?.type === 'legacy_index' ? undefined : inner && named(inner).find((x) => x.type === 'expression');
  if (inner?.type === 'legacy_index') return { address: address(prefix, ref, Number(inner.text.slice(1))) };
  if (!ix) return undefined;
  const why: Why[] = [];
  const k = evaluate(ix, { ...scope, why });
  const kv = k && toValue(k);
  if (typeof kv !== 'number' && typeof kv !== 'string') return unknown(ix, why);
  try {
    return {
      address: address(prefix, ref, typeof kv === 'number' ? kv : keys(ref)?.some((x) => typeof x === 'number') ? Number(kv) : toStr(kv)),
    };
  } catch (err) {
    if (err instanceof HclError) return unknown(ix, [{ text: err.message, error: true }]);
    throw err;
  }
}

/** The value written for `key` in an object written in place (`{ id = x.y.id }`), if it is there. */
function elementOf(collection: HclSyntaxNode, key: string): HclSyntaxNode | undefined {
  const object = named(collection)[0];
  if (object?.type !== 'object') return undefined;
  for (const elem of named(object)) {
    if (elem.type !== 'object_elem') continue;
    const [k, v] = named(elem);
    if (k && v && k.text.trim().replace(/^"(.*)"$/, '$1') === key) return v;
  }
  return undefined;
}

/** `type.name[*].attr` or `type.name.*.attr`: the resource whose instances the list is, in their order. */
function splatRef(n: HclSyntaxNode): string | undefined {
  const parts = named(n);
  if (parts.length !== 3 || parts[0].type !== 'variable_expr' || NOT_RESOURCES.has(parts[0].text)) return undefined;
  if (parts[1].type !== 'get_attr' || parts[2].type !== 'splat') return undefined;
  return `${parts[0].text}.${named(parts[1])[0]?.text}`;
}

function address(prefix: string, ref: string, key: string | number | undefined): string {
  if (typeof key === 'number' && !Number.isInteger(key)) throw new HclError(`index ${numberText(key)} is not a whole number`);
  return `${prefix}${ref}${key === undefined ? '' : keyText(key)}`;
}
