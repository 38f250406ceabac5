/**
 * Values of HCL expressions as plain data, and Terraform's conversions between them: string ↔ number ↔ bool where
 * Terraform converts (`"3"` is 3 where a number is needed, `"true"` is true), and a value converted to a variable's
 * declared `type` (`number`, `list(string)`, `object({...})` with `optional` attributes). A conversion Terraform
 * refuses throws `HclError` with a short sentence saying why; the evaluator turns it into a finding, never a crash.
 * See https://developer.hashicorp.com/terraform/language/expressions/type-constraints#conversion-of-primitive-types
 */
import type { Node } from 'jsonc-parser';

/** Why a value is not known: the input that would make it known, or (`error`) what Terraform refuses in it. */
export interface Why {
  text: string;
  /** What the user can do to make it known (`set var.x with -var or a .tfvars file`). */
  action?: string;
  error?: boolean;
}

/**
 * An object some of whose attributes are not known before plan, as Terraform has them (a partly unknown object):
 * its keys are known, and so are the attributes it holds. `keys` says why each attribute it lacks is unknown, in the
 * order of `order` (every key, known or not, as written); `other` says it of an attribute not written at all (a
 * resource's attribute the provider computes, `id`): undefined where the object has no such attribute. Such an
 * object has no plain value (`toValue`): a function or operator over it is unknown, never computed from part of it.
 */
export interface Unknowns {
  keys: ReadonlyMap<string, Why[]>;
  order?: readonly string[];
  other?: (key: string) => Why[] | undefined;
}
const UNKNOWNS = Symbol('unknown attributes');

export function unknownsOf(n: Node): Unknowns | undefined {
  return (n as Node & { [UNKNOWNS]?: Unknowns })[UNKNOWNS];
}

/** Marks an object node (built for this, or a copy) as partly unknown; kept by a copy made with `{ ...n }`. */
export function withUnknowns(n: Node, u: Unknowns): Node {
  (n as Node & { [UNKNOWNS]?: Unknowns })[UNKNOWNS] = u;
  return n;
}

/** Thrown where a value that holds a partly unknown object is needed whole (a function's argument, an operand). */
export class Unknown extends Error {
  constructor(readonly why: Why[]) {
    super('unknown');
  }
}

/** Why the first partly unknown object in a value is so, or undefined where the value holds none. */
export function unknownIn(n: Node, depth = 0): Why[] | undefined {
  const u = n.type === 'object' ? unknownsOf(n) : undefined;
  if (u) return [...u.keys.values()][0] ?? [{ text: 'an attribute the provider computes is known only after apply' }];
  if (depth > 32) return undefined;
  for (const c of n.children ?? []) {
    const w = unknownIn(c, depth + 1);
    if (w) return w;
  }
  return undefined;
}

/** The number of items of a list, or of keys of a partly unknown object (known without their values); else undefined. */
export function knownLength(n: Node): number | undefined {
  const u = n.type === 'object' ? unknownsOf(n) : undefined;
  return n.type === 'array' || u ? (n.children?.length ?? 0) + (u?.keys.size ?? 0) : undefined;
}

/** A known value: null, a primitive, a list (lists, sets and tuples) or an object (maps and objects). */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** A value Terraform refuses (a string that is not a number where one is needed): the message says what. */
export class HclError extends Error {}

export const isList = (v: Value): v is Value[] => Array.isArray(v);
export const isMap = (v: Value): v is { [key: string]: Value } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as it is written in messages: `"abc"`, `3`, `true`, `null`, `a list`, `an object`. */
export function shown(v: Value): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (isList(v)) return 'a list';
  if (isMap(v)) return 'an object';
  return String(v);
}

