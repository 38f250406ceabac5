/**
 * HCL expressions evaluated as Terraform evaluates them before `plan`: literals, `var.x` (the module's inputs or the
 * variable's default), `local.x`, `count.index`, `each.key`/`each.value`, templates and collections; conditionals,
 * operators, `for` expressions, splats and the functions of ./hcl-functions over known values. A resource's
 * attribute, a data source or a module's output is unknown here, never guessed; an unknown operand makes the result
 * unknown, and `Scope.why` is told which input would make it known. A value Terraform refuses (a string that is not
 * a number where one is needed) is unknown too, and `why` says what is wrong. Values are built as the JSON nodes the
 * plan mappers read (`values` of a plan resource), placed on the HCL text. `evaluate` never throws.
 */
import type { Node } from 'jsonc-parser';
import {
  HclError,
  knownLength,
  toBool,
  toStr,
  toValue,
  Unknown,
  unknownIn,
  unknownsOf,
  withUnknowns,
  type Value,
  type Why,
} from './hcl-convert';
import { FUNCTIONS, Kept, type Arg } from './hcl-functions';
import { arrayNode, named, objectNode, placed, scalar, valueNode, type HclSyntaxNode } from './hcl-nodes';
import { binary, operatorIn, shortCircuit, unary } from './hcl-operators';

export { arrayNode, named, objectNode, type HclParse, type HclSyntaxNode } from './hcl-nodes';
export { referencesOf, zeroedExponents } from './hcl-scan';

export type { Why } from './hcl-convert';

/**
 * What follows "<what>" in a finding about a value that is not known: what Terraform refuses in it, or why it is
 * unknown until plan and which input would make it known.
 */
export function whyText(why: readonly Why[]): string {
  const distinct = (xs: Array<string | undefined>) => [...new Set(xs.filter((x): x is string => !!x))];
  const errors = distinct(why.filter((w) => w.error).map((w) => w.text));
  if (errors.length) return `is not valid: ${errors.join('; ')}; Terraform refuses it, fix the value`;
  const facts = distinct(why.map((w) => w.text)).slice(0, 3);
  const actions = distinct([...why.map((w) => w.action), 'run on the plan JSON']);
  return `is unknown until plan${facts.length ? ` (${facts.join('; ')})` : ''}: ${actions.join(', or ')}`;
}

/** What names in an expression stand for: the module's variables, its locals, and the instance's index. */
export interface Scope {
  vars: Map<string, Node | undefined>;
  locals: Map<string, HclSyntaxNode>;
  /** Offset of the file in the analysed text: syntax offsets are the file's own. */
  base: number;
  localBase: Map<string, number>;
  count?: number;
  /** `why`: why each.value is unknown, when it is (an entry of a for_each map whose value is unknown until plan). */
  each?: { key: string; value: Node | undefined; why?: Why[] };
  /** Names a `for` expression or a dynamic block's iterator binds. */
  names?: ReadonlyMap<string, Node | undefined>;
  /**
   * The instances of a resource of this module (`google_compute_disk.data`), in order, with their addresses, when
   * they are known: what a dynamic block's `for_each` over that resource makes (./tf-dynamic.ts); null where its count
   * is unknown until plan (said on its count).
   */
  resourceInstances?(reference: string): Array<{ key: string | number; address: string }> | null | undefined;
  /** A dynamic block's iterator over a resource's instances: the address of the instance it stands for. */
  instanceOf?: ReadonlyMap<string, string>;
  /**
   * A resource of this module (`google_compute_disk.data`) as a reference to it stands for: its instance's
   * configured arguments (a list of them for `count`, a map for `for_each`), the attributes the provider computes
   * unknown (./tf-resource-values.ts); a Why where its instances are unknown until plan; undefined where the
   * module has no such resource.
   */
  resource?(reference: string): Node | Why | undefined;
  /** Why a variable whose value is unknown is so (a module's input unknown in its caller). */
  varWhy?: ReadonlyMap<string, Why>;
  /** Told why values evaluated in this scope are unknown. */
  why?: Why[];
  /** Locals being evaluated (a cycle is unknown). */
  busy?: Set<string>;
  /** False in a variable definitions file, where Terraform calls no function. */
  functions?: false;
  /** Evaluation steps left: a `for` over a large range is cut off, never minutes of work. */
  work?: { left: number };
  /**
   * Numbers written with an exponent and no fraction (`1e1`), by their offset in the analysed text: the grammar
   * reads only `1.0e1`, so the file was parsed with each written as zeros of the same length (./tf.ts).
   */
  numbers?: ReadonlyMap<number, number>;
}

