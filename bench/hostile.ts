/**
 * What each hostile input of test/robustness/hostile.test.ts costs to analyse, as a ratio to js-yaml's own
 * load() of the same text in this run. The tests hold the structure that bounds the work (nothing expanded,
 * every VM once); this table is where a slow case shows, so it is measured here, not asserted by the clock.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { analyze } from '../core/src';
import { aliasedWorkloads, billionLaughs, manyVms, withComments } from '../test/robustness/hostile-inputs';

type Timer = (fn: () => void, minMs?: number, maxRuns?: number) => { median: number };

/** js-yaml refuses some of these texts (too deep, a cycle): its time to refuse is still the peer's. */
function loadOrRefuse(text: string): void {
  try {
    load(text);
  } catch {
    // refused: that is the work it did
  }
}

export function benchHostile(time: Timer): string[] {
  const example = readFileSync(join(resolve(__dirname, '../..'), 'examples/storage.perf.yaml'), 'utf8');
  const big = 'x'.repeat(10 * 1024 * 1024);
  const cases: Array<[string, string]> = [
    ['billion laughs (9^9 nodes once expanded)', billionLaughs()],
    ['250 VMs aliasing one list of 40 workloads', aliasedWorkloads(250, 40)],
    ['100,000 comment lines around the example', withComments(example, 100_000)],
    ['9,000 VMs alike but for their names (100,000 lines)', manyVms(9000)],
    ['9,000 VMs, each its own disk size', manyVms(9000, true)],
    ['a 10 MB comment line', `# ${big}\n${example}`],
    ['a 10 MB value', example.replace('region: us-central1', `region: ${big}`)],
    ['100,000 open brackets', '['.repeat(100_000)],
  ];
  const out = [
    '## hostile inputs: analyze vs js-yaml load of the same text',
    '',
    '| input | analyze median ms | js-yaml load median ms | ratio |',
    '|---|---|---|---|',
  ];
  for (const [what, text] of cases) {
    const a = time(() => analyze(text), 300, 20);
    const y = time(() => loadOrRefuse(text), 300, 20);
    out.push(`| ${what} | ${a.median.toFixed(1)} | ${y.median.toFixed(1)} | ${(a.median / y.median).toFixed(1)}× |`);
  }
  return out;
}
