/**
 * A mapping's entries by key, in constant time. Every lookup by key (a JSON pointer walked from the root, the
 * converter reading a VM's fields) scanned the mapping's entries: nothing for a VM's dozen keys, but a spec of
 * 90,000 keys at the top, each an unknown key whose finding looks its own pointer up, cost 90,000² comparisons
 * (601 s for 5 MB). A mapping of more than a few entries gets an index, built on its first lookup and kept
 * beside it (a WeakMap: it goes with its tree); a small one is scanned, which costs less than any index.
 *
 * Which entry a key names is what a scan in document order finds: keys by their scalar value as a string
 * (non-scalar keys have none), the first of duplicate keys first, merged entries after the mapping's own.
 */
import type { MapEntry, MapNode } from './yaml-nodes';

/** Mappings of up to this many entries are scanned: a spec's own mappings (a VM, a disk, a target) are. */
const SCANNED = 12;

interface Index {
  /** How many entries were indexed: a mapping still being built is indexed again once it has grown. */
  length: number;
  /** The first entry of each key. */
  first: Map<string, MapEntry>;
  /** Entries after the first under one key (duplicate keys), in document order. */
  more?: Map<string, MapEntry[]>;
}

const indexes = new WeakMap<MapNode, Index>();

function indexOf(map: MapNode): Index {
  let ix = indexes.get(map);
  if (ix && ix.length === map.entries.length) return ix;
  ix = { length: map.entries.length, first: new Map() };
  for (const e of map.entries) {
    if (e.key.kind !== 'scalar') continue;
    const k = String(e.key.value);
    if (!ix.first.has(k)) ix.first.set(k, e);
    else {
      ix.more ??= new Map();
      const list = ix.more.get(k);
      if (list) list.push(e);
      else ix.more.set(k, [e]);
    }
  }
  indexes.set(map, ix);
  return ix;
}

/** The first entry whose key is `key`, as a scan in document order finds it. */
export function entryNamed(map: MapNode, key: string): MapEntry | undefined {
  if (map.entries.length <= SCANNED) {
    for (const e of map.entries) if (e.key.kind === 'scalar' && String(e.key.value) === key) return e;
    return undefined;
  }
  return indexOf(map).first.get(key);
}

/** Every entry whose key is `key` (duplicate keys), in document order. */
export function entriesNamed(map: MapNode, key: string): MapEntry[] {
  if (map.entries.length <= SCANNED) return map.entries.filter((e) => e.key.kind === 'scalar' && String(e.key.value) === key);
  const ix = indexOf(map);
  const first = ix.first.get(key);
  if (!first) return [];
  const more = ix.more?.get(key);
  return more ? [first, ...more] : [first];
}
