/**
 * Hostile inputs: each is analysed, never throws, and gets a diagnostic that says what is wrong. What keeps the
 * work bounded is asserted by its structure (nothing expanded, every VM once, the server answering another
 * request before it finishes a long analysis), never by the clock: a loaded machine passes, and removing a
 * guard fails or never finishes. What each case costs is measured by `bench/hostile.ts` (`npm run bench`).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze, type Analysis } from '../../core/src';
import { ALIAS_GROWTH_FLOOR } from '../../core/src/document/yaml-tree';
import { FINDINGS_PER_CODE } from '../../core/src/checks/finding-cap';
import { LspClient } from '../../cli/src/lsp-client';
import { checkText } from '../fuzz/pipeline';
import { aliasedDisks, aliasedWorkloads, billionLaughs, duplicateKeys, garbage, manyDisks, manyVms, withComments } from './hostile-inputs';
import { ADVICE_WORK } from '../../core/src/advice';
import { evaluationWork } from '../../core/src/model/evaluate';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');

const codes = (a: Analysis) => a.diagnostics.map((d) => d.code);
function diagAt(a: Analysis, text: string, needle: string) {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  return a.diagnostics.filter((d) => d.span.start <= at && d.span.end >= at + Math.min(needle.length, 1));
}

describe('hostile inputs', function () {
  this.timeout(30000);

  it('billion laughs: refused with yaml-alias-limit, fast, without expanding', () => {
    const text = billionLaughs();
    const a = analyze(text);
    assert.deepEqual(codes(a), ['yaml-alias-limit']);
    assert.match(a.diagnostics[0].message, new RegExp(ALIAS_GROWTH_FLOOR.toLocaleString('en-US')));
    // Refused before anything is expanded: no path of the 10^9 the aliases name, no spec, no VM.
    assert.equal(a.parsed.tree.nodes.size, 0, 'the tree was not expanded into paths');
    assert.equal(a.spec, undefined);
    assert.equal(a.vms.length, 0);
  });

  it('250 VMs aliasing one list of 40 workloads: refused on the anchor, nothing converted or evaluated', () => {
    const text = aliasedWorkloads(250, 40);
    const a = analyze(text);
    assert.deepEqual(codes(a), ['yaml-alias-limit']);
    const d = a.diagnostics[0];
    assert.equal(text.slice(d.span.start, d.span.end), '&w');
    assert.match(d.message, /the 249 of &w/);
    assert.ok(d.message.length < 240, d.message);
    assert.equal(a.parsed.tree.nodes.size, 0, 'the tree was not expanded into paths');
    assert.equal(a.spec, undefined);
    assert.equal(a.vms.length, 0);
  });

  it('700 VMs aliasing one list of three disks: the ordinary use of an anchor is analysed', () => {
    const a = analyze(aliasedDisks(700));
    assert.ok(!codes(a).includes('yaml-alias-limit'));
    assert.equal(a.vms.length, 700);
    assert.equal(a.spec?.vms[699].disks.length, 3);
  });

  it('an alias inside the collection it names (a cycle) is a syntax error, not a stack overflow', () => {
    const text = 'version: 1\nprovider: gcp\nvms: &v\n  - name: a\n    disks: *v\n';
    const a = checkText(text);
    assert.ok(
      a.diagnostics.some((d) => d.code === 'yaml-syntax' && /circular/.test(d.message)),
      JSON.stringify(a.diagnostics),
    );
  });

  it('100,000 comment lines around a spec: analysed as usual, the same findings as without them', () => {
    const text = withComments(EXAMPLE, 100_000);
    const a = analyze(text);
    assert.deepEqual(codes(a), codes(analyze(EXAMPLE)));
  });

  it('100,000 lines of VMs (9,000 of them): every VM evaluated, with the file total', function () {
    this.timeout(90000);
    const text = manyVms(9000);
    assert.ok(text.split('\n').length > 99_000);
    const a = analyze(text);
    assert.equal(a.vms.length, 9000);
    assert.ok(a.monthly_cost !== undefined && a.monthly_cost > 0);
    // One capped disk per VM, the last VM's too: each VM analysed once, none skipped. A file lists 100 findings
    // of a code (core/src/finding-cap.ts); more-findings counts the other 8,900, at the last one: the last VM's.
    assert.equal(a.diagnostics.filter((d) => d.code === 'capped-by-vcpu').length, FINDINGS_PER_CODE);
    const more = a.diagnostics.filter((d) => d.code === 'more-findings');
    assert.equal(more.length, 1);
    assert.match(more[0].message, /^8,900 more capped-by-vcpu findings/);
    assert.ok(more[0].span.start > text.lastIndexOf('- name: vm8999'), 'at the last VM');
  });

  it('a 10 MB single line: as a comment, as a value, as a key', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    for (const [what, text, code] of [
      ['comment', `# ${big}\n${EXAMPLE}`, 'capped-by-vcpu'],
      ['value', EXAMPLE.replace('region: us-central1', `region: ${big}`), 'unknown-region'],
      ['key', `${EXAMPLE}${big}: 1\n`, 'unknown-key'],
    ] as const) {
      const a = analyze(text);
      assert.ok(codes(a).includes(code), `${what}: ${codes(a).join(', ')}`);
      for (const d of a.diagnostics) assert.ok(d.message.length < 2000, `${what}: ${d.code} message of ${d.message.length} characters`);
    }
  });

  it('deep nesting: refused at depth 64 with a syntax error, in block and flow style', () => {
    for (const text of [
      '['.repeat(100_000),
      '{a: '.repeat(50_000),
      Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n'),
    ]) {
      const a = analyze(text);
      assert.deepEqual(
        codes(a).filter((c) => c !== 'encoding'),
        ['yaml-syntax'],
      );
      assert.match(a.diagnostics[0].message, /maxDepth|depth/);
    }
  });

  it('binary garbage: an encoding error that says so, and no crash', () => {
    for (const enc of ['latin1', 'utf8'] as const) {
      const text = garbage(200_000).toString(enc);
      const a = checkText(text);
      assert.ok(
        a.diagnostics.some((d) => d.code === 'encoding' && /binary/.test(d.message)),
        `${enc}: ${codes(a).join(', ')}`,
      );
    }
  });

  it('UTF-16 text read as UTF-8: an encoding error naming UTF-16', () => {
    for (const bytes of [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(EXAMPLE, 'utf16le')]), Buffer.from(EXAMPLE, 'utf16le')]) {
      const a = checkText(bytes.toString('utf8'));
      const d = a.diagnostics.find((x) => x.code === 'encoding');
      assert.ok(d && d.severity === 'error' && /UTF-16/.test(d.message), JSON.stringify(a.diagnostics.slice(0, 3)));
    }
  });

  it('a file that is not UTF-8 (Latin-1 in a comment): a warning at the bad byte, the spec still analysed', () => {
    const bytes = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(`\n${EXAMPLE}`)]);
    const text = bytes.toString('utf8');
    const a = checkText(text);
    const d = a.diagnostics.find((x) => x.code === 'encoding')!;
    assert.equal(d.severity, 'warning');
    assert.equal(d.span.start, 5);
    assert.ok(codes(a).includes('capped-by-vcpu'));
  });

  it('BOM, CRLF and lone CR line ends: the same findings, on the same lines', () => {
    const base = analyze(EXAMPLE).diagnostics.map((d) => d.code);
    for (const [what, text] of [
      ['BOM', `\uFEFF${EXAMPLE}`],
      ['CRLF', EXAMPLE.replace(/\n/g, '\r\n')],
      ['CR', EXAMPLE.replace(/\n/g, '\r')],
      ['BOM+CRLF', `\uFEFF${EXAMPLE.replace(/\n/g, '\r\n')}`],
    ]) {
      const a = checkText(text);
      assert.deepEqual(
        a.diagnostics.map((d) => d.code),
        base,
        what,
      );
      const d = a.diagnostics.find((x) => x.code === 'capped-by-vcpu')!;
      assert.equal(text.slice(d.span.start, d.span.end), 'machine_type', what);
    }
  });

  it('duplicate keys: an error on the second one', () => {
    const text = EXAMPLE.replace('provider: gcp', 'provider: gcp\nprovider: yandex');
    const a = checkText(text);
    const d = a.diagnostics.find((x) => x.code === 'yaml-duplicate-key')!;
    assert.equal(d.span.start, text.indexOf('provider: yandex'));
  });

  it('huge numbers: refused or reported as out of range, and messages print them readably', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['size: 500GiB', 'size: 1e400', /finite/],
      ['size: 500GiB', 'size: 99999999999999999999999GiB', /sizes run from/],
      ['queue_depth: 32', 'queue_depth: 1e999', /finite/],
      ['size: 500GiB', 'size: 0x7fffffffffffffffffff', /sizes run from/],
    ];
    for (const [from, to, message] of cases) {
      const text = EXAMPLE.replace(from, to);
      const a = checkText(text);
      const value = to.split(': ')[1];
      const hits = diagAt(a, text, value);
      assert.ok(
        hits.some((d) => message.test(d.message)),
        `${to}: ${JSON.stringify(hits.map((d) => d.message))}`,
      );
    }
    // A target far beyond any disk: the unreachable-target message prints it as 1e+308, not "1e+,308".
    const a = checkText(EXAMPLE.replace('iops: 12000', 'iops: 1e308'));
    assert.ok(
      a.diagnostics.some((d) => d.code === 'target-unreachable' && /of 1e\+308 IOPS/.test(d.message)),
      JSON.stringify(a.diagnostics.map((d) => d.message)),
    );
  });

  it('NaN and Infinity spellings: each gets a diagnostic on its own value', () => {
    for (const v of ['.nan', '.NaN', '.NAN', 'NaN', 'nan', '.inf', '.Inf', '-.inf', '+.INF', 'Infinity', '-Infinity', 'inf']) {
      for (const [from, key] of [
        ['size: 500GiB', 'size'],
        ['read_ratio: 0.7', 'read_ratio'],
        ['queue_depth: 32', 'queue_depth'],
        ['iops: 12000', 'iops'],
      ]) {
        const text = EXAMPLE.replace(from, `${key}: ${v}`);
        const a = checkText(text);
        const at = text.indexOf(`${key}: ${v}`) + key.length + 2;
        assert.ok(
          a.diagnostics.some((d) => d.severity === 'error' && d.span.start === at),
          `${key}: ${v} → ${JSON.stringify(a.diagnostics.map((d) => [d.code, d.span.start]))}`,
        );
      }
    }
  });

  it('150,000 duplicate keys: analysed, the findings capped (more than a function call takes as arguments)', () => {
    const a = analyze(duplicateKeys(150000));
    const dup = a.diagnostics.filter((d) => d.code === 'yaml-duplicate-key');
    assert.equal(dup.length, FINDINGS_PER_CODE);
    assert.ok(a.diagnostics.some((d) => d.code === 'more-findings' && /yaml-duplicate-key/.test(d.message)));
  });

  it('a VM of 400 disks whose workloads miss their targets: its searches stop at their bound, and the findings past it say so', () => {
    const before = evaluationWork();
    const a = analyze(manyDisks(400, true));
    const work = evaluationWork() - before;
    const missed = a.diagnostics.filter((d) => d.code === 'target-unreachable');
    const unsearched = missed.filter((d) => /not searched for a fix/.test(d.message));
    // Searched until the bound, then not: one search begun under it may finish past it (a VM evaluation is 400 disks).
    assert.ok(missed.length > unsearched.length && unsearched.length > 0, `${missed.length} missed, ${unsearched.length} not searched`);
    assert.ok(unsearched.every((d) => !d.fixes?.length));
    // What the analysis evaluated: the VM itself, and searches that stopped within one search of the bound.
    assert.ok(work < 2 * ADVICE_WORK, `${work} disks evaluated`);
  });

  describe('through the language server', () => {
    let client: LspClient;
    const B = 'file:///hostile/b.perf.yaml';
    beforeEach(async () => {
      client = new LspClient({ pull: false, timeoutMs: 30000 });
      await client.initialize();
      client.open(B, EXAMPLE, 1);
      await client.pushedDiagnostics(B, 1);
    });
    afterEach(async () => {
      await client.stop();
    });

    it('a 100,000-line file with 9,000 VMs: every VM analysed, and hovers on another document answered meanwhile', async function () {
      this.timeout(120000);
      // A pull client: its diagnostic request starts the analysis at once (no debounce), and is answered when
      // the analysis ends. Hovers on B asked one after another until then are answered between the analysis's
      // slices, one or more per slice (hundreds here); an analysis that held the server would let through at
      // most the one read before it began.
      const puller = new LspClient({ pull: true, timeoutMs: 60000 });
      try {
        await puller.initialize();
        puller.open(B, EXAMPLE, 1);
        await puller.pullDiagnostics(B);
        const A = 'file:///hostile/many-vms.perf.yaml';
        // Every VM its own: none shares another's evaluation or findings, so the analysis is as long as it gets.
        puller.open(A, manyVms(9000, true), 1);
        let pulled: Awaited<ReturnType<LspClient['pullDiagnostics']>> | undefined;
        const pulling = puller.pullDiagnostics(A).then((d) => (pulled = d));
        let answeredMeanwhile = 0;
        while (!pulled) {
          const h = await puller.hover(B, { line: 13, character: 15 });
          assert.match(h!.contents.value, /Disk data/);
          if (!pulled) answeredMeanwhile++;
        }
        await pulling;
        assert.ok(answeredMeanwhile >= 10, `${answeredMeanwhile} hovers answered during the analysis`);
        // One capped disk per VM: the last VM's too (the first 100 listed, the other 8,900 counted, at the last).
        assert.equal(pulled.filter((d) => d.code === 'capped-by-vcpu').length, FINDINGS_PER_CODE);
        const more = pulled.filter((d) => d.code === 'more-findings');
        assert.equal(more.length, 1);
        assert.match(String(more[0].message), /^8,900 more capped-by-vcpu findings/);
        assert.ok(more[0].range.start.line > manyVms(9000, true).split('\n').indexOf('  - name: vm8999'), 'at the last VM');
        // And once analysed, the server answers again.
        assert.match((await puller.hover(B, { line: 13, character: 15 }))!.contents.value, /Disk data/);
      } finally {
        await puller.stop();
      }
    });

    it('an alias bomb of 250 VMs × 40 workloads: one yaml-alias-limit on the anchor, and hovers elsewhere answered', async () => {
      const A = 'file:///hostile/alias-bomb.perf.yaml';
      const text = aliasedWorkloads(250, 40);
      client.open(A, text, 1);
      const during = await client.hover(B, { line: 13, character: 15 });
      assert.match(during!.contents.value, /Disk data/);
      const diagnostics = await client.pushedDiagnostics(A, 1);
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ['yaml-alias-limit'],
      );
      const anchorLine = text.split('\n').findIndex((l) => l.endsWith('&w'));
      assert.equal(diagnostics[0].range.start.line, anchorLine);
      const after = await client.hover(B, { line: 13, character: 15 });
      assert.match(after!.contents.value, /Disk data/);
    });

    it('a 10 MB line: a hover on another document is answered, and the document analysed', async () => {
      const A = 'file:///hostile/long-line.perf.yaml';
      client.open(A, `# ${'x'.repeat(10 * 1024 * 1024)}\n${EXAMPLE}`, 1);
      assert.match((await client.hover(B, { line: 13, character: 15 }))!.contents.value, /Disk data/);
      assert.ok((await client.pushedDiagnostics(A, 1)).some((d) => d.code === 'capped-by-vcpu'));
    });
  });
});
