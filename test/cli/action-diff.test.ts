/**
 * The GitHub Action's diff mode (action.yml, step `diff`), run as the runner runs it: bash with the step's
 * environment, in a git repository whose pull request changed a spec, and a stub `gh` on PATH that records its
 * calls and answers the comment listing from a file.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';

const ROOT = resolve(__dirname, '../../..');
const MARKER = '<!-- storage-perf-diff -->';

/** `gh api ...`: each call's arguments as a JSON line; a body file's text beside; the listing filtered by marker. */
const STUB_GH = `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
const body = args.find((a) => a.startsWith('body=@'));
fs.appendFileSync(process.env.GH_LOG, JSON.stringify({ args, body: body ? fs.readFileSync(body.slice(6), 'utf8') : undefined }) + '\\n');
if (args.includes('--paginate')) {
  const jq = args[args.indexOf('--jq') + 1];
  const marker = /startswith\\("(.*)"\\)/.exec(jq)[1];
  const comments = JSON.parse(fs.readFileSync(process.env.GH_COMMENTS, 'utf8'));
  for (const c of comments) if (c.body.startsWith(marker)) process.stdout.write(c.id + '\\n');
}
`;

interface Call {
  args: string[];
  body?: string;
}

describe('GitHub Action: diff mode', () => {
  let repo: string;
  const step = () => {
    const action = load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: string }>;
      runs: { steps: Array<{ id?: string; run?: string; shell?: string; if?: string }> };
    };
    assert.equal(action.inputs.mode.default, 'lint');
    return action.runs.steps.find((s) => s.id === 'diff')!;
  };
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'storage-perf-action-diff-'));
    git('init', '-q');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    mkdirSync(join(repo, 'specs'));
    writeFileSync(join(repo, 'specs/fleet.perf.yaml'), readFileSync(join(ROOT, 'docs/diff/base.perf.yaml')));
    git('add', '-A');
    git('commit', '-qm', 'base');
    writeFileSync(join(repo, 'specs/fleet.perf.yaml'), readFileSync(join(ROOT, 'docs/diff/head.perf.yaml')));
    mkdirSync(join(repo, 'bin'));
    writeFileSync(join(repo, 'bin/gh'), STUB_GH);
    chmodSync(join(repo, 'bin/gh'), 0o755);
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  function runStep(existing: Array<{ id: number; body: string }>, inputs: Record<string, string> = {}) {
    const s = step();
    assert.equal(s.shell, 'bash');
    assert.match(s.if!, /inputs\.mode == 'diff'/);
    const log = join(repo, `gh-${Math.random().toString(36).slice(2)}.log`);
    writeFileSync(join(repo, 'comments.json'), JSON.stringify(existing));
    const outputs = join(repo, 'outputs');
    writeFileSync(outputs, '');
    const r = spawnSync('bash', ['-e', '-c', s.run!], {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${join(repo, 'bin')}:${process.env.PATH}`,
        STORAGE_PERF: join(ROOT, 'cli/bin/storage-perf.js'),
        GITHUB_OUTPUT: outputs,
        GITHUB_REPOSITORY: 'owner/infra',
        RUNNER_TEMP: repo,
        GH_TOKEN: 'token',
        GH_LOG: log,
        GH_COMMENTS: join(repo, 'comments.json'),
        INPUT_PATHS: 'specs/fleet.perf.yaml',
        INPUT_FAIL_ON: 'error',
        INPUT_ARGS: '',
        INPUT_BASE_REF: 'HEAD',
        INPUT_PR_NUMBER: '7',
        INPUT_COMMENT: 'true',
        ...inputs,
      },
    });
    let calls: Call[] = [];
    try {
      calls = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Call);
    } catch {
      /* gh never called */
    }
    return { code: r.status, stderr: r.stderr, stdout: r.stdout, calls, outputs: readFileSync(outputs, 'utf8') };
  }

  it('creates the comment when the pull request has none, and fails when a target is now missed', function () {
    this.timeout(60000);
    const r = runStep([{ id: 1, body: 'LGTM' }]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      r.calls.map((c) => c.args.filter((a) => !a.startsWith('body=@'))),
      [
        ['api', '--paginate', 'repos/owner/infra/issues/7/comments', '--jq', `.[] | select(.body | startswith("${MARKER}")) | .id`],
        ['api', '--method', 'POST', 'repos/owner/infra/issues/7/comments', '-F'],
      ],
    );
    const body = r.calls[1].body!;
    assert.equal(body.split('\n')[0], MARKER);
    assert.equal(body.split(MARKER).length, 2, 'one marker');
    assert.match(body, /\*\*specs\/fleet\.perf\.yaml\*\*\n\n### storage-perf: 3 VMs changed, 1 added, 1 removed: 1 target now missed/);
    assert.match(r.outputs, /^comment-file=.*storage-perf-diff\.md$/m);
  });

  it('updates its own comment, found by the marker', function () {
    this.timeout(60000);
    const r = runStep([
      { id: 1, body: 'LGTM' },
      { id: 42, body: `${MARKER}\n### storage-perf: an older diff` },
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(r.calls[1].args.slice(0, 4), ['api', '--method', 'PATCH', 'repos/owner/infra/issues/comments/42']);
    assert.equal(r.calls.length, 2);
  });

  it('comment: false writes the comment file only; a base that cannot be read fails with 2', function () {
    this.timeout(60000);
    const quiet = runStep([], { INPUT_COMMENT: 'false' });
    assert.equal(quiet.code, 1, quiet.stderr);
    assert.deepEqual(quiet.calls, []);
    const bad = runStep([], { INPUT_BASE_REF: 'no-such-ref' });
    assert.equal(bad.code, 2);
    assert.deepEqual(bad.calls, []);
    assert.match(bad.stderr, /cannot read the base, specs\/fleet\.perf\.yaml at no-such-ref/);
  });
});
