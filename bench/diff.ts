/**
 * `storage-perf diff` of two specs of 10,000 VMs that differ in 1 % of them, against one `storage-perf evaluate`
 * of one side (the JSON report), in the same run: each a process, measured alike (./process), runs interleaved.
 * The goal (issue 27): the diff within 2.5× the evaluate, which it reaches by sharing one evaluation cache
 * between its two analyses.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { goal, goalTable, type Goal } from './goals';
import { assertBundlesFresh, median, run, type Measure } from './process';
import { SPEC_HEAD, vmLines } from './specs';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'cli/bin/storage-perf.js');

/** `n` VMs; every `every`-th one (when given) with its data disk one size step larger. */
export function fleet(n: number, every?: number): string {
  const lines = [...SPEC_HEAD];
  for (let i = 0; i < n; i++) lines.push(...vmLines(`vm${i}`, i, every !== undefined && i % every === 0 ? i + 1 : i));
  return lines.join('\n') + '\n';
}

function checked(m: Measure): Measure {
  if (m.code !== 0 && m.code !== 1) throw new Error(`a benchmark run failed (exit ${m.code}): ${m.stderr.slice(-2000)}`);
  return m;
}

export async function benchDiff(n = 10000, runs = 3): Promise<{ lines: string[]; goals: Goal[] }> {
  assertBundlesFresh();
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-bench-diff-'));
  const base = join(dir, 'base.perf.yaml'),
    head = join(dir, 'head.perf.yaml');
  const diff: Measure[] = [],
    evaluate: Measure[] = [];
  try {
    writeFileSync(base, fleet(n));
    writeFileSync(head, fleet(n, 100));
    for (let r = 0; r < runs; r++) {
      evaluate.push(checked(await run([CLI, 'evaluate', base, '--format', 'json'], dir, false)));
      diff.push(checked(await run([CLI, 'diff', base, head, '--format', 'json'], dir, false)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const d = { ms: median(diff.map((m) => m.ms)), mib: Math.max(...diff.map((m) => m.peakKiB)) / 1024 };
  const e = { ms: median(evaluate.map((m) => m.ms)), mib: Math.max(...evaluate.map((m) => m.peakKiB)) / 1024 };
  const label = n.toLocaleString('en-US');
  const lines = [
    `## diff: \`storage-perf diff BASE HEAD --format json\` of ${label} VMs, 1 % changed, vs \`evaluate BASE --format json\``,
    '',
    '| command | wall median ms | peak RSS MiB | output bytes |',
    '|---|---|---|---|',
    `| storage-perf diff | ${d.ms.toFixed(0)} | ${d.mib.toFixed(1)} | ${diff[0].stdout} |`,
    `| storage-perf evaluate (one side) | ${e.ms.toFixed(0)} | ${e.mib.toFixed(1)} | ${evaluate[0].stdout} |`,
  ];
  return {
    lines,
    goals: [goal(`\`diff\` of ${label} VMs (1 % changed) vs one \`evaluate\``, d.ms, e.ms, 2.5, 'at most 2.5× one evaluate')],
  };
}

if (require.main === module) {
  benchDiff().then(
    (r) => process.stdout.write([...r.lines, '', ...goalTable(r.goals)].join('\n') + '\n'),
    (e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
