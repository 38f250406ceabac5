/**
 * Findings past the file's cap (core/src/finding-cap.ts) are counted, not listed, and where the cap can be applied
 * while the VMs are checked, the checks skip what only a listed finding needs (target-unreachable's advice).
 * What a file lists must not change for it: the same findings, messages, fixes and more-findings as an analysis
 * that applies the cap only at its end. A comment with an asterisk at the end of the text (text that might be an
 * alias) is what makes the analysis keep every finding to the end; it changes no finding and no offset.
 */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { evaluationWork } from '../../core/src/model/evaluate';
import { distinctFleet, FLEET_EDITIONS } from '../../bench/fleet';

/** `n` VMs whose machine caps their one disk (capped-by-vcpu each), no two alike: sizes from `base` GiB up. */
function cappedVms(n: number, base: number): string {
  const vms = Array.from(
    { length: n },
    (_, i) =>
      `  - name: vm${i}\n    machine_type: n2-standard-2\n    disks:\n      - name: data\n        type: pd-ssd\n        size: ${base + i}GiB\n`,
  );
  return `version: 1\nprovider: gcp\ncatalog: gcp-2024\nregion: us-central1\nvms:\n${vms.join('')}`;
}

/** The analysis of `text` and how many disks its evaluations and searches evaluated. */
function withWork(text: string): { diagnostics: ReturnType<typeof analyze>['diagnostics']; work: number } {
  const before = evaluationWork();
  const { diagnostics } = analyze(text);
  return { diagnostics, work: evaluationWork() - before };
}

describe('findings past the cap', () => {
  for (const edition of FLEET_EDITIONS)
    it(`${edition}: 300 distinct VMs list what they list when every finding is kept to the end`, () => {
      const text = distinctFleet(edition, 300, 17).text;
      const early = analyze(text).diagnostics;
      const late = analyze(`${text}# *\n`).diagnostics;
      const more = early.filter((d) => d.code === 'more-findings').map((d) => d.message);
      assert.ok(
        more.some((m) => m.includes(' more target-unreachable findings')),
        `the fleet has more missed targets than a file lists: ${more.join('; ')}`,
      );
      assert.deepEqual(early, late);
    });

  it('capped-by-vcpu past the cap: the machine that would lift the cap is not searched for, and the file lists the same', () => {
    // Each text of VMs no other analysis has seen (advice is memoised by a VM's content): 600 findings, the cap
    // applied while they come once 400 are in hand.
    const kept = withWork(`${cappedVms(600, 5000)}# *\n`);
    const early = withWork(cappedVms(600, 7000));
    const codes = (d: typeof early.diagnostics) => d.map((x) => x.code);
    assert.deepEqual(codes(early.diagnostics), [...Array<string>(100).fill('capped-by-vcpu'), 'more-findings']);
    assert.match(early.diagnostics[0].message, /; n2-standard-\d+ \(\d+ vCPUs\) lifts it$/);
    assert.ok(early.work < kept.work, `${early.work} disks evaluated with the cap applied as findings come, ${kept.work} without`);
    assert.deepEqual(early.diagnostics, analyze(`${cappedVms(600, 7000)}# *\n`).diagnostics);
  });
});
