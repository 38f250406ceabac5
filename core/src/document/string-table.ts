/**
 * Strings of a document's scalars, shared while it is read: keys and many values repeat (`name` is 60,000 strings
 * in a spec of 10,000 VMs, `random` 20,000), and the tree keeps them all. A scalar's text is looked up by its place
 * in the document, before any string is made of it: a string met recently costs no allocation.
 *
 * A cache, not a set: each slot holds the last string whose length and a few characters lead to it, so a lookup
 * reads four characters and compares one candidate (a full hash of every scalar's text and a table of every
 * distinct string cost more than the allocations they saved). Repeated strings are found all the same: the keys
 * of a spec and its enumerations are few, while what is unique (names, sizes) only replaces what was in its slot.
 */
import { detached } from '../text';

const SLOTS = 4096;

export class StringTable {
  private readonly slots: Array<string | undefined> = new Array<string | undefined>(SLOTS).fill(undefined);

  /** The string of `src` from `start` to `end`: the same object as the last time this text was asked for, if kept. */
  of(src: string, start: number, end: number): string {
    const len = end - start;
    if (len === 0) return '';
    let h = len;
    h = h * 31 + src.charCodeAt(start);
    h = h * 31 + src.charCodeAt(start + (len >> 1));
    h = h * 31 + src.charCodeAt(end - 1);
    h = (h * 31 + src.charCodeAt(end - 2 + (len === 1 ? 1 : 0))) & (SLOTS - 1);
    const s = this.slots[h];
    if (s !== undefined && s.length === len && src.startsWith(s, start)) return s;
    // A copy, never a slice of the document: the tree outlives the text it was read from, in caches.
    const copy = detached(len === src.length ? src : src.slice(start, end));
    this.slots[h] = copy;
    return copy;
  }
}