/** The plain value of a JSON node, or undefined when it holds something else. */
export function toValue(n: Node): Value | undefined {
  switch (n.type) {
    case 'null':
      return null;
    case 'string':
    case 'number':
    case 'boolean':
      return n.value as string | number | boolean;
    case 'array': {
      const out: Value[] = [];
      for (const c of n.children ?? []) {
        const v = toValue(c);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    case 'object': {
      if (unknownsOf(n)) return undefined;
      const out: { [key: string]: Value } = {};
      for (const p of n.children ?? []) {
        const [k, c] = p.children ?? [];
        const v = c && toValue(c);
        if (!k || v === undefined) return undefined;
        out[String(k.value)] = v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A number from a number or a string of one (Terraform's decimal notation); else HclError. */
export function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && DECIMAL.test(v)) return Number(v);
  if (v === null) throw new HclError('null is not a number');
  throw new HclError(`${shown(v)} is not a number`);
}

/**
 * A bool from a bool or the string "true"/"false" ("1"/"0" too, as Terraform's type library converts them:
 * https://github.com/zclconf/go-cty/blob/main/cty/convert/conversion_primitive.go); else HclError.
 */
export function toBool(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  if (v === null) throw new HclError('null is not a bool');
  throw new HclError(`${shown(v)} is not a bool`);
}

/** A string from a string, a number or a bool; else HclError. */
export function toStr(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return String(v);
  if (v === null) throw new HclError('null is not a string');
  throw new HclError(`${shown(v)} is not a string`);
}

/** A number written as Terraform writes it: no exponent for whole numbers of ordinary size. */
export function numberText(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(n);
}

/** Whether two values are equal as Terraform's `==` says: same type and value (`"1" == 1` is false). */
export function equal(a: Value, b: Value): boolean {
  if (isList(a) || isList(b)) return isList(a) && isList(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isMap(a) || isMap(b)) {
    if (!isMap(a) || !isMap(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && equal(a[k], b[k]));
  }
  return a === b;
}

/** A set's elements as Terraform orders them: distinct; strings lexically, numbers by value. */
export function asSet(items: Value[]): Value[] {
  const out: Value[] = [];
  for (const it of items) if (!out.some((o) => equal(o, it))) out.push(it);
  if (out.every((x) => typeof x === 'string')) return (out as string[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (out.every((x) => typeof x === 'number')) return (out as number[]).sort((a, b) => a - b);
  return out;
}

/** A type constraint (`type = ...` of a variable). */
export type TypeSpec =
  | 'string'
  | 'number'
  | 'bool'
  | 'any'
  | { list: TypeSpec }
  | { set: TypeSpec }
  | { map: TypeSpec }
  | { tuple: TypeSpec[] }
  | { object: Record<string, { type: TypeSpec; optional: boolean; default?: Value }> };

/** `value` converted to `type` as Terraform converts a variable's value; HclError where it refuses. */
export function convert(v: Value, type: TypeSpec): Value {
  if (v === null || type === 'any') return v;
  if (type === 'string') return toStr(v);
  if (type === 'number') return toNumber(v);
  if (type === 'bool') return toBool(v);
  if ('list' in type || 'set' in type) {
    if (!isList(v)) throw new HclError(`${shown(v)} is not a list`);
    const items = v.map((x) => convert(x, 'list' in type ? type.list : type.set));
    return 'set' in type ? asSet(items) : items;
  }
  if ('tuple' in type) {
    if (!isList(v) || v.length !== type.tuple.length) throw new HclError(`${shown(v)} is not a tuple of ${type.tuple.length}`);
    return v.map((x, i) => convert(x, type.tuple[i]));
  }
  if (!isMap(v)) throw new HclError(`${shown(v)} is not ${'map' in type ? 'a map' : 'an object'}`);
  const out: { [key: string]: Value } = {};
  if ('map' in type) {
    for (const [k, x] of Object.entries(v)) out[k] = convert(x, type.map);
    return out;
  }
  for (const [k, attr] of Object.entries(type.object)) {
    if (k in v && v[k] !== null) out[k] = convert(v[k], attr.type);
    else if (attr.optional || k in v) out[k] = attr.default === undefined ? null : convert(attr.default, attr.type);
    else throw new HclError(`attribute "${k}" is required`);
  }
  return out;
}

/** How a type is written in messages. */
export function typeText(t: TypeSpec): string {
  if (typeof t === 'string') return t;
  if ('list' in t) return `list(${typeText(t.list)})`;
  if ('set' in t) return `set(${typeText(t.set)})`;
  if ('map' in t) return `map(${typeText(t.map)})`;
  if ('tuple' in t) return 'tuple';
  return 'object';
}
