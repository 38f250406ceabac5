/**
 * Benchmarks, reported as ratios against a peer measured in the same run.
 * Evaluation: analyze() of specs of distinct VMs (./fleet) and of replicas (./specs) against js-yaml's own load() of the same text; the
 * evaluate command (./evaluate) and lint (./lint) as processes, against their peers, with the CLI goals; the
 * hostile inputs of the robustness tests (./hostile).
 */
import { load } from 'js-yaml';
import { analyze, EvaluationCache } from '../core/src';
import { distinctFleet, percent } from './fleet';
import { benchLsp } from './lsp';
import { benchScale } from './lsp-scale';
import { benchLint } from './lint';
import { benchExtension } from './extension';
import { benchEvaluateCli, specWithVms } from './evaluate';
import { goalTable } from './goals';
import { benchTerraform, benchTerraformFiles } from './terraform';
import { benchHostile, benchHostileCli } from './hostile';
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
    '| spec | VMs | lines | analyze median ms | js-yaml load median ms | ratio | evaluation-cache hit rate |',
    '|---|---|---|---|---|---|---|',
  ];
  const specs: Array<[string, number, (n: number) => string]> = [
    ...[1, 100, 1000, 10000].map((n): [string, number, (n: number) => string] => [
      'distinct, gcp-2024',
      n,
      (k) => distinctFleet('gcp-2024', k).text,
    ]),
    ...[100, 10000].map((n): [string, number, (n: number) => string] => ['replicas', n, specWithVms]),
  ];
  for (const [kind, n, make] of specs) {
    const text = make(n);
    analyze(text); // warm up (schema compilation, JIT)
    let cache = new EvaluationCache();
    const a = time(() => analyze(text, { cache: (cache = new EvaluationCache()) }), 300, n >= 1000 ? 3 : 200);
    const y = time(() => load(text));
    out.push(
      `| ${kind} | ${n.toLocaleString('en-US')} | ${text.split('\n').length.toLocaleString('en-US')} | ${a.median.toFixed(2)} | ${y.median.toFixed(2)} | ${(a.median / y.median).toFixed(1)}× | ${percent(cache.hitRate())} |`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  const print = (lines: string[]) => process.stdout.write(lines.join('\n') + '\n\n');
  print(benchEvaluation());
  print(benchTerraform(time));
  print(benchTerraformFiles(time, await loadHclParser()));
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
  // The CLI section of docs/performance.md: each goal as measured in this run.
  print(['## CLI goals (docs/performance.md)', '', ...goalTable([...evaluate.goals, ...lint.goals])]);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
