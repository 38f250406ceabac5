/**
 * What the .tf reader reads from an expression's syntax alone, without evaluating it: the references it makes (as a
 * plan's `configuration` lists them), and numbers written with an exponent that the grammar does not read.
 */
import { named, type HclSyntaxNode } from './hcl-nodes';

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
