/**
 * V8's heap growing factor, set at run time: shared by the language server (documents analysed again and again)
 * and `storage-perf evaluate` (one large document analysed once).
 */
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection left alive before it collects
 * again: 50 % (a factor of 1.5). V8 picks its own factor, up to 4, from how fast collections run. In the server,
 * with an analysis of a large document as garbage every edit, it sized the heap to about twice what is alive,
 * and gave little of it back: 300 edits of a 20,000-line spec grew RSS by +66 MiB by default, +40 MiB at 50 %
 * and at 25 %, +67 MiB at 100 %, edits as fast at 50 %. `evaluate` of 10,000 VMs let its heap reach 194 MB
 * before its second full collection (115 MB alive after it): peak RSS 284–307 MiB by default, 253–255 MiB at
 * 50 %, in as much time (docs/performance.md). A factor, not a cap: a larger document still gets the heap it
 * needs.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Sets V8's heap growing factor for this process; false where V8 refuses the flag. */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): boolean {
  try {
    setFlagsFromString(`--heap-growing-percent=${percent}`);
    return true;
  } catch {
    return false;
  }
}
