/**
 * `storage-perf lint` over 1, 100 and 1,000 spec files, against yaml-language-server validating the same files
 * headless with our JSON schema, in one run. Both sides are a client process plus a language server process:
 * ours is the real CLI (`node cli/bin/storage-perf.js lint DIR`); for yaml-language-server this file runs itself
 * as the client (`--yaml-ls DIR`), opening every file at once and waiting for each file's first published
 * diagnostics. yaml-language-server validates a document 200 ms after it opens or changes (its
 * validationDelayMs); opening everything at once lets those delays overlap, its best case (the linter keeps
 * 16 files in flight).
 *
 * Wall time: from spawning the client to its exit. Peak memory: each process's own high-water mark of resident
 * memory (VmHWM in /proc/PID/status, which the kernel keeps), polled while the process tree lives; reported
 * as the sum over the client and server (an upper bound of the simultaneous peak). Linux only.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../cli/src/lsp-client';
import Ajv from 'ajv';
import { load } from 'js-yaml';
import specSchema from '../schemas/storage-perf.schema.json';
import { goal, goalTable, type Goal } from './goals';
import { assertBundlesFresh, median, run, type Measure } from './process';
import { distinctFleet, evaluationHitRate, FLEET_EDITIONS, percent } from './fleet';
import { SPEC_HEAD, vmLines } from './specs';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'cli/bin/storage-perf.js');
const SCHEMA = pathToFileURL(resolve(ROOT, 'schemas/storage-perf.schema.json')).href;
const YAML_LS = resolve(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server');

/** A small spec of the replica fleet (two VMs), varied by `i`; one key in ten files is unknown so both tools have findings. */
function replicaSpec(i: number): string {
  const lines = [...SPEC_HEAD];
  for (let v = 0; v < 2; v++) lines.push(...vmLines(`vm${v}`, i + v, i * 7 + v));
  if (i % 10 === 0) lines.push('owner: storage-team');
  return lines.join('\n') + '\n';
}

/** A small spec of two distinct VMs (./fleet), the editions in turn, each file its own seed; one key in ten files is unknown. */
function distinctSpec(i: number): string {
  const text = distinctFleet(FLEET_EDITIONS[i % FLEET_EDITIONS.length], 2, i + 1).text;
  return i % 10 === 0 ? `${text}owner: storage-team\n` : text;
}

type Kind = 'distinct' | 'replicas';
const SPECS: Record<Kind, (i: number) => string> = { distinct: distinctSpec, replicas: replicaSpec };

/** The headless yaml-language-server client: prints how many diagnostics it got. */
async function yamlLsClient(dir: string): Promise<void> {
  const settings = { validate: true, hover: false, completion: false, schemas: { [SCHEMA]: ['*.perf.yaml'] } };
  const client = new LspClient({
    command: [process.execPath, YAML_LS, '--stdio'],
    pull: false,
    timeoutMs: 120000,
    sections: { yaml: settings },
  });
  await client.initialize(pathToFileURL(dir).href);
  client.notify({ method: 'workspace/didChangeConfiguration' }, { settings: { yaml: settings } });
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.perf.yaml'))
    .sort();
  let next = 0,
    found = 0;
  const worker = async () => {
    while (next < files.length) {
      const uri = pathToFileURL(join(dir, files[next++])).href;
      const t0 = performance.now();
      client.open(uri, readFileSync(new URL(uri), 'utf8'), 1);
      const diagnostics = await client.publishedAfter(uri, t0);
      found += diagnostics.length;
      client.close(uri);
    }
  };
  await Promise.all(Array.from({ length: files.length }, worker));
  await client.stop();
  process.stdout.write(`${JSON.stringify({ files: files.length, diagnostics: found })}\n`);
}

/** The floor: one process that reads every spec of DIR, parses it with js-yaml and validates it with ajv. */
function floorProcess(dir: string): void {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(specSchema as object);
  let errors = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.perf.yaml'))) {
    if (!validate(load(readFileSync(join(dir, f), 'utf8')))) errors += validate.errors?.length ?? 0;
  }
  process.stdout.write(`${JSON.stringify({ errors })}\n`);
}

async function nodeStarts(runs: number): Promise<Measure[]> {
  const out: Measure[] = [];
  for (let r = 0; r < runs; r++) out.push(await run(['-e', '0'], tmpdir()));
  return out;
}

interface Side {
  ms: number;
  mib: number;
}

function summarize(ms: Measure[]): Side {
  for (const m of ms)
    if (m.code !== 0 && m.code !== 1) throw new Error(`a benchmark run failed (exit ${m.code}): ${m.stderr.slice(-2000)}`);
  return { ms: median(ms.map((m) => m.ms)), mib: Math.max(...ms.map((m) => m.peakKiB)) / 1024 };
}

