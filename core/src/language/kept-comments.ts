/**
 * The comments in a stretch of text that a fix removes: a fix deletes the key and value it is about, never what
 * the user wrote about them. js-yaml's events carry no comments, so they are found in the text: a `#` at a line's
 * start or after white space, outside quoted text and outside the scalars of the removed value (a `#` inside a
 * block scalar is its content).
 */
import { entryCount, keyAt, valueAt, type YamlNode } from '../document/yaml-nodes';
import { LineIndex } from '../text';

export interface KeptComment {
  /** From `#` to the end of its line. */
  text: string;
  /** The whole line when the comment is alone on it (kept as written, indentation included). */
  line?: string;
}

/** Comments on the lines `firstLine`..`lastLine`, from `from` on in the first line, in order. */
export function commentsIn(
  text: string,
  idx: LineIndex,
  firstLine: number,
  lastLine: number,
  from: number,
  value: YamlNode,
): KeptComment[] {
  const scalars = multiLineScalars(text, value);
  const out: KeptComment[] = [];
  for (let line = firstLine; line <= lastLine; line++) {
    const start = idx.lineStart(line);
    const end = idx.lineEnd(line);
    let at = line === firstLine ? Math.max(start, from) : start;
    // A line that starts inside a multi-line scalar holds its text up to the scalar's end.
    for (const s of scalars) if (s.start < at && at < s.end) at = s.end;
    const hash = commentStart(text, at, end, scalars);
    if (hash < 0) continue;
    const ownLine = /^[ \t]*$/.test(text.slice(start, hash));
    out.push({ text: text.slice(hash, end), line: ownLine ? text.slice(start, end) : undefined });
  }
  return out;
}

/** The `#` that starts a comment in text[from, end), or -1. */
function commentStart(text: string, from: number, end: number, scalars: YamlNode[]): number {
  for (let i = from; i < end; i++) {
    const inside = scalars.find((s) => s.start <= i && i < s.end);
    if (inside) {
      i = inside.end - 1;
      continue;
    }
    const ch = text[i];
    if (ch === '#' && (i === 0 || /[ \t\r\n]/.test(text[i - 1]))) return i;
    if ((ch === '"' || ch === "'") && (i === 0 || /[ \t\r\n,[{:-]/.test(text[i - 1]))) {
      for (i++; i < end && text[i] !== ch; i++) if (ch === '"' && text[i] === '\\') i++;
    }
  }
  return -1;
}

/** Scalars of the value that span lines, and every quoted one: their text is never a comment. */
function multiLineScalars(text: string, n: YamlNode, out: YamlNode[] = [], seen = new Set<YamlNode>()): YamlNode[] {
  if (seen.has(n)) return out;
  seen.add(n);
  if (n.kind === 'scalar') {
    if (n.quoted || /[\r\n]/.test(text.slice(n.start, n.end))) out.push(n);
  } else if (n.kind === 'seq') for (const it of n.items) multiLineScalars(text, it, out, seen);
  else
    for (let i = 0; i < entryCount(n); i++) {
      multiLineScalars(text, keyAt(n, i), out, seen);
      multiLineScalars(text, valueAt(n, i), out, seen);
    }
  return out;
}
