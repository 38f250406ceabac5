/**
 * A small YAML tree built from js-yaml's event stream, keeping the source span of every key and value.
 * js-yaml's own loader would give us values without positions; the event stream gives positions without
 * structure. This puts the two together and adds the checks a spec needs (duplicate keys, alias growth).
 *
 * Here: the tree's types, its entry point, the guards on the whole document (syntax errors, alias growth) and
 * the lookups by JSON pointer. Reading the events into nodes is `yaml-events`.
 */
import { parseEvents, YAMLException } from 'js-yaml';
import type { Event } from 'js-yaml';
import type { Span } from '../text';
import { TreeNodes } from './tree-nodes';
import { EventReader } from './yaml-events';

// Exported from this module before the event reader had its own; still offered here so that no import breaks.
export { resolvePlain } from './yaml-events';

export type { MapEntry, MapNode, ScalarNode, SeqNode, TreeProblem, YamlNode, YamlTree } from './yaml-nodes';
import { entryCount, keyAt, valueAt, type TreeProblem, type YamlNode, type YamlTree } from './yaml-nodes';

/**
 * The work on a document follows its size with aliases expanded, so aliases may grow it only so much: by at most
 * ALIAS_GROWTH_RATIO nodes per node written, and at least ALIAS_GROWTH_FLOOR. A long document is its own cost
 * (the client sent every byte of it); a small one that expands is not (a "billion laughs", or 250 VMs aliasing
 * one list of 40 workloads: 26 KB of text, 60,000 nodes to check).
 */
export const ALIAS_GROWTH_FLOOR = 10_000;
export const ALIAS_GROWTH_RATIO = 4;
export function aliasGrowthLimit(nodesWritten: number): number {
  return Math.max(ALIAS_GROWTH_FLOOR, ALIAS_GROWTH_RATIO * nodesWritten);
}

export { escapePointer } from './tree-nodes';

/**
 * YAML 1.2 lets a tab separate tokens within a line, in flow collections too (`{a: 1,<TAB>b: 2}`); js-yaml's event
 * parser refuses a tab there ("deficient indentation"), though its loader takes it. Such a tab becomes a space,
 * one character for one, so that every offset stays the text's own; tabs in quoted text, in comments, in block
 * context and at the start of a line are left as they are.
 */
export function flowTabsAsSpaces(text: string): string {
  let out: string[] | undefined;
  let depth = 0;
  let quote = '';
  let lineHasContent = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') {
      lineHasContent = false;
      continue;
    }
    if (quote) {
      if (ch === quote) {
        // '' inside single quotes is an escaped quote; \" inside double quotes too.
        if (quote === "'" && text[i + 1] === "'") i++;
        else quote = '';
      } else if (quote === '"' && ch === '\\') i++;
      continue;
    }
    if (ch === '#' && (i === 0 || /[ \t\r\n]/.test(text[i - 1]))) {
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
      continue;
    }
    if (ch === '\t') {
      if (depth > 0 && lineHasContent) (out ??= text.split(''))[i] = ' '; // code units, as i counts (a spread would split by code points)
      continue;
    }
    if (ch !== ' ') lineHasContent = true;
    if (ch === '[' || ch === '{') depth++;
    else if ((ch === ']' || ch === '}') && depth > 0) depth--;
    else if ((ch === '"' || ch === "'") && (depth > 0 || /[ \t\r\n,[{:-]/.test(text[i - 1] ?? ' '))) quote = ch;
  }
  return out ? out.join('') : text;
}

