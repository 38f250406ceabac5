/** Plain scalars resolved as YAML 1.2's core schema does: the tree's own resolver against js-yaml's. */
import * as assert from 'node:assert/strict';
import { CORE_SCHEMA, load } from 'js-yaml';
import { resolvePlain } from '../../core/src/document/yaml-events';
import { buildTree } from '../../core/src/document/yaml-tree';

describe('plain scalars', () => {
  it("resolve as js-yaml's core schema resolves them (words are told apart by their first character)", () => {
    const scalars = [
      ...['~', 'null', 'Null', 'NULL', 'nUll', 'n', 'name', 'n2-standard-8', 'nvme', '~x'],
      ...['true', 'True', 'TRUE', 'tRue', 't', 'type', 'false', 'False', 'FALSE', 'f', 'fio_size'],
      ...['0', '-0', '+12', '017', '0x1F', '0o17', '0xG', '0b101', '1_000', '12abc', '1e3', '-3.5e2', '.5', '+.5', '5.', '+', '.', '-x'],
      ...['.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'Infinity', 'NaN'],
      ...['yes', 'no', 'on', 'off', 'pd-ssd', 'gp3', '500GiB', 'europe-west4', 'Zonal', 'random'],
      // Told apart by their length and second character where they start as a null or a boolean does.
      ...['nulls', 'nu11', 'nUll', 'NUll', 'tRUE', 'trUE', 'fALSE', 'falsey', 'fa', '~~', 'target', 'tier', 'NVMe', 'Fast'],
      // Told apart by their last character too where they start with a digit: a hex digit or a dot may end a number.
      ...['1.5GiB', '100MiB', '12ab', '9F', '1e', '1a', '0x', '0o', '0o8', '0xAbC', '007', '12345678901234567', '1.', '-.nan', '+1.5e3'],
    ];
    for (const s of scalars) {
      const expected = (load(`k: ${s}`, { schema: CORE_SCHEMA }) as { k: unknown }).k;
      assert.ok(Object.is(resolvePlain(s), expected), `${JSON.stringify(s)}: ${String(resolvePlain(s))} against ${String(expected)}`);
    }
    assert.equal(resolvePlain(''), null);
  });

  it('keep their text where the value does not write it back, and read as the resolver reads them', () => {
    const written = ['123', '0', '007', '1.50', '12345678901234567', '1e3', '0x1F', '1.5GiB', '500', '9F', '-4', '~'];
    const tree = buildTree(written.map((s, i) => `k${i}: ${s}`).join('\n'));
    written.forEach((s, i) => {
      const n = tree.nodes.get(`/k${i}`)?.value;
      assert.ok(n?.kind === 'scalar', s);
      assert.equal(n.text, s);
      assert.ok(Object.is(n.value, resolvePlain(s)), s);
      assert.equal(n.quoted, false);
    });
  });
});
