/** Reading a JSON tree with positions (jsonc-parser's, as for catalog files): values, their spans and keys. */
import type { Node } from 'jsonc-parser';
import type { Span } from '../text';
import { HclError, toBool, toNumber } from './hcl-convert';
import { Located } from './spec-tree';

/** The value node of an object's property. */
export function prop(n: Node | undefined, key: string): Node | undefined {
  if (n?.type !== 'object' || !n.children) return undefined;
  for (const p of n.children) if (p.children?.[0]?.value === key) return p.children[1];
  return undefined;
}

/** The node at a path of keys and list indexes, like `boot_disk.0.initialize_params.0`. */
export function at(n: Node | undefined, ...path: Array<string | number>): Node | undefined {
  let cur = n;
  for (const seg of path) cur = typeof seg === 'number' ? (cur?.type === 'array' ? cur.children?.[seg] : undefined) : prop(cur, seg);
  return cur;
}

export function items(n: Node | undefined): Node[] {
  return n?.type === 'array' ? (n.children ?? []) : [];
}

export function str(n: Node | undefined): string | undefined {
  return n?.type === 'string' ? (n.value as string) : undefined;
}

/** A number, or a string of one as Terraform converts it where a number is needed (`"3"`); else undefined. */
export function num(n: Node | undefined): number | undefined {
  const v = converted(n, 'number');
  return v instanceof Located ? (v.value as number) : undefined;
}

export function span(n: Node): Span {
  return { start: n.offset, end: n.offset + n.length };
}

/** The property's key span (the node is a property's value). */
export function keyOf(n: Node): Span | undefined {
  const k = n.parent?.type === 'property' ? n.parent.children?.[0] : undefined;
  return k && span(k);
}

/** A scalar with its place; `as` rewrites the value (a unit added, a spelling lowered) and keeps the place. */
export function located(n: Node | undefined, as?: (v: string | number | boolean) => string | number | boolean): Located | undefined {
  if (!n || (n.type !== 'string' && n.type !== 'number' && n.type !== 'boolean')) return undefined;
  const v = n.value as string | number | boolean;
  return new Located(as ? as(v) : v, span(n), keyOf(n));
}

/** A value Terraform refuses where the provider's schema types it (`size = "100GB"`): what is wrong, and where. */
export interface Refused {
  refused: string;
  at: Span;
}

/**
 * An argument as Terraform converts it to the type of the provider's schema before the provider reads it: where the
 * schema has a number, a string of one (`size = "100"`) is that number; where a bool, "true"/"1" and "false"/"0"
 * are (./hcl-convert.ts: the rules the .tf evaluator uses). A plan holds the converted value already, so the `.tf`
 * files and the plan of one configuration read alike. A value Terraform refuses is `Refused`, never some number.
 * See https://developer.hashicorp.com/terraform/language/expressions/types#type-conversion
 */
export function converted(n: Node | undefined, kind: 'number' | 'bool'): Located | Refused | undefined {
  const l = located(n);
  if (!l) return undefined;
  try {
    return new Located(kind === 'number' ? toNumber(l.value) : toBool(l.value), l.span, l.key);
  } catch (e) {
    if (e instanceof HclError) return { refused: e.message, at: l.span };
    throw e;
  }
}

/** Whether a bool argument is true as Terraform converts it (`true`, `"true"`, `"1"`). */
export function isTrue(n: Node | undefined): boolean {
  const v = converted(n, 'bool');
  return v instanceof Located && v.value === true;
}

/** The name of the argument a value node is written for (its property's key), or undefined. */
export function argumentName(n: Node | undefined): string | undefined {
  const k = n?.parent?.type === 'property' ? n.parent.children?.[0]?.value : undefined;
  return typeof k === 'string' ? k : undefined;
}

/**
 * A flag as Terraform reads it where it converts: a bool, or a number or string of it (`1`, `"1"`, `"true"`), so
 * that one file read from its `.tf` and from its plan says one thing. A launch template's string `no_device` is
 * any non-empty value the provider passes on: `"false"` and `"0"` are read as unset, as the bool field reads them.
 */
export function flagSet(n: Node | undefined): boolean {
  const v = n?.value;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v !== 'string') return false;
  const t = v.trim().toLowerCase();
  return t !== '' && t !== 'false' && t !== '0';
}

/** `pricing: spot` placed where the configuration says so, when `is` holds of the value there; else undefined. */
export function spotWhere(n: Node | undefined, is: (v: string | number | boolean) => boolean): Located | undefined {
  const l = located(n);
  return l && is(l.value) ? new Located('spot', l.span, l.key) : undefined;
}
