/**
 * Terraform's functions that real counts and references use, over known values: each takes its arguments both as
 * JSON nodes placed on the text and as plain values, and gives a plain value or one of its arguments' nodes (kept
 * in its place, so that a finding about it is placed where it is written). A call Terraform refuses throws
 * `HclError`. Unknown arguments never reach here: the evaluator makes the call unknown first (`try` and `can`,
 * which take errors, are the evaluator's own).
 * See https://developer.hashicorp.com/terraform/language/functions
 */
import type { Node } from 'jsonc-parser';
import { asSet, equal, HclError, isList, isMap, numberText, shown, toBool, toNumber, toStr, type Value } from './hcl-convert';

/** An argument: its node and its plain value. */
export interface Arg {
  node: Node;
  value: Value;
}

/** A result that is one of the arguments' nodes (or a part of one), kept where it is written. */
export class Kept {
  constructor(readonly node: Node) {}
}

type Fn = (args: Arg[]) => Value | Kept;

function arity(name: string, args: Arg[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw new HclError(`${name}() takes ${want} argument${min === 1 && max === 1 ? '' : 's'}, not ${args.length}`);
  }
}

function list(name: string, v: Value): Value[] {
  if (!isList(v)) throw new HclError(`${name}() needs a list, not ${shown(v)}`);
  return v;
}

function map(name: string, v: Value): { [key: string]: Value } {
  if (!isMap(v)) throw new HclError(`${name}() needs a map or an object, not ${shown(v)}`);
  return v;
}

function whole(name: string, v: Value): number {
  const n = toNumber(v);
  if (!Number.isInteger(n)) throw new HclError(`${name}() needs a whole number, not ${numberText(n)}`);
  return n;
}

/** The object's keys in Terraform's order (lexical). */
const sortedKeys = (m: { [key: string]: Value }) => Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const MAX_RANGE = 10000;

function range(args: Arg[]): Value {
  arity('range', args, 1, 3);
  const n = args.map((a) => toNumber(a.value));
  const [start, end, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? (n[1] >= n[0] ? 1 : -1)];
  if (step === 0 || (end > start && step < 0) || (end < start && step > 0)) throw new HclError('range() step goes the wrong way');
  const out: number[] = [];
  for (let x = start; step > 0 ? x < end : x > end; x += step) {
    if (out.length >= MAX_RANGE) throw new HclError(`range() gives more than ${MAX_RANGE} numbers`);
    out.push(x);
  }
  return out;
}

function flatten(v: Value, out: Value[] = []): Value[] {
  if (isList(v)) for (const x of v) flatten(x, out);
  else out.push(v);
  return out;
}

