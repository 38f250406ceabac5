/**
 * The GitHub Action's diff mode (action.yml, step `diff`), run as the runner runs it (./action-step.ts): in a git
 * repository whose pull request changed a spec, with a stand-in `gh` on PATH that records its calls.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionStep, ROOT, runActionStep } from './action-step';

const MARKER = '<!-- storage-perf-diff -->';
const BOT = 'github-actions[bot]';
/** The listing's filter: comments that start with the marker, with their authors. */
const LISTING = `.[] | select(.body | startswith("${MARKER}")) | [.id, .user.login] | @tsv`;

interface Comment {
  id: number;
  body: string;
  user: { login: string };
}
const comment = (id: number, login: string, body: string): Comment => ({ id, body, user: { login } });

describe('GitHub Action: diff mode', function () {
  this.timeout(120000);
  let repo: string;
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  const base = readFileSync(join(ROOT, 'docs/diff/base.perf.yaml'));

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'storage-perf-action-diff-'));
    git('init', '-q');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    mkdirSync(join(repo, 'specs'));
    writeFileSync(join(repo, 'specs/fleet.perf.yaml'), base);
    // Unchanged specs whose names a shell or an option parser would misread.
    writeFileSync(join(repo, 'specs/same fleet.perf.yaml'), base);
    writeFileSync(join(repo, '--base-ref=HEAD~9.perf.yaml'), base);
    git('add', '-A');
    git('commit', '-qm', 'base');
    writeFileSync(join(repo, 'specs/fleet.perf.yaml'), readFileSync(join(ROOT, 'docs/diff/head.perf.yaml')));
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  function runStep(existing: Comment[], inputs: Record<string, string> = {}) {
    const step = actionStep('diff');
    assert.match(step.if!, /inputs\.mode == 'diff'/);
    const comments = join(repo, `comments-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(comments, JSON.stringify(existing));
    return runActionStep(step, repo, {
      GITHUB_REPOSITORY: 'owner/infra',
      RUNNER_TEMP: repo,
      GH_TOKEN: 'token',
      GH_COMMENTS: comments,
      INPUT_PATHS: 'specs/fleet.perf.yaml',
      INPUT_FAIL_ON: 'error',
      INPUT_ARGS: '',
      INPUT_BASE_REF: 'HEAD',
      INPUT_PR_NUMBER: '7',
      INPUT_COMMENT: 'true',
      INPUT_COMMENT_AUTHOR: '',
      ...inputs,
    });
  }
  const posted = (r: { calls: Array<{ args: string[]; body?: string }> }) => r.calls.find((c) => c.args.includes('--method'));

  it('creates the comment when the pull request has none of its own, writes the job summary, and fails when a target is now missed', async () => {
    const r = await runStep([comment(1, 'alice', 'LGTM'), comment(2, 'mallory', `${MARKER}\nnot the bot's`)]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      r.calls.map((c) => c.args.filter((a) => !a.startsWith('body=@'))),
      [
        ['api', 'user', '--jq', '.login'],
        ['api', '--paginate', 'repos/owner/infra/issues/7/comments', '--jq', LISTING],
        ['api', '--method', 'POST', 'repos/owner/infra/issues/7/comments', '-F'],
      ],
    );
    const body = posted(r)!.body!;
    assert.equal(body.split('\n')[0], MARKER);
    assert.equal(body.split(MARKER).length, 2, 'one marker');
    assert.match(body, /\*\*`specs\/fleet\.perf\.yaml`\*\*\n\n### storage-perf: 3 VMs changed, 1 added, 1 removed: 1 target now missed/);
    assert.match(r.outputs, /^comment-file=.*storage-perf-diff\.md$/m);
    assert.equal(r.summary, body, 'the Markdown in the job summary');
  });

  it('updates its own comment, found by the marker and its author, never one by anyone else', async () => {
    const existing = [
      comment(1, 'LGTM', 'LGTM'),
      comment(41, 'mallory', `${MARKER}\n### storage-perf: planted`),
      comment(42, BOT, `${MARKER}\n### storage-perf: an older diff`),
    ];
    const r = await runStep(existing);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(posted(r)!.args.slice(0, 4), ['api', '--method', 'PATCH', 'repos/owner/infra/issues/comments/42']);
    assert.equal(r.calls.length, 3);
    // A personal token says whose it is; comment-author names the author outright.
    const pat = await runStep(existing, { GH_USER: 'mallory' });
    assert.deepEqual(posted(pat)!.args.slice(0, 4), ['api', '--method', 'PATCH', 'repos/owner/infra/issues/comments/41']);
    const named = await runStep(existing, { INPUT_COMMENT_AUTHOR: 'someone-else' });
    assert.deepEqual(posted(named)!.args.slice(0, 4), ['api', '--method', 'POST', 'repos/owner/infra/issues/7/comments']);
    assert.ok(!named.calls.some((c) => c.args[1] === 'user'), 'no need to ask whose the token is');
  });

  it("a fork's read-only token (403): a warning, and the step ends as the diff does", async () => {
    const passing = await runStep([], { GH_DENY: '1', INPUT_PATHS: 'specs/same fleet.perf.yaml' });
    assert.equal(passing.code, 0, passing.stderr);
    assert.match(passing.stdout, /^::warning::storage-perf diff could not comment on pull request #7: .*HTTP 403/m);
    assert.match(passing.summary, /### storage-perf: No change/);
    const failing = await runStep([comment(42, BOT, MARKER)], { GH_DENY: '1' });
    assert.equal(failing.code, 1, 'the diff still fails the step');
    assert.match(failing.stdout, /^::warning::/m);
  });

  it('paths: one a line, blank lines skipped, a space inside a path, a name like an option', async () => {
    const r = await runStep([], {
      INPUT_PATHS: '\nspecs/fleet.perf.yaml\n\n  specs/same fleet.perf.yaml\n--base-ref=HEAD~9.perf.yaml\n   \n',
      INPUT_COMMENT: 'false',
    });
    assert.equal(r.code, 1, r.stderr);
    const heads = r.summary.split('\n').filter((l) => l.startsWith('**'));
    assert.deepEqual(heads, ['**`specs/fleet.perf.yaml`**', '**`specs/same fleet.perf.yaml`**', '**`--base-ref=HEAD~9.perf.yaml`**']);
    assert.match(r.summary, /\*\*`--base-ref=HEAD~9\.perf\.yaml`\*\*\n\n### storage-perf: No change/);
    assert.deepEqual(r.calls, []);
  });

  it('the summaries-only comment of many long diffs is bounded too, and counts what it leaves out', async () => {
    // 20 paths of about 3,300 characters each: their summaries alone exceed what a comment takes.
    const deep = Array.from({ length: 13 }, (_, i) => `${i}`.padEnd(250, 'x')).join('/');
    const paths = Array.from({ length: 20 }, (_, i) => `${deep}/s${i}.perf.yaml`);
    mkdirSync(join(repo, deep), { recursive: true });
    for (const p of paths) writeFileSync(join(repo, p), base);
    const r = await runStep([], { INPUT_PATHS: paths.join('\n') });
    assert.equal(r.code, 0, r.stderr);
    const body = posted(r)!.body!;
    assert.ok(body.length <= 65000, `${body.length} characters`);
    assert.equal(body.split('\n')[0], MARKER);
    const shown = body.split('\n').filter((l) => l.startsWith('**')).length;
    assert.ok(shown > 0 && shown < 20, `${shown} shown`);
    assert.match(body, new RegExp(`… and ${20 - shown} more paths not shown here\\.`));
    assert.match(body, /The diffs are too long for one comment together/);
  });

  it('comment: false writes the comment file only; a base that cannot be read fails with 2', async () => {
    const quiet = await runStep([], { INPUT_COMMENT: 'false' });
    assert.equal(quiet.code, 1, quiet.stderr);
    assert.deepEqual(quiet.calls, []);
    const bad = await runStep([], { INPUT_BASE_REF: 'no-such-ref' });
    assert.equal(bad.code, 2);
    assert.deepEqual(bad.calls, []);
    assert.match(bad.stderr, /cannot read the base, specs\/fleet\.perf\.yaml at no-such-ref/);
    const noNumber = await runStep([], { INPUT_PR_NUMBER: '7; rm -rf /' });
    assert.equal(noNumber.code, 2);
    assert.match(noNumber.stdout, /^::error::storage-perf diff comments on a pull request: give pr-number/m);
    assert.deepEqual(noNumber.calls, []);
  });
});
