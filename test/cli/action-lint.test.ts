/**
 * The GitHub Action's lint step (action.yml, step `lint`) run as the runner runs it (./action-step.ts), on file
 * names a pull request may bring: several paths a line each, a space inside a path, a name that reads as an
 * option, a name holding line breaks. And lint's own output, which a CI log reads line by line.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLEAN, ERRORS, finished, lint, tree, WARN } from '../fixtures/lint-cli';
import { actionStep, ROOT, runActionStep } from './action-step';

/** A name that, read as an option, would start `sh -c id>pwned` as the language server. */
const OPTION_LIKE = '--server-command=sh -c id>pwned #.perf.yaml';
const MISSPELT =
  'version: 1\nprovider: gcp\ncatalog: gcp-2024\nvms:\n  - name: db\n    machine_type: n2-standard-16\n    disks:\n      - { name: d, type: pd-ssd, sise: 10 }\n';
/** A name whose second line is a workflow command. */
const TWO_LINES = 'specs/y\n::error file=README.md::planted\n.perf.yaml';

/** The workflow commands among a log's lines, as the runner finds them: after leading spaces. */
const commands = (log: string) =>
  log
    .split(/\r?\n|\r/)
    .map((l) => l.trimStart())
    .filter((l) => l.startsWith('::'));

describe('GitHub Action: lint step and hostile file names', function () {
  this.timeout(120000);
  let dir: string;
  before(() => {
    dir = tree({
      'specs/clean.perf.yaml': CLEAN,
      'my specs/warn.perf.yaml': WARN,
      [OPTION_LIKE]: WARN,
      'specs/errors.perf.yaml': ERRORS,
      'named/ok.perf.yaml': WARN,
      // A misspelt key, which --fix-dry-run shows fixed under the file's name.
      [`named/${TWO_LINES.slice('specs/'.length)}`]: MISSPELT,
    });
  });

  const run = (inputs: Record<string, string>) =>
    runActionStep(actionStep('lint'), dir, {
      GITHUB_SERVER_URL: 'https://github.com',
      ACTION_REPOSITORY: 'owner/storage-perf',
      ACTION_REF: 'v1',
      INPUT_FAIL_ON: 'error',
      INPUT_MAX_WARNINGS: '',
      INPUT_SARIF_FILE: 'storage-perf.sarif',
      INPUT_ARGS: '',
      ...inputs,
    });

  it('lints every line of paths: blank lines skipped, a space kept inside a path, a name like an option a path', async () => {
    const r = await run({ INPUT_PATHS: `specs/clean.perf.yaml\n\n  my specs/warn.perf.yaml\n${OPTION_LIKE}\nspecs/errors.perf.yaml\n` });
    assert.ok(!existsSync(join(dir, 'pwned')), 'the command in the file name ran');
    // The last line's errors fail the step: read -a stopped at the first line.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const files = new Set(commands(r.stdout).map((c) => /file=([^,]*),/.exec(c)?.[1]));
    assert.deepEqual([...files].sort(), [
      '--server-command=sh -c id>pwned #.perf.yaml',
      'my specs/warn.perf.yaml',
      'specs/errors.perf.yaml',
    ]);
    const sarif = JSON.parse(readFileSync(join(dir, 'storage-perf.sarif'), 'utf8'));
    const uris = new Set(
      sarif.runs[0].results.map((x: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) =>
        decodeURIComponent(x.locations[0].physicalLocation.artifactLocation.uri),
      ),
    );
    assert.ok(uris.has(OPTION_LIKE) && uris.has('my specs/warn.perf.yaml') && uris.has('specs/errors.perf.yaml'), [...uris].join('\n'));
  });

  it('paths separated by spaces on one line: an error that says one path a line', async () => {
    const r = await run({ INPUT_PATHS: 'specs/clean.perf.yaml specs/errors.perf.yaml' });
    assert.equal(r.code, 2);
    assert.match(
      r.stdout,
      /^::error::storage-perf: no file or folder 'specs\/clean\.perf\.yaml specs\/errors\.perf\.yaml': paths takes one path a line$/m,
    );
    const none = await run({ INPUT_PATHS: '\n  \n' });
    assert.equal(none.code, 2);
    assert.match(none.stdout, /^::error::storage-perf: paths names no file or folder$/m);
  });

  it('a file name holding line breaks starts no workflow command, on standard output or error', async () => {
    const r = await run({ INPUT_PATHS: 'named', INPUT_ARGS: '--fix-dry-run\n--fail-on warning' });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const all = [...commands(r.stdout), ...commands(r.stderr)];
    assert.ok(all.length >= 1, r.stdout);
    for (const c of all) assert.match(c, /^::warning file=named\/ok\.perf\.yaml,line=/);
    // The dry run's diff of the misspelt key, in the log beside the annotations: the name escaped.
    assert.match(r.stdout, /^--- a\/named\/y%0A::error file=README\.md::planted%0A\.perf\.yaml\n\+\+\+ b\/named\/y%0A::error/m);
  });

  it("lint's compact and stylish lines and its errors keep such a name on one line", async () => {
    for (const format of ['compact', 'stylish']) {
      const r = await lint(['-f', format, '--', 'named', TWO_LINES], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.deepEqual(commands(r.stdout), [], r.stdout);
      assert.deepEqual(commands(r.stderr), [], r.stderr);
      assert.match(r.stdout, /named\/y%0A::error file=README\.md::planted%0A\.perf\.yaml/);
      assert.match(r.stderr, /^storage-perf lint: cannot read specs\/y%0A::error file=README\.md::planted%0A\.perf\.yaml: /m);
    }
    const diff = await finished(
      spawn(process.execPath, [join(ROOT, 'cli/bin/storage-perf.js'), 'diff', '--base-ref', 'HEAD', '--', TWO_LINES], { cwd: dir }),
    );
    assert.equal(diff.code, 2);
    assert.deepEqual(commands(diff.stderr), [], diff.stderr);
    assert.match(diff.stderr, /^storage-perf diff: cannot read the base, specs\/y%0A::error/m);
  });

  it("a command's error of several lines keeps them, and such a name starts no workflow command in it", async () => {
    // A catalog file named with line breaks: evaluate's error says each problem on a line of its own.
    const r = await finished(
      spawn(process.execPath, [join(ROOT, 'cli/bin/storage-perf.js'), 'evaluate', '--catalog-file', TWO_LINES, 'x.perf.yaml'], {
        cwd: dir,
      }),
    );
    assert.equal(r.code, 2, r.stderr);
    assert.deepEqual(commands(r.stderr), [], r.stderr);
    assert.match(r.stderr, /specs\/y\n%3A%3Aerror file=README\.md::planted\n\.perf\.yaml/);
  });
});
