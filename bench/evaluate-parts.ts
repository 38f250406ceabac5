/**
 * `node out/bench/evaluate-parts.js [--vms N] [--runs R]`: what `evaluate` of N distinct VMs spends on each part of
 * its work, in one process, each part a multiple of js-yaml's parse of the same text (the peer of the evaluate
 * goal, ./evaluate):
 *  - our parse, which keeps every value's place (findings and fixes need them);
 *  - the analysis: evaluations, checks and the price look-ahead (`analyze`, the parse taken off);
 *  - the report's objects, with the workloads' suggestions they search for (`fileReport`);
 *  - its JSON, as `--format json` writes it (`JSON.stringify(report, null, 2)`), and its size.
 * The parse and the JSON are work any core must do for this output: what they take of the goal's 5× is what the
 * rest may take. Medians of R runs of each part, the parts of one run in turn. One process runs it all: its heap
 * and compiled code are warm, which a command's run is not, so these times are below the command's.
 */
import { load } from 'js-yaml';
import { analyze, EvaluationCache, fileReport, parseSpec } from '../core/src';
import { distinctFleet, evaluationHitRate, FLEET_EDITIONS, percent } from './fleet';
import { argNumber } from './evaluate';
import { median } from './process';

function timed<T>(f: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = f();
  return { ms: performance.now() - t0, value };
}

/** The parts of one edition's fleet, each a median of `runs`, after one run of each on a small fleet (the JIT warmed). */
function parts(edition: (typeof FLEET_EDITIONS)[number], n: number, runs: number): string[] {
  const small = distinctFleet(edition, 500, 2).text;
  load(small);
  JSON.stringify(fileReport('small.perf.yaml', analyze(small, { cache: new EvaluationCache() })), null, 2);
  const text = distinctFleet(edition, n).text;
  const ms: Record<'yaml' | 'parse' | 'analyze' | 'report' | 'json', number[]> = { yaml: [], parse: [], analyze: [], report: [], json: [] };
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    ms.yaml.push(timed(() => load(text)).ms);
    ms.parse.push(timed(() => parseSpec(text)).ms);
    // A cache of its own each run, as `evaluate` has one for its run.
    const a = timed(() => analyze(text, { cache: new EvaluationCache() }));
    ms.analyze.push(a.ms);
    const report = timed(() => fileReport('fleet.perf.yaml', a.value));
    ms.report.push(report.ms);
    const json = timed(() => JSON.stringify(report.value, null, 2));
    ms.json.push(json.ms);
    bytes = Buffer.byteLength(json.value);
  }
  const m = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)])) as Record<keyof typeof ms, number>;
  const x = (v: number) => `${(v / m.yaml).toFixed(2)}×`;
  const analysis = m.analyze - m.parse;
  const total = m.analyze + m.report + m.json;
  // One cache for the run, as `evaluate` has: the share of VMs whose evaluation it already had.
  const hits = percent(evaluationHitRate([text], true));
  return [
    `| ${edition} | ${m.yaml.toFixed(0)} | ${m.parse.toFixed(0)} (${x(m.parse)}) | ${analysis.toFixed(0)} (${x(analysis)}) | ${m.report.toFixed(0)} (${x(m.report)}) | ${m.json.toFixed(0)} (${x(m.json)}, ${(bytes / 1e6).toFixed(0)} MB) | ${total.toFixed(0)} (${x(total)}) | ${x(m.parse + m.json)} | ${hits} |`,
  ];
}

if (require.main === module) {
  const n = argNumber('--vms', 10000);
  const runs = argNumber('--runs', 3);
  const lines = [
    `## evaluate's parts: ${n.toLocaleString('en-US')} distinct VMs in one process, ms (× js-yaml's parse), medians of ${runs}`,
    '',
    '| fleet | js-yaml load | our parse | analysis | report objects, suggestions | JSON | all | parse + JSON | evaluation-cache hit rate |',
    '|---|---|---|---|---|---|---|---|---|',
    ...FLEET_EDITIONS.flatMap((e) => parts(e, n, runs)),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
