/**
 * Disk types given only as ranges (core/src/checks/figure-range.ts): aws-2025's Magnetic (`standard`), whose
 * figures AWS's volume types page gives as 40 - 200 IOPS and 40 - 90 MiB/s per volume
 * (https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html, "Previous generation volumes").
 */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { expectAt } from './helpers';

const aws = (type: string) =>
  'version: 1\nprovider: aws\nvms:\n  - name: db\n    machine_type: m6i.4xlarge\n    disks:\n' +
  `      - name: data\n        type: gp3\n        size: 100GiB\n      - name: old\n        type: ${type}\n        size: 8GiB\n`;

describe('checks: figure-range', () => {
  it('disk-figures-range: information on the type of a Magnetic disk, with the range, its bottom and the I/O charge', () => {
    const d = expectAt(aws('standard'), 'disk-figures-range', 'standard');
    assert.equal(d.severity, 'information');
    assert.equal(
      d.message,
      "disk 'old': Magnetic (standard) is given as a range 40–200 IOPS, 40–90 MiB/s: figures are its top; it may deliver 40 IOPS, 40 MiB/s; its I/O requests ($0.05 per million) are left out of its price",
    );
  });

  it('types with figures of their own (gp3, gp2) get none', () => {
    assert.deepEqual(
      analyze(aws('gp2')).diagnostics.filter((x) => x.code === 'disk-figures-range'),
      [],
    );
  });
});
