/**
 * A small YAML tree built from js-yaml's event stream, keeping the source span of every key and value.
 * js-yaml's own loader would give us values without positions; the event stream gives positions without
 * structure. This puts the two together and adds the checks a spec needs (duplicate keys, alias growth).
 */
import { parseEvents, getScalarValue, EVENT_ID, SCALAR_STYLE, YAMLException } from 'js-yaml';
import type { Event, ScalarEvent } from 'js-yaml';
import type { Span } from '../text';

export interface ScalarNode extends Span { kind: 'scalar'; text: string; value: unknown; quoted: boolean }
export interface MapEntry { key: YamlNode; value: YamlNode }
export interface MapNode extends Span { kind: 'map'; entries: MapEntry[]; flow: boolean }
export interface SeqNode extends Span { kind: 'seq'; items: YamlNode[]; flow: boolean }
export type YamlNode = ScalarNode | MapNode | SeqNode;

export interface TreeProblem { code: string; message: string; span: Span }
export interface YamlTree {
  root?: YamlNode;
  problems: TreeProblem[];
  /** Every node in the document, by JSON pointer ("" is the root, "/vms/0/name" a value). */
  nodes: Map<string, { key?: YamlNode; value: YamlNode }>;
  /** The plain value of the document (aliases shared, not copied). */
  value: unknown;
}

/** A document whose aliases add more nodes than this when expanded is refused: a "billion laughs" guard. */
export const MAX_EXPANDED_NODES = 200_000;

const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const BOOL_RE = /^(?:true|True|TRUE|false|False|FALSE)$/;
const INT_RE = /^[-+]?[0-9]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const OCT_RE = /^0o[0-7]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INF_RE = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN_RE = /^\.(?:nan|NaN|NAN)$/;

/** YAML 1.2 core-schema resolution of a plain scalar. */
export function resolvePlain(s: string): unknown {
  if (NULL_RE.test(s)) return null;
  if (BOOL_RE.test(s)) return s[0] === 't' || s[0] === 'T';
  if (INT_RE.test(s)) return Number(s);
  if (HEX_RE.test(s)) return parseInt(s.slice(2), 16);
  if (OCT_RE.test(s)) return parseInt(s.slice(2), 8);
  if (FLOAT_RE.test(s)) return Number(s);
  if (INF_RE.test(s)) return s[0] === '-' ? -Infinity : Infinity;
  if (NAN_RE.test(s)) return NaN;
  return s;
}

export function escapePointer(seg: string | number): string {
  const s = String(seg);
  return s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;
}

