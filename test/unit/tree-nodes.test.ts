/**
 * The source map of a YAML tree (core/src/document/tree-nodes.ts): a lookup walks the tree along the pointer,
 * and must name the node the map of every node names, duplicate keys, merge keys, escaped keys and aliases
 * included.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildTree } from '../../core/src/document/yaml-tree';
import { TreeNodes } from '../../core/src/document/tree-nodes';

const ROOT = resolve(__dirname, '../../..');

const EDGES = [
  // Duplicate keys: the first that has the rest of the path (the second's own children included).
  'a: {x: 1}\na: {y: 2}\nb: 3\n',
  // A key absent under the first of duplicate parents and present under the second, looked up after a sibling.
  'a: {x: {p: 1}}\na: {x: {q: 2}}\n',
  // A merge key: the mapping's own entries before the merged ones.
  'base: &b {size: 100GiB, type: pd-ssd}\ndisk:\n  <<: *b\n  size: 200GiB\n',
  // Keys a pointer escapes, keys that are not strings, and keys that are not scalars.
  '"a/b": 1\n"c~d": 2\n1: one\ntrue: yes\n? [x]\n: list key\n',
  // Aliases: one node under two pointers.
  'vms:\n  - &v {name: a, disks: [{name: d}]}\n  - *v\n',
  // Lists in lists, empty values.
  'l: [[1, 2], [], {}]\nm:\n',
];

function specs(): string[] {
  const dirs = ['examples', 'test/fuzz-corpus'];
  return dirs.flatMap((d) =>
    readdirSync(join(ROOT, d))
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => readFileSync(join(ROOT, d, f), 'utf8')),
  );
}

describe('the source map of a YAML tree', () => {
  it('a lookup names the node the map of every node names, for every pointer of every spec and edge case', () => {
    let checked = 0;
    for (const text of [...EDGES, ...specs()]) {
      const tree = buildTree(text);
      if (!(tree.nodes instanceof TreeNodes)) continue;
      // A second walker, never materialised, against the first one's map.
      const walker = new TreeNodes(tree.root!);
      for (const [path, entry] of tree.nodes) {
        const got = walker.get(path);
        assert.ok(got, `${JSON.stringify(path)} in ${JSON.stringify(text.slice(0, 60))}`);
        assert.equal(got.value, entry.value, path);
        assert.equal(got.key, entry.key, path);
        // A key absent under it, looked up right after it (the walker keeps the last parent it looked up).
        assert.equal(walker.get(`${path}/absent`), tree.nodes.get(`${path}/absent`), `${path}/absent`);
        // Whether it has a pointer, as asked without the entry, before and after other lookups.
        assert.equal(walker.has(path), true, path);
        assert.equal(walker.has(`${path}/absent`), false, `${path}/absent`);
        assert.equal(walker.has(`${path}/0`), tree.nodes.has(`${path}/0`), `${path}/0`);
        checked++;
      }
      for (const absent of ['/nope', 'vms', '/vms/01', '/vms/-1', '/a/x/y', '/l/0/5']) {
        if (!tree.nodes.has(absent)) {
          assert.equal(walker.get(absent), undefined, absent);
          assert.equal(walker.has(absent), false, absent);
        }
      }
    }
    assert.ok(checked > 500, `${checked} pointers`);
  });

  it('edge cases name the nodes they should', () => {
    const dup = buildTree(EDGES[0]).nodes;
    assert.equal(dup.get('/a/x')?.value.kind, 'scalar');
    assert.equal(dup.get('/a/y')?.value.kind, 'scalar');
    const second = new TreeNodes(buildTree(EDGES[1]).root!);
    assert.equal(second.get('/a/x/p')?.value.kind, 'scalar');
    assert.equal((second.get('/a/x/q')?.value as { value: unknown }).value, 2);
    const merged = buildTree(EDGES[2]).nodes;
    assert.equal((merged.get('/disk/size')?.value as { value: unknown }).value, '200GiB');
    assert.equal((merged.get('/disk/type')?.value as { value: unknown }).value, 'pd-ssd');
    const keys = buildTree(EDGES[3]).nodes;
    assert.equal((keys.get('/a~1b')?.value as { value: unknown }).value, 1);
    assert.equal((keys.get('/c~0d')?.value as { value: unknown }).value, 2);
    assert.equal((keys.get('/1')?.value as { value: unknown }).value, 'one');
    const aliased = buildTree(EDGES[4]).nodes;
    assert.equal(aliased.get('/vms/0/disks/0')?.value, aliased.get('/vms/1/disks/0')?.value);
  });
});
