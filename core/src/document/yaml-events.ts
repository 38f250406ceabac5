/**
 * js-yaml's flat event stream read into nodes that keep their source spans: scalars resolved as YAML 1.2's
 * core schema does, anchors and aliases (an alias is the anchored node itself, shared, never a copy), mappings
 * with their duplicate and complex keys reported, and the spans js-yaml leaves out (empty values, the closing
 * bracket of a flow collection) placed where an editor can show them.
 */
import { getScalarValue, EVENT_ID, SCALAR_STYLE } from 'js-yaml';
import type { AliasEvent, Event, MappingEvent, ScalarEvent, SequenceEvent } from 'js-yaml';
import { detached, type Span } from '../text';
import { StringTable } from './string-table';
import {
  ParsedMap,
  ParsedScalar,
  ParsedSeq,
  ParsedTextScalar,
  entryCount,
  keyAt,
  mergedFrom,
  valueAt,
  type MapNode,
  type SeqNode,
  type TreeProblem,
  type YamlNode,
} from './yaml-nodes';

export interface AnchorUse {
  name: string;
  node: YamlNode;
  /** The anchor's own text, `&name`. */
  span: Span;
  /** How many aliases (`*name`) refer to it. */
  aliases: number;
}

/** A collection's children while they are read (never filled: each gets its own array at its end). */
const NONE: never[] = Object.freeze([]) as never[];

/** Mappings of up to this many entries find a duplicate key by a scan of their entries. */
const SCANNED_KEYS = 8;

const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const BOOL_RE = /^(?:true|True|TRUE|false|False|FALSE)$/;
const INT_RE = /^[-+]?[0-9]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const OCT_RE = /^0o[0-7]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INF_RE = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN_RE = /^\.(?:nan|NaN|NAN)$/;

/**
 * Whether a plain scalar (`text` from `start` to `end`) can resolve to anything but a string: only what starts as
 * one of the patterns above can (null: empty, `~`, n, N; booleans: t, T, f, F; numbers, .inf and .nan: a digit, a
 * sign or a dot). Most plain scalars are keys and names, which this tells apart by their first character, without
 * trying eight patterns, and by their length and second character where they start as a null or a boolean does
 * (`name`, `type`). Of those that start with a digit, only a number can be other than a string, and a number
 * ends in a digit, a hex digit or a dot: a size with its unit (`500GiB`) is a string by its last character.
 */
function maybeNotStringAt(text: string, start: number, end: number): boolean {
  if (start >= end) return true;
  const c = text.charCodeAt(start);
  if (c >= 48 && c <= 57) {
    const l = text.charCodeAt(end - 1) | 0x20; // lower case of a letter; a digit or a dot stays itself
    return (l >= 48 && l <= 57) || l === 46 || (l >= 97 && l <= 102);
  }
  switch (c) {
    case 43: // '+', '-', '.': a number, .inf or .nan
    case 45:
    case 46:
      return true;
    case 126: // '~'
      return end - start === 1;
    case 110: // null, Null, NULL; true, True, TRUE; false, False, FALSE: by length and second character (`name`, `type`)
    case 78:
      return end - start === 4 && (text.charCodeAt(start + 1) | 0x20) === 117;
    case 116:
    case 84:
      return end - start === 4 && (text.charCodeAt(start + 1) | 0x20) === 114;
    case 102:
    case 70:
      return end - start === 5 && (text.charCodeAt(start + 1) | 0x20) === 97;
    default:
      return false;
  }
}

/**
 * YAML 1.2 core-schema resolution of a plain scalar. Only the patterns its first character allows are tried: a
 * digit starts an integer, a hex or octal number or a float; a sign those and infinity; a dot a float, infinity or
 * not-a-number; `~` and n, N a null; t, T, f, F a boolean.
 */
export function resolvePlain(s: string): unknown {
  if (!maybeNotStringAt(s, 0, s.length)) return s;
  if (s === '') return null;
  const c = s.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    if (isDigits(s)) return Number(s);
    if (c === 48 && s[1] === 'x') return HEX_RE.test(s) ? parseInt(s.slice(2), 16) : s;
    if (c === 48 && s[1] === 'o') return OCT_RE.test(s) ? parseInt(s.slice(2), 8) : s;
    return FLOAT_RE.test(s) ? Number(s) : s;
  }
  if (c === 43 || c === 45) {
    // '+', '-'
    if (INT_RE.test(s) || FLOAT_RE.test(s)) return Number(s);
    return INF_RE.test(s) ? (c === 45 ? -Infinity : Infinity) : s;
  }
  if (c === 46) {
    // '.'
    if (FLOAT_RE.test(s)) return Number(s);
    if (INF_RE.test(s)) return Infinity;
    return NAN_RE.test(s) ? NaN : s;
  }
  if (NULL_RE.test(s)) return null;
  if (BOOL_RE.test(s)) return c === 116 || c === 84; // 't', 'T'
  return s;
}

