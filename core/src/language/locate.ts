/** What is under the cursor: the deepest YAML node at an offset, as a JSON pointer into the spec. */
import { entryCount, keyAt, valueAt } from '../document/yaml-nodes';
import { escapePointer, type YamlNode, type YamlTree } from '../document/yaml-tree';

export interface Location {
  /** JSON pointer of the innermost value containing the offset (or whose key contains it). */
  path: string;
  /** True when the offset is on a mapping key (the path is then the key's value). */
  onKey: boolean;
  node: YamlNode;
  key?: YamlNode;
}

const within = (n: { start: number; end: number }, offset: number) => offset >= n.start && offset <= n.end;

export function locate(tree: YamlTree, offset: number): Location | undefined {
  if (tree.scattered) return smallest(tree, offset);
  const root = tree.root;
  if (!root || !within(root, offset)) return undefined;
  let loc: Location = { path: '', onKey: false, node: root };
  // Descend; aliases can make the tree a DAG but never a cycle, and depth is bounded by the parser.
  for (;;) {
    const n = loc.node;
    let next: Location | undefined;
    if (n.kind === 'map') {
      // By index: a parsed mapping makes its `entries` on each read (each hover in a mapping of 90,000 keys would).
      for (let i = 0; i < entryCount(n); i++) {
        const key = keyAt(n, i);
        const value = valueAt(n, i);
        if (key.kind !== 'scalar') continue;
        const path = `${loc.path}/${escapePointer(String(key.value))}`;
        if (within(key, offset)) return { path, onKey: true, node: value, key };
        if (value.start <= value.end && within(value, offset) && !(value.start === value.end && offset !== value.start)) {
          next = { path, onKey: false, node: value, key };
          break;
        }
      }
    } else if (n.kind === 'seq') {
      n.items.forEach((it, i) => {
        if (!next && within(it, offset)) next = { path: `${loc.path}/${i}`, onKey: false, node: it };
      });
    }
    if (!next || next.node === n) return loc;
    loc = next;
  }
}

/** The smallest value or key holding the offset (the deeper path of two as small); a value before a key. */
function smallest(tree: YamlTree, offset: number): Location | undefined {
  let best: (Location & { size: number }) | undefined;
  const better = (size: number, path: string) =>
    !best || size < best.size || (size === best.size && path.split('/').length > best.path.split('/').length);
  for (const [path, { key, value }] of tree.nodes) {
    if (within(value, offset) && better(value.end - value.start, path))
      best = { path, onKey: false, node: value, key, size: value.end - value.start };
    if (key && key.end > key.start && within(key, offset) && better(key.end - key.start, path))
      best = { path, onKey: true, node: value, key, size: key.end - key.start };
  }
  return best && { path: best.path, onKey: best.onKey, node: best.node, key: best.key };
}

/** The VM, disk and workload indices a pointer falls inside. */
export function scopeOf(path: string): { vm?: number; disk?: number; workload?: number; rest: string[] } {
  const seg = path.split('/').slice(1);
  const out: { vm?: number; disk?: number; workload?: number; rest: string[] } = { rest: [] };
  if (seg[0] !== 'vms' || seg[1] === undefined) return { rest: seg };
  out.vm = Number(seg[1]);
  if (seg[2] === 'disks' && seg[3] !== undefined) {
    out.disk = Number(seg[3]);
    out.rest = seg.slice(4);
  } else if (seg[2] === 'workloads' && seg[3] !== undefined) {
    out.workload = Number(seg[3]);
    out.rest = seg.slice(4);
  } else out.rest = seg.slice(2);
  return out;
}