export function buildTree(text: string): YamlTree {
  const problems: TreeProblem[] = [];
  const nodes: YamlTree['nodes'] = new Map();
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: 64 });
  } catch (e) {
    const err = e as YAMLException;
    const pos = typeof err?.mark?.position === 'number' ? err.mark.position : 0;
    const reason = (err && (err.reason || err.message)) || String(e);
    problems.push({ code: 'yaml-syntax', message: `YAML syntax error: ${reason}`, span: errorSpan(text, pos) });
    return { problems, nodes, value: undefined };
  }

  const anchors = new Map<string, YamlNode>();
  let i = 0;
  let documents = 0;
  let extraReported = false;
  let root: YamlNode | undefined;

  const anchorOf = (ev: { anchorStart: number; anchorEnd: number }) =>
    ev.anchorStart >= 0 ? text.slice(ev.anchorStart, ev.anchorEnd) : undefined;

  function scalar(ev: ScalarEvent): ScalarNode {
    const raw = getScalarValue(text, ev);
    const quoted = ev.style !== SCALAR_STYLE.PLAIN;
    const tag = ev.tagStart >= 0 ? text.slice(ev.tagStart, ev.tagEnd) : '';
    const value = quoted || tag === '!!str' || tag === '!' ? raw : resolvePlain(raw);
    // Block scalars report their span from the indentation; trim it so ranges start at the text.
    let start = ev.valueStart;
    if (ev.style === SCALAR_STYLE.LITERAL_BLOCK || ev.style === SCALAR_STYLE.FOLDED_BLOCK) {
      while (start < ev.valueEnd && (text[start] === ' ' || text[start] === '\n' || text[start] === '\r')) start++;
    } else if (quoted) {
      start = Math.max(0, start - 1);
    }
    const end = quoted && ev.style <= SCALAR_STYLE.DOUBLE_QUOTED ? Math.min(text.length, ev.valueEnd + 1) : ev.valueEnd;
    return { kind: 'scalar', text: raw, value, quoted, start, end: Math.max(end, start) };
  }

  // Recursive descent over the flat event list; depth is bounded by maxDepth above.
  let nodeCount = 0;
  let aliasesResolved = 0;
  /** Collections still being read: an alias to one of them is a cycle. */
  const open = new Set<YamlNode>();
  function node(): YamlNode {
    const ev = events[i++];
    nodeCount++;
    switch (ev.type) {
      case EVENT_ID.SCALAR: {
        const n = scalar(ev);
        const a = anchorOf(ev); if (a) anchors.set(a, n);
        return n;
      }
      case EVENT_ID.ALIAS: {
        const name = text.slice(ev.anchorStart, ev.anchorEnd);
        const target = anchors.get(name);
        const span = { start: Math.max(0, ev.anchorStart - 1), end: ev.anchorEnd };
        // An alias inside the collection it names would make the tree a cycle (and toValue recurse forever).
        if (target && open.has(target)) problems.push({ code: 'yaml-syntax', message: `alias *${name} refers to a mapping or list that contains it: a spec cannot be circular`, span });
        else if (target) { aliasesResolved++; return target; }
        else problems.push({ code: 'yaml-syntax', message: `unknown alias *${name}`, span });
        return { kind: 'scalar', text: '', value: null, quoted: false, ...span };
      }
      case EVENT_ID.MAPPING: {
        const n: MapNode = { kind: 'map', entries: [], flow: ev.style === 2, start: ev.start, end: ev.start + 1 };
        const a = anchorOf(ev); if (a) anchors.set(a, n);
        open.add(n);
        const seen = new Map<string, YamlNode>();
        while (events[i].type !== EVENT_ID.POP) {
          // An empty first key of a flow mapping sits after its '{', not on it (a fix removing it keeps the brace).
          const prevEnd = n.entries.length ? n.entries[n.entries.length - 1].value.end : Math.max(0, n.start) + (n.flow ? 1 : 0);
          const rawKey = node();
          const rawValue = node();
          // An empty key before a value (`: x`) sits at its colon, on its own line, not at the previous entry.
          if (rawKey.start < 0 && rawValue.start >= 0) {
            const colon = text.lastIndexOf(':', rawValue.start);
            if (colon >= prevEnd) { rawKey.start = colon; rawKey.end = colon; }
          }
          const key = placeEmpty(rawKey, prevEnd);
          const value = placeEmpty(rawValue, key.end);
          n.entries.push({ key, value });
          if (key.kind !== 'scalar') {
            problems.push({ code: 'yaml-complex-key', message: 'keys must be plain text, not a mapping or list', span: key });
          } else {
            const k = String(key.value);
            if (seen.has(k)) problems.push({ code: 'yaml-duplicate-key', message: `duplicate key '${k}': only the last one would count`, span: key });
            seen.set(k, key);
          }
          n.end = Math.max(n.end, value.end, key.end);
        }
        open.delete(n);
        i++;
        if (n.flow) n.end = closingBracket(text, n.end, '}');
        return n;
      }
      case EVENT_ID.SEQUENCE: {
        const n: SeqNode = { kind: 'seq', items: [], flow: ev.style === 2, start: ev.start, end: ev.start + 1 };
        const a = anchorOf(ev); if (a) anchors.set(a, n);
        open.add(n);
        while (events[i].type !== EVENT_ID.POP) {
          const item = placeEmpty(node(), n.items.length ? n.items[n.items.length - 1].end : n.start + 1);
          n.items.push(item);
          n.end = Math.max(n.end, item.end);
        }
        open.delete(n);
        i++;
        if (n.flow) n.end = closingBracket(text, n.end, ']');
        return n;
      }
      default:
        throw new Error(`unexpected YAML event ${ev.type}`);
    }
  }

  while (i < events.length) {
    const ev = events[i++];
    if (ev.type !== EVENT_ID.DOCUMENT) continue;
    documents++;
    if (events[i] && events[i].type !== EVENT_ID.POP) {
      // An empty document with a tag (`!`) is an empty scalar with no span: it starts the file.
      const n = node();
      if (documents === 1) root = placeEmpty(n, 0);
      // The first later document with content (an empty one, a bare `---`, has no span and loses nothing).
      else if (!extraReported && n.start >= 0 && (extraReported = true)) problems.push({ code: 'yaml-multiple-documents', message: 'a spec file holds one YAML document; everything after the first is ignored', span: { start: n.start, end: n.start + 1 } });
    }
    while (i < events.length && events[i].type === EVENT_ID.POP) i++;
  }

  if (!root) return { problems, nodes, value: undefined };
  // Only growth through aliases counts: a long document is fine, a small one that explodes is not.
  // (Without aliases the tree is its own expansion: no need to count.)
  if (aliasesResolved && expandedSize(root, nodeCount + MAX_EXPANDED_NODES) > nodeCount + MAX_EXPANDED_NODES) {
    problems.push({ code: 'yaml-alias-limit', message: `aliases expand this document beyond ${MAX_EXPANDED_NODES.toLocaleString('en-US')} nodes; it is not analysed`, span: { start: root.start, end: Math.min(root.start + 1, text.length) } });
    return { root, problems, nodes, value: undefined };
  }
  const value = toValue(root, '', undefined, nodes);
  return { root, problems, nodes, value };
}

