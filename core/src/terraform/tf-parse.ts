/**
 * One .tf file parsed for the .tf front end (./tf.ts): its body, or the one `terraform-syntax` error that says where
 * its syntax breaks. A `.tf.json` file is read through ./tf-json; numbers the grammar cuts before an exponent
 * (`1e1`) are parsed again as zeros and their values kept (./hcl-values's `zeroedExponents`).
 */
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import { named, zeroedExponents, type HclParse, type HclSyntaxNode } from './hcl-values';
import { isTfJsonPath, jsonBody } from './tf-json';
import { isTfVarsJsonPath, isTfVarsPath } from './tfvars';

/** Where a file's text sits in the analysed text (./tf.ts's `TfSource`). */
interface TfSource {
  path: string;
  start: number;
  end: number;
  vars?: 'hcl' | 'json';
}

/** Whether a file holds variable values, and in which syntax: as given by name (`-var-file`), else by its name. */
export const varsOf = (s: TfSource): 'hcl' | 'json' | undefined =>
  s.vars ?? (isTfVarsJsonPath(s.path) ? 'json' : isTfVarsPath(s.path) ? 'hcl' : undefined);

export function jsonError(s: TfSource, text: string, error: number, out: Diagnostic[]): void {
  const start = s.start + Math.min(error, Math.max(0, text.length - 1));
  out.push(
    diag('terraform-syntax', `JSON syntax error in ${s.path}; fix the file (terraform validate says more)`, { start, end: start + 1 }),
  );
}

/** The file's body, or undefined with the one error that says where its syntax breaks. */
export function parseFile(
  parse: HclParse,
  text: string,
  s: TfSource,
  out: Diagnostic[],
  trees: Array<{ delete?(): void }>,
  numbers: Map<number, number>,
): HclSyntaxNode | undefined {
  if (isTfJsonPath(s.path)) {
    const { body, error } = jsonBody(parse, text);
    if (!body) jsonError(s, text, error ?? 0, out);
    return body;
  }
  const parsed = (t: string): HclSyntaxNode | undefined => {
    try {
      const tree = parse(t);
      if (tree) trees.push(tree);
      return tree?.rootNode;
    } catch {
      return undefined;
    }
  };
  let root = parsed(text);
  const zeroed = root?.hasError && !varsOf(s) ? zeroedExponents(root, text, s.start, numbers) : undefined;
  if (zeroed !== undefined) root = parsed(zeroed);
  const bad = !root ? undefined : firstError(root);
  if (!root || bad) {
    const start = s.start + Math.min(bad?.startIndex ?? 0, Math.max(0, text.trimEnd().length - 1));
    // The error's first line: an unclosed block's ERROR node runs to the end of the file.
    const lineEnd = text.indexOf('\n', start - s.start);
    const until = Math.min(s.start + (bad?.endIndex ?? 0), lineEnd < 0 ? s.end : s.start + lineEnd);
    const end = Math.min(s.end, Math.max(start + 1, until));
    const what = bad?.isMissing ? `'${bad.type}' is missing` : 'this is not valid HCL';
    out.push(
      diag('terraform-syntax', `HCL syntax error in ${s.path}: ${what}; fix the file (terraform validate says more)`, { start, end }),
    );
    return undefined;
  }
  return named(root).find((c) => c.type === 'body') ?? root;
}

function firstError(n: HclSyntaxNode): HclSyntaxNode | undefined {
  if (n.type === 'ERROR' || n.isMissing) return n;
  if (!n.hasError) return undefined;
  for (const c of named(n)) {
    const e = firstError(c);
    if (e) return e;
  }
  return n;
}
