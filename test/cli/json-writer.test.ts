import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { indented, jsonChunks, nestedJson, Utf8Pieces, writeChunks, type Chunk, type PrewrittenJson } from '../../cli/src/json-writer';
import { analyze, fileReport } from '../../core/src';
import { SPEC_HEAD, vmLines } from '../../bench/specs';

// Text and UTF-8 pieces, as the stream gets them.
const written = (value: unknown, depth?: number) =>
  Buffer.concat([...jsonChunks(value, depth)].map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');

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

  it('writes an iterable that is not an array (a generator) as the array of what it yields', () => {
    const gen = function* (n: number) {
      for (let i = 0; i < n; i++) yield { i, list: [i] };
    };
    for (const n of [0, 1, 600])
      assert.equal(written({ files: [{ vms: gen(n), after: 1 }] }), JSON.stringify({ files: [{ vms: [...gen(n)], after: 1 }] }, null, 2));
  });

  it("writes an iterable's prewritten elements where they stand, indented to their place", () => {
    const items = Array.from({ length: 600 }, (_, i) => ({ i, nested: { list: [i, { deep: 'x\ny', unit: '4 × 937 GB' }] } }));
    const mixed = function* (): Generator<unknown> {
      for (const [k, item] of items.entries())
        yield k % 3
          ? item
          : ({
              // Text and bytes, as evaluate gives them: a name's line, then the rest encoded once.
              prewritten: (indent) => {
                const text = indented(JSON.stringify(item, null, 2), indent);
                return [text.slice(0, 10), Buffer.from(text.slice(10))];
              },
            } satisfies PrewrittenJson);
    };
    const onlyPrewritten = function* (): Generator<PrewrittenJson> {
      for (const item of items.slice(0, 5)) yield { prewritten: (indent) => [indented(JSON.stringify(item, null, 2), indent)] };
    };
    assert.equal(written({ files: [{ vms: mixed() }] }), JSON.stringify({ files: [{ vms: items }] }, null, 2));
    assert.equal(written(mixed()), JSON.stringify(items, null, 2));
    assert.equal(written({ a: [onlyPrewritten()] }), JSON.stringify({ a: [items.slice(0, 5)] }, null, 2));
  });

  it('nestedJson: the bytes of JSON.stringify(value, null, 2) indented to their place, whatever the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 6 }), (v, level) => {
        const indent = '  '.repeat(level);
        const want = Buffer.from(indented(JSON.stringify(v, null, 2), indent), 'utf8');
        assert.deepEqual(Buffer.from(nestedJson(v, indent)), want);
      }),
      { numRuns: 500, seed: 20261127 },
    );
    assert.equal(Buffer.from(nestedJson({ why: '≤ 50,000 — ₽' }, '    ')).toString(), '{\n      "why": "≤ 50,000 — ₽"\n    }');
  });

  it('writes an evaluation report (with its lazily explained figures) as JSON.stringify does', () => {
    const text = [...SPEC_HEAD, ...vmLines('a', 1), ...vmLines('b', 2)].join('\n') + '\n';
    const report = { files: [fileReport('x.perf.yaml', analyze(text))] };
    assert.equal(written(report), JSON.stringify(report, null, 2));
  });

  it('encodes text into shared buffers as the text joined is encoded, whatever the chunks and where they are taken', () => {
    // Text of every width (a surrogate pair split between chunks too), bytes small and large, lengths past a buffer.
    const unit = fc.oneof(
      fc.constant('a'),
      fc.constant('é'),
      fc.constant('≤'),
      fc.constant('😀'),
      fc.constant('\ud83d'),
      fc.constant('\ude00'),
    );
    const text = fc.oneof(
      fc.array(unit, { maxLength: 40 }).map((u) => u.join('')),
      fc.tuple(unit, fc.integer({ min: 1, max: 400_000 })).map(([u, n]) => u.repeat(n)),
    );
    const chunk: fc.Arbitrary<Chunk> = fc.oneof(
      text,
      text.map((t) => Buffer.from(t)),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(chunk, fc.boolean()), { maxLength: 30 }), (chunks) => {
        const pieces = new Utf8Pieces();
        const out: Uint8Array[] = [];
        for (const [c, takeNow] of chunks) {
          const before = pieces.size;
          pieces.add(c);
          // What is ready is counted: at most a kept half of a pair is not.
          assert.ok(pieces.size >= before + (typeof c === 'string' ? Buffer.byteLength(c) - 3 : c.byteLength));
          if (takeNow) {
            out.push(...pieces.take(false));
            assert.equal(pieces.size, 0);
          }
        }
        out.push(...pieces.take(true));
        assert.equal(pieces.size, 0);
        // What the old writer gave: text runs joined and encoded, bytes as they are.
        const want: Buffer[] = [];
        let run = '';
        for (const [c] of chunks) {
          if (typeof c === 'string') {
            run += c;
            continue;
          }
          want.push(Buffer.from(run), Buffer.from(c));
          run = '';
        }
        want.push(Buffer.from(run));
        assert.deepEqual(Buffer.concat(out), Buffer.concat(want));
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });

  it('waits for a slow reader instead of queueing everything, and gives all of it', async () => {
    const stream = new PassThrough({ highWaterMark: 1024 });
    let read = '';
    let drained = 0;
    stream.on('drain', () => drained++);
    const done = writeChunks(
      (function* () {
        for (let i = 0; i < 100; i++) yield `${'x'.repeat(70000)}${i}\n`;
      })(),
      stream,
    );
    stream.setEncoding('utf8').on('data', (s: string) => (read += s));
    await done;
    assert.equal(read.split('\n').length, 101);
    assert.ok(drained > 0);
  });

  it('stops at the stream’s first error, or when it closes', async () => {
    const stream = new PassThrough({ highWaterMark: 16 });
    let pulled = 0;
    const done = writeChunks(
      (function* () {
        for (; pulled < 1000; pulled++) yield 'y'.repeat(70000);
      })(),
      stream,
    );
    stream.destroy(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
    await done;
    assert.ok(pulled < 1000);
  });

  it('stops when the stream closes without an error', async () => {
    const stream = new PassThrough({ highWaterMark: 16 });
    let pulled = 0;
    const done = writeChunks(
      (function* () {
        for (; pulled < 1000; pulled++) yield 'z'.repeat(70000);
      })(),
      stream,
    );
    stream.destroy();
    await done;
    assert.ok(pulled < 1000);
  });
});