/** Ours, yaml-language-server's and the floor's runs over `n` files, alternated so that a busy spell hits all three. */
async function measureFiles(
  base: string,
  kind: Kind,
  n: number,
  runs: number,
): Promise<{ ours: Measure[]; theirs: Measure[]; floor: Measure[]; hitRate: number }> {
  const dir = join(base, `${kind}${n}`);
  mkdirSync(dir);
  const texts = Array.from({ length: n }, (_, i) => SPECS[kind](i));
  texts.forEach((t, i) => writeFileSync(join(dir, `spec${String(i).padStart(4, '0')}.perf.yaml`), t));
  const ours: Measure[] = [],
    theirs: Measure[] = [],
    floor: Measure[] = [];
  for (let r = 0; r < runs; r++) {
    ours.push(await run([CLI, 'lint', '.', '--format', 'json'], dir));
    theirs.push(await run([__filename, '--yaml-ls', dir], dir));
    floor.push(await run([__filename, '--floor', dir], dir));
  }
  // The server keeps one evaluation cache per document.
  return { ours, theirs, floor, hitRate: evaluationHitRate(texts, false) };
}

function findings(ours: Measure, theirs: Measure, n: number): [number, number] {
  const oursFindings = (JSON.parse(ours.stdout) as { files: Array<{ diagnostics: unknown[] }> }).files.reduce(
    (a, f) => a + f.diagnostics.length,
    0,
  );
  const theirsFindings = (JSON.parse(theirs.stdout) as { diagnostics: number }).diagnostics;
  // Both must have looked at the files: each flags the unknown key in one file of ten.
  if (theirsFindings < Math.ceil(n / 10))
    throw new Error(`yaml-language-server reported ${theirsFindings} diagnostics for ${n} files: was the schema applied?`);
  return [oursFindings, theirsFindings];
}

/** The lint rows of docs/performance.md's goal table, and the measurements behind them. */
export async function benchLint(): Promise<{ lines: string[]; goals: Goal[] }> {
  assertBundlesFresh();
  const base = mkdtempSync(join(tmpdir(), 'storage-perf-bench-lint-'));
  const out = [
    '## lint: `storage-perf lint DIR` vs yaml-language-server headless and the floor (js-yaml + ajv in one process)',
    '',
    '| files | tool | wall median ms | peak RSS MiB (sum of processes) | findings | evaluation-cache hit rate |',
    '|---|---|---|---|---|---|',
  ];
  const goals: Goal[] = [];
  try {
    for (const [kind, n, runs] of [
      ['distinct', 1, 7],
      ['distinct', 100, 3],
      ['distinct', 1000, 3],
      ['replicas', 1000, 3],
    ] as const) {
      const m = await measureFiles(base, kind, n, runs);
      const [oursFindings, theirsFindings] = findings(m.ours[0], m.theirs[0], n);
      const [a, b, f] = [summarize(m.ours), summarize(m.theirs), summarize(m.floor)];
      const label = `${n.toLocaleString('en-US')} ${kind === 'distinct' ? 'distinct' : 'replica'}`;
      out.push(`| ${label} | storage-perf lint | ${a.ms.toFixed(0)} | ${a.mib.toFixed(1)} | ${oursFindings} | ${percent(m.hitRate)} |`);
      out.push(`| ${label} | yaml-language-server | ${b.ms.toFixed(0)} | ${b.mib.toFixed(1)} | ${theirsFindings} | - |`);
      out.push(`| ${label} | floor: js-yaml + ajv | ${f.ms.toFixed(0)} | ${f.mib.toFixed(1)} | - | - |`);
      const files = `\`lint\` of ${label} file${n === 1 ? '' : 's'}`;
      if (n === 1) {
        const start = summarize(await nodeStarts(runs));
        out.push(`| - | node -e 0 (Node's own start) | ${start.ms.toFixed(0)} | ${start.mib.toFixed(1)} | - | - |`);
        goals.push(goal(`${files}, wall (Node itself starts in ${start.ms.toFixed(0)} ms)`, a.ms, 'ms', 300, 'at most 300 ms'));
      }
      if (n === 1000) {
        goals.push(goal(`${files} vs the floor`, a.ms, f.ms, 3, 'at most 3× the floor'));
        goals.push(goal(`${files} vs yaml-language-server`, a.ms, b.ms, 0.5, 'at most 1/2 of yaml-language-server'));
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const lines = [
    ...out,
    '',
    'storage-perf lint does more per file than schema validation (the catalog model, costs, every check); its findings include the same unknown keys.',
    'yaml-language-server opens every file at once (its 200 ms validation delays overlap); the linter keeps 16 in flight.',
  ];
  return { lines, goals };
}

if (require.main === module) {
  const i = process.argv.indexOf('--yaml-ls');
  const floor = process.argv.indexOf('--floor');
  if (floor >= 0) floorProcess(process.argv[floor + 1]);
  else if (i >= 0) {
    yamlLsClient(process.argv[i + 1]).catch((e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 2;
    });
  } else {
    benchLint().then(
      (r) => process.stdout.write([...r.lines, '', ...goalTable(r.goals)].join('\n') + '\n'),
      (e) => {
        process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
        process.exitCode = 1;
      },
    );
  }
}
