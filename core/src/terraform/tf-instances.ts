/**
 * The instances a `count` or `for_each` makes, when Terraform knows them before plan: a whole number, a map or a
 * set of strings written or given (`toset(var.zones)` of a variable with a default), or another resource's
 * instances (`for_each = google_compute_disk.data`: its keys, `each.value` unknown). An expansion is bounded:
 * past MAX_INSTANCES in one block, or MAX_EXPANDED in one analysis, its instances are left out with a finding,
 * so that one keystroke never costs seconds.
 */
import type { Node } from 'jsonc-parser';
import { HclError, toNumber, toValue, unknownsOf } from './hcl-convert';
import { evaluate, named, whyText, type HclSyntaxNode, type Scope, type Why } from './hcl-values';
import { attributeIn, exprOf, nameOf, type Part } from './tf-body';

/** The most instances one `count` or `for_each` is expanded to (docs/terraform.md). */
export const MAX_INSTANCES = 1000;
/** The most instances expanded in one analysis, over every block and module. */
export const MAX_EXPANDED = 10000;

export type Instance = Partial<Scope> & { index?: string | number };

/** Why a block's instances are not read, and where. */
export interface NotRead {
  why: string;
  node: HclSyntaxNode;
  base: number;
}

/** The instance keys of another resource, by its reference (`google_compute_disk.data`), when known. */
export type KeysOf = (reference: string) => Array<string | number> | undefined;

/** A bare reference to a resource of the module (`type.name`), or undefined. */
function resourceReference(e: HclSyntaxNode): string | undefined {
  const parts = named(e);
  if (parts.length !== 2 || parts[0].type !== 'variable_expr' || parts[1].type !== 'get_attr') return undefined;
  const root = parts[0].text;
  if (['var', 'local', 'each', 'count', 'module', 'data', 'path', 'terraform', 'self'].includes(root)) return undefined;
  return `${root}.${named(parts[1])[0]?.text ?? ''}`;
}

/** The instances, or why they are not read. `budget` is what is left of MAX_EXPANDED. */
export function instancesOf(parts: Part[], scope: Scope, keysOf: KeysOf, budget: number): Instance[] | NotRead {
  const countPart = attributeIn(parts, 'count');
  const given = countPart ?? attributeIn(parts, 'for_each');
  if (!given) return [{}];
  const why: Why[] = [];
  const s = { ...scope, base: given.base, why };
  const e = exprOf(given.node);
  let out: Instance[] | undefined;
  const v = e && evaluate(e, s);
  const n = countPart && v ? countOf(v, why) : undefined;
  if (n !== undefined) {
    if (n > Math.min(MAX_INSTANCES, budget)) return tooMany(n, given, budget);
    out = Array.from({ length: n }, (_, i) => ({ count: i, index: i }));
  } else if (!countPart) {
    out = forEach(v, e && resourceReference(e), keysOf);
    if (!out && v) why.push({ text: 'for_each needs a map or a set of strings', error: true });
  }
  if (!out) return { why: `${nameOf(given.node)} ${whyText(why)}`, node: given.node, base: given.base };
  if (out.length > Math.min(MAX_INSTANCES, budget)) return tooMany(out.length, given, budget);
  return out;
}

/** A count as Terraform takes it: a whole number, not negative, or a string of one (`"3"`). */
function countOf(v: Node, why: Why[]): number | undefined {
  try {
    const raw = toValue(v);
    if (raw === null || raw === undefined) throw new HclError('count is null');
    const n = toNumber(raw);
    if (!Number.isInteger(n) || n < 0) throw new HclError(`${n} is not a whole number of instances`);
    return n;
  } catch (e) {
    why.push({ text: e instanceof HclError ? e.message : String(e), error: true });
    return undefined;
  }
}

function forEach(v: Node | undefined, reference: string | undefined, keysOf: KeysOf): Instance[] | undefined {
  const u = v?.type === 'object' ? unknownsOf(v) : undefined;
  // A map whose keys are known makes its instances, though some values are unknown until plan (as Terraform has it).
  if (v?.type === 'object' && !u?.other) {
    const known = new Map((v.children ?? []).map((p) => [String(p.children![0].value), p.children![1]]));
    return (u?.order ?? [...known.keys()]).map((key) => ({ each: { key, value: known.get(key), why: u?.keys.get(key) }, index: key }));
  }
  if (v?.type === 'array' && (v.children ?? []).every((c) => c.type === 'string'))
    return (v.children ?? []).map((c) => ({ each: { key: String(c.value), value: c }, index: String(c.value) }));
  const keys = reference === undefined ? undefined : keysOf(reference);
  // Another resource's instances: each.key is known, each.value is the resource (its attributes known at apply).
  if (keys && keys.every((k) => typeof k === 'string')) return keys.map((k) => ({ each: { key: String(k), value: undefined }, index: k }));
  return undefined;
}

function tooMany(n: number, given: Part, budget: number): NotRead {
  const limit =
    budget < MAX_INSTANCES
      ? `the ${MAX_EXPANDED.toLocaleString('en-US')} instances read in one analysis`
      : `the ${MAX_INSTANCES.toLocaleString('en-US')} read from one block`;
  return {
    why: `${nameOf(given.node)} makes ${n.toLocaleString('en-US')} instances, more than ${limit}: they are left out here; run on the plan JSON`,
    node: given.node,
    base: given.base,
  };
}
