/** Reading a JSON tree with positions (jsonc-parser's, as for catalog files): values, their spans and keys. */
import type { Node } from 'jsonc-parser';
import type { Span } from '../text';
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

export function num(n: Node | undefined): number | undefined {
  return n?.type === 'number' ? (n.value as number) : undefined;
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

/**
 * A provisioned amount (`provisioned_iops`, `iops`, `throughput`) with its place, or undefined where it is 0: the
 * providers read 0 as "not set" (the type's default applies), and generated configurations write it so.
 */
export function amount(n: Node | undefined, as?: (v: string | number | boolean) => string | number | boolean): Located | undefined {
  const l = located(n);
  return l && (l.value === 0 || (typeof l.value === 'string' && l.value.trim() === '0')) ? undefined : l && located(n, as);
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
