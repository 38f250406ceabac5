/**
 * Findings past the file's cap (core/src/finding-cap.ts) are counted, not listed, and where the cap can be applied
 * while the VMs are checked, the checks skip what only a listed finding needs (target-unreachable's advice).
 * What a file lists must not change for it: the same findings, messages, fixes and more-findings as an analysis
 * that applies the cap only at its end. A comment with an asterisk at the end of the text (text that might be an
 * alias) is what makes the analysis keep every finding to the end; it changes no finding and no offset.
 */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { distinctFleet, FLEET_EDITIONS } from '../../bench/fleet';

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
});
