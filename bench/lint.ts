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
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../cli/src/lsp-client';
import { SPEC_HEAD, vmLines } from './specs';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'cli/bin/storage-perf.js');
const SCHEMA = pathToFileURL(resolve(ROOT, 'schemas/storage-perf.schema.json')).href;
const YAML_LS = resolve(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server');

/** A realistic small spec (two VMs), varied by `i`; one key in ten files is unknown so both tools have findings. */
function spec(i: number): string {
  const lines = [...SPEC_HEAD];
  for (let v = 0; v < 2; v++) lines.push(...vmLines(`vm${v}`, i + v, i * 7 + v));
  if (i % 10 === 0) lines.push('owner: storage-team');
  return lines.join('\n') + '\n';
}

interface Measure {
  ms: number;
  peakKiB: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

function highWater(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined; // gone
  }
}

/** Every process whose parent chain leads to `root`. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (in parentheses) may hold spaces: the fields after its closing parenthesis are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === root) {
        out.push(pid);
        break;
      }
  }
  return out;
}

function run(args: string[], cwd: string): Promise<Measure> {
  const peaks = new Map<number, number>();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '',
    stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  const poll = () => {
    for (const pid of [child.pid!, ...descendants(child.pid!)]) {
      const hwm = highWater(pid);
      if (hwm !== undefined) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, hwm));
    }
  };
  const timer = setInterval(poll, 20);
  return new Promise((res) => {
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      clearInterval(timer);
      let peakKiB = 0;
      for (const v of peaks.values()) peakKiB += v;
      child.on('close', () => res({ ms, peakKiB, code, stdout, stderr }));
    });
  });
}

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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export async function benchLint(): Promise<string[]> {
  const base = mkdtempSync(join(tmpdir(), 'storage-perf-bench-lint-'));
  const out = [
    '## lint: `storage-perf lint DIR` vs yaml-language-server headless on the same files (client + server processes)',
    '',
    '| files | tool | wall median ms | peak RSS MiB (sum of processes) | findings |',
    '|---|---|---|---|---|',
  ];
  const ratios: string[] = [];
  try {
    for (const [n, runs] of [
      [1, 5],
      [100, 3],
      [1000, 1],
    ] as const) {
      const dir = join(base, `n${n}`);
      mkdirSync(dir);
      for (let i = 0; i < n; i++) writeFileSync(join(dir, `spec${String(i).padStart(4, '0')}.perf.yaml`), spec(i));
      const ours: Measure[] = [],
        theirs: Measure[] = [];
      for (let r = 0; r < runs; r++) {
        ours.push(await run([CLI, 'lint', '.', '--format', 'json'], dir));
        theirs.push(await run([__filename, '--yaml-ls', dir], dir));
      }
      for (const m of [...ours, ...theirs]) {
        if (m.code !== 0 && m.code !== 1) throw new Error(`a benchmark run failed (exit ${m.code}): ${m.stderr.slice(-2000)}`);
      }
      const oursFindings = (JSON.parse(ours[0].stdout) as { files: Array<{ diagnostics: unknown[] }> }).files.reduce(
        (a, f) => a + f.diagnostics.length,
        0,
      );
      const theirsFindings = (JSON.parse(theirs[0].stdout) as { diagnostics: number }).diagnostics;
      // Both must have looked at the files: each flags the unknown key in one file of ten.
      if (theirsFindings < Math.ceil(n / 10))
        throw new Error(`yaml-language-server reported ${theirsFindings} diagnostics for ${n} files: was the schema applied?`);
      const a = { ms: median(ours.map((m) => m.ms)), mib: Math.max(...ours.map((m) => m.peakKiB)) / 1024 };
      const b = { ms: median(theirs.map((m) => m.ms)), mib: Math.max(...theirs.map((m) => m.peakKiB)) / 1024 };
      const label = n.toLocaleString('en-US');
      out.push(`| ${label} | storage-perf lint | ${a.ms.toFixed(0)} | ${a.mib.toFixed(1)} | ${oursFindings} |`);
      out.push(`| ${label} | yaml-language-server | ${b.ms.toFixed(0)} | ${b.mib.toFixed(1)} | ${theirsFindings} |`);
      ratios.push(
        `- ${label} file${n === 1 ? '' : 's'}: wall time ${(a.ms / b.ms).toFixed(2)}× yaml-language-server's, peak memory ${(a.mib / b.mib).toFixed(2)}× (ours ÷ theirs; ${runs} run${runs === 1 ? '' : 's'} each)`,
      );
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return [
    ...out,
    '',
    ...ratios,
    '',
    'storage-perf lint does more per file than schema validation (the catalog model, costs, every check); its findings include the same unknown keys.',
    'yaml-language-server opens every file at once (its 200 ms validation delays overlap); the linter keeps 16 in flight.',
  ];
}

if (require.main === module) {
  const i = process.argv.indexOf('--yaml-ls');
  if (i >= 0) {
    yamlLsClient(process.argv[i + 1]).catch((e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 2;
    });
  } else {
    benchLint().then(
      (lines) => process.stdout.write(lines.join('\n') + '\n'),
      (e) => {
        process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
        process.exitCode = 1;
      },
    );
  }
}
