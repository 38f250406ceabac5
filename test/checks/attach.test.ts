/** Attachability (core/src/checks/attach.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { BASE, expectAt } from './helpers';

describe('checks: attach', () => {
  it('disk-type-not-on-series on the type, naming the types the series takes', () => {
    const d = expectAt(BASE.replace('n2-standard-8', 'n4-standard-8'), 'disk-type-not-on-series', 'pd-ssd');
    assert.equal(d.message, 'n4 machines cannot attach pd-ssd; they take hyperdisk-balanced, hyperdisk-throughput');
  });
  it('local-ssd-count and local-ssd-vcpus', () => {
    const lssd = BASE.replace('type: pd-ssd\n        size: 500GiB', 'type: local-ssd\n        count: 9');
    const d = expectAt(lssd, 'local-ssd-count', '9');
    assert.equal(d.fixes?.[0].kind === 'set-value' && d.fixes[0].value, 8);
    expectAt(BASE.replace('type: pd-ssd\n        size: 500GiB', 'type: local-ssd\n        count: 4'), 'local-ssd-vcpus', 'machine_type');
  });
});
