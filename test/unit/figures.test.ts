/**
 * A disk's figures as one flat record (core/src/model/figures.ts): numbers, a small code for the limit that sets each,
 * and a sentence made when read. Checked against a plain model of what the record stands for (a value, a limit and
 * a sentence per figure), over generated sequences of changes and copies.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { DiskFigures, type FigureKey, type FigureSource } from '../../core/src/model/figures';
import type { LimitKind } from '../../core/src/model/types';

const KEYS: FigureKey[] = ['read_iops', 'write_iops', 'read_mibps', 'write_mibps', 'write_iops_16k'];
const KINDS: LimitKind[] = ['size', 'disk', 'vm', 'egress', 'provisioned', 'block_size', 'mix', 'queue_depth', 'devices'];

/** A source that says its name, the figure and the value it was asked about, and counts how often it is asked. */
function named(name: string): FigureSource & { asked: number } {
  const s = {
    asked: 0,
    explainFigure(m: FigureKey, value: number) {
      s.asked++;
      return `${name}: ${m} ${value}`;
    },
  };
  return s;
}

type Model = Map<FigureKey, { value: number; by: LimitKind; source: string }>;

function sameAs(f: DiskFigures, model: Model): void {
  for (const m of KEYS) {
    const x = model.get(m);
    if (!x) {
      assert.equal(f[m], m === 'write_iops_16k' ? undefined : 0, m);
      continue;
    }
    assert.equal(f[m], x.value, m);
    assert.equal(f.by(m), x.by, m);
    assert.equal(f.why(m), `${x.source}: ${m} ${x.value}`, m);
    const b = f.bound(m);
    assert.deepEqual([b.value, b.by, b.why], [x.value, x.by, `${x.source}: ${m} ${x.value}`], m);
  }
}

describe('a disk’s figures as a flat record', () => {
  it('holds each figure’s value, limit and source apart, and a copy changes without its original', () => {
    const sources = ['own', 'vm', 'egress'].map((n) => ({ n, s: named(n) }));
    const change = fc.record({
      key: fc.constantFrom(...KEYS),
      value: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
      by: fc.constantFrom(...KINDS),
      source: fc.integer({ min: 0, max: sources.length }),
      copyFirst: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), (changes) => {
        let f = new DiskFigures(sources[0].s);
        let model: Model = new Map();
        const kept: Array<[DiskFigures, Model]> = [];
        for (const c of changes) {
          if (c.copyFirst) {
            kept.push([f, new Map(model)]);
            f = f.copy();
            model = new Map(model);
          }
          // An index past the list: the record's own source (none given).
          const given = sources[c.source];
          f.set(c.key, c.value, c.by, given?.s);
          model.set(c.key, { value: c.value, by: c.by, source: given?.n ?? 'own' });
        }
        sameAs(f, model);
        // Every record copied from stayed as it was when copied.
        for (const [g, m] of kept) sameAs(g, m);
      }),
      { numRuns: 300 },
    );
  });

  it('makes a sentence only when it is read', () => {
    const own = named('own');
    const f = new DiskFigures(own);
    for (const m of KEYS) f.set(m, 100, 'size');
    const g = f.copy();
    g.set('read_iops', 50, 'vm', named('vm'));
    assert.equal(own.asked, 0);
    assert.equal(g.why('write_iops'), 'own: write_iops 100');
    assert.equal(own.asked, 1);
  });

  it('writes its figures as the report’s {value, by, why}, the small-write column only where it has one', () => {
    const f = new DiskFigures(named('own'));
    f.set('read_iops', 3000, 'size');
    f.set('write_iops', 1500.5, 'disk');
    f.set('read_mibps', 140, 'vm', named('vm'));
    f.set('write_mibps', 0, 'egress', named('egress'));
    const json = JSON.parse(JSON.stringify(f));
    assert.deepEqual(json, {
      read_iops: { value: 3000, by: 'size', why: 'own: read_iops 3000' },
      write_iops: { value: 1500.5, by: 'disk', why: 'own: write_iops 1500.5' },
      read_mibps: { value: 140, by: 'vm', why: 'vm: read_mibps 140' },
      write_mibps: { value: 0, by: 'egress', why: 'egress: write_mibps 0' },
    });
    f.set('write_iops_16k', 900, 'size');
    f.dropWriteIops16k();
    assert.equal(f.write_iops_16k, undefined);
    assert.equal('write_iops_16k' in JSON.parse(JSON.stringify(f)), false);
  });
});
