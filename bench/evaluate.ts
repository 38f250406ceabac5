/**
 * `storage-perf evaluate` of one spec of 10,000 VMs (the JSON report), against a process that reads the same
 * file and parses it with js-yaml, in one run; and the evaluate command's peak memory. Both sides are one
 * process each, measured alike (./process). The specs: 10,000 distinct VMs of each provider's newest edition
 * (./fleet, the headline), and the replica fleet of ./specs (VMs that repeat every 840: the best case, a second row).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { distinctFleet, evaluationHitRate, FLEET_EDITIONS, percent } from './fleet';
import { goal, goalTable, type Goal } from './goals';
import { assertBundlesFresh, median, run, type Measure } from './process';
import { SPEC_HEAD, vmLines } from './specs';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'cli/bin/storage-perf.js');

/** The replica fleet: VMs of one shape varied by a counter, repeating every 840 (./specs). */
export function specWithVms(n: number): string {
  const lines = [...SPEC_HEAD];
  for (let i = 0; i < n; i++) lines.push(...vmLines(`vm${i}`, i));
  return lines.join('\n') + '\n';
}

/** A spec the benchmarks measure: what it is, its text, and how many of its VMs miss a target (when known). */
export interface BenchInput {
  label: string;
  text: string;
  unmet?: number;
}

/** The distinct fleets of `n` VMs, one per edition, then the replica fleet (labelled as such). */
export function evaluateInputs(n: number): BenchInput[] {
  const label = n.toLocaleString('en-US');
  return [
    ...FLEET_EDITIONS.map((e) => {
      const f = distinctFleet(e, n);
      return { label: `${label} distinct VMs, ${e}`, text: f.text, unmet: f.unmet };
    }),
    { label: `${label} VMs, replicas (gcp-2024, repeating every 840)`, text: specWithVms(n) },
  ];
}

function checked(m: Measure): Measure {
  if (m.code !== 0 && m.code !== 1) throw new Error(`a benchmark run failed (exit ${m.code}): ${m.stderr.slice(-2000)}`);
  return m;
}

/** Ours and the peer on one spec, alternated `runs` times so that a busy spell hits both. */
async function measure(input: BenchInput, runs: number): Promise<{ ours: Measure[]; peer: Measure[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-bench-evaluate-'));
  const file = join(dir, 'fleet.perf.yaml');
  const ours: Measure[] = [],
    peer: Measure[] = [];
  try {
    writeFileSync(file, input.text);
    for (let r = 0; r < runs; r++) {
      ours.push(checked(await run([CLI, 'evaluate', file, '--format', 'json'], dir, false)));
      peer.push(checked(await run([__filename, '--js-yaml', file], dir)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { ours, peer };
}

export async function benchEvaluateCli(n = 10000, runs = 3): Promise<{ lines: string[]; goals: Goal[] }> {
  assertBundlesFresh();
  const lines = [
    `## evaluate: \`storage-perf evaluate FILE --format json\` vs a process that parses the file with js-yaml (medians of ${runs})`,
    '',
    '| spec | tool | wall median ms | peak RSS MiB | output bytes | evaluation-cache hit rate |',
    '|---|---|---|---|---|---|',
  ];
  const goals: Goal[] = [];
  for (const input of evaluateInputs(n)) {
    const { ours, peer } = await measure(input, runs);
    const a = { ms: median(ours.map((m) => m.ms)), mib: Math.max(...ours.map((m) => m.peakKiB)) / 1024 };
    const b = { ms: median(peer.map((m) => m.ms)), mib: Math.max(...peer.map((m) => m.peakKiB)) / 1024 };
    const hits = percent(evaluationHitRate([input.text], true));
    const unmet = input.unmet === undefined ? '' : ` (${input.unmet.toLocaleString('en-US')} miss a target)`;
    lines.push(
      `| ${input.label}${unmet} | storage-perf evaluate | ${a.ms.toFixed(0)} | ${a.mib.toFixed(1)} | ${ours[0].stdout} | ${hits} |`,
    );
    lines.push(`| ${input.label} | js-yaml load | ${b.ms.toFixed(0)} | ${b.mib.toFixed(1)} | - | - |`);
    goals.push(goal(`\`evaluate\` of ${input.label} vs js-yaml's parse`, a.ms, b.ms, 5, 'at most 5× the parse'));
    goals.push(goal(`\`evaluate\` of ${input.label}, peak RSS`, a.mib, 'MiB', 300 / 1.048576, 'at most 300 MB (286 MiB)'));
  }
  return { lines, goals };
}

/** `--name N` from the command line, or `fallback`. */
export function argNumber(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (require.main === module) {
  const i = process.argv.indexOf('--js-yaml');
  if (i >= 0) {
    load(readFileSync(process.argv[i + 1], 'utf8'));
  } else {
    benchEvaluateCli(argNumber('--vms', 10000), argNumber('--runs', 3)).then(
      (r) => process.stdout.write([...r.lines, '', ...goalTable(r.goals)].join('\n') + '\n'),
      (e) => {
        process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
        process.exitCode = 1;
      },
    );
  }
}
