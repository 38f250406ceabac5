/** What the tests of each check module share: a base spec and assertions on a finding's code and range. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, DIAGNOSTIC_CODES, fixEdits, type Analysis, type FixData } from '../../core/src';

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

/** The text with one fix applied, as an editor applies it. */
export function applyFix(text: string, fix: FixData): string {
  return applyEdits(text, fixEdits(text, analyze(text).parsed.tree, fix));
}

/** The lines a fix took out and put in (in order): that it changed exactly the keys its title names, no other. */
export function lineChanges(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { removed: a.slice(head, a.length - tail), added: b.slice(head, b.length - tail) };
}
