/** Plain scalars resolved as YAML 1.2's core schema does: the tree's own resolver against js-yaml's. */
import * as assert from 'node:assert/strict';
import { CORE_SCHEMA, load } from 'js-yaml';
import { resolvePlain } from '../../core/src/document/yaml-events';

describe('plain scalars', () => {
  it("resolve as js-yaml's core schema resolves them (words are told apart by their first character)", () => {
    const scalars = [
      ...['~', 'null', 'Null', 'NULL', 'nUll', 'n', 'name', 'n2-standard-8', 'nvme', '~x'],
      ...['true', 'True', 'TRUE', 'tRue', 't', 'type', 'false', 'False', 'FALSE', 'f', 'fio_size'],
      ...['0', '-0', '+12', '017', '0x1F', '0o17', '0xG', '0b101', '1_000', '12abc', '1e3', '-3.5e2', '.5', '+.5', '5.', '+', '.', '-x'],
      ...['.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'Infinity', 'NaN'],
      ...['yes', 'no', 'on', 'off', 'pd-ssd', 'gp3', '500GiB', 'europe-west4', 'Zonal', 'random'],
    ];
    for (const s of scalars) {
      const expected = (load(`k: ${s}`, { schema: CORE_SCHEMA }) as { k: unknown }).k;
      assert.ok(Object.is(resolvePlain(s), expected), `${JSON.stringify(s)}: ${String(resolvePlain(s))} against ${String(expected)}`);
    }
    assert.equal(resolvePlain(''), null);
  });
});