/** An empty value (`key:` with nothing after it) has no source span of its own: place it right after its key. */
function placeEmpty(n: YamlNode, at: number): YamlNode {
  if (n.start < 0 || n.end < 0) { n.start = at; n.end = at; }
  return n;
}

/**
 * The end of a flow collection: just past its closing bracket. `from` is the end of its last child, which is
 * not always the last text before the bracket (`: }` of an empty pair, `&a` of an anchored empty value), so
 * scan to the first unmatched closing bracket, over nested brackets, quoted text and comments.
 */
function closingBracket(text: string, from: number, bracket: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '#' && (i === 0 || /[ \t\r\n]/.test(text[i - 1]))) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if ((ch === '&' || ch === '!' || ch === '*') && /[ \t\r\n,[{:]/.test(text[i - 1] ?? ' ')) {
      // An anchor, tag or alias name runs to white space or a flow indicator, and may hold quotes and colons.
      while (i + 1 < text.length && !/[ \t\r\n,[\]{}]/.test(text[i + 1])) i++;
    } else if ((ch === '"' || ch === "'") && /[ \t\r\n,[{:]/.test(text[i - 1] ?? ' ')) {
      // A quote opens quoted text only where a scalar can start.
      for (i++; i < text.length && text[i] !== ch; i++) if (ch === '"' && text[i] === '\\') i++;
    } else if (ch === '[' || ch === '{') {
      depth++;
    } else if (ch === ']' || ch === '}') {
      if (depth === 0) return ch === bracket ? i + 1 : from;
      depth--;
    }
  }
  return from;
}

/** The node count with aliases expanded, counted up to a little past `limit`. */
function expandedSize(root: YamlNode, limit: number): number {
  const memo = new Map<YamlNode, number>();
  const size = (n: YamlNode): number => {
    const m = memo.get(n);
    if (m !== undefined) return m;
    memo.set(n, 1); // a cycle counts once; cycles cannot come from YAML anchors anyway
    let s = 1;
    if (n.kind === 'map') for (const e of n.entries) { s += size(e.key) + size(e.value); if (s > limit) break; }
    else if (n.kind === 'seq') for (const it of n.items) { s += size(it); if (s > limit) break; }
    memo.set(n, s);
    return s;
  };
  return size(root);
}

function toValue(n: YamlNode, path: string, key: YamlNode | undefined, nodes: YamlTree['nodes']): unknown {
  if (!nodes.has(path)) nodes.set(path, { key, value: n });
  if (n.kind === 'scalar') return n.value;
  if (n.kind === 'seq') return n.items.map((it, idx) => toValue(it, `${path}/${idx}`, undefined, nodes));
  const obj: Record<string, unknown> = {};
  for (const e of n.entries) {
    if (e.key.kind !== 'scalar') continue;
    const k = String(e.key.value);
    const v = toValue(e.value, `${path}/${escapePointer(k)}`, e.key, nodes);
    // defineProperty (slower) only where assignment would not make an ordinary key: `__proto__`.
    if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
    else obj[k] = v;
  }
  return obj;
}

function errorSpan(text: string, pos: number): Span {
  const p = Math.max(0, Math.min(pos, text.length));
  if (p < text.length && text[p] !== '\n' && text[p] !== '\r') return { start: p, end: p + 1 };
  // At a line end: point at the last character before it, so the squiggle is visible. Never between the CR
  // and LF of a pair: an editor cannot place a position there.
  let q = p;
  while (q > 0 && (text[q - 1] === '\n' || text[q - 1] === '\r')) q--;
  if (q > 0) return { start: q - 1, end: q };
  return { start: 0, end: text.length && text[0] !== '\r' && text[0] !== '\n' ? 1 : 0 };
}
