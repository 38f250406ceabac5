/** Provisioned performance (core/src/checks/provisioning.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { expectAt } from './helpers';

/** An AWS instance with one gp3 volume and a sequential 1 MiB read workload wanting `target`. */
const GP3 = (disk: string, target = 'throughput: 400MiB/s') => `version: 1
provider: aws
vms:
  - name: etl
    machine_type: m6i.8xlarge
    disks:
      - name: data
        type: gp3
        size: 1TiB
${disk}    workloads:
      - name: scan
        disk: data
        pattern: sequential
        block_size: 1MiB
        read_ratio: 1
        target:
          ${target}
`;

describe('checks: provisioning', () => {
  it('throughput-at-baseline: gp3 left at its included 125 MiB/s under 1 MiB reads, fixed with the price of 400 MiB/s', () => {
    const d = expectAt(GP3(''), 'throughput-at-baseline', 'type');
    assert.match(d.message, /runs at the 125 MiB\/s gp3 includes, and 'scan' \(1,024 KiB blocks\) needs 400/);
    // us-east-1: (400 − 125) MiB/s × $0.04 = $11.00 a month.
    assert.deepEqual(
      d.fixes?.map((f) => [f.kind, f.title]),
      [['add-key', 'Provision 400 MiB/s (+$11.00/month)']],
    );
  });

  it('the fix stops at what the provisioned IOPS allow (0.25 MiB/s per IOPS), and says so', () => {
    const d = expectAt(GP3('', 'throughput: 1000MiB/s'), 'throughput-at-baseline', 'type');
    assert.match(d.message, /3,000 provisioned IOPS allow at most 750 MiB\/s/);
    assert.equal(d.fixes?.[0].title, 'Provision 750 MiB/s (+$25.00/month)');
  });

  it('nothing when throughput is provisioned, the target is met, or the blocks are small', () => {
    const none = (text: string) =>
      assert.equal(analyze(text).diagnostics.filter((x) => x.code === 'throughput-at-baseline').length, 0, text);
    none(GP3('        provisioned_throughput: 125MiB/s\n'));
    none(GP3('', 'throughput: 100MiB/s'));
    none(GP3('').replace('block_size: 1MiB', 'block_size: 4KiB').replace('throughput: 400MiB/s', 'iops: 2000'));
  });
});
