/**
 * A user's catalog as text: parsed with positions, so that every problem — a JSON syntax error or a value the
 * catalog schema or the coherence checks refuse — points at a line and column of the file. Pure: the CLI and
 * the language server read the file and call this.
 */
import { parseTree, printParseErrorCode, getNodeValue, type Node, type ParseError } from 'jsonc-parser';
import { LineIndex, type Span } from '../text';
import { validateCatalog } from './index';
import type { Catalog } from './types';

export interface CatalogFileProblem {
  /** JSON pointer of the offending value ('' for the file as a whole). */
  path: string;
  message: string;
  /** Offsets into the text (after a leading BOM, which is skipped but counted). */
  span: Span;
  /** 1-based, as editors and compilers print them. */
  line: number;
  column: number;
}

export function parseCatalogText(text: string): { catalog?: Catalog; problems: CatalogFileProblem[] } {
  // Editors on Windows save JSON with a BOM; JSON itself has none.
  const skip = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = text.slice(skip);
  const index = new LineIndex(text);
  const problem = (path: string, message: string, start: number, end: number): CatalogFileProblem => {
    const at = index.position(start + skip);
    return {
      path,
      message,
      span: { start: start + skip, end: Math.max(end, start + 1) + skip },
      line: at.line + 1,
      column: at.character + 1,
    };
  };
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length || !root) {
    if (!errors.length) return { problems: [problem('', 'the file is empty: a catalog is a JSON object', 0, 0)] };
    return {
      problems: errors
        .slice(0, 20)
        .map((e) => problem('', `JSON syntax error: ${printParseErrorCode(e.error)}`, e.offset, e.offset + e.length)),
    };
  }
  const duplicates: CatalogFileProblem[] = [];
  findDuplicates(root, '', (path, key) =>
    duplicates.push(
      problem(path, `duplicate key '${key.value as string}': JSON readers keep only one of them`, key.offset, key.offset + key.length),
    ),
  );
  if (duplicates.length) return { problems: duplicates };
  const { catalog, problems } = validateCatalog(getNodeValue(root));
  return {
    catalog,
    problems: problems.map((p) => {
      const n = nodeAt(root, p.path);
      // A whole object or array is many lines: point at its key (or opening bracket) instead; so too when the
      // key itself is the problem.
      const key = n.parent?.type === 'property' ? n.parent.children?.[0] : undefined;
      const whole = n.type === 'object' || n.type === 'array' || p.key;
      const span = whole
        ? key
          ? { start: key.offset, end: key.offset + key.length }
          : { start: n.offset, end: n.offset + 1 }
        : { start: n.offset, end: n.offset + n.length };
      return problem(p.path === '/' ? '' : p.path, p.message, span.start, span.end);
    }),
  };
}

/** The node at a JSON pointer, or the deepest node on the way there (a missing key points at its object). */
function nodeAt(root: Node, pointer: string): Node {
  let n = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (raw === '') continue;
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    let next: Node | undefined;
    if (n.type === 'object') next = n.children?.find((p) => p.children?.[0]?.value === seg)?.children?.[1];
    else if (n.type === 'array' && /^\d+$/.test(seg)) next = n.children?.[Number(seg)];
    if (!next) break;
    n = next;
  }
  return n;
}

function findDuplicates(n: Node, path: string, report: (path: string, key: Node) => void): void {
  if (n.type === 'object') {
    const seen = new Set<string>();
    for (const prop of n.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (!key) continue;
      const k = String(key.value);
      const p = `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (seen.has(k)) report(p, key);
      seen.add(k);
      if (value) findDuplicates(value, p, report);
    }
  } else if (n.type === 'array') {
    (n.children ?? []).forEach((c, i) => findDuplicates(c, `${path}/${i}`, report));
  }
}
