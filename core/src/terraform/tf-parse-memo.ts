/**
 * A module file's parse kept across analyses by its text: the language server's module cache
 * (`protocol/src/module-files.ts`) keeps one per file, so that an edit of the open `.tf` file parses that file
 * again and not the large `.tf.json` beside it. The core keeps nothing itself: the memo is given.
 */
import type { HclSyntaxNode } from './hcl-values';

/** What a file's parse gives: its body (offsets its own) and the numbers read with exponents, by their offset in it. */
export interface TfParsed {
  body: HclSyntaxNode;
  numbers: ReadonlyMap<number, number>;
}

/** Parses kept by a file's path and text; `get` answers only for the same text. */
export interface TfParseMemo {
  get(path: string, text: string): TfParsed | undefined;
  set(path: string, text: string, parsed: TfParsed): void;
}

/**
 * The body of the file at `s` (text `text`): the memo's when it holds this text, else `parse`'s (which puts its
 * numbers into the map it is given, at offsets from the analysed text's start, and its trees into `trees`), kept
 * in the memo when it parsed and no tree of it is to be freed (a tree freed after the analysis cannot be kept).
 */
export function memoised(
  memo: TfParseMemo | undefined,
  s: { path: string; start: number },
  text: string,
  numbers: Map<number, number>,
  trees: Array<{ delete?(): void }>,
  parse: (text: string, numbers: Map<number, number>) => HclSyntaxNode | undefined,
): HclSyntaxNode | undefined {
  if (!memo) return parse(text, numbers);
  const known = memo.get(s.path, text);
  if (known) {
    for (const [at, n] of known.numbers) numbers.set(s.start + at, n);
    return known.body;
  }
  const own = new Map<number, number>();
  const held = trees.length;
  const body = parse(text, own);
  for (const [at, n] of own) numbers.set(at, n);
  if (body && trees.slice(held).every((t) => !t.delete))
    memo.set(s.path, text, { body, numbers: new Map([...own].map(([at, n]) => [at - s.start, n])) });
  return body;
}
