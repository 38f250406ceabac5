/** The diff's two analyses and the evaluation cache they share (cli/src/diff: analyseSides). */
import * as assert from 'node:assert/strict';
import { analyze, EvaluationCache } from '../../core/src';
import { loadRegistry } from '../../cli/src/catalog-file';
import { analyseSides } from '../../cli/src/diff';
import { distinctSizes, spec, vm } from '../fixtures/diff-specs';

describe('diff: both sides analysed with one cache', () => {
  it('a VM the change left alone is evaluated once, in a fleet larger than a cache bounded by size holds', function () {
    this.timeout(120000);
    // Distinct VMs (each its own data disk size), 1 in 100 resized in the head to a size no base VM has.
    const n = 2500;
    const base = distinctSizes(n),
      head = distinctSizes(n, (i) => 100 + i + (i % 100 === 0 ? 5000 : 0));
    const changed = n / 100;

    // The premise: a cache bounded by size (the default, evaluate's) holds fewer than this many VMs.
    const bySize = new EvaluationCache();
    analyze(base, { cache: bySize });
    assert.ok(bySize.size < n, `a cache bounded by size holds ${bySize.size} of ${n} VMs: the fleet must be larger`);

    const {
      base: b,
      head: h,
      cache,
    } = analyseSides({ name: 'base', read: () => ({ text: base }) }, { name: 'head', read: () => ({ text: head }) }, loadRegistry([]));
    assert.equal(b?.vms.length, n);
    assert.equal(h?.vms.length, n);
    // Every base VM made once; the head's unchanged VMs found, its resized ones made.
    assert.deepEqual([cache.hits, cache.misses], [n - changed, n + changed]);
  });

  it('a side that is not there is not read', () => {
    const text = spec(vm('a', 'n2-standard-8', 'type: pd-ssd\nsize: 500GiB'));
    const { base, head, cache } = analyseSides(
      { name: 'base', read: undefined },
      { name: 'head', read: () => ({ text }) },
      loadRegistry([]),
    );
    assert.equal(base, undefined);
    assert.equal(head?.vms.length, 1);
    assert.deepEqual([cache.hits, cache.misses], [0, 1]);
  });
});
