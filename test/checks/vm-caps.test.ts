/** Per-VM caps (core/src/checks/vm-caps.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { BASE, expectAt } from './helpers';

describe('checks: vm-caps', () => {
  it('capped-by-vcpu on the machine type, with a machine fix', () => {
    const d = expectAt(BASE, 'capped-by-vcpu', 'machine_type');
    assert.equal(d.fixes?.[0].kind === 'set-value' && d.fixes[0].value, 'n2-standard-16');
  });
  it('shared-baseline on the type', () => {
    const text = BASE + '      - name: more\n        type: pd-ssd\n        size: 100GiB\n';
    expectAt(text, 'shared-baseline', 'pd-ssd');
  });
  it('machine-limits-unknown for hyperdisk without per-VM tables', () => {
    const text = BASE.replace('n2-standard-8', 'c3-standard-8').replace('type: pd-ssd', 'type: hyperdisk-balanced');
    expectAt(text, 'machine-limits-unknown', 'hyperdisk-balanced');
  });
});
