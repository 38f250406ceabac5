/**
 * What each hostile input of test/robustness/hostile.test.ts costs to analyse, as a ratio to js-yaml's own
 * load() of the same text in this run. The tests hold the structure that bounds the work (nothing expanded,
 * every VM once, time linear in the input: test/robustness/growth.test.ts); this table is where a slow case
 * shows, so it is measured here, not asserted by the clock. The 5 MB junk spec (90,000 unknown top-level keys)
 * is also run through the CLI, `evaluate` and `lint` as processes, against issue 26's goal: under 5 s, with
 * output bounded (`node out/bench/hostile.js` runs this part alone).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { analyze } from '../core/src';
import { aliasedWorkloads, billionLaughs, manyVms, unknownKeys, withComments } from '../test/robustness/hostile-inputs';
import { assertBundlesFresh, median, run } from './process';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'cli/bin/storage-perf.js');
/** The junk spec of issue 26: 90,000 unknown keys, 5 MB. */
const JUNK_KEYS = 90_000;

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
    [`5 MB of ${JUNK_KEYS.toLocaleString('en-US')} unknown top-level keys`, unknownKeys(JUNK_KEYS)],
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

/** `evaluate` and `lint` of the 5 MB junk spec as processes: wall time (median of 3), peak RSS, output size. */
export async function benchHostileCli(): Promise<string[]> {
  assertBundlesFresh();
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-hostile-'));
  const file = join(dir, 'junk.perf.yaml');
  const text = unknownKeys(JUNK_KEYS);
  writeFileSync(file, text);
  const out = [
    `## the 5 MB junk spec through the CLI (${(text.length / 1e6).toFixed(1)} MB, ${JUNK_KEYS.toLocaleString('en-US')} unknown keys)`,
    '',
    '| command | median s | peak MiB | output bytes | exit code | goal: under 5 s, output bounded |',
    '|---|---|---|---|---|---|',
  ];
  try {
    for (const args of [
      ['evaluate', '--format', 'json'],
      ['lint', '--format', 'json'],
    ]) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await run([CLI, ...args, file], dir, false));
      const ms = median(runs.map((r) => r.ms));
      const bytes = Number(runs[0].stdout);
      const peak = Math.max(...runs.map((r) => r.peakKiB)) / 1024;
      out.push(
        `| ${args.join(' ')} | ${(ms / 1000).toFixed(2)} | ${peak.toFixed(0)} | ${bytes.toLocaleString('en-US')} | ${runs[0].code} | ${ms < 5000 ? 'met' : 'not met'} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

if (require.main === module) {
  benchHostileCli().then(
    (lines) => process.stdout.write(lines.join('\n') + '\n'),
    (e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
