/**
 * HCL expressions read statically, as Terraform would before `plan`: literals, `var.x` (the module's inputs or
 * the variable's default), `local.x`, `count.index`, `each.key`/`each.value`, templates and collections of those.
 * Anything else (a resource's attribute, a function call, a condition) is unknown here, never guessed. Values
 * are built as the JSON nodes the plan mappers read (`values` of a plan resource), placed on the HCL text.
 * The syntax tree is tree-sitter's (@tree-sitter-grammars/tree-sitter-hcl), given by the caller: the core never
 * loads the parser.
 */
import type { Node } from 'jsonc-parser';

/** The part of a tree-sitter syntax node the reader uses (web-tree-sitter's `Node` has it). */
export interface HclSyntaxNode {
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly text: string;
  readonly namedChildren: ReadonlyArray<HclSyntaxNode | null>;
  readonly hasError: boolean;
  readonly isMissing: boolean;
}

/** Parses HCL text (a tree-sitter parser set to the HCL grammar); `delete` frees a tree that lives outside the JS heap. */
export type HclParse = (text: string) => { rootNode: HclSyntaxNode; delete?(): void } | null;

/** What names in an expression stand for: the module's variables, its locals, and the instance's index. */
export interface Scope {
  vars: Map<string, Node | undefined>;
  locals: Map<string, HclSyntaxNode>;
  /** Offset of the file in the analysed text: syntax offsets are the file's own. */
  base: number;
  localBase: Map<string, number>;
  count?: number;
  each?: { key: string; value: Node | undefined };
  /** Locals being evaluated (a cycle is unknown). */
  busy?: Set<string>;
  /**
   * Numbers written with an exponent and no fraction (`1e1`), by their offset in the analysed text: the grammar
   * reads only `1.0e1`, so the file was parsed with each written as zeros of the same length (./tf.ts).
   */
  numbers?: ReadonlyMap<number, number>;
}

/** Each node's named children, read once: a tree-sitter node's children are built anew on each read. */
const children = new WeakMap<HclSyntaxNode, HclSyntaxNode[]>();
export function named(n: HclSyntaxNode): HclSyntaxNode[] {
  let c = children.get(n);
  if (!c) children.set(n, (c = n.namedChildren.filter((x): x is HclSyntaxNode => x !== null)));
  return c;
}

function scalar(type: 'string' | 'number' | 'boolean', value: unknown, offset: number, length: number): Node {
  return { type, value, offset, length } as Node;
}

/** A node moved to another place (a variable's value shown where it is used), its inner places kept. */
function placed(n: Node, offset: number, length: number): Node {
  return { ...n, offset, length };
}

/** jsonc-parser's nodes are read-only to its users; these are built here, parents set as they are joined. */
type Building = { -readonly [K in keyof Node]: Node[K] };
const setParent = (n: Node, parent: Node) => ((n as Building).parent = parent);

export function objectNode(entries: Array<[string, Node, number]>, offset: number, length: number): Node {
  const obj = { type: 'object', offset, length, children: [] as Node[] } as Node;
  for (const [key, value, keyAt] of entries) {
    const prop = { type: 'property', offset: keyAt, length: value.offset + value.length - keyAt, parent: obj, children: [] } as Node;
    const k = { ...scalar('string', key, keyAt, key.length), parent: prop } as Node;
    // Values are built for their place (a variable's value is copied where it is used): joined as they are.
    setParent(value, prop);
    (prop as Building).children = [k, value];
    obj.children!.push(prop);
  }
  return obj;
}

export function arrayNode(items: Node[], offset: number, length: number): Node {
  const arr = { type: 'array', offset, length, children: [] as Node[] } as Node;
  for (const it of items) {
    setParent(it, arr);
    arr.children!.push(it);
  }
  return arr;
}

