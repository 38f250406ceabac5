/** The faults the fuzzer and the hostile inputs found, each pinned by its smallest input. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, complete, fixEdits, fmt, fmtMoney, type Analysis } from '../../core/src';
import { checkText } from '../fuzz/pipeline';

/** Applies every fix of every diagnostic with `code` and returns the texts it produces. */
function fixed(text: string, code: string): string[] {
  const a = analyze(text);
  const out: string[] = [];
  for (const d of a.diagnostics.filter((x) => x.code === code)) {
    for (const f of d.fixes ?? []) {
      const edits = fixEdits(text, a.parsed.tree, f);
      if (edits.length) out.push(applyEdits(text, edits));
    }
  }
  return out;
}
const syntaxErrors = (a: Analysis) => a.diagnostics.filter((d) => d.code.startsWith('yaml-')).map((d) => d.message);

describe('regressions found by fuzzing', () => {
  it('numbers from 1e21 up print in exponent form, not "1e+,308"', () => {
    assert.equal(fmt(1e308), '1e+308');
    assert.equal(fmt(-2.5e25), '-2.5e+25');
    assert.equal(fmtMoney(1e300, 'USD'), '$1e+300');
    assert.equal(fmt(123456), '123,456');
  });

  it('completion in a document with lone CR line ends does not throw, and reads the right line', () => {
    const text = 'version: 1\rprovider: gcp\rvms:\r  - name: a\r    disks:\r      - name: d\r        type: \r';
    const items = complete(text, text.length - 1, analyze(text));
    assert.ok(
      items.some((i) => i.label === 'pd-ssd'),
      items.map((i) => i.label).join(),
    );
    assert.doesNotThrow(() => complete('a:\u2028b: x\n  c', 9));
  });

  it('removing an empty key from a flow mapping keeps its braces and commas', () => {
    for (const text of [
      '{ : 1, version: 1, provider: gcp, vms: []}\n',
      '{version: 1, : 8, provider: gcp, vms: []}\n',
      '{version: 1, provider: gcp, vms: [], : 8}\n',
    ]) {
      const out = fixed(text, 'unknown-key');
      assert.ok(out.length, text);
      for (const t of out) assert.deepEqual(syntaxErrors(analyze(t)), [], `${text} → ${t}`);
    }
  });

  it('a pair in a flow list without braces gets no brace-based fix', () => {
    const text =
      'version: 1\nprovider: gcp\nvms: [{name: a, machine_type: n2-standard-8, disks: [{name: d, type: pd-ssd, size: 10},: {name: e}]}]\n';
    for (const t of fixed(text, 'unknown-key')) assert.deepEqual(syntaxErrors(analyze(t)), [], t);
  });

  it('adding a key to a flow mapping with a trailing comma adds no second comma', () => {
    const text = 'version: 1\nprovider: gcp\nvms: [{name: a, machine_type: n2-standard-8, disks: [{name: e, type: pd-standard, }]}]\n';
    const out = fixed(text, 'missing-size');
    assert.equal(out.length, 1);
    assert.match(out[0], /type: pd-standard, +size: 500GiB\}/);
    assert.deepEqual(syntaxErrors(analyze(out[0])), []);
  });

  it('a fix never removes an anchor that an alias still uses', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - name: a\n    machine_type: n2-standard-8\n    bogus: &d\n      - name: d\n        type: pd-ssd\n        size: 10\n    disks: *d\n';
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'unknown-key')!;
    for (const f of d.fixes ?? []) assert.deepEqual(fixEdits(text, a.parsed.tree, f), [], f.title);
  });

  it('adding a key after a block scalar puts it in the right mapping', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - name: q\n    machine_type: n2-standard-2\n    disks:\n      - name: d\n        type: >-\n          pd-ssd\n    workloads: []\n';
    const out = fixed(text, 'missing-size');
    assert.equal(out.length, 1);
    assert.match(out[0], / {10}pd-ssd\n {8}size: 100GiB\n {4}workloads: \[\]/);
  });

  it('removing an empty key on its own line removes that line only', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - name: a\n    machine_type: n2-standard-8\n    disks:\n      - name: wal\n        : pd-balanced\n        type: pd-ssd\n        size: 100GiB\n';
    const out = fixed(text, 'unknown-key');
    assert.ok(out.includes(text.replace('        : pd-balanced\n', '')), out.join('\n---\n'));
  });

  it('removing the first key after "- &anchor" keeps the list item', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - name: a\n    machine_type: n2-standard-8\n    disks:\n      - &a bogus: 1\n        name: d\n        type: pd-ssd\n        size: 10\n';
    const out = fixed(text, 'unknown-key');
    assert.ok(out.length);
    for (const t of out) assert.deepEqual(syntaxErrors(analyze(t)), [], t);
  });

  it('a second, empty document is not flagged at offset -1 (an empty one holds nothing)', () => {
    const a = checkText('version: 1\n---\n---\nb: 2\n');
    const d = a.diagnostics.find((x) => x.code === 'yaml-multiple-documents')!;
    assert.equal(d.span.start, 'version: 1\n---\n---\n'.length);
    assert.ok(!checkText('version: 1\n---\n').diagnostics.some((x) => x.code === 'yaml-multiple-documents'));
  });

  it('a document that is only a tag gets a diagnostic inside the text', () => {
    const a = checkText('!\n');
    assert.ok(a.diagnostics.length && a.diagnostics.every((d) => d.span.start >= 0));
  });

  it('a syntax error at the end of a CRLF file is not placed between CR and LF', () => {
    const text = "'version: 1\r\nprovider: gcp\r\n";
    const d = checkText(text).diagnostics.find((x) => x.code === 'yaml-syntax')!;
    assert.ok(text[d.span.start] !== '\n');
  });

  it('an alias inside its own anchor is an error, not endless recursion', () => {
    const a = checkText('a: &x\n  - b: *x\n');
    assert.ok(a.diagnostics.some((d) => d.code === 'yaml-syntax' && /circular/.test(d.message)));
  });

  it('two disks with one name: no overprovisioned advice priced from the other disk ("$NaN")', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - name: a\n    machine_type: n2-standard-8\n    disks:\n      - name: b\n        type: pd-standard\n        size: 500GiB\n      - name: b\n        type: hyperdisk-ml\n        size: 500GiB\n    workloads:\n      - name: w\n        disk: b\n        block_size: 4k\n        read_ratio: 0\n        target:\n          write_iops: 0\n';
    const a = checkText(text);
    assert.ok(a.diagnostics.some((d) => d.code === 'duplicate-name'));
    assert.ok(!a.diagnostics.some((d) => /NaN/.test(d.message)), JSON.stringify(a.diagnostics.map((d) => d.message)));
  });

  it('.nan and .inf in numeric fields are reported, not silently dropped', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - name: a\n    machine_type: n2-standard-8\n    disks:\n      - {name: d, type: pd-ssd, size: 100}\n    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 0.5\n        target: {iops: .inf}\n';
    const d = checkText(text).diagnostics.find((x) => x.code === 'out-of-range')!;
    assert.equal(d.message, 'iops must be a finite number');
    assert.equal(text.slice(d.span.start, d.span.end), '.inf');
  });

  it('a 10 MB value is shortened in messages that quote it', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const a = analyze(`version: 1\nprovider: gcp\nregion: ${big}\nvms: []\n`);
    const d = a.diagnostics.find((x) => x.code === 'unknown-region')!;
    assert.ok(d.message.length < 500, `${d.message.length}`);
    // Words are shortened to their first 100 and last 10 characters, the quotes included.
    assert.match(d.message, /region 'x{99}…x{9}'/);
  });

  it('a tab after a comma in a flow mapping or list is YAML 1.2 separation, not a syntax error; in quotes it stays a tab', () => {
    const text =
      'version: 1\nprovider: gcp\nvms:\n  - {name: a,\tmachine_type: n2-standard-8, disks: [{name: d,\ttype: pd-ssd, size: 10}]}\n';
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.code.startsWith('yaml-')).map((d) => d.message),
      [],
    );
    assert.equal(a.vms[0].disks[0].spec.type, 'pd-ssd');
    const quoted = analyze('x: {a: "p,\tq",\tb: [1,\t2]}\n');
    assert.deepEqual(quoted.parsed.tree.value, { x: { a: 'p,\tq', b: [1, 2] } });
    // Characters outside the BMP before the tab (found by fuzzing): the tab is the one replaced, nothing else.
    const astral = analyze('x: [{\u{10000}n: s, r:\t0, q: 1}]\n');
    assert.deepEqual(astral.parsed.tree.value, { x: [{ '\u{10000}n': 's', r: 0, q: 1 }] });
    // Offsets are the text's own: a finding on the machine type covers exactly it.
    const bad = analyze(text.replace('n2-standard-8', 'n2-standard-7'));
    const d = bad.diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(text.replace('n2-standard-8', 'n2-standard-7').slice(d.span.start, d.span.end), 'n2-standard-7');
  });

  it('an empty key in a block mapping gets no removal that would join its line to the one before', () => {
    // Found by fuzzing: removing the unknown empty key of '    : ' joined '- name: b' and 'disks: []'.
    const text = 'vms:\n  - name: b\n    : \n    disks: []\n';
    const a = analyze(text);
    for (const d of a.diagnostics)
      for (const f of d.fixes ?? []) {
        const after = applyEdits(text, fixEdits(text, a.parsed.tree, f));
        assert.ok(!analyze(after).diagnostics.some((x) => x.code.startsWith('yaml-')), `${f.title}:\n${after}`);
      }
  });
});
