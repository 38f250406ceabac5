/**
 * `storage-perf lint`, run as a user runs it (the real executable, a real language server, real files in a
 * temporary folder): file discovery, every output format parsed and checked, exit codes, standard input,
 * editor settings, and language servers that crash or never answer.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { XMLParser } from 'fast-xml-parser';
import { load } from 'js-yaml';
import { analyze, LineIndex, type ReportDiagnostic } from '../../core/src';
import { CLEAN, ERRORS, finished, INFO, lint, ROOT, STUB_SERVERS, tree, WARN, type CliRun } from '../fixtures/lint-cli';

/** lint's JSON format gives each finding as the evaluate report does. */
type JsonDiag = ReportDiagnostic;
interface JsonReport {
  files: Array<{ path: string; diagnostics: JsonDiag[]; error?: string }>;
  summary: Record<string, number>;
  fail_on: string;
}

const SPECS: Record<string, string> = {
  'specs/clean.perf.yaml': CLEAN,
  'specs/warn.perf.yaml': WARN,
  'specs/info.perf.yaml': INFO,
  'specs/errors.perf.yaml': ERRORS,
};

/** What the analysis core itself finds in `text`, in the JSON format's terms: the linter must report exactly this. */
function expected(text: string): JsonDiag[] {
  const idx = new LineIndex(text);
  return analyze(text).diagnostics.map((d) => {
    const s = idx.position(d.span.start);
    const e = idx.position(d.span.end);
    return {
      severity: d.severity,
      code: d.code,
      message: d.message,
      line: s.line + 1,
      column: s.character + 1,
      end_line: e.line + 1,
      end_column: e.character + 1,
    };
  });
}

