/**
 * The finding cap applied as findings come (core/src/finding-cap.ts, `FindingCap.prune`) gives what the cap over
 * all of them at the end gives: the same findings in the same order, the same more-findings (count, severity,
 * place, order); and a finding it says is past the cap before it arrives (`listed`) is never listed. Checked
 * against a model of the cap written as plainly as it can be.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FindingCap } from '../../core/src/finding-cap';
import type { Diagnostic, Severity } from '../../core/src/diagnostics';

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** The model: per code, the first `perCode` in the order of the text (a stable sort) stay; the rest are summed up. */
function model(found: Diagnostic[], perCode: number) {
  const codes = [...new Set(found.map((d) => d.code))];
  const dropped = new Set<Diagnostic>();
  const summaries: Array<{ code: string; count: number; severity: Severity; span: Diagnostic['span'] }> = [];
  for (const code of codes) {
    const all = found.filter((d) => d.code === code);
    if (all.length <= perCode) continue;
    const rest = [...all].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end).slice(perCode);
    rest.forEach((d) => dropped.add(d));
    const severity = rest.reduce<Severity>((s, d) => (RANK[d.severity] < RANK[s] ? d.severity : s), 'hint');
    summaries.push({ code, count: rest.length, severity, span: rest[rest.length - 1].span });
  }
  return { kept: found.filter((d) => !dropped.has(d)), summaries };
}

const finding = fc.record({
  code: fc.constantFrom('a', 'b', 'c'),
  start: fc.integer({ min: 0, max: 40 }),
  length: fc.integer({ min: 0, max: 3 }),
  severity: fc.constantFrom<Severity>('error', 'warning', 'information', 'hint'),
});

describe('finding cap applied as findings come', () => {
  it('gives what the cap over every finding gives, wherever it prunes', () => {
    fc.assert(
      fc.property(
        fc.array(finding, { maxLength: 120 }),
        fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 12 }),
        (specs, prunes, perCode) => {
          const all: Diagnostic[] = specs.map((f, i) => ({
            code: f.code,
            severity: f.severity,
            message: `finding ${i}`,
            span: { start: f.start, end: f.start + f.length },
          }));
          // Findings arrive in batches; the cap prunes what it holds after each batch named by `prunes`.
          const cap = new FindingCap(perCode);
          const held: Diagnostic[] = [];
          const at = new Set(prunes);
          // What the cap says is past it before each finding arrives: a check skips its advice on that word.
          const unlisted = new Set<Diagnostic>();
          all.forEach((d, i) => {
            if (!cap.listed(d.code, d.span)) unlisted.add(d);
            held.push(d);
            if (at.has(i)) cap.prune(held);
          });
          const got = cap.finish(held);
          const want = model(all, perCode);
          const listed = got.filter((d) => d.code !== 'more-findings');
          assert.deepEqual(listed, want.kept);
          const more = got.filter((d) => d.code === 'more-findings');
          assert.deepEqual(
            more.map((d) => ({
              count: Number(d.message.split(' ')[0]),
              code: d.message.split(' ')[2],
              severity: d.severity,
              span: d.span,
            })),
            want.summaries.map(({ code, count, severity, span }) => ({ count, code, severity, span })),
          );
          // A finding said to be past the cap is never listed.
          for (const d of listed) assert.ok(!unlisted.has(d), `${d.message} was said to be past the cap, and is listed`);
          // The more-findings come after every finding listed.
          assert.deepEqual(got.slice(0, listed.length), listed);
        },
      ),
      { numRuns: 400, seed: 2626 },
    );
  });
});
