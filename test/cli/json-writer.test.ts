import * as assert from 'node:assert/strict';
import { ChunkedWriter, writeJson } from '../../cli/src/json-writer';
import { analyze, fileReport } from '../../core/src';
import { SPEC_HEAD, vmLines } from '../../bench/specs';

function written(value: unknown, depth?: number): string {
  let s = '';
  const out = new ChunkedWriter((x) => (s += x));
  writeJson(value, out, depth);
  out.flush();
  return s;
}

describe('the streamed JSON writer', () => {
  it('writes what JSON.stringify(value, null, 2) gives, however deep it streams', () => {
    const many = Array.from({ length: 600 }, (_, i) => ({ i, list: [i, [i]], none: undefined }));
    const values: unknown[] = [
      { files: [{ vms: many, diagnostics: [] }] },
      [many, [undefined, many]],
      { files: [] },
      { a: {}, b: [], c: [undefined, () => 1, null], d: undefined, e: 'x\ny', f: [[1, [2, { g: [] }]]] },
      { when: new Date(0), nested: { toJSON: (k: string) => ({ key: k }) }, list: [{ toJSON: () => undefined }] },
      [1, 'two', true, null, { three: [3] }],
      'a string',
      42,
    ];
    for (const v of values) for (const depth of [0, 1, 2, 3, 4, 8]) assert.equal(written(v, depth), JSON.stringify(v, null, 2));
  });

  it('writes an evaluation report (with its lazily explained figures) as JSON.stringify does', () => {
    const text = [...SPEC_HEAD, ...vmLines('a', 1), ...vmLines('b', 2)].join('\n') + '\n';
    const report = { files: [fileReport('x.perf.yaml', analyze(text))] };
    assert.equal(written(report), JSON.stringify(report, null, 2));
  });
});
