/**
 * The pre-commit hook (.pre-commit-hooks.yaml) run by the real pre-commit (`npm test` installs it:
 * scripts/test-setup.sh) in a git repository of its own, whose committed files include one named like an option.
 * pre-commit runs `entry args... files...`: the file names must reach lint as paths, never as options.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';

const ROOT = resolve(__dirname, '../../..');
/** A name that, read as an option, would start `sh -c id>pwned` as the language server. */
const HOSTILE = '--server-command=sh -c id>pwned #.perf.yaml';

describe('pre-commit hook', function () {
  this.timeout(120000);
  let repo: string;
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };

  before(() => {
    const v = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0, 'pre-commit is not installed: run sh scripts/test-setup.sh');
    repo = mkdtempSync(join(tmpdir(), 'storage-perf-pre-commit-'));
    git('init', '-q');
    // The hook runs the storage-perf installed in the repository (`npx --no`): this project's, linked in.
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'infra', private: true }));
    mkdirSync(join(repo, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(ROOT, 'cli/bin/storage-perf.js'), join(repo, 'node_modules/.bin/storage-perf'));
    writeFileSync(join(repo, '.gitignore'), 'node_modules\n.pre-commit-home\n');
    // The hook exactly as shipped, as a local hook: what pre-commit runs from the repository's manifest.
    const [hook] = load(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Array<Record<string, unknown>>;
    writeFileSync(join(repo, '.pre-commit-config.yaml'), JSON.stringify({ repos: [{ repo: 'local', hooks: [hook] }] }, null, 2));
    copyFileSync(join(ROOT, 'examples/storage.perf.yaml'), join(repo, 'db.perf.yaml'));
    copyFileSync(join(ROOT, 'examples/storage.perf.yaml'), join(repo, HOSTILE));
    git('add', '-A');
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  it('`pre-commit run --all-files` lints a file named like an option as a file, and runs nothing it names', () => {
    const r = spawnSync('pre-commit', ['run', '--all-files', '--verbose'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, PRE_COMMIT_HOME: join(repo, '.pre-commit-home'), NO_COLOR: '1' },
    });
    assert.ok(!existsSync(join(repo, 'pwned')), 'the command in the file name ran');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^storage-perf lint\.+Passed$/m);
    // Passed with warnings (shown with --verbose): both files were linted, each by its name.
    for (const name of [HOSTILE, 'db.perf.yaml'])
      assert.ok(
        r.stdout.split('\n').some((l) => l.startsWith(`${name}:10:5: warning capped-by-vcpu: `)),
        `${name} linted:\n${r.stdout}`,
      );
  });

  it("the hook's args end with `--`, so that the file names pre-commit appends are paths", () => {
    const [hook] = load(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Array<{ args: string[] }>;
    assert.equal(hook.args.at(-1), '--');
  });
});
