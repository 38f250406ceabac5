/**
 * Every node of a YAML tree by JSON pointer ("" the root, "/vms/0/name" a value), without a map of them all.
 * The source map was a Map built while the tree was read: a pointer string, an entry and a map slot for every
 * node, a third of the time of building the tree (210,000 nodes for 10,000 VMs) and much of its memory, for
 * lookups of a few paths each. Here a lookup walks the tree along the pointer; the map is built only for what
 * reads every node (findings on text that VMs share through an alias, a workload sidecar merged with its plan).
 *
 * Which node a pointer names is what the map gave: the first in document order, so of duplicate keys the
 * first that has the rest of the path, entries brought in by a merge key after the mapping's own, keys by
 * their scalar value as a string (non-scalar keys have no pointer), list items by their canonical index.
 */
import { indexesNamed, indexNamed, indexOnly } from './map-index';
import { entryCount, keyAt, ParsedMap, ParsedSeq, valueAt, type MapNode, type NodeEntry, type YamlNode, type YamlTree } from './yaml-nodes';

const INDEX = /^(?:0|[1-9][0-9]*)$/;

/** A key as one segment of a JSON pointer (RFC 6901): keys may hold '/' and '~'. */
export function escapePointer(seg: string | number): string {
  const s = String(seg);
  return s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;
}

function unescapePointer(seg: string): string {
  return seg.includes('~') ? seg.replace(/~1/g, '/').replace(/~0/g, '~') : seg;
}

export class TreeNodes implements ReadonlyMap<string, NodeEntry> {
  private all?: Map<string, NodeEntry>;
  private readonly rootEntry: NodeEntry;

  constructor(root: YamlNode) {
    this.rootEntry = { key: undefined, value: root };
  }

  /**
   * The node of the last parent pointer looked up, where that pointer names one node only (no duplicate key on its
   * way): the checks look up several keys of one disk in a row, most of them absent, and a miss walked the tree
   * again from the root at every level on its way back, for a duplicate key that might have the rest.
   */
  private lastParent?: { path: string; node: YamlNode };

  get(path: string): NodeEntry | undefined {
    if (this.all) return this.all.get(path);
    if (path === '') return this.rootEntry;
    if (path[0] !== '/') return undefined;
    const cut = path.lastIndexOf('/');
    const parent = this.parentOf(path, cut);
    // Under the one node its parent pointer names, a key is found or absent there; else walked from the root.
    if (!parent) return find(this.rootEntry.value, path.split('/'), 1, undefined);
    const at = childAt(parent, path, cut);
    return at < 0 ? undefined : parent.kind === 'seq' ? { key: undefined, value: parent.items[at] } : childEntry(parent as MapNode, at);
  }

  /** Forgets the parent looked up last: a VM's nodes were let go (`dropVmNodes`). */
  forgetLookups(): void {
    this.lastParent = undefined;
  }

  /** Whether a node has the pointer: `get` without the entry it would make (the checks ask of absent keys most). */
  has(path: string): boolean {
    if (this.all) return this.all.has(path);
    if (path === '') return true;
    if (path[0] !== '/') return false;
    const cut = path.lastIndexOf('/');
    const parent = this.parentOf(path, cut);
    if (!parent) return find(this.rootEntry.value, path.split('/'), 1, undefined) !== undefined;
    return childAt(parent, path, cut) >= 0;
  }

  /**
   * The one node the pointer `path.slice(0, cut)` names, kept for the lookups that follow; undefined where a
   * duplicate key on its way, or no node, leaves it to a walk from the root. The last one is compared in place:
   * most lookups ask of the parent asked of last.
   */
  private parentOf(path: string, cut: number): YamlNode | undefined {
    const last = this.lastParent;
    if (last && last.path.length === cut && path.startsWith(last.path)) return last.node;
    if (cut === 0) return this.rootEntry.value;
    const parent = path.slice(0, cut);
    const node = only(this.rootEntry.value, parent, 1);
    this.lastParent = node ? { path: parent, node } : undefined;
    return node;
  }

  get size(): number {
    return this.map().size;
  }

  keys(): MapIterator<string> {
    return this.map().keys();
  }

  values(): MapIterator<NodeEntry> {
    return this.map().values();
  }

  entries(): MapIterator<[string, NodeEntry]> {
    return this.map().entries();
  }

  [Symbol.iterator](): MapIterator<[string, NodeEntry]> {
    return this.map()[Symbol.iterator]();
  }

  forEach(f: (value: NodeEntry, key: string, map: ReadonlyMap<string, NodeEntry>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.map()) f.call(thisArg, v, k, this);
  }