const byPos = (a: JsonDiag, b: JsonDiag) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code);
const ok = (r: CliRun, code: number) =>
  assert.equal(r.code, code, `exit ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);

describe('storage-perf lint', function () {
  this.timeout(60000);
  let dir: string;
  /** The JSON report of the whole folder, the reference the other formats are checked against. */
  let report: JsonReport;
  const findingsOf = (path: string) => report.files.find((f) => f.path === path)!.diagnostics;

  before(async () => {
    dir = tree({
      ...SPECS,
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/info/exclude': '/specs/excluded.perf.yaml\n',
      'specs/excluded.perf.yaml': WARN,
      '.gitignore': 'build/\n*.draft.perf.yaml\n!keep.draft.perf.yaml\n',
      'specs/.gitignore': 'old/\n',
      'specs/old/stale.perf.yaml': WARN,
      'specs/x.draft.perf.yaml': WARN,
      'specs/keep.draft.perf.yaml': CLEAN,
      'build/generated.perf.yaml': WARN,
      'node_modules/pkg/vendored.perf.yaml': WARN,
      'specs/notes.yaml': 'not: a spec\n',
      'specs/short.perf.yml': CLEAN,
    });
    const r = await lint(['specs', '--format', 'json'], { cwd: dir });
    ok(r, 1);
    report = JSON.parse(r.stdout) as JsonReport;
  });

  describe('finding files', () => {
    it('searches folders for *.perf.yaml, honouring nested .gitignore files, negations and .git/info/exclude', () => {
      assert.deepEqual(report.files.map((f) => f.path).sort(), [
        'specs/clean.perf.yaml',
        'specs/errors.perf.yaml',
        'specs/info.perf.yaml',
        'specs/keep.draft.perf.yaml',
        'specs/short.perf.yml',
        'specs/warn.perf.yaml',
      ]);
    });

    it('skips ignored folders from the repository root too, and node_modules', async () => {
      const r = await lint(['.', '--format', 'json'], { cwd: dir });
      ok(r, 1);
      const paths = (JSON.parse(r.stdout) as JsonReport).files.map((f) => f.path);
      assert.ok(
        !paths.some((p) => p.startsWith('build/') || p.startsWith('node_modules/') || p.includes('/old/') || p.includes('x.draft')),
        paths.join(),
      );
      assert.equal(paths.length, 6);
    });

    it('lints a file named explicitly even when ignored', async () => {
      const r = await lint(['build/generated.perf.yaml', '--format', 'json'], { cwd: dir });
      ok(r, 0);
      assert.deepEqual(
        (JSON.parse(r.stdout) as JsonReport).files[0].diagnostics.map((d) => d.code),
        ['capped-by-vcpu'],
      );
    });

    it('a missing path is an I/O error (exit 2), not an empty pass', async () => {
      const r = await lint(['specs/nope.perf.yaml'], { cwd: dir });
      ok(r, 2);
      assert.match(r.stderr, /cannot read specs\/nope\.perf\.yaml: ENOENT/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      const empty = await lint(['build'], { cwd: join(dir, 'specs') });
      ok(empty, 2);
    });
  });

  describe('findings', () => {
    it('are exactly what the analysis core finds (the editor shows the same), 1-based, UTF-16 columns', () => {
      for (const [path, text] of Object.entries(SPECS)) {
        const got = findingsOf(path).map(({ severity, code, message, line, column, end_line, end_column }) => ({
          severity,
          code,
          message,
          line,
          column,
          end_line,
          end_column,
        }));
        assert.deepEqual(got.sort(byPos), expected(text).sort(byPos), path);
      }
      // The unknown key sits after a surrogate pair: its column counts UTF-16 code units.
      const sise = findingsOf('specs/errors.perf.yaml').find((d) => d.code === 'unknown-key')!;
      const line = ERRORS.split('\n')[sise.line - 1];
      assert.equal(line.slice(sise.column - 1, sise.end_column - 1), 'sise');
    });

    it('the summary counts them', () => {
      const all = report.files.flatMap((f) => f.diagnostics);
      const count = (s: string) => all.filter((d) => d.severity === s).length;
      assert.deepEqual(report.summary, {
        files: 6,
        errors: count('error'),
        warnings: count('warning'),
        information: count('information'),
        hints: count('hint'),
        fixed: 0,
      });
      assert.ok(report.summary.errors > 0 && report.summary.warnings > 0 && report.summary.information > 0);
      assert.equal(report.fail_on, 'error');
    });
  });

  describe('formats', () => {
    it('stylish (default): grouped by file, plain when not a terminal, coloured on request, with the summary line', async () => {
      const r = await lint(['specs'], { cwd: dir });
      ok(r, 1);
      assert.doesNotMatch(r.stdout, /\u001b\[/);
      for (const f of report.files) {
        if (!f.diagnostics.length) {
          assert.ok(!r.stdout.includes(f.path), f.path);
          continue;
        }
        const block = r.stdout.slice(r.stdout.indexOf(`${f.path}\n`));
        for (const d of f.diagnostics) assert.match(block, new RegExp(`^  ${d.line}:${d.column} +${d.severity} +.*${d.code}$`, 'm'));
      }
      const s = report.summary;
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(
        lines.at(-1),
        `${s.errors + s.warnings + s.information} problems (${s.errors} errors, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}, ${s.information} information, 0 hints) in 6 files`,
      );
      const coloured = await lint(['specs'], { cwd: dir, env: { FORCE_COLOR: '1' } });
      assert.match(coloured.stdout, /\u001b\[31merror/);
    });

    it("compact: one line per finding that the extension's problem matcher parses exactly, then the summary", async () => {
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      const matcher = pkg.contributes.problemMatchers.find((m: { name: string }) => m.name === 'storage-perf-compact');
      const p = matcher.pattern;
      const re = new RegExp(p.regexp);
      const r = await lint(['specs', '-f', 'compact'], { cwd: dir });
      ok(r, 1);
      const lines = r.stdout.trimEnd().split('\n');
      const want = report.files.flatMap((f) => f.diagnostics.map((d) => ({ file: f.path, ...d })));
      assert.equal(lines.length, want.length + 1);
      lines.slice(0, -1).forEach((line, i) => {
        const m = re.exec(line);
        assert.ok(m, `the problem matcher does not match: ${line}`);
        const w = want[i];
        assert.deepEqual(
          {
            file: m[p.file],
            line: Number(m[p.line]),
            column: Number(m[p.column]),
            severity: m[p.severity],
            code: m[p.code],
            message: m[p.message],
          },
          { file: w.file, line: w.line, column: w.column, severity: w.severity, code: w.code, message: w.message },
        );
      });
      assert.equal(re.exec(lines.at(-1)!), null, 'the summary line must not read as a finding');
      assert.match(lines.at(-1)!, /^\d+ problems \(/);
    });

    it('json: the summary goes to stderr, stdout is only the document', async () => {
      const r = await lint(['specs/warn.perf.yaml', '--format', 'json'], { cwd: dir });
      ok(r, 0);
      const doc = JSON.parse(r.stdout) as JsonReport;
      assert.deepEqual(
        doc.files[0].diagnostics.map((d) => [d.code, d.line, d.column, d.end_line, d.end_column]),
        expected(WARN).map((d) => [d.code, d.line, d.column, d.end_line, d.end_column]),
      );
      assert.match(r.stderr, /^1 problem \(0 errors, 1 warning, 0 information, 0 hints\) in 1 file$/m);
    });

    describe('sarif', () => {
      let log: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      before(async () => {
        const r = await lint(['specs', '--format', 'sarif'], { cwd: dir });
        ok(r, 1);
        log = JSON.parse(r.stdout);
      });

      it('is valid against the official SARIF 2.1.0 schema', () => {
        const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
        // The schema's language-tag pattern is not valid as a Unicode-mode regular expression.
        const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
        ajv.addFormat('uri', (s: string) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) && URL.canParse(s));
        ajv.addFormat('uri-reference', (s: string) => !/\s/.test(s) && URL.canParse(s, 'file:///base/'));
        ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s));
        const compiled = ajv.compile(schema);
        const validate = Object.assign((d: unknown) => compiled(d) as boolean, {
          get errors() {
            return compiled.errors;
          },
        });
        assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
        assert.equal(log.version, '2.1.0');
        // and the schema is not a rubber stamp: a broken log fails it
        assert.equal(validate({ ...log, runs: [{ ...log.runs[0], results: [{ message: {} }] }] }), false);
      });

      it('has a rule per code with help, no local help links, and results pointing at their rules', () => {
        const run = log.runs[0];
        const rules = run.tool.driver.rules as Array<{
          id: string;
          helpUri?: string;
          help: { text: string };
          shortDescription: { text: string };
        }>;
        assert.equal(run.tool.driver.name, 'storage-perf');
        assert.ok(rules.length >= 40);
        for (const r of rules) {
          assert.ok(r.shortDescription.text && r.help.text, r.id);
          assert.match(r.help.text, new RegExp(`docs/lint\\.md#${r.id}`));
          // Without --docs-base-uri there is no public address to link to: no link, never a local path.
          assert.equal(r.helpUri, undefined, r.id);
        }
        assert.equal(run.tool.driver.informationUri, undefined);
        assert.ok(!JSON.stringify(log).includes(ROOT), 'the log names no path of the installation');
        const all = report.files.flatMap((f) => f.diagnostics);
        assert.equal(run.results.length, all.length);
        for (const res of run.results) assert.equal(rules[res.ruleIndex].id, res.ruleId);
        const level = { error: 'error', warning: 'warning', information: 'note', hint: 'note' } as Record<string, string>;
        assert.deepEqual(
          run.results.map((r: { ruleId: string; level: string }) => `${r.ruleId}/${r.level}`).sort(),
          all.map((d) => `${d.code}/${level[d.severity]}`).sort(),
        );
      });

      it('every help link names a section that docs/lint.md has', () => {
        const doc = readFileSync(join(ROOT, 'docs/lint.md'), 'utf8');
        for (const r of log.runs[0].tool.driver.rules)
          assert.ok(doc.includes(`<a id="${r.id}"></a>`), `docs/lint.md lacks an anchor for ${r.id}`);
      });

      it('regions are complete and 1-based: their snippet is the flagged text, columns in UTF-16 units', () => {
        const run = log.runs[0];
        assert.equal(run.columnKind, 'utf16CodeUnits');
        for (const res of run.results) {
          const loc = res.locations[0].physicalLocation;
          assert.equal(loc.artifactLocation.uriBaseId, '%SRCROOT%');
          const text = SPECS[loc.artifactLocation.uri];
          const { startLine, startColumn, endLine, endColumn, snippet } = loc.region;
          for (const n of [startLine, startColumn, endLine, endColumn])
            assert.ok(Number.isInteger(n) && n >= 1, JSON.stringify(loc.region));
          const idx = new LineIndex(text);
          const flagged = text.slice(
            idx.offset({ line: startLine - 1, character: startColumn - 1 }),
            idx.offset({ line: endLine - 1, character: endColumn - 1 }),
          );
          assert.ok(flagged.length > 0, JSON.stringify(res));
          assert.equal(snippet.text, flagged);
        }
        const sise = run.results.find((r: { ruleId: string }) => r.ruleId === 'unknown-key');
        assert.equal(sise.locations[0].physicalLocation.region.snippet.text, 'sise');
        assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri.startsWith('file://'), true);
      });

      it('partial fingerprints are distinct and survive lines moving', async () => {
        const prints = (l: typeof log) =>
          l.runs[0].results.map((r: { partialFingerprints: Record<string, string> }) => Object.values(r.partialFingerprints)[0]);
        const before = prints(log);
        assert.equal(new Set(before).size, before.length);
        const moved = tree({ 'specs/warn.perf.yaml': `# a comment that moves every line down\n\n${WARN}` });
        const same = tree({ 'specs/warn.perf.yaml': WARN });
        const [a, b] = await Promise.all([lint(['specs', '-f', 'sarif'], { cwd: moved }), lint(['specs', '-f', 'sarif'], { cwd: same })]);
        const la = JSON.parse(a.stdout);
        const lb = JSON.parse(b.stdout);
        assert.deepEqual(prints(la), prints(lb));
        assert.equal(
          la.runs[0].results[0].locations[0].physicalLocation.region.startLine,
          lb.runs[0].results[0].locations[0].physicalLocation.region.startLine + 2,
        );
        const other = tree({ 'specs/warn.perf.yaml': WARN.replace('size: 500GiB', 'size: 600GiB') });
        const c = JSON.parse((await lint(['specs', '-f', 'sarif'], { cwd: other })).stdout);
        assert.deepEqual(prints(c), prints(lb), 'a change elsewhere in the file keeps the fingerprint');
      });

      it('--docs-base-uri makes the help links web links', async () => {
        const r = await lint(['specs/warn.perf.yaml', '-f', 'sarif', '--docs-base-uri', 'https://example.org/storage-perf/blob/v1/docs'], {
          cwd: dir,
        });
        const rule = JSON.parse(r.stdout).runs[0].tool.driver.rules.find((x: { id: string }) => x.id === 'capped-by-vcpu');
        assert.equal(rule.helpUri, 'https://example.org/storage-perf/blob/v1/docs/lint.md#capped-by-vcpu');
        const bad = await lint(['specs/warn.perf.yaml', '-f', 'sarif', '--docs-base-uri', 'not a uri'], { cwd: dir });
        ok(bad, 2);
        assert.match(bad.stderr, /--docs-base-uri must be an absolute URI/);
      });
    });

    it('github: one workflow command per finding with 1-based positions, notices below warnings', async () => {
      const r = await lint(['specs', '-f', 'github'], { cwd: dir });
      ok(r, 1);
      const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
      const want = report.files.flatMap((f) => f.diagnostics.map((d) => ({ file: f.path, ...d })));
      assert.equal(commands.length, want.length);
      const kind = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' } as Record<string, string>;
      commands.forEach((c, i) => {
        const m = /^::(error|warning|notice) file=([^,]+),line=(\d+),endLine=(\d+),col=(\d+),endColumn=(\d+),title=([^,:]+)::(.+)$/.exec(c);
        assert.ok(m, c);
        const w = want[i];
        assert.deepEqual(m.slice(1).map(String), [
          kind[w.severity],
          w.file,
          String(w.line),
          String(w.end_line),
          String(w.column),
          String(w.end_column - 1),
          `storage-perf ${w.code}`,
          w.message.replace(/%/g, '%25'),
        ]);
      });
    });

    it('junit: well-formed XML, a suite per file, findings at or above --fail-on are failures', async () => {
      const parser = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (name) => name === 'testsuite' || name === 'testcase',
      });
      const check = async (failOn: string, failing: string[]) => {
        const r = await lint(['specs', '-f', 'junit', '--fail-on', failOn], { cwd: dir });
        const doc = parser.parse(r.stdout);
        const suites = doc.testsuites.testsuite as Array<{
          name: string;
          tests: string;
          failures: string;
          testcase: Array<{ name: string; failure?: { type: string } }>;
        }>;
        assert.deepEqual(suites.map((s) => s.name).sort(), report.files.map((f) => f.path).sort());
        const all = report.files.flatMap((f) => f.diagnostics);
        const shouldFail = all.filter((d) => failing.includes(d.severity)).length;
        assert.equal(Number(doc.testsuites.failures), shouldFail);
        assert.equal(suites.flatMap((s) => s.testcase).filter((c) => c.failure).length, shouldFail);
        for (const s of suites) {
          const f = report.files.find((x) => x.path === s.name)!;
          assert.equal(Number(s.tests), Math.max(1, f.diagnostics.length), s.name);
        }
        return r;
      };
      ok(await check('error', ['error']), 1);
      ok(await check('warning', ['error', 'warning']), 1);
    });

    it('--output writes the report to a file; the terminal gets the summary', async () => {
      const r = await lint(['specs', '-f', 'sarif', '--output', 'out/lint.sarif'], { cwd: dir });
      ok(r, 2); // the folder out/ does not exist
      assert.match(r.stderr, /cannot write out\/lint\.sarif: ENOENT/);
      mkdirSync(join(dir, 'out'));
      const r2 = await lint(['specs', '-f', 'sarif', '--output', 'out/lint.sarif'], { cwd: dir });
      ok(r2, 1);
      assert.equal(
        JSON.parse(readFileSync(join(dir, 'out/lint.sarif'), 'utf8')).runs[0].results.length,
        report.files.flatMap((f) => f.diagnostics).length,
      );
      assert.match(r2.stdout, /^\d+ problems \(.*\) in 6 files\n$/);
    });
  });

  describe('exit codes', () => {
    const cases: Array<[string, string[], number]> = [
      ['no findings', ['specs/clean.perf.yaml'], 0],
      ['a warning, failing on errors (the default)', ['specs/warn.perf.yaml'], 0],
      ['a warning, --fail-on warning', ['specs/warn.perf.yaml', '--fail-on', 'warning'], 1],
      ['information, --fail-on warning', ['specs/info.perf.yaml', '--fail-on', 'warning'], 0],
      ['information, --fail-on information', ['specs/info.perf.yaml', '--fail-on', 'information'], 1],
      ['errors', ['specs/errors.perf.yaml'], 1],
      ['one warning within --max-warnings 1', ['specs/warn.perf.yaml', '--max-warnings', '1'], 0],
      ['one warning over --max-warnings 0', ['specs/warn.perf.yaml', '--max-warnings', '0'], 1],
    ];
    // Run side by side (each is a separate linter and server), checked one by one.
    let runs: Promise<CliRun[]> | undefined;
    for (const [i, [what, , code]] of cases.entries()) {
      it(`${what} → ${code}`, async () => {
        runs ??= Promise.all(cases.map(([, args]) => lint([...args, '-f', 'compact'], { cwd: dir })));
        ok((await runs)[i], code);
      });
    }

    it('a --timeout longer than a timer can hold waits rather than failing at once', async () => {
      const r = await lint(['specs/clean.perf.yaml', '--timeout', '3000000'], { cwd: dir });
      ok(r, 0);
      assert.doesNotMatch(r.stderr, /did not answer|TimeoutOverflowWarning/);
    });

    it('usage errors → 2 with a message, never a stack trace', async () => {
      const bad: Array<[string[], RegExp]> = [
        [['specs', '--format', 'xml'], /unknown format 'xml'/],
        [['specs', '--fail-on', 'hint'], /--fail-on must be one of error, warning, information/],
        [['specs', '--max-warnings', 'many'], /--max-warnings takes a whole number/],
        [[], /no PATH given/],
        [['specs', '--no-such-flag'], /unknown option '--no-such-flag' \(see --help\)/],
        [['-', '--fix'], /--fix cannot write back to standard input/],
        [['specs', '--fix', '--fix-dry-run'], /exclude each other/],
        [['specs', '--jobs', '0'], /--jobs takes a whole number ≥ 1, not '0'/],
      ];
      const runs = await Promise.all(bad.map(([args]) => lint(args, { cwd: dir })));
      runs.forEach((r, i) => {
        ok(r, 2);
        assert.match(r.stderr, bad[i][1]);
        assert.doesNotMatch(r.stderr, /\n\s+at /);
      });
    });
  });

  describe('standard input', () => {
    it('- reads the spec from stdin', async () => {
      const r = await lint(['-', '-f', 'json', '--fail-on', 'warning'], { cwd: dir, input: WARN });
      ok(r, 1);
      const doc = JSON.parse(r.stdout) as JsonReport;
      assert.equal(doc.files[0].path, '<stdin>');
      assert.deepEqual(
        doc.files[0].diagnostics.map((d) => d.code),
        ['capped-by-vcpu'],
      );
    });

    it('--stdin-filename names it, alongside files', async () => {
      const r = await lint(['specs/clean.perf.yaml', '-', '--stdin-filename', 'piped.perf.yaml', '-f', 'compact'], {
        cwd: dir,
        input: ERRORS,
      });
      ok(r, 1);
      assert.match(r.stdout, /^piped\.perf\.yaml:9:\d+: error unknown-key: /m);
      assert.match(r.stdout, / in 2 files\n$/);
    });
  });

  describe('settings, as the editor sends them', () => {
    // Hyperdisk exists in the current edition only: which edition the server was told to use shows.
    // (Hyperdisk Throughput: N2 takes it; Hyperdisk Balanced only through Google's account team.)
    const noCatalog = CLEAN.replace('catalog: gcp-2024\n', '').replace(
      'type: pd-ssd\n        size: 500GiB',
      'type: hyperdisk-throughput\n        size: 2TiB',
    );
    const codes = (r: CliRun) => (JSON.parse(r.stdout) as JsonReport).files[0].diagnostics.map((x) => x.code);
    it('.vscode/settings.json is answered to workspace/configuration; flags override it', async () => {
      const d = tree({
        'a.perf.yaml': noCatalog,
        '.vscode/settings.json': '{\n  // the team pins the old model\n  "storagePerf.catalog": "gcp-2020",\n}\n',
      });
      const [plain, settings, flag] = await Promise.all([
        lint(['a.perf.yaml', '-f', 'json', '--settings', join(d, 'none.json')], { cwd: d }),
        lint(['a.perf.yaml', '-f', 'json'], { cwd: d }),
        lint(['a.perf.yaml', '-f', 'json', '--catalog', 'gcp-2024'], { cwd: d }),
      ]);
      ok(plain, 2); // --settings names a file that does not exist
      assert.match(plain.stderr, /cannot read .*none\.json: ENOENT/);
      ok(settings, 1);
      // gcp-2020 has no machine prices, which it says once per file (information).
      assert.deepEqual(codes(settings), ['price-unknown', 'unknown-disk-type']);
      ok(flag, 0);
      assert.ok(!codes(flag).includes('unknown-disk-type'), codes(flag).join());
    });

    it('a catalog file that cannot be used stops the run (exit 2) instead of changing the findings', async () => {
      const d = tree({ 'a.perf.yaml': noCatalog, 'mine.json': '{"edition": 1}' });
      const r = await lint(['a.perf.yaml', '--catalog-file', 'mine.json'], { cwd: d });
      ok(r, 2);
      assert.match(r.stderr, /mine\.json/);
    });
  });

  describe('language servers that fail', () => {
    const stub = (name: string) => ['--server-command', JSON.stringify([process.execPath, join(STUB_SERVERS, `${name}.js`)])];

    // The timeout is per answer, initialize's included, and a stub server takes over a second to start on a
    // loaded machine: only the cases about a timeout use a short one, and the hang's is long enough for a start.
    const failures: Array<[string, number, RegExp]> = [
      ['crash-after-initialize', 60, /the language server exited \(code 3\); no results[\s\S]*giving up on purpose/],
      ['crash-on-open', 60, /the language server exited \(SIGKILL\); no results/],
      ['hangs-on-diagnostics', 5, /did not answer textDocument\/diagnostic within 5 s; no results/],
      ['never-answers', 1, /did not answer initialize within 1 s; no results/],
    ];
    for (const [name, timeout, message] of failures) {
      it(`${name} → exit 2 with a clear message and no report`, async () => {
        const started = Date.now();
        const r = await lint(['specs', '-f', 'json', '--timeout', String(timeout), ...stub(name)], { cwd: dir });
        ok(r, 2);
        assert.match(r.stderr, message);
        assert.equal(r.stdout, '', 'no report may suggest a pass');
        assert.doesNotMatch(r.stderr, /\n\s+at /);
        assert.ok(Date.now() - started < 15000);
      });
    }

    it('a server that only pushes diagnostics is waited for until they settle', async () => {
      const r = await lint(['specs', '-f', 'compact', '--fail-on', 'warning', ...stub('push-only')], { cwd: dir });
      ok(r, 1);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(lines.filter((l) => l.endsWith(': warning stub-warning: a pushed warning')).length, report.files.length, r.stdout);
    });

    it('--jobs 3 lints over three language servers and reports exactly what one server does', async () => {
      // Each server started appends its process id to a file before it loads.
      const started = join(dir, 'servers-started.txt');
      const count = join(dir, 'count-server.js');
      writeFileSync(count, `require('node:fs').appendFileSync(${JSON.stringify(started)}, process.pid + '\\n');\n`);
      const server = [process.execPath, '-r', count, join(ROOT, 'server/bin/storage-perf-language-server.js'), '--stdio'];
      const r = await lint(['specs', '-f', 'json', '--jobs', '3', '--server-command', JSON.stringify(server)], { cwd: dir });
      ok(r, 1);
      assert.deepEqual(JSON.parse(r.stdout), report);
      assert.equal(new Set(readFileSync(started, 'utf8').trim().split('\n')).size, 3);
    });

    it('a server command that cannot start → exit 2', async () => {
      const r = await lint(['specs', '--server-command', join(dir, 'no-such-server')], { cwd: dir });
      ok(r, 2);
      assert.match(r.stderr, /cannot start the language server|the language server exited/);
    });
  });

  describe('CI integrations', () => {
    it("the GitHub Action's lint step writes SARIF with web help links, annotates, and fails as asked", async () => {
      const action = load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
        runs: { using: string; steps: Array<{ id?: string; run?: string; shell?: string }> };
      };
      assert.equal(action.runs.using, 'composite');
      const step = action.runs.steps.find((s) => s.id === 'lint')!;
      assert.equal(step.shell, 'bash');
      const d = tree({ 'specs/warn.perf.yaml': WARN, 'specs/clean.perf.yaml': CLEAN });
      const runStep = async (inputs: Record<string, string>) => {
        const outputs = join(d, `outputs-${Object.values(inputs).join('-').replace(/\W/g, '')}`);
        const run = await finished(
          spawn('bash', ['-e', '-c', step.run!], {
            cwd: d,
            env: {
              ...process.env,
              STORAGE_PERF: join(ROOT, 'cli/bin/storage-perf.js'),
              GITHUB_OUTPUT: outputs,
              GITHUB_SERVER_URL: 'https://github.com',
              ACTION_REPOSITORY: 'owner/storage-perf',
              ACTION_REF: 'v1',
              INPUT_PATHS: 'specs',
              INPUT_FAIL_ON: 'error',
              INPUT_MAX_WARNINGS: '',
              INPUT_SARIF_FILE: 'storage-perf.sarif',
              INPUT_ARGS: '',
              ...inputs,
            },
          }),
        );
        let o = '';
        try {
          o = readFileSync(outputs, 'utf8');
        } catch {
          /* no outputs */
        }
        return { ...run, outputs: o };
      };
      const pass = await runStep({});
      ok(pass, 0);
      assert.match(pass.stdout, /^::warning file=specs\/warn\.perf\.yaml,line=6,/m);
      assert.equal(pass.outputs, 'sarif-file=storage-perf.sarif\n');
      const sarifLog = JSON.parse(readFileSync(join(d, 'storage-perf.sarif'), 'utf8'));
      assert.equal(sarifLog.runs[0].results[0].ruleId, 'capped-by-vcpu');
      assert.equal(
        sarifLog.runs[0].tool.driver.rules[0].helpUri.split('#')[0],
        'https://github.com/owner/storage-perf/blob/v1/docs/lint.md',
      );
      ok(await runStep({ INPUT_FAIL_ON: 'warning' }), 1);
      ok(await runStep({ INPUT_MAX_WARNINGS: '0' }), 1);
      ok(await runStep({ INPUT_ARGS: '--catalog  gcp-2024', INPUT_PATHS: 'specs/clean.perf.yaml\nspecs/warn.perf.yaml' }), 0);
      const broken = await runStep({ INPUT_ARGS: `--timeout 1 --server-command ${join(STUB_SERVERS, 'never-answers.js')}` });
      ok(broken, 2);
      assert.equal(broken.outputs, '', 'no SARIF offered for upload from a failed run');
    });

    it('the pre-commit hook runs the linter on staged *.perf.yaml files', async () => {
      const [hook] = load(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Array<{
        id: string;
        entry: string;
        files: string;
        args: string[];
      }>;
      assert.equal(hook.id, 'storage-perf-lint');
      const files = new RegExp(hook.files);
      assert.ok(
        files.test('specs/db.perf.yaml') && files.test('db.perf.yml') && !files.test('specs/db.yaml') && !files.test('a.perf.yaml.bak'),
      );
      // pre-commit runs `entry args... files...` in the repository; here the repository is this project.
      const [cmd, ...rest] = hook.entry.split(' ');
      assert.equal(cmd, 'npx');
      // The args end with `--` (the file names after it are paths): options of a user's own come before it.
      assert.equal(hook.args.at(-1), '--');
      const args = [...rest, '--fail-on', 'warning', ...hook.args, 'examples/storage.perf.yaml'];
      const r = await finished(spawn('npx', args, { cwd: ROOT }));
      ok(r, 1);
      assert.match(r.stdout, /^examples\/storage\.perf\.yaml:\d+:\d+: warning capped-by-vcpu: /m);
    });
  });

  it('the shipped examples lint as documented', async () => {
    const r = await lint(['examples', '-f', 'json'], { cwd: ROOT });
    ok(r, 0);
    const doc = JSON.parse(r.stdout) as JsonReport;
    for (const f of doc.files)
      assert.deepEqual(
        f.diagnostics.map((d) => d.code).sort(),
        expected(readFileSync(join(ROOT, f.path), 'utf8'))
          .map((d) => d.code)
          .sort(),
        f.path,
      );
  });
});
