/** Disk settings (core/src/checks/disk-settings.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { BASE, expectAt } from './helpers';

describe('checks: disk-settings', () => {
  it('size-out-of-range: negative, zero and above the maximum', () => {
    expectAt(BASE.replace('500GiB', '-5GB'), 'bad-quantity', '-5GB');
    expectAt(BASE.replace('500GiB', '100TiB'), 'size-out-of-range', '100TiB');
    expectAt(BASE.replace('500GiB', '0'), 'size-out-of-range', '0');
  });
  it('missing-size with an add-key fix', () => {
    const d = expectAt(BASE.replace('        size: 500GiB\n', ''), 'missing-size', 'name');
    assert.equal(d.fixes?.[0].kind, 'add-key');
  });
  it('not-applicable', () => {
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        count: 2'), 'not-applicable', 'count');
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        provisioned_iops: 20000'), 'not-applicable', 'provisioned_iops');
  });
  it('provisioned-out-of-range', () => {
    expectAt(
      BASE.replace('type: pd-ssd', 'type: pd-extreme').replace('500GiB', '1000GiB\n        provisioned_iops: 500000'),
      'provisioned-out-of-range',
      '500000',
    );
  });
  it('allocation-unit (Yandex)', () => {
    const text =
      'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-ssd\n        size: 100GiB\n';
    expectAt(text, 'allocation-unit', '100GiB');
  });
  it('hdd-burst', () => {
    const text =
      'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-hdd\n        size: 256GiB\n';
    expectAt(text, 'hdd-burst', 'network-hdd');
  });
});
