/** fio measurements (core/src/checks/fio.ts): results imported from fio set against the prediction. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  analyze,
  compareResults,
  comparisonDiagnostics,
  DIAGNOSTIC_CODES,
  filesForResult,
  generateFioJobs,
  parseFioOutput,
  parseFioResult,
} from '../../core/src';

const ROOT = resolve(__dirname, '../../..');

describe('checks: fio', () => {
  it('fio-measurement on the name of the measured workload or disk, one per matched job', () => {
    const text = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8');
    const a = analyze(text);
    const measurements = parseFioResult(parseFioOutput(readFileSync(join(ROOT, 'test/fixtures/fio/mixed-randrw.json'), 'utf8')));
    const comparisons = compareResults(filesForResult(generateFioJobs(a, { vm: 'db' }), measurements), measurements);
    const ds = comparisonDiagnostics(a, 'db', comparisons);
    assert.ok(ds.length > 0);
    const names = new Set([...a.spec!.vms[0].workloads.map((w) => w.name), ...a.spec!.vms[0].disks.map((d) => d.name)]);
    for (const d of ds) {
      assert.equal(d.code, 'fio-measurement');
      assert.ok(DIAGNOSTIC_CODES[d.code]);
      assert.ok(names.has(text.slice(d.span.start, d.span.end)), text.slice(d.span.start, d.span.end));
      assert.match(d.message, /^fio /);
    }
  });
});