/** Whether a string is digits only (INT_RE without a sign). */
function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Whether `String(Number(s))` gives `s` back, known without writing the number: digits without a leading zero, few
 * enough to be exact. Most numbers of a spec are such integers.
 */
function writesBack(s: string): boolean {
  return s.length <= 15 && (s.charCodeAt(0) !== 48 || s.length === 1) && isDigits(s);
}

/**
 * One pass over the events of a text. Recursive descent: depth is bounded by the parser's maxDepth. Counts what
 * the caller needs for the alias-growth guard (nodes read, aliases followed).
 */
export class EventReader {
  nodeCount = 0;
  aliasesResolved = 0;
  /**
   * Where the last alias read ends in the text: an alias's node is its anchor's, elsewhere, so a collection whose
   * last child is an alias ends at the alias, not at its node (a VM ending in `disks: *std` spans that text).
   */
  private aliasEnd = -1;
  /** The stand-ins for aliases that could not be resolved (each already has its error). */
  private readonly unresolved = new WeakSet<YamlNode>();
  /** Each anchor (`&name`, its span) with the node it names and how often an alias used it: growth is blamed on it. */
  readonly anchorUses: AnchorUse[] = [];
  private i = 0;
  private readonly anchors = new Map<string, AnchorUse>();
  /**
   * Collections still being read, outermost first: an alias to one of them is a cycle. A list, not a set: it is as
   * deep as the document (at most the parser's maxDepth), and only an alias searches it.
   */
  private readonly open: YamlNode[] = [];
  /**
   * The keys and values, or items, of the collections being read, each collection's after its parent's: a
   * collection's array is copied out of it at its end, exactly as long as it is. Pushed onto one by one, an array
   * of a few would keep room for 17 (V8's growth): 16 MB of 22 for the 140,000 arrays of 10,000 VMs.
   */
  private readonly stack: YamlNode[] = [];
  /** One string object for each distinct string read, while the document is read (the tree keeps the strings). */
  private readonly strings = new StringTable();

  constructor(
    private readonly text: string,
    private readonly events: Event[],
    private readonly problems: TreeProblem[],
  ) {}

  /** The first document's root. Later documents are read only to report the first one with content. */
  root(): YamlNode | undefined {
    const events = this.events;
    let documents = 0;
    let extraReported = false;
    let root: YamlNode | undefined;
    while (this.i < events.length) {
      const ev = events[this.i++];
      if (ev.type !== EVENT_ID.DOCUMENT) continue;
      documents++;
      if (events[this.i] && events[this.i].type !== EVENT_ID.POP) {
        // An empty document with a tag (`!`) is an empty scalar with no span: it starts the file.
        const n = this.node();
        if (documents === 1) root = placeEmpty(n, 0);
        // The first later document with content (an empty one, a bare `---`, has no span and loses nothing).
        else if (!extraReported && n.start >= 0 && (extraReported = true))
          this.problems.push({
            code: 'yaml-multiple-documents',
            message: 'a spec file holds one YAML document; everything after the first is ignored',
            span: { start: n.start, end: n.start + 1 },
          });
      }
      while (this.i < events.length && events[this.i].type === EVENT_ID.POP) this.i++;
    }
    return root;
  }

  private node(): YamlNode {
    // Each event is let go once read: a spec of 10,000 VMs has 450,000 of them (about 95 MiB as objects), and
    // the tree built from them can then reuse their memory instead of growing the heap past both.
    // (Only events not yet read are looked at again, so the array's type stays Event[].)
    const ev = this.events[this.i];
    (this.events as Array<Event | undefined>)[this.i++] = undefined;
    this.nodeCount++;
    switch (ev.type) {
      case EVENT_ID.SCALAR: {
        const n = this.scalar(ev);
        this.anchor(ev, n);
        return n;
      }
      case EVENT_ID.ALIAS:
        this.aliasEnd = ev.anchorEnd;
        return this.alias(ev);
      case EVENT_ID.MAPPING:
        return this.mapping(ev);
      case EVENT_ID.SEQUENCE:
        return this.sequence(ev);
      default:
        throw new Error(`unexpected YAML event ${ev.type}`);
    }
  }

