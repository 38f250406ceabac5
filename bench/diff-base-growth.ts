/**
 * How the editor's diff base analysis grows with the base (issue 35: "12.6 s / 63 s for 40,000 / 100,000 VMs,
 * superlinear"). In one process, as the server runs it: the open document's analysis alive beside the base's, one
 * evaluation cache, every finding kept (`allFindings`), V8's heap growing factor as the server sets it
 * (protocol/src/heap.ts). Prints the CPU time of the base's analysis per size and the ratio per doubling (2.0 is
 * linear); the evaluation cache's hit rate is printed too (the base shares 99 % of its VMs with the document).
 *
 *   node out/bench/diff-base-growth.js [N...]      default 10000 20000 40000
 */
import { analyze, EvaluationCache } from '../core/src';
import { limitHeapGrowth } from '../protocol/src/heap';
import { fleet } from './diff';

function cpuSeconds(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const u = process.cpuUsage(t0);
  return (u.user + u.system) / 1e6;
}

function main(): void {
  limitHeapGrowth();
  const sizes = process.argv.slice(2).map(Number);
  let last: { n: number; s: number } | undefined;
  for (const n of sizes.length ? sizes : [10_000, 20_000, 40_000]) {
    const cache = EvaluationCache.forDocument();
    const head = analyze(fleet(n, 100), { cache, allFindings: true });
    const before = { hits: cache.hits, misses: cache.misses };
    const base = fleet(n);
    const s = cpuSeconds(() => void analyze(base, { cache, allFindings: true }));
    const after = { hits: cache.hits, misses: cache.misses };
    const hits = after.hits - before.hits;
    const asked = hits + after.misses - before.misses;
    const perDoubling = last ? (s / last.s) ** (1 / Math.log2(n / last.n)) : undefined;
    console.log(
      `${n} VMs: base analysed in ${s.toFixed(2)} s CPU` +
        (perDoubling ? `, ×${perDoubling.toFixed(2)} per doubling` : '') +
        `; cache hit rate ${((100 * hits) / Math.max(1, asked)).toFixed(1)} %` +
        ` (document: ${head.vms.length} VMs alive)`,
    );
    last = { n, s };
  }
}

main();