/** The string a `string_lit` or a template of literals and known scalars writes, or undefined. */
function template(n: HclSyntaxNode, scope: Scope): string | undefined {
  let out = '';
  for (const part of named(n)) {
    if (part.type === 'quoted_template_start' || part.type === 'quoted_template_end') continue;
    if (part.type === 'template_literal') out += part.text;
    else if (part.type === 'escape_sequence') out += unescape(part.text);
    else if (part.type === 'template_interpolation') {
      const inner = named(part).find((c) => c.type === 'expression');
      const v = inner && evaluate(inner, scope);
      if (!v || (v.type !== 'string' && v.type !== 'number' && v.type !== 'boolean')) return undefined;
      out += String(v.value);
    } else return undefined;
  }
  return out;
}

function unescape(s: string): string {
  const simple: Record<string, string> = { '\\n': '\n', '\\t': '\t', '\\r': '\r', '\\"': '"', '\\\\': '\\' };
  return simple[s] ?? s;
}

/** The value of an expression node, or undefined when it is not known before plan. */
export function evaluate(n: HclSyntaxNode, scope: Scope): Node | undefined {
  const parts = named(n);
  const at = scope.base + n.startIndex;
  const len = n.endIndex - n.startIndex;
  if (n.type === 'expression' && parts[0]?.type === 'variable_expr') return reference(n, parts, scope);
  if (n.type === 'expression' || n.type === 'literal_value' || n.type === 'collection_value' || n.type === 'template_expr')
    return parts.length === 1 ? evaluate(parts[0], scope) : undefined;
  switch (n.type) {
    case 'numeric_lit': {
      const v = scope.numbers?.get(at) ?? Number(n.text);
      return Number.isFinite(v) ? scalar('number', v, at, len) : undefined;
    }
    case 'bool_lit':
      return scalar('boolean', n.text === 'true', at, len);
    case 'string_lit':
    case 'quoted_template': {
      const s = template(n, scope);
      return s === undefined ? undefined : scalar('string', s, at, len);
    }
    case 'tuple': {
      const items = parts.filter((p) => p.type === 'expression').map((p) => evaluate(p, scope));
      return items.every((i): i is Node => i !== undefined) ? arrayNode(items, at, len) : undefined;
    }
    case 'object':
      return objectValue(n, scope, at, len);
    case 'function_call':
      return call(n, scope, at, len);
    default:
      return undefined;
  }
}

/**
 * The conversion functions whose result is known when their argument is: `toset` (a set of strings: distinct,
 * in lexical order, as Terraform orders them), `tolist` and `tomap`. Any other function is unknown here.
 */
function call(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const [fn, args] = named(n);
  const exprs = args ? named(args).filter((c) => c.type === 'expression') : [];
  const v = exprs.length === 1 ? evaluate(exprs[0], scope) : undefined;
  if (!v) return undefined;
  if (fn?.text === 'toset' && v.type === 'array' && (v.children ?? []).every((c) => c.type === 'string')) {
    const seen = new Map((v.children ?? []).map((c) => [String(c.value), c]));
    return arrayNode(
      [...seen.keys()].sort().map((k) => seen.get(k)!),
      at,
      len,
    );
  }
  if ((fn?.text === 'tolist' && v.type === 'array') || (fn?.text === 'tomap' && v.type === 'object')) return placed(v, at, len);
  return undefined;
}

function objectValue(n: HclSyntaxNode, scope: Scope, at: number, len: number): Node | undefined {
  const entries: Array<[string, Node, number]> = [];
  for (const elem of named(n).filter((e) => e.type === 'object_elem')) {
    const [k, v] = named(elem).filter((c) => c.type === 'expression');
    if (!k || !v) return undefined;
    const kp = named(k);
    // A bare name as a key is the name itself, not a variable.
    const key = kp.length === 1 && kp[0].type === 'variable_expr' ? kp[0].text : evaluate(k, scope)?.value;
    const value = evaluate(v, scope);
    if (typeof key !== 'string' || !value) return undefined;
    entries.push([key, value, scope.base + k.startIndex]);
  }
  return objectNode(entries, at, len);
}

