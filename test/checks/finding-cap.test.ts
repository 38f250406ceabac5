/** What one file can cost: at most FINDINGS_PER_CODE findings of one code, and more-findings for the rest. */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { FINDINGS_PER_CODE } from '../../core/src/checks/finding-cap';
import { duplicateKeys, unknownKeys } from '../robustness/hostile-inputs';

const count = (a: ReturnType<typeof analyze>, code: string) => a.diagnostics.filter((d) => d.code === code).length;

describe('finding cap (more-findings)', () => {
  it('a file of 250 unknown keys lists the first 100 in the order of the text, and one more-findings for the other 150', () => {
    const text = unknownKeys(250);
    const a = analyze(text);
    const listed = a.diagnostics.filter((d) => d.code === 'unknown-key');
    assert.equal(listed.length, FINDINGS_PER_CODE);
    assert.deepEqual(
      listed.map((d) => text.slice(d.span.start, d.span.end)),
      Array.from({ length: FINDINGS_PER_CODE }, (_, i) => `junk_key_${String(i).padStart(6, '0')}`),
    );
    const more = a.diagnostics.filter((d) => d.code === 'more-findings');
    assert.equal(more.length, 1);
    assert.match(more[0].message, /^150 more unknown-key findings up to here are not listed \(a file lists the first 100 of each code\)/);
    assert.ok(more[0].message.length <= 240, more[0].message);
    // At the place of the last one, with the severity of those it stands for: lint still exits with an error.
    assert.equal(text.slice(more[0].span.start, more[0].span.end), 'junk_key_000249');
    assert.equal(more[0].severity, 'error');
  });

  it('past the cap, information is counted without the advice to fix those listed (it is no fault); errors keep it', () => {
    const vms = Array.from(
      { length: 150 },
      (_, i) => `  - name: vm${i}\n    machine_type: n4-standard-2\n    disks: [{name: d, type: hyperdisk-balanced, size: ${100 + i}GiB}]`,
    );
    const a = analyze(`version: 1\nprovider: gcp\ncatalog: gcp-2024\nvms:\n${vms.join('\n')}\n`);
    const more = a.diagnostics.find((d) => d.code === 'more-findings' && /vm-limit-unknown/.test(d.message))!;
    assert.equal(more.severity, 'information');
    assert.equal(more.message, '50 more vm-limit-unknown findings up to here are not listed (a file lists the first 100 of each code)');
    const errors = analyze(unknownKeys(250)).diagnostics.find((d) => d.code === 'more-findings')!;
    assert.match(errors.message, /: fix those listed, and the rest will show$/);
  });

  it('up to the cap nothing changes: 100 unknown keys are 100 findings', () => {
    const a = analyze(unknownKeys(FINDINGS_PER_CODE));
    assert.equal(count(a, 'unknown-key'), FINDINGS_PER_CODE);
    assert.equal(count(a, 'more-findings'), 0);
  });

  it('each code is capped on its own: duplicate keys past the cap, beside the other codes of the file', () => {
    const a = analyze(duplicateKeys(300));
    // 300 names repeated in one VM and 300 top-level keys written twice: 600 duplicate keys, 300 unknown keys.
    assert.equal(count(a, 'yaml-duplicate-key'), FINDINGS_PER_CODE);
    assert.equal(count(a, 'unknown-key'), FINDINGS_PER_CODE);
    const more = a.diagnostics.filter((d) => d.code === 'more-findings').map((d) => d.message.split(' (')[0]);
    assert.deepEqual(more.sort(), [
      '200 more unknown-key findings up to here are not listed',
      '500 more yaml-duplicate-key findings up to here are not listed',
    ]);
  });

  it('a suppressed finding is not counted', () => {
    const text = '# storage-perf-disable unknown-key\n' + unknownKeys(250);
    const a = analyze(text);
    assert.equal(count(a, 'unknown-key'), 0);
    assert.equal(count(a, 'more-findings'), 0);
  });
});
