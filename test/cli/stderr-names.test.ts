/**
 * File names on standard error of `evaluate`, `fio` and `compare` are escaped as lint's are (cli/src/workflow-text.ts):
 * a name holding a line break cannot start a workflow command in a CI log, which the runner reads line by line.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');
/** A name whose second line is a workflow command. */
const TWO_LINES = 'y\n::error file=README.md::planted\n.perf.yaml';
const ESCAPED = /y%0A::error file=README\.md::planted%0A\.perf\.yaml/;

/** The workflow commands among a log's lines, as the runner finds them: after leading spaces. */
const commands = (log: string) =>
  log
    .split(/\r?\n|\r/)
    .map((l) => l.trimStart())
    .filter((l) => l.startsWith('::'));

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('file names on standard error of evaluate, fio and compare', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-stderr-names-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('evaluate: a file it cannot read is named on one line', () => {
    const r = cli(['evaluate', '--', TWO_LINES], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.deepEqual(commands(r.stderr), [], r.stderr);
    assert.match(r.stderr, new RegExp(`^storage-perf evaluate: cannot read ${ESCAPED.source}: ENOENT$`, 'm'));
  });

  it("fio: a spec with a VM's errors is named on one line, in each of its lines", () => {
    const spec = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8').replace(/machine_type: \S+/, 'machine_type: n2-standard-7');
    writeFileSync(join(dir, TWO_LINES), spec);
    const r = cli(['fio', '--stdout', '--', TWO_LINES], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(commands(r.stderr), [], r.stderr);
    assert.match(r.stderr, new RegExp(`^storage-perf fio: ${ESCAPED.source} has errors for VM`, 'm'));
    assert.match(r.stderr, new RegExp(`^  ${ESCAPED.source}:\\d+: unknown-machine-type: `, 'm'));
  });

  it('compare: a result no job matches is named on one line, and so is the spec', () => {
    copyFileSync(join(ROOT, 'examples/storage.perf.yaml'), join(dir, TWO_LINES));
    const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/fio/mixed-randrw.json'), 'utf8'));
    for (const j of fixture.jobs) j.jobname = `not-ours-${j.jobname}`;
    const result = TWO_LINES.replace('.perf.yaml', '.json');
    writeFileSync(join(dir, result), JSON.stringify(fixture));
    const r = cli(['compare', '--fio-result', result, '--', TWO_LINES], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(commands(r.stderr), [], r.stderr);
    assert.match(r.stderr, /^storage-perf compare: no job of y%0A::error file=README\.md::planted%0A\.json matches a job generated for /m);
    assert.match(r.stderr, new RegExp(`generated for ${ESCAPED.source}$`, 'm'));
  });
});