/** `var.x`, `local.x`, `count.index`, `each.key`/`each.value`, with the attributes and indexes after them. */
function reference(n: HclSyntaxNode, parts: HclSyntaxNode[], scope: Scope): Node | undefined {
  const root = parts[0].text;
  const steps = parts.slice(1);
  const at = scope.base + n.startIndex;
  const len = n.endIndex - n.startIndex;
  const first = steps[0]?.type === 'get_attr' ? named(steps[0])[0]?.text : undefined;
  let v: Node | undefined;
  if (root === 'var' && first) v = scope.vars.get(first);
  else if (root === 'local' && first) v = local(first, scope);
  else if (root === 'count' && first === 'index' && scope.count !== undefined) v = scalar('number', scope.count, at, len);
  else if (root === 'each' && scope.each && (first === 'key' || first === 'value'))
    v = first === 'key' ? scalar('string', scope.each.key, at, len) : scope.each.value;
  else return undefined;
  for (const step of steps.slice(1)) v = v && traverse(v, step, scope);
  return v && placed(v, at, len);
}

function local(name: string, scope: Scope): Node | undefined {
  const expr = scope.locals.get(name);
  const busy = (scope.busy ??= new Set());
  if (!expr || busy.has(name)) return undefined;
  busy.add(name);
  try {
    return evaluate(expr, { ...scope, base: scope.localBase.get(name) ?? scope.base, count: undefined, each: undefined });
  } finally {
    busy.delete(name);
  }
}

function traverse(v: Node, step: HclSyntaxNode, scope: Scope): Node | undefined {
  let key: string | number | undefined;
  if (step.type === 'get_attr') key = named(step)[0]?.text;
  else if (step.type === 'index') {
    const inner = named(step)[0];
    if (inner?.type === 'legacy_index') key = Number(inner.text.replace(/^\./, ''));
    else {
      const e = inner && named(inner).find((c) => c.type === 'expression');
      const k = e && evaluate(e, scope);
      key = k?.type === 'number' || k?.type === 'string' ? (k.value as string | number) : undefined;
    }
  }
  if (typeof key === 'number' && v.type === 'array') return v.children?.[key];
  if (typeof key === 'string' && v.type === 'object') return v.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];
  return undefined;
}

/** The references of an expression, as a plan's `configuration` lists them: `google_compute_disk.data.id`, `google_compute_disk.data`. */
export function referencesOf(n: HclSyntaxNode, out: string[] = []): string[] {
  if (n.type === 'expression' && named(n)[0]?.type === 'variable_expr') {
    const parts = named(n);
    const names = [parts[0].text];
    for (const s of parts.slice(1)) {
      if (s.type !== 'get_attr') break;
      names.push(named(s)[0]?.text ?? '');
    }
    for (let i = names.length; i >= 2; i--) out.push(names.slice(0, i).join('.'));
  }
  for (const c of named(n)) referencesOf(c, out);
  return out;
}

/** Numbers the grammar cut before an exponent it does not read (`1` of `1e1`): each whole number's place. */
function splitExponents(
  n: HclSyntaxNode,
  text: string,
  out: Array<{ start: number; end: number }> = [],
): Array<{ start: number; end: number }> {
  if (n.type === 'numeric_lit' && /^\d+$/.test(n.text)) {
    const exp = /^[eE][+-]?\d+/.exec(text.slice(n.endIndex, n.endIndex + 32));
    if (exp) out.push({ start: n.startIndex, end: n.endIndex + exp[0].length });
  }
  for (const c of named(n)) splitExponents(c, text, out);
  return out;
}

/**
 * HCL reads `1e1` (NumericLit: the fraction before an exponent is optional); the tree-sitter grammar does not. The
 * text with each such number written as zeros of its length, to parse again, its value put in `numbers` at its
 * offset (`base` + its place), which `evaluate` reads (`Scope.numbers`); undefined when the tree has none.
 */
export function zeroedExponents(root: HclSyntaxNode, text: string, base: number, numbers: Map<number, number>): string | undefined {
  const split = splitExponents(root, text);
  if (!split.length) return undefined;
  let zeroed = text;
  for (const { start, end } of split) {
    zeroed = zeroed.slice(0, start) + '0'.repeat(end - start) + zeroed.slice(end);
    numbers.set(base + start, Number(text.slice(start, end)));
  }
  return zeroed;
}
