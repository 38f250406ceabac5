/**
 * `Attached` (core/src/attached.ts): a memo kept on its object must be invisible to everything that reads the
 * object as data (JSON, keys, spreads, deep equality), follow the object and not its copies, and work on an object
 * that cannot take a property.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { Attached } from '../../core/src/attached';

describe('Attached', () => {
  it('keeps a value on its object, unseen by JSON, keys, spreads and deep equality, and not on copies', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.dictionary(fc.string(), fc.integer()), (list, record) => {
        const memo = new Attached<object, string>('test');
        const listCopy = [...list];
        const recordCopy = Object.assign(Object.create(Object.getPrototypeOf(record) as object | null) as object, record);
        memo.set(list, 'list');
        memo.set(record, 'record');
        assert.equal(memo.get(list), 'list');
        assert.equal(memo.get(record), 'record');
        assert.equal(JSON.stringify(list), JSON.stringify(listCopy));
        assert.equal(JSON.stringify(record), JSON.stringify(recordCopy));
        assert.deepEqual(Object.keys(record), Object.keys(recordCopy));
        assert.deepStrictEqual(list, listCopy);
        assert.deepStrictEqual(record, recordCopy);
        // A copy is another object: it has no value until one is set on it.
        assert.equal(memo.get([...list]), undefined);
        assert.equal(memo.get({ ...record }), undefined);
        assert.equal(memo.get(list.map((x) => x)), undefined);
        // Another memo's value on the same object is its own.
        const other = new Attached<object, string>('test');
        assert.equal(other.get(list), undefined);
        other.set(list, 'other');
        assert.equal(memo.get(list), 'list');
        memo.set(list, 'again');
        assert.equal(memo.get(list), 'again');
      }),
      { numRuns: 50, seed: 13 },
    );
  });

  it('keeps a value for a frozen object too', () => {
    const memo = new Attached<object, number>('frozen');
    const frozen = Object.freeze([1, 2, 3]);
    memo.set(frozen, 42);
    assert.equal(memo.get(frozen), 42);
    assert.equal(memo.get(Object.freeze([1, 2, 3])), undefined);
  });
});
