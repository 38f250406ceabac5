/** Document and schema (core/src/checks/document.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { BASE, expectAt } from './helpers';

describe('checks: document', () => {
  it('a clean spec has no errors', () => {
    assert.deepEqual(
      analyze(BASE).diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
  });
  it('yaml-syntax: one diagnostic at the error position', () => {
    const a = analyze('version: 1\nvms: [a, b\nprovider: gcp\n');
    assert.equal(a.diagnostics.length, 1);
    assert.equal(a.diagnostics[0].code, 'yaml-syntax');
    assert.ok(a.diagnostics[0].span.start > 10);
  });
  it('yaml-duplicate-key on the second key', () => {
    const text = BASE.replace('        size: 500GiB\n', '        size: 500GiB\n        size: 600GiB\n');
    const d = expectAt(text, 'yaml-duplicate-key', 'size');
    assert.equal(d.span.start, text.lastIndexOf('size:'));
  });
  it('yaml-alias-limit: a billion-laughs document is refused quickly', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const started = Date.now();
    const a = analyze(lines.join('\n') + '\n');
    assert.ok(a.diagnostics.some((d) => d.code === 'yaml-alias-limit'));
    assert.ok(Date.now() - started < 2000);
  });
  it('yaml-complex-key on the key that is a list', () => {
    expectAt(`${BASE}? [a]\n: 1\n`, 'yaml-complex-key', '[a]');
  });
  it('encoding: NUL characters are an error, replaced bytes a warning, each on the first such character', () => {
    assert.equal(expectAt(BASE.replace('db', 'd\u0000b'), 'encoding', '\u0000').severity, 'error');
    const bad = expectAt(BASE.replace('db', 'd\uFFFDb'), 'encoding', '\uFFFD');
    assert.equal(bad.severity, 'warning');
  });
  it('yaml-multiple-documents', () => {
    expectAt(BASE + '---\nversion: 1\n', 'yaml-multiple-documents', 'v');
  });
  it('empty-spec', () => {
    assert.equal(analyze('').diagnostics[0].code, 'empty-spec');
    assert.equal(analyze('# just a comment\n').diagnostics[0].code, 'empty-spec');
  });
  it('unknown-key on the key, with a rename fix for a near miss', () => {
    const d = expectAt(BASE.replace('        size: 500GiB', '        sise: 500GiB'), 'unknown-key', 'sise');
    assert.equal(d.fixes?.[0].kind, 'rename-key');
    const e = expectAt(BASE + '    colour: blue\n', 'unknown-key', 'colour');
    assert.equal(e.fixes?.[0].kind, 'remove-key');
  });
  it('missing-key on the key of the object that lacks it', () => {
    expectAt(BASE.replace('        type: pd-ssd\n', ''), 'missing-key', 'name');
  });
  it('missing-machine', () => {
    expectAt(BASE.replace('    machine_type: n2-standard-8\n', ''), 'missing-machine', 'name');
  });
  it('wrong-type', () => {
    expectAt(BASE.replace('name: db', 'name: [db]'), 'wrong-type', '[db]');
  });
  it('invalid-value for an enum', () => {
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        replication: everywhere'), 'invalid-value', 'everywhere');
  });
  it('unsupported-version', () => {
    expectAt(BASE.replace('version: 1', 'version: 2'), 'unsupported-version', '2');
  });
  it('bad-quantity on a bad unit', () => {
    const d = expectAt(BASE.replace('500GiB', '500 GiBs'), 'bad-quantity', '500 GiBs');
    assert.match(d.message, /GiB/);
  });
  it('out-of-range read_ratio', () => {
    const text = BASE + '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1.5\n';
    expectAt(text, 'out-of-range', '1.5');
  });
  it('duplicate-name', () => {
    const text = BASE + '      - name: data\n        type: pd-balanced\n        size: 100GiB\n';
    const d = expectAt(text, 'duplicate-name', 'data');
    assert.equal(d.span.start, text.lastIndexOf('data'));
  });
  it('unknown-disk-ref', () => {
    const text = BASE + '    workloads:\n      - name: w\n        disk: dta\n        block_size: 4k\n        read_ratio: 1\n';
    expectAt(text, 'unknown-disk-ref', 'dta');
  });
});
