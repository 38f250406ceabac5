/**
 * Suppression comments. The pass that applies them (../suppress.ts) runs over every other module's findings,
 * after them; this module declares what it reports.
 */
import type { CheckModule } from './types';

export const suppression: CheckModule = {
  id: 'suppression',
  title: 'Suppression comments',
  about:
    'Comments that silence findings (`# storage-perf-disable-next-line CODE -- reason`, `# storage-perf-disable CODE`): see "Suppressing a finding" above.',
  codes: {
    'unknown-suppression': {
      severity: 'warning',
      summary: 'A suppression comment names a diagnostic code that does not exist, or none.',
      docs: 'A typo never silently suppresses nothing: the code is reported on its own text, with a did-you-mean.',
    },
  },
};
