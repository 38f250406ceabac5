/**
 * Where the time of `storage-perf evaluate FOLDER --format json` goes on the folders of the Terraform corpus
 * (test/fixtures/terraform/corpus), the issue's goal being "no folder over 1 s":
 *
 * - the command's wall time per folder, as users run it (cli/bin/storage-perf.js, the bundle: run `npm run build`
 *   first), RUNS times, the folders taken in turn so that a change of the machine's load touches all of them
 *   alike; beside it, in the same run, Node's own start (`node -e 0`) and Node loading the bundle without running
 *   a command (a peer each, measured the same way);
 * - with `--phases`, one cold process per folder and run (./terraform-phases), timing in process what the
 *   command does in turn: loading the HCL parser, the catalogs, reading the files, the front end (the HCL parse
 *   apart from the rest), the analysis, the JSON report.
 *
 *   node out/bench/terraform-time.js [--runs N] [--jobs J] [--phases] [--cpu] [--top K] [--base DIR] [FOLDER...]
 *
 * FOLDER: a corpus folder relative to the corpus (default: every corpus folder). `--jobs 2` runs two commands at
 * once, as `npm run corpus` does. `--base DIR`: another built checkout (a worktree of the commit before a change,
 * after `npm ci`), whose command runs each folder in the same rounds: the ratio of the two is what to read on a
 * machine whose load varies. `--cpu`: each process's CPU time too (./cpu-time, loaded with `node -r`), which a
 * loaded machine changes far less than the wall time. Reported: the median, the fastest and the slowest of the
 * runs, in ms.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { assertBundlesFresh, median } from './process';

const ROOT = resolve(__dirname, '../..');
const CORPUS = join(ROOT, 'test/fixtures/terraform/corpus');
// Relative to a checkout: this one, or --base.
const CLI = 'cli/bin/storage-perf.js';
const LOADER = 'cli/bin/load-bundle.js';
const BUNDLE = 'out/bundle/dist/storage-perf.js';

/** Every corpus folder with a .tf or .tf.json file, relative to the corpus, in a stable order. */
export function corpusFolders(dir = CORPUS): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  const own = entries.some((e) => e.isFile() && /\.tf(\.json)?$/.test(e.name)) ? [relative(CORPUS, dir)] : [];
  return [...own, ...entries.filter((e) => e.isDirectory()).flatMap((e) => corpusFolders(join(dir, e.name)))];
}

/**
 * Runs node with `args`, its output read and dropped; the wall time from spawn to exit, in ms, and (`cpu`) the CPU
 * time the process reports (./cpu-time).
 */
function timed(args: string[], cpu = false): Promise<{ ms: number; cpu?: number; code: number | null; stdout: string }> {
  const t0 = performance.now();
  const argv = cpu ? ['-r', join(__dirname, 'cpu-time.js'), ...args] : args;
  const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', cpu ? 'pipe' : 'ignore'] });
  let stdout = '';
  let used = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  (child.stdio[3] as NodeJS.ReadableStream | null)?.setEncoding('utf8').on('data', (s: string) => (used += s));
  return new Promise((res, rej) => {
    child.on('error', rej);
    child.on('close', (code) => res({ ms: performance.now() - t0, ...(cpu ? { cpu: Number(used) } : {}), code, stdout }));
  });
}

/** Runs `tasks` with at most `jobs` at once, in order. */
async function pool(jobs: number, tasks: Array<() => Promise<void>>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: jobs }, worker));
}

interface Row {
  label: string;
  ms: number[];
  cpu: number[];
  phases: Array<Record<string, number>>;
}

