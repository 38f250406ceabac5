/**
 * A variable's `type` constraint read from its syntax (`number`, `list(string)`, `map(object({ size = number }))`,
 * `optional(number, 10)`), for ./hcl-convert's `convert`. A constraint not read here is `any`: the value is kept as
 * written, never refused by a guess.
 */
import { toValue, type TypeSpec } from './hcl-convert';
import { named, type HclSyntaxNode } from './hcl-nodes';
import { evaluate, type Scope } from './hcl-values';

const PRIMITIVES = new Set(['string', 'number', 'bool', 'any']);

/** The inner node of an `expression` of one term, unwrapped. */
function inner(e: HclSyntaxNode | undefined): HclSyntaxNode | undefined {
  let n = e;
  while (n && (n.type === 'expression' || n.type === 'collection_value') && named(n).length === 1) n = named(n)[0];
  return n;
}

const argsOf = (call: HclSyntaxNode) => {
  const a = named(call).find((c) => c.type === 'function_arguments');
  return a ? named(a).filter((c) => c.type === 'expression') : [];
};

/** The type a constraint's syntax says. */
export function typeOf(e: HclSyntaxNode | undefined, scope: Scope): TypeSpec {
  const n = inner(e);
  if (n?.type === 'variable_expr') return PRIMITIVES.has(n.text) ? (n.text as TypeSpec) : 'any';
  if (n?.type !== 'function_call') return 'any';
  const name = named(n)[0]?.text;
  const [arg] = argsOf(n);
  if (name === 'list' || name === 'set' || name === 'map') return { [name]: typeOf(arg, scope) } as TypeSpec;
  const body = inner(arg);
  if (name === 'tuple' && body?.type === 'tuple') return { tuple: named(body).map((x) => typeOf(x, scope)) };
  if (name !== 'object' || body?.type !== 'object') return 'any';
  const object: Extract<TypeSpec, { object: unknown }>['object'] = {};
  for (const elem of named(body).filter((x) => x.type === 'object_elem')) {
    const [k, v] = named(elem).filter((c) => c.type === 'expression');
    const key = k?.text.replace(/^"|"$/g, '');
    const t = inner(v);
    if (!key || !t) return 'any';
    if (t.type === 'function_call' && named(t)[0]?.text === 'optional') {
      const [of, def] = argsOf(t);
      const d = def && evaluate(def, scope);
      const value = d && toValue(d);
      object[key] = { type: typeOf(of, scope), optional: true, ...(value === undefined ? {} : { default: value }) };
    } else object[key] = { type: typeOf(v, scope), optional: false };
  }
  return { object };
}
