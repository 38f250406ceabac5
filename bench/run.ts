/**
 * Benchmarks, reported as ratios against a peer measured in the same run.
 * Evaluation: analyze() of specs of distinct VMs (./fleet) and of replicas (./specs) against js-yaml's own load() of the same text; the
 * evaluate command (./evaluate) and lint (./lint) as processes, against their peers, with the CLI goals; the
 * hostile inputs of the robustness tests (./hostile); a .tf file edited beside a large .tf.json, before and after the
 * module-file cache (./module-files).
 */
import { load } from 'js-yaml';
import { analyze, EvaluationCache } from '../core/src';
import { distinctFleet, percent } from './fleet';
import { benchLsp } from './lsp';
import { benchScale } from './lsp-scale';
import { benchLint } from './lint';
import { benchExtension } from './extension';
import { benchDiff } from './diff';
import { benchEvaluateCli, specWithVms } from './evaluate';
import { goalTable } from './goals';
import { benchTerraform, benchTerraformFiles } from './terraform';
import { benchHostile, benchHostileCli } from './hostile';
import { benchModuleFiles } from './module-files';
import { loadHclParser } from '../protocol/src/hcl-parser';

function time(fn: () => void, minMs = 300, maxRuns = 200): { median: number; p99: number; runs: number } {
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < 3 || (performance.now() - started < minMs && samples.length < maxRuns)) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return {
    median: samples[samples.length >> 1],
    p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))],
    runs: samples.length,
  };
}

export function benchEvaluation(): string[] {
  const out = [
    '## evaluation (analyze, one evaluation cache per run as `evaluate` keeps) vs js-yaml load of the same text',
    '',
    "Distinct VMs: each run analyses a fleet of its own seed, so that the advice memoised in the process by a VM's",
    'content (as a long-lived language server keeps it) does not answer a later run; replicas: the same text each run.',
    '',
    '| spec | VMs | lines | analyze median ms | js-yaml load median ms | ratio | evaluation-cache hit rate |',
    '|---|---|---|---|---|---|---|',
  ];
  // Each spec: its texts (one per run for distinct VMs, the same for replicas) and the most runs.
  const specs: Array<[string, number, number, (run: number) => string]> = [
    ...[1, 100, 1000, 10000].map((n): [string, number, number, (run: number) => string] => [
      'distinct, gcp-2024',
      n,
      n >= 1000 ? 3 : 30,
      (run) => distinctFleet('gcp-2024', n, run + 1).text,
    ]),
    ...[100, 10000].map((n): [string, number, number, (run: number) => string] => [
      'replicas',
      n,
      n >= 1000 ? 3 : 200,
      () => specWithVms(n),
    ]),
  ];
  for (const [kind, n, maxRuns, make] of specs) {
    // The warm-up run (schema compilation, JIT) and each timed run get their own text.
    const texts = Array.from({ length: maxRuns + 1 }, (_, i) => make(i));
    analyze(texts[maxRuns]);
    let cache = new EvaluationCache();
    let i = 0;
    const a = time(() => analyze(texts[i++ % maxRuns], { cache: (cache = new EvaluationCache()) }), 300, maxRuns);
    let j = 0;
    const y = time(() => load(texts[j++ % maxRuns]), 300, maxRuns);
    out.push(
      `| ${kind} | ${n.toLocaleString('en-US')} | ${texts[0].split('\n').length.toLocaleString('en-US')} | ${a.median.toFixed(2)} | ${y.median.toFixed(2)} | ${(a.median / y.median).toFixed(1)}× | ${percent(cache.hitRate())} |`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  const print = (lines: string[]) => process.stdout.write(lines.join('\n') + '\n\n');
  print(benchEvaluation());
  print(benchTerraform(time));
  print(benchTerraformFiles(time, await loadHclParser()));
  print(await benchModuleFiles());
  print(benchHostile(time));
  print(await benchHostileCli());
  print(await benchLsp());
  print(await benchScale('distinct'));
  print(await benchScale('replicas'));
  print(await benchExtension());
  const lint = await benchLint();
  print(lint.lines);
  const evaluate = await benchEvaluateCli();
  print(evaluate.lines);
  const diff = await benchDiff(10000, 3, 'distinct');
  print(diff.lines);
  const diffReplicas = await benchDiff(10000, 3, 'replicas');
  print(diffReplicas.lines);
  // The CLI section of docs/performance.md: each goal as measured in this run.
  print(['## CLI goals (docs/performance.md)', '', ...goalTable([...evaluate.goals, ...lint.goals, ...diff.goals, ...diffReplicas.goals])]);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
