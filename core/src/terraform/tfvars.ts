/**
 * Values of the root module's variables as Terraform loads them before plan: variable definitions files
 * (`terraform.tfvars`, `terraform.tfvars.json`, then `*.auto.tfvars` and `*.auto.tfvars.json` in lexical order,
 * then each `-var-file`, as the caller orders them; the `.json` ones are one JSON object of values)
 * and `-var NAME=VALUE` from the command line, later wins. A variable given none of them keeps its default, and
 * one without a default stays unknown.
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { evaluate, named, type HclParse, type HclSyntaxNode, type Scope } from './hcl-values';

/** A `-var NAME=VALUE` of the command line. */
export interface TfVar {
  name: string;
  value: string;
}

/** Whether a file is a variable definitions file (HCL attributes, no blocks; or, `.tfvars.json`, a JSON object). */
export const isTfVarsPath = (path: string): boolean => /\.tfvars(?:\.json)?$/i.test(path);
export const isTfVarsJsonPath = (path: string): boolean => /\.tfvars\.json$/i.test(path);

/**
 * The values a `.tfvars.json` file sets (its text starts at `base` of the joined text), or the offset of its first
 * JSON error. A JSON string is a value as written, not a template.
 */
export function tfVarsJsonValues(text: string, base: number, into: Map<string, Node | undefined>): { error?: number } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length || !root || root.type !== 'object') return { error: errors[0]?.offset ?? 0 };
  for (const p of root.children ?? []) {
    const [k, v] = p.children ?? [];
    if (k && v) into.set(String(k.value), shifted(v, base));
  }
  return {};
}

/** A copy of a JSON value moved by `delta` (its parents set anew). */
function shifted(n: Node, delta: number, parent?: Node): Node {
  const copy = { ...n, offset: n.offset + delta, parent } as Node;
  if (n.children) (copy as { children?: Node[] }).children = n.children.map((c) => shifted(c, delta, copy));
  return copy;
}

/** A variable definitions file's scope: literals and operators only, as Terraform reads it (no names, no functions). */
const emptyScope = (base: number): Scope => ({ vars: new Map(), locals: new Map(), base, localBase: new Map(), functions: false });

/** The values a variable definitions file sets, placed on its text; an expression not known before plan is unknown. */
export function tfVarsValues(body: HclSyntaxNode, base: number, into: Map<string, Node | undefined>): void {
  for (const a of named(body)) {
    if (a.type !== 'attribute') continue;
    const name = named(a)[0]?.text;
    const e = named(a).find((c) => c.type === 'expression');
    if (name && e) into.set(name, evaluate(e, emptyScope(base)));
  }
}

/**
 * A `-var` value as Terraform reads it: an HCL expression when it is one whose value is known (`100`, `true`,
 * `"a"`, `["a", "b"]`), else the text as a string (`-var zone=europe-west4-a`). Placed at `at`, the variable's
 * declaration: a value typed on the command line has no place of its own in the files.
 */
export function cliVarValue(parse: HclParse, v: TfVar, at: { offset: number; length: number }): Node {
  const prefix = 'v = ';
  let value: Node | undefined;
  const tree = (() => {
    try {
      return parse(`${prefix}${v.value}\n`);
    } catch {
      return null;
    }
  })();
  try {
    const root = tree?.rootNode;
    const body = root && !root.hasError ? (named(root).find((c) => c.type === 'body') ?? root) : undefined;
    const attr = body && named(body).find((c) => c.type === 'attribute');
    const e = attr && named(attr).find((c) => c.type === 'expression');
    value = e && evaluate(e, emptyScope(0));
  } finally {
    tree?.delete?.();
  }
  return relocated(value ?? ({ type: 'string', value: v.value, offset: 0, length: 0 } as Node), at.offset, at.length);
}

/** A copy of a value with every node placed at one span (its parents set anew). */
function relocated(n: Node, offset: number, length: number, parent?: Node): Node {
  const copy = { ...n, offset, length, parent } as Node;
  if (n.children) (copy as { children?: Node[] }).children = n.children.map((c) => relocated(c, offset, length, copy));
  return copy;
}