  private anchor(ev: { anchorStart: number; anchorEnd: number }, n: YamlNode): void {
    const name = ev.anchorStart >= 0 ? this.text.slice(ev.anchorStart, ev.anchorEnd) : undefined;
    if (!name) return;
    const use: AnchorUse = { name, node: n, aliases: 0, span: { start: Math.max(0, ev.anchorStart - 1), end: ev.anchorEnd } };
    this.anchors.set(name, use);
    this.anchorUses.push(use);
  }

  private scalar(ev: ScalarEvent): ParsedScalar {
    const text = this.text;
    const quoted = ev.style !== SCALAR_STYLE.PLAIN;
    const tag = ev.tagStart >= 0 ? text.slice(ev.tagStart, ev.tagEnd) : '';
    const asText = quoted || tag === '!!str' || tag === '!';
    // What can only be a string is read through the string table, from the document, without slicing it first.
    const interned = ev.fast && ev.valueStart >= 0 && (asText || !maybeNotStringAt(text, ev.valueStart, ev.valueEnd));
    const raw = interned ? this.strings.of(text, ev.valueStart, ev.valueEnd) : getScalarValue(text, ev);
    let value = asText ? raw : resolvePlain(raw);
    if (typeof value === 'string' && !interned) value = this.strings.of(value, 0, value.length);
    // Block scalars report their span from the indentation; trim it so ranges start at the text.
    let start = ev.valueStart;
    if (ev.style === SCALAR_STYLE.LITERAL_BLOCK || ev.style === SCALAR_STYLE.FOLDED_BLOCK) {
      while (start < ev.valueEnd && (text[start] === ' ' || text[start] === '\n' || text[start] === '\r')) start++;
    } else if (quoted) {
      start = Math.max(0, start - 1);
    }
    let end = quoted && ev.style <= SCALAR_STYLE.DOUBLE_QUOTED ? Math.min(text.length, ev.valueEnd + 1) : ev.valueEnd;
    // The text is kept only where the value does not give it back (see ParsedScalar).
    end = Math.max(end, start);
    if (quoted) return new ParsedTextScalar(value, start, end, true);
    if (typeof value === 'string') return new ParsedScalar(value, start, end);
    if (typeof value === 'number' && (writesBack(raw) || String(value) === raw)) return new ParsedScalar(value, start, end);
    return new ParsedTextScalar(value, start, end, detached(raw));
  }

  private alias(ev: AliasEvent): YamlNode {
    const name = this.text.slice(ev.anchorStart, ev.anchorEnd);
    const use = this.anchors.get(name);
    const target = use?.node;
    const span = { start: Math.max(0, ev.anchorStart - 1), end: ev.anchorEnd };
    // An alias inside the collection it names would make the tree a cycle (and toValue recurse forever).
    if (target && this.open.includes(target))
      this.problems.push({
        code: 'yaml-syntax',
        message: `alias *${name} refers to a mapping or list that contains it: a spec cannot be circular`,
        span,
      });
    else if (use && target) {
      this.aliasesResolved++;
      use.aliases++;
      return target;
    } else this.problems.push({ code: 'yaml-syntax', message: `unknown alias *${name}`, span });
    const stand: YamlNode = new ParsedTextScalar(null, span.start, span.end, '');
    this.unresolved.add(stand);
    return stand;
  }

