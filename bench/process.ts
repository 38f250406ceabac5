/**
 * Running a benchmarked command as a process: its wall time, from spawning it to its exit, and its peak memory:
 * each process's own high-water mark of resident memory (VmHWM in /proc/PID/status, which the kernel keeps),
 * polled while the process tree lives, summed over the process and its children (an upper bound of the
 * simultaneous peak). Linux only.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';

export interface Measure {
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

/** Runs node with `args`; `keepStdout` false counts the output's length only (a large report need not be kept). */
export function run(args: string[], cwd: string, keepStdout = true): Promise<Measure> {
  const peaks = new Map<number, number>();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '',
    stderr = '',
    length = 0;
  // Output that is not kept is counted in bytes, never decoded: decoding 58 MB of report in this process took
  // CPU from the measured one on a 2-core machine.
  if (keepStdout)
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
    });
  else
    child.stdout.on('data', (b: Buffer) => {
      length += b.length;
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
      child.on('close', () => res({ ms, peakKiB, code, stdout: keepStdout ? stdout : String(length), stderr }));
    });
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * The command's and the server's bundles must be newer than tsc's output, or `storage-perf` runs the compiled
 * modules, which start slower and peak higher (evaluate of 10,000 VMs: 60 MiB): measuring those would be
 * measuring something users do not run. `npm run build` makes both.
 */
export function assertBundlesFresh(): void {
  for (const [bundle, compiled] of [
    ['storage-perf.js', 'cli/src/main.js'],
    ['server.js', 'server/src/main.js'],
  ])
    if (!loader.freshBundle(bundle, compiled))
      throw new Error(`out/bundle/dist/${bundle} is older than tsc's output: run \`npm run build\` before benchmarking the CLI`);
}

/**
 * The bundles' loader (cli/bin/load-bundle.js), whose rule says when a bundle runs: JavaScript beside the
 * command, outside what tsc compiles, so loaded by path from here (out/bench) rather than imported.
 */
const loader = createRequire(__filename)('../../cli/bin/load-bundle.js') as {
  freshBundle(name: string, compiled: string): string | undefined;
};
