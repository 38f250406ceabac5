/**
 * Quick fixes as minimal text edits: a fix touches only the key or value it is about, so comments,
 * ordering and formatting elsewhere survive.
 */
import type { FixData } from '../diagnostics';
import type { MapNode, YamlNode, YamlTree } from '../spec/yaml-tree';
import { LineIndex } from '../text';

export interface TextEdit { start: number; end: number; newText: string }

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
  const index = parent.entries.findIndex((e) => e.key === n.key);
  return index >= 0 ? { map: parent, index } : undefined;
}

export function fixEdits(text: string, tree: YamlTree, fix: FixData): TextEdit[] {
  const idx = new LineIndex(text);
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
    case 'set-values':
      return fix.values.flatMap((v) => fixEdits(text, tree, { kind: 'set-value', path: v.path, value: v.value, title: fix.title }));
    case 'rename-key': {
      const n = tree.nodes.get(fix.path);
      if (!n?.key) return [];
      return [{ start: n.key.start, end: n.key.end, newText: fix.key }];
    }
    case 'remove-key': {
      const e = entryOf(tree, fix.path);
      if (!e) return [];
      const { map, index } = e;
      const entry = map.entries[index];
      if (map.flow) {
        const next = map.entries[index + 1];
        const prev = map.entries[index - 1];
        if (next) return [{ start: entry.key.start, end: next.key.start, newText: '' }];
        if (prev) return [{ start: prev.value.end, end: entry.value.end, newText: '' }];
        return [{ start: entry.key.start, end: entry.value.end, newText: '' }];
      }
      const keyLine = idx.position(entry.key.start).line;
      const lineStart = idx.lineStart(keyLine);
      const before = text.slice(lineStart, entry.key.start);
      const lastLine = idx.position(lastEnd(entry.value, entry.key)).line;
      const afterEnd = lastLine + 1 < idx.lineCount ? idx.lineStart(lastLine + 1) : text.length;
      if (/-\s*$/.test(before)) {
        // The first key of a list item ("- name: x"): pull the next key up behind the dash.
        const next = map.entries[index + 1];
        if (next) return [{ start: entry.key.start, end: next.key.start, newText: '' }];
        return [{ start: lineStart, end: afterEnd, newText: '' }];
      }
      return [{ start: lineStart, end: afterEnd, newText: '' }];
    }
    case 'add-key': {
      const map = tree.nodes.get(fix.path)?.value;
      if (!map || map.kind !== 'map' || !map.entries.length) return [];
      const line = `${fix.key}: ${yamlScalar(fix.value)}`;
      if (map.flow) return [{ start: map.end - 1, end: map.end - 1, newText: `, ${line}` }];
      const first = map.entries[0].key;
      const indent = idx.position(first.start).character;
      const last = map.entries[map.entries.length - 1];
      const end = idx.lineEnd(idx.position(lastEnd(last.value, last.key)).line);
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      return [{ start: end, end, newText: `${eol}${' '.repeat(indent)}${line}` }];
    }
  }
}

function lastEnd(value: YamlNode, key: YamlNode): number {
  // An empty value sits at its key; otherwise the value's last character (block scalars end past their newline).
  const end = Math.max(value.end, key.end);
  return value.kind === 'scalar' && end > key.end && /[\r\n]$/.test(value.text) ? end - 1 : end;
}

/** Applies non-overlapping edits (as a client would). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