/** `format` with the verbs real configurations use: %s %d %v %f %q %%, with a width or precision. */
function format(args: Arg[]): Value {
  if (!args.length) throw new HclError('format() needs a format string');
  const spec = toStr(args[0].value);
  let i = 1;
  return spec.replace(/%([-+ 0#]*)(\d*)(?:\.(\d+))?([a-zA-Z%])/g, (_, flags: string, width: string, precision: string, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) throw new HclError(`format() has too few arguments for ${JSON.stringify(spec)}`);
    const v = args[i++].value;
    let s: string;
    if (verb === 's') s = toStr(v);
    else if (verb === 'v') s = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? toStr(v) : JSON.stringify(v);
    else if (verb === 'q') s = JSON.stringify(toStr(v));
    else if (verb === 'd') {
      const n = toNumber(v);
      if (!Number.isInteger(n)) throw new HclError(`format() %d needs a whole number, not ${numberText(n)}`);
      s = numberText(n);
    } else if (verb === 'f') s = toNumber(v).toFixed(precision === undefined ? 6 : Number(precision));
    else throw new HclError(`format() verb %${verb} is not read here`);
    const w = Number(width || 0);
    if (s.length >= w) return s;
    const pad = (flags.includes('0') && verb !== 's' ? '0' : ' ').repeat(w - s.length);
    return flags.includes('-') ? s + pad : pad + s;
  });
}

function lookup(args: Arg[]): Value | Kept {
  arity('lookup', args, 2, 3);
  const m = map('lookup', args[0].value);
  const key = toStr(args[1].value);
  if (key in m) return keptProperty(args[0].node, key) ?? m[key];
  if (args.length === 3) return new Kept(args[2].node);
  throw new HclError(`lookup() finds no key ${JSON.stringify(key)} and has no default`);
}

/** The node of an object's property, kept in its place. */
function keptProperty(n: Node, key: string): Kept | undefined {
  const p = n.type === 'object' ? n.children?.find((c) => c.children?.[0]?.value === key) : undefined;
  return p?.children?.[1] && new Kept(p.children[1]);
}

function element(args: Arg[]): Value | Kept {
  arity('element', args, 2);
  const l = list('element', args[0].value);
  if (!l.length) throw new HclError('element() of an empty list');
  const i = whole('element', args[1].value);
  if (i < 0) throw new HclError('element() index must not be negative');
  const at = i % l.length;
  const node = args[0].node.type === 'array' ? args[0].node.children?.[at] : undefined;
  return node ? new Kept(node) : l[at];
}

function coalesce(args: Arg[]): Value | Kept {
  for (const a of args) if (a.value !== null && a.value !== '') return new Kept(a.node);
  throw new HclError('coalesce() has no argument that is not null or empty');
}

function minMax(name: string, pick: (...n: number[]) => number): Fn {
  return (args) => {
    arity(name, args, 1, Infinity);
    return pick(...args.map((a) => toNumber(a.value)));
  };
}

function split(args: Arg[]): Value {
  arity('split', args, 2);
  const [sep, s] = [toStr(args[0].value), toStr(args[1].value)];
  return sep === '' ? [...s] : s.split(sep);
}

function join(args: Arg[]): Value {
  arity('join', args, 2, Infinity);
  const sep = toStr(args[0].value);
  return args
    .slice(1)
    .flatMap((a) => list('join', a.value))
    .map((x) => toStr(x))
    .join(sep);
}

function tomap(args: Arg[]): Value | Kept {
  arity('tomap', args, 1);
  map('tomap', args[0].value);
  return new Kept(args[0].node);
}

function tolist(args: Arg[]): Value | Kept {
  arity('tolist', args, 1);
  list('tolist', args[0].value);
  return new Kept(args[0].node);
}

function toset(args: Arg[]): Value {
  arity('toset', args, 1);
  const items = list('toset', args[0].value);
  // A set has one element type: mixed primitives are strings, as Terraform unifies them.
  const kinds = new Set(items.map((x) => typeof x));
  return asSet(kinds.size > 1 ? items.map((x) => toStr(x)) : items);
}

const one =
  (name: string, f: (v: Value) => Value): Fn =>
  (args) => {
    arity(name, args, 1);
    return f(args[0].value);
  };

/** The functions evaluated here, by name. */
export const FUNCTIONS: Record<string, Fn> = {
  length: one('length', (v) => (typeof v === 'string' ? [...v].length : isList(v) ? v.length : Object.keys(map('length', v)).length)),
  toset,
  tolist,
  tomap,
  keys: one('keys', (v) => sortedKeys(map('keys', v))),
  values: one('values', (v) => {
    const m = map('values', v);
    return sortedKeys(m).map((k) => m[k]);
  }),
  lookup,
  merge: (args) => Object.assign({}, ...args.filter((a) => a.value !== null).map((a) => map('merge', a.value))) as Value,
  concat: (args) => args.flatMap((a) => list('concat', a.value)),
  flatten: one('flatten', (v) => flatten(list('flatten', v))),
  range,
  coalesce,
  element,
  floor: one('floor', (v) => Math.floor(toNumber(v))),
  ceil: one('ceil', (v) => Math.ceil(toNumber(v))),
  min: minMax('min', Math.min),
  max: minMax('max', Math.max),
  format,
  join,
  split,
  tonumber: one('tonumber', (v) => (v === null ? null : toNumber(v))),
  tostring: one('tostring', (v) => (v === null ? null : toStr(v))),
  tobool: one('tobool', (v) => (v === null ? null : toBool(v))),
  contains: (args) => {
    arity('contains', args, 2);
    return list('contains', args[0].value).some((x) => equal(x, args[1].value));
  },
  abs: one('abs', (v) => Math.abs(toNumber(v))),
  lower: one('lower', (v) => toStr(v).toLowerCase()),
  upper: one('upper', (v) => toStr(v).toUpperCase()),
  compact: one('compact', (v) => list('compact', v).filter((x) => x !== null && x !== '')),
  distinct: one('distinct', (v) => list('distinct', v).filter((x, i, all) => all.findIndex((y) => equal(x, y)) === i)),
  replace: (args) => {
    arity('replace', args, 3);
    const [s, from, to] = args.map((a) => toStr(a.value));
    return from === '' ? s : s.split(from).join(to);
  },
  substr: (args) => {
    arity('substr', args, 3);
    const s = [...toStr(args[0].value)];
    const [offset, length] = [whole('substr', args[1].value), whole('substr', args[2].value)];
    const start = offset < 0 ? s.length + offset : offset;
    return s.slice(start, length < 0 ? undefined : start + length).join('');
  },
  trimspace: one('trimspace', (v) => toStr(v).trim()),
  zipmap: (args) => {
    arity('zipmap', args, 2);
    const [k, v] = [list('zipmap', args[0].value), list('zipmap', args[1].value)];
    if (k.length !== v.length) throw new HclError('zipmap() needs two lists of one length');
    return Object.fromEntries(k.map((x, i) => [toStr(x), v[i]]));
  },
  slice: (args) => {
    arity('slice', args, 3);
    const l = list('slice', args[0].value);
    const [from, to] = [whole('slice', args[1].value), whole('slice', args[2].value)];
    if (from < 0 || to > l.length || from > to) throw new HclError('slice() indexes are out of the list');
    return l.slice(from, to);
  },
};
