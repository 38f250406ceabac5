/**
 * Collects garbage after the server has analysed a lot of text. Each analysis of a large document leaves its
 * YAML tree, line index and findings behind when the next replaces it; V8 sizes its heap to that garbage and
 * collects it late, because nothing presses it: 300 edits of a 20,000-line spec grew the server's resident
 * memory by 400 MiB while what it kept stayed flat (docs/performance.md). A full collection once every
 * `budgetChars` of text analysed keeps the heap near what is alive, at the cost of one collection (tens of
 * milliseconds) per so many analyses; small documents never reach the budget between edits.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { limitHeapGrowth } from '../../protocol/src/heap';

/** V8's full collection, exposed at run time (as `--expose-gc` would at start); undefined where refused. */
function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export class GarbageCollector {
  private analysed = 0;
  /** How many collections ran: for tests and the benchmark. */
  collections = 0;
  /** Whether the heap's growth is limited yet (the first replaced analysis does it). */
  heapGrowthLimited = false;
  constructor(
    private readonly budgetChars = 1024 * 1024,
    private readonly collect: (() => void) | undefined = fullCollection(),
  ) {}

  /** An analysis replaced a document's earlier one (an edit): from now on the heap grows by HEAP_GROWING_PERCENT
   * (protocol/src/heap.ts). */
  replacedAnalysis(): void {
    if (!this.heapGrowthLimited && this.collect) this.heapGrowthLimited = limitHeapGrowth();
  }

  /** A text of `chars` characters was analysed: collects when the texts analysed since the last one reach the budget. */
  analysedText(chars: number): void {
    this.analysed += chars;
    if (this.analysed < this.budgetChars || !this.collect) return;
    this.analysed = 0;
    this.collections++;
    this.collect();
  }
}
