/**
 * `storage-perf evaluate` of one spec of 10,000 VMs (the JSON report), against a process that reads the same
 * file and parses it with js-yaml, in one run; and the evaluate command's peak memory. Both sides are one
 * process each, measured alike (./process).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { goal, goalTable, type Goal } from './goals';
import { assertBundlesFresh, median, run, type Measure } from './process';
import { SPEC_HEAD, vmLines } from './specs';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'cli/bin/storage-perf.js');

export function specWithVms(n: number): string {
  const lines = [...SPEC_HEAD];
  for (let i = 0; i < n; i++) lines.push(...vmLines(`vm${i}`, i));
  return lines.join('\n') + '\n';
}

function checked(m: Measure): Measure {
  if (m.code !== 0 && m.code !== 1) throw new Error(`a benchmark run failed (exit ${m.code}): ${m.stderr.slice(-2000)}`);
  return m;
}

export async function benchEvaluateCli(n = 10000, runs = 3): Promise<{ lines: string[]; goals: Goal[] }> {
  assertBundlesFresh();
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-bench-evaluate-'));
  const file = join(dir, 'fleet.perf.yaml');
  const ours: Measure[] = [],
    peer: Measure[] = [];
  try {
    writeFileSync(file, specWithVms(n));
    for (let r = 0; r < runs; r++) {
      ours.push(checked(await run([CLI, 'evaluate', file, '--format', 'json'], dir, false)));
      peer.push(checked(await run([__filename, '--js-yaml', file], dir)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const a = { ms: median(ours.map((m) => m.ms)), mib: Math.max(...ours.map((m) => m.peakKiB)) / 1024 };
  const b = { ms: median(peer.map((m) => m.ms)), mib: Math.max(...peer.map((m) => m.peakKiB)) / 1024 };
  const label = n.toLocaleString('en-US');
  const lines = [
    `## evaluate: \`storage-perf evaluate FILE --format json\` of ${label} VMs vs a process that parses the file with js-yaml`,
    '',
    '| tool | wall median ms | peak RSS MiB | output bytes |',
    '|---|---|---|---|',
    `| storage-perf evaluate | ${a.ms.toFixed(0)} | ${a.mib.toFixed(1)} | ${ours[0].stdout} |`,
    `| js-yaml load | ${b.ms.toFixed(0)} | ${b.mib.toFixed(1)} | - |`,
  ];
  const goals = [
    goal(`\`evaluate\` of ${label} VMs vs js-yaml's parse`, a.ms, b.ms, 5, 'at most 5× the parse'),
    goal(`\`evaluate\` of ${label} VMs, peak RSS`, a.mib, 'MiB', 300, 'at most 300 MiB'),
  ];
  return { lines, goals };
}

if (require.main === module) {
  const i = process.argv.indexOf('--js-yaml');
  if (i >= 0) {
    load(readFileSync(process.argv[i + 1], 'utf8'));
  } else {
    benchEvaluateCli().then(
      (r) => process.stdout.write([...r.lines, '', ...goalTable(r.goals)].join('\n') + '\n'),
      (e) => {
        process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
        process.exitCode = 1;
      },
    );
  }
}
