/**
 * AWS (aws-2023): the EBS limits as the last archived user guide gives them (2023-05-11), tested with that
 * guide's own worked examples, beside aws-2025 where AWS has since raised them.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, hover, type Catalog } from '../../core/src';
import { diskOf, errors, specText, type DiskInput } from '../helpers';

const on = (catalog: string, disks: DiskInput[], machine = 'm6i.8xlarge') =>
  analyze(specText({ provider: 'aws', catalog, machine, disks }));
const figures = (catalog: string, disks: DiskInput[], machine?: string) => {
  const d = diskOf(on(catalog, disks, machine));
  return [d.figures.read_iops, d.figures.read_mibps];
};
const codes = (catalog: string, disks: DiskInput[], machine?: string) => on(catalog, disks, machine).diagnostics.map((d) => d.code);

describe('aws-2023', () => {
  const c = builtinRegistry.get('aws-2023') as Catalog;

  it('is an edition of its own: aws-2025 stays the default for provider aws', () => {
    assert.equal(c.provider, 'aws');
    assert.equal(c.as_of, '2023-05-11');
    assert.equal(
      analyze(specText({ provider: 'aws', machine: 'm6i.xlarge', disks: [{ type: 'gp3', size: 100 }] })).catalog?.edition,
      'aws-2025',
    );
  });

  it('gp3: up to 16,000 IOPS at 500 per GiB, the maximum from 32 GiB (the guide: 500 × 32 GiB = 16,000)', () => {
    assert.deepEqual(figures('aws-2023', [{ type: 'gp3', size: 32, provisioned_iops: 16000 }]), [16000, 125]);
    assert.deepEqual(codes('aws-2023', [{ type: 'gp3', size: 100, provisioned_iops: 16001 }]), ['provisioned-out-of-range']);
    // aws-2025 takes what AWS later allowed (80,000).
    assert.deepEqual(errors(on('aws-2025', [{ type: 'gp3', size: 200, provisioned_iops: 20000 }])), []);
  });

  it('gp3: up to 1,000 MiB/s at 0.25 MiB/s per IOPS (the guide: 4,000 IOPS × 0.25 = 1,000 MiB/s)', () => {
    assert.deepEqual(
      figures('aws-2023', [{ type: 'gp3', size: 8, provisioned_iops: 4000, provisioned_throughput: '1000MiB/s' }]),
      [4000, 1000],
    );
    assert.deepEqual(codes('aws-2023', [{ type: 'gp3', size: 100, provisioned_iops: 8000, provisioned_throughput: '1001MiB/s' }]), [
      'provisioned-out-of-range',
    ]);
  });

  it('gp3: 1 GiB to 16 TiB', () => {
    assert.deepEqual(codes('aws-2023', [{ type: 'gp3', size: '16TiB' }]), []);
    assert.deepEqual(codes('aws-2023', [{ type: 'gp3', size: '17TiB' }]), ['size-out-of-range']);
  });

  it('io2 (other than on Block Express): 500 IOPS per GiB (the guide: a 100 GiB io2 takes up to 50,000 IOPS)', () => {
    // On m6i.32xlarge, whose own EBS limit (160,000 IOPS) caps none of these.
    const m = 'm6i.32xlarge';
    assert.deepEqual(codes('aws-2023', [{ type: 'io2', size: 100, provisioned_iops: 50000 }], m), []);
    assert.deepEqual(codes('aws-2023', [{ type: 'io2', size: 100, provisioned_iops: 50001 }], m), ['provisioned-out-of-range']);
    // 64,000 from 128 GiB (500 × 128), and never above: 4 GiB to 16 TiB.
    assert.deepEqual(codes('aws-2023', [{ type: 'io2', size: 128, provisioned_iops: 64000 }], m), []);
    assert.deepEqual(codes('aws-2023', [{ type: 'io2', size: 1000, provisioned_iops: 64001 }], m), ['provisioned-out-of-range']);
    assert.deepEqual(codes('aws-2023', [{ type: 'io2', size: '17TiB', provisioned_iops: 1000 }], m), ['size-out-of-range']);
  });

  it("io2 throughput as io1's: 256 KiB I/Os up to 500 MiB/s at 32,000 IOPS, then 16 KiB per IOPS (the guide: 48,000 IOPS give 750 MiB/s)", () => {
    // On a machine whose own EBS limit is above these (m6i.32xlarge: 40,000 Mbps, 160,000 IOPS).
    const m = 'm6i.32xlarge';
    assert.deepEqual(figures('aws-2023', [{ type: 'io2', size: 200, provisioned_iops: 2000 }], m), [2000, 500]);
    assert.deepEqual(figures('aws-2023', [{ type: 'io2', size: 200, provisioned_iops: 48000 }], m), [48000, 750]);
    assert.deepEqual(figures('aws-2023', [{ type: 'io2', size: 200, provisioned_iops: 64000 }], m), [64000, 1000]);
    // aws-2025's io2 is Block Express everywhere: 0.256 MiB/s per IOPS, up to 4,000.
    assert.deepEqual(figures('aws-2025', [{ type: 'io2', size: 200, provisioned_iops: 2000 }], m), [2000, 512]);
  });

  it('io2 on the families that ran it on Block Express has no figures in this edition (checks/unmodelled)', () => {
    assert.deepEqual(c.disk_types.io2.unmodelled_on?.series, ['c7g', 'm7g', 'r5b']);
    assert.deepEqual(codes('aws-2023', [{ type: 'io2', size: 500, provisioned_iops: 100000 }], 'r5b.4xlarge'), ['disk-unmodelled']);
    // The disk's hover says why, where, and what it costs (the IOPS asked for, in AWS's tiers).
    const text = specText({
      provider: 'aws',
      catalog: 'aws-2023',
      machine: 'r5b.4xlarge',
      disks: [{ name: 'data', type: 'io2', size: 500, provisioned_iops: 100000 }],
    });
    const h = hover(analyze(text), text.indexOf('type: io2') + 7)!.markdown;
    assert.match(h, /^\*\*disk data\*\* — io2 on r5b\.4xlarge: no figures in aws-2023\. io2 on C7g, M7g and R5b ran on EBS Block Express/);
    assert.match(h, /Provisioned IOPS SSD volumes .*, 2023-05-11\)/);
    assert.match(
      h,
      /Price: \$4,745\.10\/month — 500 GiB × \$0\.125 \+ 32,000 IOPS × \$0\.065 \+ 32,000 IOPS above 32,000 × \$0\.0455 \+ 36,000 IOPS above 64,000 × \$0\.03185/,
    );
  });

  it('has only the instance families of its guide: M7i, C7i and R7i came later, and have no figures in it', () => {
    for (const s of ['m7i', 'c7i', 'r7i']) assert.equal(c.machine_series[s], undefined, s);
    // A real type the edition lacks is said so, as a warning: not an error, as if the name were wrong.
    assert.deepEqual(codes('aws-2023', [{ type: 'gp3', size: 100 }], 'm7i.xlarge'), ['unmodelled-machine-type']);
  });
});
