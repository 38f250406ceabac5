/**
 * Quick fixes as minimal text edits: a fix touches only the key or value it is about, so comments,
 * ordering and formatting elsewhere survive.
 */
import type { FixData } from '../diagnostics';
import { withEntries } from '../document/yaml-nodes';
import type { MapEntry, MapNode, YamlNode, YamlTree } from '../document/yaml-tree';
import { LineIndex } from '../text';
import { commentsIn } from './kept-comments';

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

const PLAIN_SAFE = /^[A-Za-z0-9_][A-Za-z0-9_./+-]*$/;

/** A value as YAML source: plain where that reads back as the same string, quoted otherwise. */
export function yamlScalar(v: string | number): string {
  if (typeof v === 'number') return String(v);
  if (PLAIN_SAFE.test(v) && !/^(true|false|null|yes|no|on|off|~|[-+]?[0-9.]+([eE][-+]?[0-9]+)?)$/i.test(v)) return v;
  return JSON.stringify(v);
}

function parentPath(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

function entryOf(tree: YamlTree, path: string): { map: MapNode; index: number } | undefined {
  const parent = tree.nodes.get(parentPath(path))?.value;
  const n = tree.nodes.get(path);
  if (!parent || parent.kind !== 'map' || !n?.key) return undefined;
  // A merged entry (`<<: *base`) is the merged mapping's text, shared: no edit here may change it.
  const own = ownEntries(parent);
  const index = own.entries.findIndex((e) => e.key === n.key);
  return index >= 0 ? { map: own, index } : undefined;
}

/**
 * The mapping as written: without the entries a merge key brings in from elsewhere in the text. Always a copy
 * with its entries in an array: a parsed mapping makes its `entries` on each read, and they are read often here.
 */
function ownEntries(map: MapNode): MapNode {
  const entries = map.entries;
  return withEntries(map, entries.some((e) => e.merged) ? entries.filter((e) => !e.merged) : entries);
}

export function fixEdits(text: string, tree: YamlTree, fix: FixData): TextEdit[] {
  // A generated file (a Terraform plan) is fixed at its source, not in place: no edit.
  if (tree.generated && !fixPaths(fix).every((p) => tree.editable?.(p))) return [];
  const edits = editsFor(text, tree, fix);
  return edits.length && !keepsAliases(text, edits) ? [] : edits;
}

function fixPaths(fix: FixData): string[] {
  return fix.kind === 'set-values' ? fix.values.map((v) => v.path) : [fix.path];
}

/** An edit that removes an anchor (`&name`) still used by an alias (`*name`) elsewhere would break the file. */
function keepsAliases(text: string, edits: TextEdit[]): boolean {
  const removed = edits.map((e) => text.slice(e.start, e.end)).join('\n');
  if (!removed.includes('&')) return true;
  const after = applyEdits(text, edits);
  for (const m of removed.matchAll(/&([^\s,[\]{}]+)/g)) {
    if (after.includes(`*${m[1]}`) && !after.includes(`&${m[1]}`)) return false;
  }
  return true;
}

function editsFor(text: string, tree: YamlTree, fix: FixData): TextEdit[] {
  switch (fix.kind) {
    case 'set-value': {
      const n = tree.nodes.get(fix.path);
      if (!n) return [];
      const v = n.value;
      if (v.start === v.end) {
        // `key:` with nothing after it: put a space and the value after the colon.
        return [{ start: v.start, end: v.end, newText: ` ${yamlScalar(fix.value)}` }];
      }
      return [{ start: v.start, end: v.end, newText: yamlScalar(fix.value) }];
    }
    case 'set-values': {
      // A key added goes after the last entry the same fix keeps: never inside the lines of one it removes.
      const removed = new Set(fix.values.flatMap((v) => ('remove' in v ? [tree.nodes.get(v.path)?.key] : [])));
      return fix.values.flatMap((v) =>
        'remove' in v
          ? editsFor(text, tree, { kind: 'remove-key', path: v.path, title: fix.title })
          : v.key !== undefined
            ? addKey(text, tree, v.path, `${v.key}: ${yamlScalar(v.value)}`, removed)
            : editsFor(text, tree, { kind: 'set-value', path: v.path, value: v.value, title: fix.title }),
      );
    }
    case 'rename-key': {
      const n = tree.nodes.get(fix.path);
      if (!n?.key || !entryOf(tree, fix.path)) return [];
      return [{ start: n.key.start, end: n.key.end, newText: fix.key }];
    }
    case 'remove-key': {
      const e = entryOf(tree, fix.path);
      if (!e) return [];
      return e.map.flow ? removeFlowEntry(text, e.map, e.index) : removeBlockEntry(text, e.map, e.index);
    }
    case 'add-key':
      return addKey(text, tree, fix.path, `${fix.key}: ${yamlScalar(fix.value)}`, new Set());
  }
}

/** `line` as a new entry of the mapping at `path`, after its last own entry not among `removed` (key nodes). */
function addKey(text: string, tree: YamlTree, path: string, line: string, removed: Set<YamlNode | undefined>): TextEdit[] {
  const found = tree.nodes.get(path)?.value;
  if (!found || found.kind !== 'map') return [];
  const own = ownEntries(found);
  const map = withEntries(
    own,
    own.entries.filter((e) => !removed.has(e.key)),
  );
  if (!map.entries.length) return [];
  return map.flow ? addFlowEntry(text, map, line) : addBlockEntry(text, map, line);
}

/** An entry of `{a: 1, b: 2}` with the comma that separates it from its neighbour. */
function removeFlowEntry(text: string, map: MapNode, index: number): TextEdit[] {
  const entry = map.entries[index];
  // Empty keys and values have no text of their own (they sit next to a neighbour): the commas between
  // entries are the reliable landmarks. No fix at all rather than one that breaks the YAML.
  // A single-pair mapping inside a flow list (`[a: 1]`) has no braces of its own.
  if (text[map.start] !== '{' || text[map.end - 1] !== '}') return [];
  const endOf = (x: MapEntry) => Math.max(x.key.end, x.value.end);
  // YAML's white space only: U+00A0 and the like belong to the neighbouring scalar.
  const skipSpace = (i: number) => {
    while (i < text.length && /[ \t\r\n]/.test(text[i])) i++;
    return i;
  };
  const next = map.entries[index + 1];
  const prev = map.entries[index - 1];
  // Between entries there is only space, a colon after an empty key, and comments (which may hold commas).
  const comma = (from: number) => {
    for (let i = from; i < map.end; i++) {
      if (text[i] === ',') return i;
      if (text[i] === '#' && /[ \t\r\n]/.test(text[i - 1] ?? ' ')) while (i < map.end && text[i] !== '\n' && text[i] !== '\r') i++;
    }
    return -1;
  };
  const before = prev ? comma(endOf(prev)) : map.start;
  if (before < 0 || before >= map.end) return [];
  if (next) {
    const after = comma(endOf(entry));
    if (after < 0 || after >= map.end) return [];
    const start = skipSpace(before + 1);
    // A comment line between the previous entry and this one is about something else: it stays. The entry's
    // own lines go whole, with a comment after its comma (it is about the entry), as in a block mapping.
    if (start < entry.key.start && text[start] === '#') {
      const lineStart = text.lastIndexOf('\n', entry.key.start - 1) + 1;
      const eol = text.indexOf('\n', after);
      const rest = text.slice(after + 1, eol < 0 ? map.end : eol);
      if (/^[ \t]*$/.test(text.slice(lineStart, entry.key.start)) && eol >= 0 && eol < map.end && /^[ \t]*(#.*)?\r?$/.test(rest))
        return [{ start: lineStart, end: eol + 1, newText: '' }];
    }
    // Keep a space before a following comment: '#' right after a comma does not start one.
    let end = skipSpace(after + 1);
    if (text[end] === '#' && end > after + 1) end--;
    return [{ start, end, newText: '' }];
  }
  return [{ start: prev ? before : map.start + 1, end: map.end - 1, newText: '' }];
}

/**
 * An entry of a block mapping: its lines, from the key's to the value's last, keeping the comment lines among
 * them as written. A trailing comment goes with the text of its line (it is about the key or value removed); a
 * comment line above the next key is never touched.
 */
function removeBlockEntry(text: string, map: MapNode, index: number): TextEdit[] {
  const idx = new LineIndex(text);
  const entry = map.entries[index];
  // An empty key with an empty value (a line of only `:`) has no text of its own: its place is borrowed from what
  // precedes it, perhaps on the line before, and a removal from there would join two lines. No fix rather than
  // one that breaks the YAML. (With a value, `: x`, the entry is placed on its own line.)
  if (entry.key.start === entry.key.end && entry.value.start === entry.value.end) return [];
  const keyPos = idx.position(entry.key.start);
  const lineStart = idx.lineStart(keyPos.line);
  const before = text.slice(lineStart, entry.key.start);
  const lastLine = idx.position(lastEnd(entry.value, entry.key, text)).line;
  const afterEnd = lastLine + 1 < idx.lineCount ? idx.lineStart(lastLine + 1) : text.length;
  const comments = commentsIn(text, idx, keyPos.line, lastLine, entry.key.start, entry.value).filter((c) => c.line);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const asLines = () => comments.map((c) => c.line + eol).join('');
  if (/^\s*-(?:\s|$)/.test(before)) {
    // The first key of a list item ("- name: x", also "- &anchor name: x"): pull the next key up behind
    // the dash (comment lines kept follow the dash: `- # note` and the item's keys below it).
    const next = map.entries[index + 1];
    if (next) {
      const nextPos = idx.position(next.key.start);
      const nextIndent = nextPos.character;
      // Everything up to the next key goes, so the comments above it are kept too.
      comments.push(...commentsIn(text, idx, lastLine + 1, nextPos.line - 1, afterEnd, entry.value).filter((c) => c.line));
      const kept = comments.length ? `${asLines().trimStart()}${' '.repeat(nextIndent)}` : '';
      return [{ start: entry.key.start, end: next.key.start, newText: kept }];
    }
  }
  const kept = asLines();
  // At the end of a text without a final line break the last comment keeps none either.
  const newText = afterEnd === text.length && !/[\r\n]$/.test(text) ? kept.replace(/\r?\n$/, '') : kept;
  return [{ start: lineStart, end: afterEnd, newText }];
}

function addFlowEntry(text: string, map: MapNode, line: string): TextEdit[] {
  if (text[map.start] !== '{' || text[map.end - 1] !== '}') return [];
  // After a trailing comma (`{a: 1, }`) no second comma.
  let last = map.end - 2;
  while (last > map.start && /\s/.test(text[last])) last--;
  return [{ start: map.end - 1, end: map.end - 1, newText: text[last] === ',' ? ` ${line}` : `, ${line}` }];
}

/** A new last line of a block mapping, at the indentation of its first key, with the file's line ending. */
function addBlockEntry(text: string, map: MapNode, line: string): TextEdit[] {
  const idx = new LineIndex(text);
  const first = map.entries[0].key;
  const indent = idx.position(first.start).character;
  const last = map.entries[map.entries.length - 1];
  const end = idx.lineEnd(idx.position(lastEnd(last.value, last.key, text)).line);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return [{ start: end, end, newText: `${eol}${' '.repeat(indent)}${line}` }];
}

function lastEnd(value: YamlNode, key: YamlNode, text: string): number {
  // An empty value sits at its key; otherwise the value's last character. Block scalars end past their line
  // break, with any chomping, and sometimes past the next line's indentation: back up to their text.
  let end = Math.max(value.end, key.end);
  while (end > key.end && /[ \t\r\n]/.test(text[end - 1])) end--; // not \s: U+FEFF and others are content here
  return end;
}

/** Applies non-overlapping edits (as a client would). */
/** The spec's text with one fix applied. */
export function textWithFix(a: { parsed: { text: string; tree: YamlTree } }, fix: FixData): string {
  return applyEdits(a.parsed.text, fixEdits(a.parsed.text, a.parsed.tree, fix));
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
