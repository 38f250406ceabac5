/** What the tests of each check module share: a base spec and assertions on a finding's code and range. */
import * as assert from 'node:assert/strict';
import { analyze, DIAGNOSTIC_CODES, type Analysis } from '../../core/src';

export const BASE = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
    machine_type: n2-standard-8
    disks:
      - name: data
        type: pd-ssd
        size: 500GiB
`;

export function find(a: Analysis, code: string) {
  const d = a.diagnostics.find((x) => x.code === code);
  assert.ok(d, `expected ${code}; got ${a.diagnostics.map((x) => `${x.code}: ${x.message}`).join(' | ') || 'nothing'}`);
  return d;
}
/** Asserts that `code` is reported on exactly `covered` (the text under its range). */
export function expectAt(text: string, code: string, covered: string) {
  const a = analyze(text);
  const d = find(a, code);
  assert.equal(text.slice(d.span.start, d.span.end), covered, `${code} range`);
  assert.ok(DIAGNOSTIC_CODES[code], `${code} registered`);
  return d;
}

/** BASE with one workload on `data`, plus `extra` lines of it. */
export const WL = (extra: string) =>
  BASE + `    workloads:\n      - name: w\n        disk: data\n        block_size: 8KiB\n        read_ratio: 0.7\n${extra}`;