  private mapping(ev: MappingEvent): MapNode {
    const { text, events, problems, stack } = this;
    const n = new ParsedMap(NONE, ev.style === 2, ev.start, ev.start + 1);
    this.anchor(ev, n);
    this.open.push(n);
    const base = stack.length;
    // The mapping's keys, once it has more than a few (a Set for each of 80,000 small mappings cost more than a scan).
    let keys: Set<string> | undefined;
    let merges: YamlNode[] | undefined;
    let last: YamlNode | undefined;
    while (events[this.i].type !== EVENT_ID.POP) {
      // An empty first key of a flow mapping sits after its '{', not on it (a fix removing it keeps the brace).
      const prevEnd = last ? last.end : Math.max(0, n.start) + (n.flow ? 1 : 0);
      this.aliasEnd = -1;
      const rawKey = this.node();
      const rawValue = this.node();
      const aliasEnd = this.aliasEnd;
      // An empty key before a value (`: x`) sits at its colon, on its own line, not at the previous entry.
      if (rawKey.start < 0 && rawValue.start >= 0) {
        const colon = text.lastIndexOf(':', rawValue.start);
        if (colon >= prevEnd) {
          rawKey.start = colon;
          rawKey.end = colon;
        }
      }
      const key = placeEmpty(rawKey, prevEnd);
      const value = placeEmpty(rawValue, key.end);
      n.end = Math.max(n.end, value.end, key.end, aliasEnd);
      if (isMergeKey(key)) {
        (merges ??= []).push(value);
        continue;
      }
      stack.push(key, value);
      last = value;
      if (key.kind !== 'scalar') {
        problems.push({ code: 'yaml-complex-key', message: 'keys must be plain text, not a mapping or list', span: key });
      } else {
        const k = String(key.value);
        if (keys ? keys.has(k) : this.hasKey(base, stack.length - 2, k))
          problems.push({ code: 'yaml-duplicate-key', message: `duplicate key '${k}': only the last one would count`, span: key });
        if (keys) keys.add(k);
        else if (stack.length - base > 2 * SCANNED_KEYS) keys = this.keysFrom(base);
      }
    }
    this.open.pop();
    this.i++;
    if (n.flow) n.end = closingBracket(text, n.end, '}');
    if (merges) {
      mergedFrom.set(n, (stack.length - base) >> 1);
      const seen = keys ?? this.keysFrom(base);
      for (const m of merges) this.merge(m, seen);
    }
    n.kv = stack.slice(base);
    stack.length = base;
    return n;
  }

  /**
   * A YAML 1.1 merge key (`<<: *base`, `<<: [*a, *b]`): the merged mappings' entries that the mapping does not
   * set itself, the first mapping of a list winning over later ones (https://yaml.org/type/merge.html). The
   * entries are the merged mapping's own nodes, so their spans point at the text they come from.
   */
  private merge(from: YamlNode, seen: Set<string>): void {
    const sources = from.kind === 'seq' ? from.items : [from];
    // An alias that could not be resolved has its own error already: one mistake, one finding.
    if (sources.some((m) => this.unresolved.has(m))) return;
    if (!sources.every((m) => m.kind === 'map')) {
      this.problems.push({
        code: 'wrong-type',
        message: '`<<` merges a mapping or a list of mappings (`<<: *base`, `<<: [*a, *b]`)',
        span: from,
      });
      return;
    }
    for (const m of sources as MapNode[])
      for (let i = 0; i < entryCount(m); i++) {
        const key = keyAt(m, i);
        if (key.kind !== 'scalar') continue;
        const k = String(key.value);
        if (seen.has(k)) continue;
        seen.add(k);
        this.stack.push(key, valueAt(m, i));
      }
  }

  /** Whether a scalar key on the stack (keys and values in turn) from `from` to `to` (not included) is `k`. */
  private hasKey(from: number, to: number, k: string): boolean {
    const stack = this.stack;
    for (let i = from; i < to; i += 2) {
      const key = stack[i];
      if (key.kind === 'scalar' && String(key.value) === k) return true;
    }
    return false;
  }

  /** The scalar keys on the stack (keys and values in turn) from `from` on. */
  private keysFrom(from: number): Set<string> {
    const keys = new Set<string>();
    const stack = this.stack;
    for (let i = from; i < stack.length; i += 2) {
      const key = stack[i];
      if (key.kind === 'scalar') keys.add(String(key.value));
    }
    return keys;
  }

  private sequence(ev: SequenceEvent): SeqNode {
    const { stack } = this;
    const n = new ParsedSeq(NONE, ev.style === 2, ev.start, ev.start + 1);
    this.anchor(ev, n);
    this.open.push(n);
    const base = stack.length;
    let last: YamlNode | undefined;
    while (this.events[this.i].type !== EVENT_ID.POP) {
      this.aliasEnd = -1;
      const item = placeEmpty(this.node(), last ? last.end : n.start + 1);
      stack.push(item);
      last = item;
      n.end = Math.max(n.end, item.end, this.aliasEnd);
    }
    n.items = stack.slice(base);
    stack.length = base;
    this.open.pop();
    this.i++;
    if (n.flow) n.end = closingBracket(this.text, n.end, ']');
    return n;
  }
}

/** `<<` written plain (a quoted "<<" is an ordinary key). */
function isMergeKey(key: YamlNode): boolean {
  // By its value, which is its text where it is not quoted (and reads no getter): every key is asked.
  return key.kind === 'scalar' && key.value === '<<' && !key.quoted;
}

/** An empty value (`key:` with nothing after it) has no source span of its own: place it right after its key. */
function placeEmpty(n: YamlNode, at: number): YamlNode {
  if (n.start < 0 || n.end < 0) {
    n.start = at;
    n.end = at;
  }
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
