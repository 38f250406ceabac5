/**
 * What one file can cost: past FINDINGS_PER_CODE findings of one code, the rest are counted, not listed. The pass
 * that does it (../finding-cap.ts) runs over every other module's findings, last; this module declares its code.
 */
import type { CheckModule } from './types';

/** How many findings of one code one file lists. */
export const FINDINGS_PER_CODE = 100;

export const findingCap: CheckModule = {
  id: 'finding-cap',
  title: 'Findings past the cap',
  about: `What one file can cost: a file lists at most ${FINDINGS_PER_CODE} findings of one code.`,
  codes: {
    'more-findings': {
      severity: 'warning',
      summary: `More than ${FINDINGS_PER_CODE} findings of one code in one file: the first ${FINDINGS_PER_CODE} are listed, the rest counted.`,
      docs:
        `The first ${FINDINGS_PER_CODE} findings of the code, in the order of the text, are listed; this one, at the place of the last, ` +
        'says how many more there are and of which code. Its severity is the most severe of those it stands for, so that an ' +
        "error past the cap still counts as one (lint's exit code, SARIF levels). Fix the findings listed (often one " +
        'mistake repeated) and analyse the file again to see the rest. The cap is for what is shown: `storage-perf diff` ' +
        'compares every finding of both sides, those past the cap too, and never shows this one.',
    },
  },
};
