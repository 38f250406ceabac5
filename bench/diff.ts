/**
 * `storage-perf diff` of two specs of 10,000 VMs that differ in 1 % of them, against one `storage-perf evaluate`
 * of one side (the JSON report), in the same run: each a process, measured alike (./process), runs interleaved.
 * The goals: the diff within 2.5× the evaluate (issue 27), which it reaches by sharing one evaluation cache
 * between its two analyses, and within 1.5× of it (issue 38). The cache's hit rate is the diff's own, from its
 * two analyses made again in this process (`analyseSides`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { goal, goalTable, type Goal } from './goals';
import { assertBundlesFresh, median, run, type Measure } from './process';
import { distinctFleet, percent } from './fleet';
import { SPEC_HEAD, vmLines } from './specs';
import { loadRegistry } from '../cli/src/catalog-file';
import { analyseSides } from '../cli/src/diff';

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

/**
 * Distinct VMs (./fleet, gcp-2024), and the same text with every `every`-th VM's first sized disk 10 GiB larger:
 * a change to 1 % of the VMs when `every` is 100.
 */
export function distinctPair(n: number, every: number): { base: string; head: string } {
  const base = distinctFleet('gcp-2024', n).text;
  let vm = -1;
  let changed = -1;
  const head = base
    .split('\n')
    .map((line) => {
      const m = /^ {2}- name: vm(\d+)$/.exec(line);
      if (m) vm = Number(m[1]);
      const size = /^( {8}size: )(\d+)GiB$/.exec(line);
      if (!size || vm % every !== 0 || changed === vm) return line;
      changed = vm;
      return `${size[1]}${Number(size[2]) + 10}GiB`;
    })
    .join('\n');
  return { base, head };
}

export async function benchDiff(
  n = 10000,
  runs = 3,
  kind: 'distinct' | 'replicas' = 'distinct',
): Promise<{ lines: string[]; goals: Goal[] }> {
  assertBundlesFresh();
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-bench-diff-'));
  const base = join(dir, 'base.perf.yaml'),
    head = join(dir, 'head.perf.yaml');
  const diff: Measure[] = [],
    evaluate: Measure[] = [];
  let hitRate: number;
  try {
    const pair = kind === 'distinct' ? distinctPair(n, 100) : { base: fleet(n), head: fleet(n, 100) };
    hitRate = analyseSides(
      { name: 'base', read: () => ({ text: pair.base }) },
      { name: 'head', read: () => ({ text: pair.head }) },
      loadRegistry([]),
    ).cache.hitRate();
    writeFileSync(base, pair.base);
    writeFileSync(head, pair.head);
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
    `## diff: \`storage-perf diff BASE HEAD --format json\` of ${label} ${kind === 'distinct' ? 'distinct VMs' : 'VMs that repeat every 840 (replicas: the best case)'}, 1 % changed, vs \`evaluate BASE --format json\``,
    '',
    '| command | wall median ms | peak RSS MiB | output bytes | evaluation-cache hit rate |',
    '|---|---|---|---|---|',
    `| storage-perf diff | ${d.ms.toFixed(0)} | ${d.mib.toFixed(1)} | ${diff[0].stdout} | ${percent(hitRate)} |`,
    `| storage-perf evaluate (one side) | ${e.ms.toFixed(0)} | ${e.mib.toFixed(1)} | ${evaluate[0].stdout} | - |`,
  ];
  const what = `\`diff\` of ${label} ${kind} VMs (1 % changed) vs one \`evaluate\``;
  return {
    lines,
    goals: [
      goal(`${what} (issue 27)`, d.ms, e.ms, 2.5, 'at most 2.5× one evaluate'),
      goal(`${what} (issue 38)`, d.ms, e.ms, 1.5, 'at most 1.5× one evaluate'),
    ],
  };
}

if (require.main === module) {
  (async () => [await benchDiff(10000, 3, 'distinct'), await benchDiff(10000, 3, 'replicas')])().then(
    (rs) => process.stdout.write([...rs.flatMap((r) => [...r.lines, '']), ...goalTable(rs.flatMap((r) => r.goals))].join('\n') + '\n'),
    (e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
