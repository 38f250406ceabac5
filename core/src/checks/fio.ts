/**
 * fio measurements: results of the generated fio jobs, imported into the editor, set against the model's
 * prediction. Raised by ../fio/compare.ts from a result file rather than from the spec alone.
 */
import type { CheckModule } from './types';

export const fio: CheckModule = {
  id: 'fio',
  title: 'fio measurements',
  about:
    'Results of the generated fio jobs (`storage-perf fio`), imported with the editor\'s "Import fio Results" command or `storage-perf compare`.',
  codes: {
    'fio-measurement': {
      severity: 'information',
      summary: "A fio measurement imported from a result file, set against the model's prediction.",
      docs: 'A warning when the measurement is outside the expected range of the prediction (above, below, or a failed job), with its likely cause.',
    },
  },
};
