/** Network egress (core/src/checks/egress.ts): each code, with the exact text its range covers. */
import { BASE, expectAt } from './helpers';

describe('checks: egress', () => {
  it('capped-by-egress on other_egress', () => {
    const text = BASE.replace('machine_type: n2-standard-8', 'machine_type: n1-standard-1\n    other_egress: 2Gbps');
    expectAt(text, 'capped-by-egress', 'other_egress');
  });
});