/** The most evaluation steps one expression takes. */
const WORK = 200_000;

/** The value of an expression node, or undefined when it is not known before plan (`scope.why` says why). */
export function evaluate(n: HclSyntaxNode, scope: Scope): Node | undefined {
  const s = scope.work ? scope : { ...scope, work: { left: WORK } };
  try {
    return value(n, s);
  } catch (e) {
    if (e instanceof Unknown) {
      scope.why?.push(...e.why);
      return undefined;
    }
    const text = e instanceof HclError ? e.message : 'the expression is too deep to evaluate here';
    scope.why?.push({ text, error: e instanceof HclError });
    return undefined;
  }
}

/** Says why a value is unknown; undefined, for `return unknown(...)`. */
function unknown(scope: Scope, text: string): undefined {
  scope.why?.push({ text });
  return undefined;
}

const POSTFIX = new Set(['index', 'get_attr', 'splat', 'attr_splat', 'full_splat']);
const WRAPPERS = new Set(['expression', 'literal_value', 'collection_value', 'template_expr', 'operation', 'for_expr']);

/** The value of a node, throwing HclError where Terraform refuses it. */
function value(n: HclSyntaxNode, scope: Scope): Node | undefined {
  if (scope.work && --scope.work.left < 0) throw new HclError('the expression is too large to evaluate here');
  const at = scope.base + n.startIndex;
  const len = n.endIndex - n.startIndex;
  if (WRAPPERS.has(n.type)) return term(named(n), scope, at, len);
  switch (n.type) {
    case 'numeric_lit': {
      const v = scope.numbers?.get(at) ?? Number(n.text);
      return Number.isFinite(v) ? scalar('number', v, at, len) : undefined;
    }
    case 'bool_lit':
      return scalar('boolean', n.text === 'true', at, len);
    case 'null_lit':
      return scalar('null', null, at, len);
    case 'string_lit':
    case 'quoted_template':
      return template(n, scope, at, len);
    case 'tuple': {
      const items = named(n)
        .filter((p) => p.type === 'expression')
        .map((p) => value(p, scope));
      return items.every((i): i is Node => i !== undefined) ? arrayNode(items, at, len) : undefined;
    }
    case 'object':
      return objectValue(n, scope, at, len);
    case 'function_call':
      return call(n, scope, at, len);
    case 'conditional': {
      const [c, a, b] = named(n);
      const cond = c && value(c, scope);
      if (!cond || !a || !b) return undefined;
      const chosen = value(toBool(plain(cond)) ? a : b, scope);
      return chosen && placed(chosen, at, len);
    }
    case 'binary_operation':
      return binaryOperation(n, scope, at, len);
    case 'unary_operation': {
      const v = term(named(n), scope, at, len);
      return v && valueNode(unary(n.text.trimStart()[0], plain(v)), at, len);
    }
    case 'for_tuple_expr':
    case 'for_object_expr':
      return forExpression(n, scope, at, len);
    default:
      return unknown(scope, `${n.type.replace(/_/g, ' ')} is not evaluated here`);
  }
}

/** A node's plain value (a node built here always has one). */
function plain(n: Node): Value {
  const v = toValue(n);
  const why = v === undefined ? unknownIn(n) : undefined;
  if (why) throw new Unknown(why);
  if (v === undefined) throw new HclError('a value of an unknown kind');
  return v;
}

/** A term: a value, then the attributes, indexes and splats after it. */
function term(parts: HclSyntaxNode[], scope: Scope, at: number, len: number): Node | undefined {
  const [head, ...steps] = parts;
  if (!head) return undefined;
  if (head.type === 'conditional') return value(head, scope);
  let v = head.type === 'variable_expr' ? reference(head.text, steps, scope) : value(head, scope);
  if (head.type !== 'variable_expr') for (const s of steps) v = v && step(v, s, scope);
  return v && (steps.length || head.type === 'variable_expr' ? placed(v, at, len) : v);
}

function binaryOperation(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const parts = named(n);
  const split = parts.findIndex((p, i) => i > 0 && !POSTFIX.has(p.type));
  if (split < 1) return undefined;
  const op = operatorIn(n.text.slice(parts[split - 1].endIndex - n.startIndex, parts[split].startIndex - n.startIndex));
  if (!op) return undefined;
  const left = term(parts.slice(0, split), scope, at, len);
  const early = left && shortCircuit(op, plain(left));
  if (early !== undefined) return scalar('boolean', early, at, len);
  const right = term(parts.slice(split), scope, at, len);
  return left && right && valueNode(binary(op, plain(left), plain(right)), at, len);
}