const spread = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
/** The CPU column's cell, when measured. */
const cpuCell = (r: Row | undefined) => (r?.cpu.length ? ` ${spread(r.cpu)} |` : '');

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const v = Number(args.splice(at, 2)[1]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} takes a positive whole number`);
  return v;
}

/** The command lines measured: the two peers, then `evaluate` of each folder (and the base's, after it). */
function commands(folders: string[], base?: string): Array<{ label: string; args: string[] }> {
  const load = (root: string) => `require(${JSON.stringify(join(root, LOADER))}).loadBundle(${JSON.stringify(join(root, BUNDLE))})`;
  const evaluate = (root: string, f: string) => [join(root, CLI), 'evaluate', join(CORPUS, f), '--format', 'json'];
  return [
    { label: 'node -e 0 (Node start)', args: ['-e', '0'] },
    { label: 'Node + loading the bundle', args: ['-e', load(ROOT)] },
    ...(base ? [{ label: 'base: Node + loading the bundle', args: ['-e', load(base)] }] : []),
    ...folders.flatMap((f) => [{ label: f, args: evaluate(ROOT, f) }, ...(base ? [{ label: `base: ${f}`, args: evaluate(base, f) }] : [])]),
  ];
}

/** The in-process phases of one cold run (./terraform-phases), in ms. */
async function phasesOf(folder: string): Promise<Record<string, number>> {
  const r = await timed([join(__dirname, 'terraform-phases.js'), join(CORPUS, folder)]);
  if (r.code !== 0) throw new Error(`the phases of ${folder} failed (exit ${r.code})`);
  return JSON.parse(r.stdout) as Record<string, number>;
}

/** The folders' table: the slowest `top` by median (with the base's time and the ratio, and the phases, when measured). */
function report(rows: Map<string, Row>, folders: string[], base: boolean, top: number): string[] {
  const own = folders.map((f) => rows.get(f)!);
  const cpu = own[0]?.cpu.length > 0;
  const cpuHead = cpu ? ' CPU ms: median (least–most) |' : '';
  const lines = [`| what | wall ms: median (fastest–slowest) |${cpuHead}`, `|---|---|${cpu ? '---|' : ''}`];
  for (const label of ['node -e 0 (Node start)', 'Node + loading the bundle', 'base: Node + loading the bundle'])
    if (rows.has(label)) lines.push(`| ${label} | ${spread(rows.get(label)!.ms)} |${cpuCell(rows.get(label))}`);
  const summary = (rs: Row[], who: string) => {
    const all = rs.map((r) => median(r.ms));
    lines.push(
      `| ${who}every folder (${rs.length}): median of the medians; the slowest | ${median(all).toFixed(0)}; ${Math.max(...all).toFixed(0)} |${cpu ? ' |' : ''}`,
      `| ${who}folders over 1 s (median) | ${all.filter((x) => x > 1000).length} |${cpu ? ' |' : ''}`,
    );
  };
  summary(own, '');
  if (base)
    summary(
      folders.map((f) => rows.get(`base: ${f}`)!),
      'base: ',
    );
  // Every run is a fresh process with nothing cached: the evaluation cache and the module-file cache start empty.
  lines.push('', 'Evaluation-cache hit rate: none to report (each run is a fresh process; nothing is kept between runs).', '');
  const slow = [...own].sort((a, b) => median(b.ms) - median(a.ms)).slice(0, top);
  const keys = Object.keys(slow[0]?.phases[0] ?? {});
  const baseCols = base ? ` base: median (fastest–slowest) | ratio |${cpu ? ' CPU ms | base: CPU ms | CPU ratio |' : ''}` : cpuHead;
  const cols = (base ? 2 : 0) + (cpu ? (base ? 3 : 1) : 0);
  lines.push(`| folder | wall ms: median (fastest–slowest) |${baseCols}${keys.map((k) => ` ${k} |`).join('')}`);
  lines.push(`|---|---|${'---|'.repeat(cols)}${keys.map(() => '---|').join('')}`);
  for (const r of slow) {
    const b = rows.get(`base: ${r.label}`);
    const cpuVs = b && cpu ? `${cpuCell(r)}${cpuCell(b)} ${(median(r.cpu) / median(b.cpu)).toFixed(2)} |` : '';
    const vs = b ? ` ${spread(b.ms)} | ${(median(r.ms) / median(b.ms)).toFixed(2)} |${cpuVs}` : cpuCell(r);
    const ph = keys.map((k) => ` ${median(r.phases.map((p) => p[k])).toFixed(1)} |`).join('');
    lines.push(`| \`${r.label}\` | ${spread(r.ms)} |${vs}${ph}`);
  }
  return lines;
}

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  const runs = option(args, '--runs', 5);
  const jobs = option(args, '--jobs', 1);
  const top = option(args, '--top', 15);
  const at = args.indexOf('--base');
  const base = at < 0 ? undefined : resolve(args.splice(at, 2)[1]);
  const withPhases = args.includes('--phases');
  const withCpu = args.includes('--cpu');
  const named = args.filter((a) => !a.startsWith('--'));
  assertBundlesFresh();
  const folders = named.length ? named : corpusFolders();
  const cmds = commands(folders, base);
  const rows = new Map<string, Row>(cmds.map((c) => [c.label, { label: c.label, ms: [], cpu: [], phases: [] }]));
  for (let i = 0; i < runs; i++) {
    // Each round takes every command once, in turn; odd rounds backwards, so that no command always follows another.
    const order = i % 2 ? [...cmds].reverse() : cmds;
    await pool(
      jobs,
      order.map((c) => async () => {
        const r = await timed(c.args, withCpu);
        if (r.code !== 0 && r.code !== 1) throw new Error(`${c.label}: exit ${r.code}`);
        rows.get(c.label)!.ms.push(r.ms);
        if (r.cpu !== undefined) rows.get(c.label)!.cpu.push(r.cpu);
      }),
    );
    if (withPhases) for (const f of folders) rows.get(f)!.phases.push(await phasesOf(f));
  }
  const head = `${runs} runs, ${jobs} at once, ${folders.length} folders; Node ${process.version}${base ? `; base: ${base}` : ''}`;
  process.stdout.write([head, '', ...report(rows, folders, base !== undefined, top)].join('\n') + '\n');
}

if (require.main === module)
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  });
