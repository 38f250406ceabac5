/**
 * The searches' least value (core/src/advice/least.ts) is aimed by the figures, but its answer is the least value
 * at which the condition holds, whatever the figures say: the same answer a bisection (or a scan) gives, for any
 * condition that holds of every value above one that holds.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze, EvaluationCache } from '../../core/src';
import { leastValue, type Probe } from '../../core/src/advice/least';
import { SPEC_HEAD, vmLines } from '../../bench/specs';

/** The least value in [lo, hi] at which `holds` is true, by a scan: the reference. */
function scan(lo: number, hi: number, holds: (v: number) => boolean): number | undefined {
  for (let v = lo; v <= hi; v++) if (holds(v)) return v;
  return undefined;
}

describe('least value of a search', () => {
  it('is the least value that holds, with figures that aim right, wrong or not at all', () => {
    const ratioKinds = ['linear', 'capped', 'flat', 'misleading', 'none'] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: -10, max: 5100 }),
        fc.constantFrom(...ratioKinds),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (a, b, threshold, kind, slope, base) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const holds = (v: number) => v >= threshold;
          const ratio = (v: number): number | undefined => {
            if (kind === 'none') return undefined;
            if (kind === 'flat') return base;
            if (kind === 'misleading') return base + (v % 97) / slope;
            const r = (base + slope * v) / (base + slope * Math.max(threshold, 0) || 1);
            return kind === 'capped' ? Math.min(r, 1.2) : r;
          };
          let probes = 0;
          const probe = (v: number): Probe => {
            probes++;
            assert.ok(v >= lo && v <= hi, `probed ${v} outside [${lo}, ${hi}]`);
            return { ok: holds(v), ratio: ratio(v) };
          };
          assert.equal(leastValue(lo, hi, probe), scan(lo, hi, holds));
          // Never much more than a bisection: the guesses are bounded, then it halves.
          assert.ok(probes <= 2 * Math.ceil(Math.log2(hi - lo + 2)) + 12, `${probes} probes over [${lo}, ${hi}]`);
        },
      ),
      { numRuns: 2000, seed: 26 },
    );
  });

  it('where the condition fails at the top (another disk loses its share of a limit), the least that holds below it', () => {
    // The aimed figures rise with the value and reach the target at `a`; another workload's figures fall, and it
    // misses above `b`; a third part (another workload of the same disk) asks `c`. It holds on [max(a, c), b].
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        (lo, width, a, b, c) => {
          const hi = lo + width;
          const holds = (v: number) => v >= a && v >= c && v <= b;
          let probes = 0;
          const probe = (v: number): Probe => {
            probes++;
            assert.ok(v >= lo && v <= hi, `probed ${v} outside [${lo}, ${hi}]`);
            return { ok: holds(v), ratio: (v + 1) / (a + 1) };
          };
          const got = leastValue(lo, hi, probe);
          // Never a value at which it fails; the least where the third part asks no more than the aimed one.
          if (got !== undefined) assert.ok(holds(got), `${got} does not hold`);
          if (c <= a || c <= lo) assert.equal(got, scan(lo, hi, holds));
          assert.ok(probes <= 4 * Math.ceil(Math.log2(width + 2)) + 14, `${probes} probes over [${lo}, ${hi}]`);
        },
      ),
      { numRuns: 2000, seed: 4711 },
    );
  });

  it("decides in one evaluation where the range's least holds, and evaluates no value twice", () => {
    // The searches start their ranges at the least the disk's own figures allow, and most that find a value find it
    // there: the top need not be evaluated to know it.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: -10, max: 5100 }), (a, b, t) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const seen: number[] = [];
        const got = leastValue(lo, hi, (v) => {
          seen.push(v);
          return { ok: v >= t, ratio: (v + 1) / (Math.max(t, 0) + 1) };
        });
        assert.equal(
          got,
          scan(lo, hi, (v) => v >= t),
        );
        if (t <= lo) assert.deepEqual(seen, [lo]);
        assert.equal(new Set(seen).size, seen.length, `evaluated twice: ${seen.join(' ')}`);
      }),
      { numRuns: 1000, seed: 39 },
    );
  });

  it('finds a value on a linear piece in a few evaluations', () => {
    // 6 IOPS per GiB, a target of 15,000 IOPS: the least size is 2,500 GiB.
    let probes = 0;
    const got = leastValue(10, 65536, (v) => {
      probes++;
      return { ok: 6 * v >= 15000, ratio: (6 * v) / 15000 };
    });
    assert.equal(got, 2500);
    assert.ok(probes <= 5, `${probes} evaluations`);
  });

  it('aims by values that hold too, where the least of the range is not judged', () => {
    // A baseline of 3,000 IOPS plus 6 per GiB, capped at 80,000, a target of 15,000: the least size is 2,000 GiB.
    // Below 10 GiB the type does not come in (no figures, no ratio): that says nothing of where the least is.
    const seen: number[] = [];
    const got = leastValue(1, 65536, (v) => {
      seen.push(v);
      const iops = Math.min(3000 + 6 * v, 80000);
      return v < 10 ? { ok: false } : { ok: iops >= 15000, ratio: iops / 15000 };
    });
    assert.equal(got, 2000);
    // A bisection takes 17; the line through two values that hold lands on the least, and the value below confirms.
    assert.ok(seen.length <= 8, `${seen.length} evaluations: ${seen.join(' ')}`);
  });

  it('stops where the condition fails for a part that fails at every larger value (lost)', () => {
    // The aimed figures reach the target at `a`; another disk's workload misses from `b` up (it loses its share as
    // this disk grows). The same answer as a search that is not told so, in no more evaluations, and in fewer in all.
    let told = 0;
    let untold = 0;
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 60000 }), fc.integer({ min: 10, max: 60000 }), (a, b) => {
        const search = (say: boolean) => {
          let probes = 0;
          const got = leastValue(10, 65536, (v) => {
            probes++;
            const ok = v >= a && v < b;
            return { ok, ratio: (v + 1) / (a + 1), ...(say && !ok && v >= b ? { lost: true } : {}) };
          });
          return { got, probes };
        };
        const [yes, no] = [search(true), search(false)];
        assert.equal(
          yes.got,
          scan(10, 65536, (v) => v >= a && v < b),
        );
        assert.equal(yes.got, no.got);
        assert.ok(yes.probes <= no.probes, `${yes.probes} evaluations told, ${no.probes} not`);
        told += yes.probes;
        untold += no.probes;
      }),
      { numRuns: 1000, seed: 38 },
    );
    assert.ok(told < untold * 0.8, `${told} evaluations told, ${untold} not`);
  });
});

describe('evaluation cache hit rate', () => {
  it('counts an evaluation found for a VM of the same content as a hit, a new content as a miss', () => {
    const text = [...SPEC_HEAD, ...vmLines('a', 1), ...vmLines('b', 1), ...vmLines('c', 2)].join('\n') + '\n';
    const cache = new EvaluationCache();
    analyze(text, { cache });
    assert.deepEqual([cache.hits, cache.misses], [1, 2]);
    assert.equal(cache.hitRate(), 1 / 3);
    analyze(text, { cache });
    assert.deepEqual([cache.hits, cache.misses], [4, 2]);
  });
});