/** A string literal or template; a template of one interpolation alone is that value, as Terraform reads it. */
function template(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const parts = named(n).filter((p) => p.type !== 'quoted_template_start' && p.type !== 'quoted_template_end');
  if (parts.length === 1 && parts[0].type === 'template_interpolation') {
    const inner = named(parts[0]).find((c) => c.type === 'expression');
    const v = inner && value(inner, scope);
    return v && placed(v, at, len);
  }
  let out = '';
  let known = true;
  for (const part of parts) {
    if (part.type === 'template_literal') out += literal(part.text);
    else if (part.type === 'escape_sequence') out += unescape(part.text);
    else if (part.type === 'template_interpolation') {
      const inner = named(part).find((c) => c.type === 'expression');
      const v = inner && value(inner, scope);
      if (!v) known = false;
      else out += toStr(plain(v));
    } else return unknown(scope, 'a template directive (%{...}) is not evaluated here');
  }
  return known ? scalar('string', out, at, len) : undefined;
}

/** A template's literal text as Terraform reads it: escapes, and `$${` / `%%{` for a literal `${` / `%{`. */
function literal(text: string): string {
  return text.replace(/\\(?:[ntr"\\]|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})|\$\$\{|%%\{/g, (m) => (m[0] === '\\' ? unescape(m) : m.slice(1)));
}

function unescape(s: string): string {
  const simple: Record<string, string> = { '\\n': '\n', '\\t': '\t', '\\r': '\r', '\\"': '"', '\\\\': '\\' };
  if (simple[s] !== undefined) return simple[s];
  const code = /^\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))$/.exec(s);
  const cp = code ? parseInt(code[1] ?? code[2], 16) : NaN;
  return cp <= 0x10ffff ? String.fromCodePoint(cp) : s;
}

/** A function call: `try` and `can` take errors; the others are unknown when an argument is. */
function call(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const [fn, argsNode] = named(n);
  const name = fn?.text ?? '';
  const exprs = argsNode ? named(argsNode).filter((c) => c.type === 'expression') : [];
  if (scope.functions === false) throw new HclError(`${name}() is called where Terraform calls no function`);
  if (name === 'try' || name === 'can') return tryOrCan(name, exprs, scope, at, len);
  if (name === 'length' && exprs.length === 1) {
    // The number of a resource's instances, or of a partly unknown object's keys: known without their values.
    const c = value(exprs[0], scope);
    const n = c && (knownLength(c) ?? FUNCTIONS.length([{ node: c, value: plain(c) }]));
    return n === undefined ? undefined : valueNode(n as Value, at, len);
  }
  const f = Object.prototype.hasOwnProperty.call(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!f) return unknown(scope, `${name}() is not evaluated here`);
  const nodes = exprs.map((e) => value(e, scope));
  if (!nodes.every((x): x is Node => x !== undefined)) return undefined;
  // `f(list...)`: the list's elements are the last arguments.
  const last = nodes[nodes.length - 1];
  if (argsNode && named(argsNode).some((c) => c.type === 'ellipsis') && last) {
    if (last.type !== 'array') throw new HclError(`${name}(...) needs a list before the ellipsis`);
    nodes.splice(nodes.length - 1, 1, ...(last.children ?? []));
  }
  const args: Arg[] = nodes.map((node) => ({ node, value: plain(node) }));
  const out = f(args);
  return out instanceof Kept ? placed(out.node, at, len) : valueNode(out, at, len);
}

/**
 * `try(a, b, ...)`: the first argument Terraform does not refuse; an unknown one before it makes the result unknown,
 * as at plan. `can(a)`: whether Terraform takes it.
 */
function tryOrCan(name: string, exprs: HclSyntaxNode[], scope: Scope, at: number, len: number): Node | undefined {
  for (const e of exprs) {
    try {
      const v = value(e, scope);
      if (!v) return undefined;
      return name === 'can' ? scalar('boolean', true, at, len) : placed(v, at, len);
    } catch (err) {
      if (!(err instanceof HclError)) throw err;
      if (name === 'can') return scalar('boolean', false, at, len);
    }
  }
  throw new HclError(`${name}() has no argument that is valid`);
}

/** `[for k, v in coll : x if c]` and `{for k, v in coll : k => v...}`. */
function forExpression(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const parts = named(n);
  const intro = parts.find((p) => p.type === 'for_intro');
  const ids = intro ? named(intro).filter((p) => p.type === 'identifier') : [];
  const over = intro && named(intro).find((p) => p.type === 'expression');
  const [body, val] = parts.filter((p) => p.type === 'expression');
  const cond = parts.find((p) => p.type === 'for_cond');
  const condition = cond && named(cond).find((p) => p.type === 'expression');
  const grouping = parts.some((p) => p.type === 'ellipsis');
  const coll = over && value(over, scope);
  if (!coll || !body || !ids.length) return undefined;
  if (coll.type === 'object' && unknownsOf(coll)) throw new Unknown(unknownIn(coll)!);
  const entries: Array<[Node, Node]> =
    coll.type === 'array'
      ? (coll.children ?? []).map((c, i) => [scalar('number', i, c.offset, c.length), c])
      : coll.type === 'object'
        ? (coll.children ?? []).map((p) => [p.children![0], p.children![1]])
        : [];
  if (coll.type !== 'array' && coll.type !== 'object') throw new HclError('for needs a list, a set or a map');
  const items: Node[] = [];
  const groups = new Map<string, Node[]>();
  for (const [k, v] of entries) {
    const names = new Map(scope.names);
    if (ids.length > 1) names.set(ids[0].text, k);
    names.set(ids[ids.length - 1].text, v);
    const s = { ...scope, names };
    if (condition) {
      const c = value(condition, s);
      if (!c) return undefined;
      if (!toBool(plain(c))) continue;
    }
    const item = value(body, s);
    if (!item) return undefined;
    if (n.type === 'for_tuple_expr') items.push(item);
    else {
      const it = val && value(val, s);
      if (!it) return undefined;
      const key = toStr(plain(item));
      if (groups.has(key) && !grouping) throw new HclError(`for gives the key ${JSON.stringify(key)} twice (use ... to group)`);
      groups.set(key, [...(groups.get(key) ?? []), it]);
    }
  }
  if (n.type === 'for_tuple_expr') return arrayNode(items, at, len);
  const object = [...groups].map(([k, vs]): [string, Node, number] => [k, grouping ? arrayNode(vs, at, len) : vs[0], at]);
  return objectNode(object, at, len);
}

/** An object: where a key is known and its value is not, the object is partly unknown (`Unknowns`), as in Terraform. */
function objectValue(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const entries: Array<[string, Node, number]> = [];
  const unknownKeys = new Map<string, Why[]>();
  const order: string[] = [];
  let known = true;
  for (const elem of named(n).filter((e) => e.type === 'object_elem')) {
    const [k, v] = named(elem).filter((c) => c.type === 'expression');
    if (!k || !v) return undefined;
    const kp = named(k);
    // A bare name as a key is the name itself, not a variable.
    const keyNode = kp.length === 1 && kp[0].type === 'variable_expr' ? undefined : value(k, scope);
    const key = keyNode ? toStr(plain(keyNode)) : kp.length === 1 && kp[0].type === 'variable_expr' ? kp[0].text : undefined;
    if (key === undefined) {
      known = false;
      continue;
    }
    const why: Why[] = [];
    const item = partOf(v, { ...scope, why });
    order.push(key);
    if (item) entries.push([key, item, scope.base + k.startIndex]);
    else unknownKeys.set(key, why.length ? why : [{ text: `${key} is not known here` }]);
  }
  if (!known) return undefined;
  const obj = objectNode(
    entries.filter(([k]) => !unknownKeys.has(k)),
    at,
    len,
  );
  return unknownKeys.size ? withUnknowns(obj, { keys: unknownKeys, order }) : obj;
}

/** An object's value: one that needs a partly unknown value whole is unknown, its why told, not the object. */
function partOf(v: HclSyntaxNode, scope: Scope): Node | undefined {
  try {
    return value(v, scope);
  } catch (e) {
    if (!(e instanceof Unknown)) throw e;
    scope.why?.push(...e.why);
    return undefined;
  }
}

const attrName = (s: HclSyntaxNode | undefined) => (s?.type === 'get_attr' ? named(s)[0]?.text : undefined);

/** A reference (`var.x`, `local.x`, `count.index`, `each.key`, a `for` name...) with the steps after it. */
function reference(root: string, steps: HclSyntaxNode[], scope: Scope): Node | undefined {
  const first = attrName(steps[0]);
  let rest = steps.slice(1);
  let v: Node | undefined;
  if (scope.names?.has(root)) {
    v = scope.names.get(root);
    rest = steps;
    if (!v) return unknown(scope, `${root} is known only after apply`);
  } else if (root === 'var' && first !== undefined) {
    if (!scope.vars.has(first)) return unknown(scope, `var.${first} is not declared`);
    v = scope.vars.get(first);
    const given = scope.varWhy?.get(first) ?? { text: `var.${first} has no value`, action: `set var.${first} with -var or a .tfvars file` };
    if (!v) return void scope.why?.push(given);
  } else if (root === 'local' && first !== undefined) v = local(first, scope);
  else if (root === 'count' && first === 'index')
    v = scope.count === undefined ? unknown(scope, 'count.index is known only in a block with count') : scalar('number', scope.count, 0, 0);
  else if (root === 'each' && (first === 'key' || first === 'value') && scope.each)
    v =
      first === 'key'
        ? scalar('string', scope.each.key, 0, 0)
        : (scope.each.value ??
          (scope.each.why ? void scope.why?.push(...scope.each.why) : unknown(scope, 'each.value is known only after apply')));
  else {
    const r = first !== undefined && !NOT_RESOURCES.has(root) ? scope.resource?.(`${root}.${first}`) : undefined;
    if (!r) return unknown(scope, outside(root, first, attrName(steps[1])));
    if (!('type' in r)) return void scope.why?.push(r);
    v = r;
  }
  for (const s of rest) v = v && step(v, s, scope);
  return v;
}

const NOT_RESOURCES = new Set(['var', 'local', 'each', 'count', 'module', 'data', 'path', 'terraform', 'self']);

/** Why a reference to something other than this module's values is unknown here. */
function outside(root: string, first: string | undefined, second: string | undefined): string {
  if (root === 'data') return `data.${first}.${second} is read only at plan`;
  if (root === 'module') return `module.${first}'s outputs are known only at plan`;
  if (['var', 'local', 'each', 'count', 'path', 'terraform', 'self'].includes(root)) return `${root}.${first ?? ''} is not read here`;
  return `${root}.${first}${second ? `.${second}` : ''} is known only after apply`;
}

function local(name: string, scope: Scope): Node | undefined {
  const expr = scope.locals.get(name);
  const busy = (scope.busy ??= new Set());
  if (!expr) return unknown(scope, `local.${name} is not declared`);
  if (busy.has(name)) return unknown(scope, `local.${name} refers to itself`);
  busy.add(name);
  try {
    const base = scope.localBase.get(name) ?? scope.base;
    return value(expr, { ...scope, base, count: undefined, each: undefined, names: undefined });
  } finally {
    busy.delete(name);
  }
}

/** One attribute, index or splat step into a known value. */
function step(v: Node, s: HclSyntaxNode, scope: Scope): Node | undefined {
  if (s.type === 'splat') return step(v, named(s)[0] ?? s, scope);
  if (s.type === 'attr_splat' || s.type === 'full_splat') {
    // A splat of a list maps the steps after it over its elements; of one value, a list of it; of null, [].
    const over = v.type === 'array' ? (v.children ?? []) : v.type === 'null' ? [] : [v];
    const out: Node[] = [];
    for (const item of over) {
      let x: Node | undefined = item;
      for (const inner of named(s)) x = x && step(x, inner, scope);
      if (!x) return undefined;
      out.push(x);
    }
    return arrayNode(out, v.offset, v.length);
  }
  let key: Value | undefined;
  if (s.type === 'get_attr') key = attrName(s);
  else if (s.type === 'index') {
    const inner = named(s)[0];
    if (inner?.type === 'legacy_index') key = Number(inner.text.replace(/^\./, ''));
    else {
      const e = inner && named(inner).find((c) => c.type === 'expression');
      const k = e && value(e, scope);
      if (!k) return undefined;
      key = plain(k);
    }
  }
  if (key === undefined) return undefined;
  if (v.type === 'array' && s.type === 'index') {
    const i = typeof key === 'number' ? key : Number(toStr(key));
    const item = Number.isInteger(i) ? v.children?.[i] : undefined;
    if (!item) throw new HclError(`index ${toStr(key)} is out of the list (${v.children?.length ?? 0} items)`);
    return item;
  }
  if (v.type === 'object') {
    const k = toStr(key);
    const p = v.children?.find((c) => c.children?.[0]?.value === k);
    const u = !p?.children?.[1] ? unknownsOf(v) : undefined;
    const why = u && (u.keys.get(k) ?? u.other?.(k));
    if (why) {
      scope.why?.push(...why);
      return undefined;
    }
    if (!p?.children?.[1]) throw new HclError(`${s.type === 'get_attr' ? 'no attribute' : 'no key'} "${k}"`);
    return p.children[1];
  }
  throw new HclError(
    `${v.type === 'null' ? 'null' : `a ${v.type}`} has no ${s.type === 'get_attr' ? `attribute "${toStr(key)}"` : 'index'}`,
  );
}
