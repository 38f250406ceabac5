/**
 * A step of the GitHub Action (action.yml) run as the runner runs a `shell: bash` step: its `run:` script written
 * to a file and run by `bash --noprofile --norc -eo pipefail FILE`, with the step's environment, in a folder of
 * the test's, and `gh` a stand-in (STUB_GH) that records each call, answers the comment listing through the real
 * jq and answers HTTP 403 when told to.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';

export const ROOT = resolve(__dirname, '../../..');

interface Step {
  id?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
}

export function actionStep(id: string): Step {
  const action = load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { using: string; steps: Step[] } };
  assert.equal(action.runs.using, 'composite');
  const step = action.runs.steps.find((s) => s.id === id)!;
  assert.equal(step.shell, 'bash');
  return step;
}

/**
 * `gh api ...`: each call's arguments as a JSON line in GH_LOG (with the text of a `body=@FILE`). `api user`
 * answers GH_USER's login, or 403 as for the workflow's token; the listing is GH_COMMENTS through `jq -r` and the
 * call's `--jq` filter, as gh applies it; POST and PATCH answer 403 when GH_DENY is set (a fork's read-only token).
 */
const STUB_GH = `#!/usr/bin/env node
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const args = process.argv.slice(2);
const body = args.find((a) => a.startsWith('body=@'));
fs.appendFileSync(process.env.GH_LOG, JSON.stringify({ args, body: body ? fs.readFileSync(body.slice(6), 'utf8') : undefined }) + '\\n');
const forbidden = () => {
  process.stderr.write('gh: Resource not accessible by integration (HTTP 403)\\n');
  process.exit(1);
};
if (args[1] === 'user') {
  if (!process.env.GH_USER) forbidden();
  process.stdout.write(process.env.GH_USER + '\\n');
} else if (args.includes('--paginate')) {
  const jq = spawnSync('jq', ['-r', args[args.indexOf('--jq') + 1], process.env.GH_COMMENTS], { encoding: 'utf8' });
  if (jq.status !== 0) {
    process.stderr.write(jq.stderr);
    process.exit(1);
  }
  process.stdout.write(jq.stdout);
} else if (process.env.GH_DENY) forbidden();
`;

export interface GhCall {
  args: string[];
  body?: string;
}

export interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  calls: GhCall[];
  outputs: string;
  summary: string;
}

let runs = 0;

/** Runs the step in `cwd` with `env` over the process's own; `bin/gh` there is the stand-in. */
export async function runActionStep(step: Step, cwd: string, env: Record<string, string>): Promise<StepRun> {
  const n = ++runs;
  mkdirSync(join(cwd, 'bin'), { recursive: true });
  writeFileSync(join(cwd, 'bin/gh'), STUB_GH);
  chmodSync(join(cwd, 'bin/gh'), 0o755);
  const script = join(cwd, `step-${n}.sh`);
  writeFileSync(script, step.run!);
  const files = { log: join(cwd, `gh-${n}.log`), outputs: join(cwd, `outputs-${n}`), summary: join(cwd, `summary-${n}.md`) };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd,
    env: {
      ...process.env,
      PATH: `${join(cwd, 'bin')}:${process.env.PATH}`,
      STORAGE_PERF: join(ROOT, 'cli/bin/storage-perf.js'),
      GITHUB_OUTPUT: files.outputs,
      GITHUB_STEP_SUMMARY: files.summary,
      GH_LOG: files.log,
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const calls = readFileSync(files.log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as GhCall);
  return { code, stdout, stderr, calls, outputs: readFileSync(files.outputs, 'utf8'), summary: readFileSync(files.summary, 'utf8') };
}
