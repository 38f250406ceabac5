/** What the tests of each check module share: a base spec and assertions on a finding's code and range. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, DIAGNOSTIC_CODES, EvaluationCache, fixEdits, type Analysis, type FixData } from '../../core/src';

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

/**
 * A spec of one VM `db` (its disk `data` written last before its workloads, which end the text) with a second VM,
 * `db2` on `machine`, whose disk is the first's text through a merge key: db2's findings on that text are not
 * memoised, so an analysis again with the same cache checks db2 again, on the evaluation the cache keeps.
 */
export function withReplica(text: string, machine: string): string {
  const vm = text.slice(text.indexOf('  - name: db\n'));
  const disk = /( {6}- name: data\n(?: {8}.*\n)*)/.exec(vm)![1];
  const copy = vm
    .replace('  - name: db\n', '  - name: db2\n')
    .replace(/machine_type: .*/, `machine_type: ${machine}`)
    .replace(disk, '      - <<: *data\n');
  return text.replace('      - name: data\n', '      - &data\n        name: data\n') + copy;
}

/** The findings of `code` (messages and fix titles) analysed twice with one cache: the same both times, or it throws. */
export function sameAgain(text: string, code: string): string[][] {
  const cache = new EvaluationCache();
  const said = (a: Analysis) =>
    a.diagnostics.filter((x) => x.code === code).map((x) => [x.message, ...(x.fixes ?? []).map((f) => f.title)]);
  const first = said(analyze(text, { cache }));
  assert.deepEqual(said(analyze(text, { cache })), first, `${code}, analysed again with the same cache`);
  return first;
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