/** Never throws: what is wrong with the text comes back as `problems`, and `value` is undefined when unusable. */
export function buildTree(text: string): YamlTree {
  const problems: TreeProblem[] = [];
  const nodes: YamlTree['nodes'] = new Map();
  let events: Event[];
  try {
    events = parseEvents(text.includes('\t') ? flowTabsAsSpaces(text) : text, { maxDepth: 64 });
  } catch (e) {
    const err = e as YAMLException;
    const pos = typeof err?.mark?.position === 'number' ? err.mark.position : 0;
    const reason = (err && (err.reason || err.message)) || String(e);
    problems.push({ code: 'yaml-syntax', message: `YAML syntax error: ${reason}`, span: errorSpan(text, pos) });
    return { problems, nodes, value: undefined };
  }

  const reader = new EventReader(text, events, problems);
  const root = reader.root();
  if (!root) return { problems, nodes, value: undefined };
  const tooBig = reader.aliasesResolved ? aliasGrowthProblem(reader, root) : undefined;
  if (tooBig) {
    problems.push(tooBig);
    return { root, problems, nodes, value: undefined };
  }
  // The plain value is made again on each read, not kept: it is read once, to check the schema, and was 7 MB of the
  // 108 MB a tree of 10,000 VMs kept for the whole analysis.
  return {
    root,
    problems,
    nodes: new TreeNodes(root),
    get value() {
      return toValue(root);
    },
    mirrorsRoot: true,
  };
}

/** Span helpers over the source map: a value's own span, or for a key its key (the value where it has none). */
export function valueSpan(tree: YamlTree, path: string): Span | undefined {
  return tree.nodes.get(path)?.value;
}
export function keySpan(tree: YamlTree, path: string): Span | undefined {
  const n = tree.nodes.get(path);
  return n?.key ?? n?.value;
}

/**
 * A document whose aliases grow it past its limit, blamed on the anchor whose aliases add the most. Only
 * growth through aliases counts (without aliases the tree is its own expansion); sizes are counted up to a
 * little past the limit, never further, so a billion laughs costs what its text does.
 */
function aliasGrowthProblem(reader: EventReader, root: YamlNode): TreeProblem | undefined {
  const written = reader.nodeCount;
  const limit = aliasGrowthLimit(written);
  const size = expandedSizer(limit + written);
  if (size(root) <= limit + written) return undefined;
  let worst = reader.anchorUses[0];
  let worstGrowth = -1;
  for (const use of reader.anchorUses) {
    const growth = use.aliases * size(use.node);
    if (growth > worstGrowth) [worst, worstGrowth] = [use, growth];
  }
  const n = (x: number) => x.toLocaleString('en-US');
  return {
    code: 'yaml-alias-limit',
    message:
      `aliases would grow this document by more than ${n(limit)} nodes (${ALIAS_GROWTH_RATIO} per node written, at least ` +
      `${n(ALIAS_GROWTH_FLOOR)}), most by the ${n(worst.aliases)} of &${worst.name}: it is not analysed; write fewer aliases`,
    span: worst.span,
  };
}

/** A function giving a node's size with aliases expanded, counted up to a little past `limit`, memoised. */
function expandedSizer(limit: number): (n: YamlNode) => number {
  const memo = new Map<YamlNode, number>();
  const size = (n: YamlNode): number => {
    const m = memo.get(n);
    if (m !== undefined) return m;
    memo.set(n, 1); // a cycle counts once; cycles cannot come from YAML anchors anyway
    let s = 1;
    if (n.kind === 'map')
      for (let i = 0; i < entryCount(n); i++) {
        s += size(keyAt(n, i)) + size(valueAt(n, i));
        if (s > limit) break;
      }
    else if (n.kind === 'seq')
      for (const it of n.items) {
        s += size(it);
        if (s > limit) break;
      }
    memo.set(n, s);
    return s;
  };
  return size;
}

/** The plain value of a node (aliases shared, not copied); of duplicate keys the last wins, as in an object literal. */
function toValue(n: YamlNode): unknown {
  if (n.kind === 'scalar') return n.value;
  if (n.kind === 'seq') return n.items.map(toValue);
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < entryCount(n); i++) {
    const key = keyAt(n, i);
    if (key.kind !== 'scalar') continue;
    const k = String(key.value);
    const v = toValue(valueAt(n, i));
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