  /** Whether the map of every node is made (it holds every node, whatever the tree lets go). */
  get mapped(): boolean {
    return this.all !== undefined;
  }

  /** The map of every node, in document order, built once. */
  private map(): Map<string, NodeEntry> {
    if (!this.all) {
      const all = new Map<string, NodeEntry>();
      collect(this.rootEntry.value, '', undefined, all);
      this.all = all;
    }
    return this.all;
  }
}

/** The node `seg[i..]` names under `n` (whose own key is `key`), the first in document order. */
function find(n: YamlNode, seg: string[], i: number, key: YamlNode | undefined): NodeEntry | undefined {
  if (i === seg.length) return { key, value: n };
  if (n.kind === 'seq') {
    const item = INDEX.test(seg[i]) ? n.items[Number(seg[i])] : undefined;
    return item && find(item, seg, i + 1, undefined);
  }
  if (n.kind !== 'map') return undefined;
  // By the mapping's index (./map-index.ts): a scan per lookup made a finding per key of a large mapping quadratic.
  const k = unescapePointer(seg[i]);
  const first = indexNamed(n, k);
  if (first < 0) return undefined;
  const found = find(valueAt(n, first), seg, i + 1, keyAt(n, first));
  if (found || i + 1 === seg.length) return found;
  // Duplicate keys: the first that has the rest of the path.
  for (const j of indexesNamed(n, k).slice(1)) {
    const f = find(valueAt(n, j), seg, i + 1, keyAt(n, j));
    if (f) return f;
  }
  return undefined;
}

/**
 * The node the pointer `path` names from its character `from` on (after a '/') under `n`, where no mapping on its
 * way has the key twice (so no other node has that pointer); undefined where one has, or none has the key.
 */
function only(n: YamlNode, path: string, from: number): YamlNode | undefined {
  while (from <= path.length) {
    const end = path.indexOf('/', from);
    const seg = path.slice(from, end < 0 ? path.length : end);
    if (n.kind === 'seq') {
      const item = INDEX.test(seg) ? n.items[Number(seg)] : undefined;
      if (!item) return undefined;
      n = item;
    } else if (n.kind === 'map') {
      const at = indexOnly(n, unescapePointer(seg));
      if (at < 0) return undefined;
      n = valueAt(n, at);
    } else return undefined;
    if (end < 0) break;
    from = end + 1;
  }
  return n;
}

/**
 * Where the last segment of `path` (after `cut`) is under `parent`, the one node its pointer names: an item's
 * index, or the first entry of the key (a duplicate key's first: its value has the rest of the path, none); -1:
 * none.
 */
function childAt(parent: YamlNode, path: string, cut: number): number {
  const seg = path.slice(cut + 1);
  if (parent.kind === 'seq') return INDEX.test(seg) && Number(seg) < parent.items.length ? Number(seg) : -1;
  return parent.kind === 'map' ? indexNamed(parent, unescapePointer(seg)) : -1;
}

function childEntry(map: MapNode, at: number): NodeEntry {
  return { key: keyAt(map, at), value: valueAt(map, at) };
}

/** Every node's pointer, depth first in document order; a pointer met again (a duplicate key) keeps its first node. */
function collect(n: YamlNode, path: string, key: YamlNode | undefined, out: Map<string, NodeEntry>): void {
  if (!out.has(path)) out.set(path, { key, value: n });
  if (n.kind === 'seq') n.items.forEach((it, idx) => collect(it, `${path}/${idx}`, undefined, out));
  else if (n.kind === 'map')
    for (let i = 0; i < entryCount(n); i++) {
      const key = keyAt(n, i);
      if (key.kind === 'scalar') collect(valueAt(n, i), `${path}/${escapePointer(String(key.value))}`, key, out);
    }
}

/**
 * Lets go of a VM's nodes in a parsed spec's tree (`/vms/N` becomes an empty mapping at the same span), for a
 * caller that reads them no more: a streamed analysis, once the VM is checked and written. Other trees (built by
 * another front end, or with a map of every node) are left as they are.
 */
export function dropVmNodes(tree: YamlTree, path: string): void {
  const m = /^\/vms\/(0|[1-9][0-9]*)$/.exec(path);
  const seq = m && tree.mirrorsRoot && tree.nodes instanceof TreeNodes && !tree.nodes.mapped ? tree.nodes.get('/vms')?.value : undefined;
  if (!(seq instanceof ParsedSeq)) return;
  const i = Number(m![1]);
  const n = seq.items[i];
  if (n instanceof ParsedMap) seq.items[i] = new ParsedMap([], n.flow, n.start, n.end);
  if (tree.nodes instanceof TreeNodes) tree.nodes.forgetLookups();
}
