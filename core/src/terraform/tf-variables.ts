/**
 * A module's variable as Terraform sets it before plan: the value given (a caller's input, a `.tfvars` file, `-var`)
 * or else its default, converted to its declared `type` (`type = number` makes `"3"` the number 3). A value its type
 * refuses is unknown, with why; so is one given as unknown by the caller, with the caller's why.
 */
import type { Node } from 'jsonc-parser';
import { convert, equal, HclError, toValue } from './hcl-convert';
import { valueNode, type HclSyntaxNode } from './hcl-nodes';
import { typeOf } from './hcl-types';
import { evaluate, type Scope, type Why } from './hcl-values';
import { bodyOf, exprOf, nameOf } from './tf-body';

/** What the module's caller (or the command line) gives a variable. */
export interface Given {
  value: Node | undefined;
  why?: Why;
}

/** The variable block's value and, when it is unknown, why. */
export function variableValue(
  b: HclSyntaxNode,
  name: string,
  scope: Scope,
  given: Given | undefined,
): { value: Node | undefined; why?: Why } {
  const attrs = bodyOf(b) ? (bodyOf(b)!.namedChildren.filter((c) => c?.type === 'attribute') as HclSyntaxNode[]) : [];
  const attr = (n: string) => attrs.find((a) => nameOf(a) === n);
  const def = attr('default');
  const why: Why[] = [];
  const value = given ? given.value : def && exprOf(def) && evaluate(exprOf(def)!, { ...scope, why });
  if (!value) return { value, why: given ? given.why : why[0] };
  const typeExpr = attr('type') && exprOf(attr('type')!);
  const type = typeExpr ? typeOf(typeExpr, scope) : 'any';
  const plain = type === 'any' ? undefined : toValue(value);
  if (plain === undefined) return { value };
  try {
    const converted = convert(plain, type);
    return { value: equal(converted, plain) ? value : valueNode(converted, value.offset, value.length) };
  } catch (e) {
    const text = e instanceof HclError ? e.message : String(e);
    return { value: undefined, why: { text: `var.${name}: ${text}`, error: true } };
  }
}
