/**
 * A mapping's entries by key, in constant time. Every lookup by key (a JSON pointer walked from the root, the
 * converter reading a VM's fields) scanned the mapping's entries: nothing for a VM's dozen keys, but a spec of
 * 90,000 keys at the top, each an unknown key whose finding looks its own pointer up, cost 90,000² comparisons
 * (601 s for 5 MB). A mapping of more than a few entries gets an index, built on its first lookup and kept
 * beside it (a WeakMap: it goes with its tree); a small one is scanned, which costs less than any index.
 *
 * Which entry a key names is what a scan in document order finds: keys by their scalar value as a string
 * (non-scalar keys have none), the first of duplicate keys first, merged entries after the mapping's own.
 * Entries are given by their index in the mapping (see `keyAt`, `valueAt`): no object is made for a lookup.
 */
import { entryCount, keyAt, type MapNode } from './yaml-nodes';

/** Mappings of up to this many entries are scanned: a spec's own mappings (a VM, a disk, a target) are. */
const SCANNED = 12;

interface Index {
  /** How many entries were indexed: a mapping still being built is indexed again once it has grown. */
  length: number;
  /** The index of the first entry of each key. */
  first: Map<string, number>;
  /** The entries after the first under one key (duplicate keys), in document order. */
  more?: Map<string, number[]>;
}

const indexes = new WeakMap<MapNode, Index>();

function indexOf(map: MapNode, length: number): Index {
  let ix = indexes.get(map);
  if (ix && ix.length === length) return ix;
  ix = { length, first: new Map() };
  for (let i = 0; i < length; i++) {
    const key = keyAt(map, i);
    if (key.kind !== 'scalar') continue;
    const k = String(key.value);
    if (!ix.first.has(k)) ix.first.set(k, i);
    else {
      ix.more ??= new Map();
      const list = ix.more.get(k);
      if (list) list.push(i);
      else ix.more.set(k, [i]);
    }
  }
  indexes.set(map, ix);
  return ix;
}

/** The index of the first entry whose key is `key`, as a scan in document order finds it; -1 when none. */
export function indexNamed(map: MapNode, key: string): number {
  const length = entryCount(map);
  if (length <= SCANNED) {
    for (let i = 0; i < length; i++) {
      const k = keyAt(map, i);
      if (k.kind === 'scalar' && String(k.value) === key) return i;
    }
    return -1;
  }
  return indexOf(map, length).first.get(key) ?? -1;
}

/** The index of the one entry whose key is `key`; -1 where none has it, -2 where several do (duplicate keys). */
export function indexOnly(map: MapNode, key: string): number {
  const length = entryCount(map);
  if (length <= SCANNED) {
    let found = -1;
    for (let i = 0; i < length; i++) {
      const k = keyAt(map, i);
      if (k.kind !== 'scalar' || String(k.value) !== key) continue;
      if (found >= 0) return -2;
      found = i;
    }
    return found;
  }
  const ix = indexOf(map, length);
  const first = ix.first.get(key);
  return first === undefined ? -1 : ix.more?.has(key) ? -2 : first;
}

/** The indexes of every entry whose key is `key` (duplicate keys), in document order. */
export function indexesNamed(map: MapNode, key: string): number[] {
  const length = entryCount(map);
  if (length <= SCANNED) {
    const out: number[] = [];
    for (let i = 0; i < length; i++) {
      const k = keyAt(map, i);
      if (k.kind === 'scalar' && String(k.value) === key) out.push(i);
    }
    return out;
  }
  const ix = indexOf(map, length);
  const first = ix.first.get(key);
  if (first === undefined) return [];
  const more = ix.more?.get(key);
  return more ? [first, ...more] : [first];
}
