/** Instance store (core/src/checks/instance-store.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, CatalogRegistry, fileReport, generateFioJobs, hover } from '../../core/src';
import { expectAt } from './helpers';

const spec = (machine: string, workloads = '') => `version: 1
provider: aws
vms:
  - name: db
    machine_type: ${machine}
    disks:
      - name: root
        type: gp3
        size: 50GiB
      - name: scratch
        type: instance-store
${workloads}`;
const OLTP = `    workloads:
      - name: oltp
        disk: scratch
        pattern: random
        block_size: 4KiB
        read_ratio: 0.7
`;

describe('checks: instance-store', () => {
  it("instance-store-unmodelled: the IOPS AWS documents for the instance's volumes, on the disk's type", () => {
    // AWS's instance store table: i4i.xlarge, 1 x 937 GB NVMe SSD, 100,000 / 55,000 random IOPS at 4 KiB.
    const d = expectAt(spec('i4i.xlarge', OLTP), 'instance-store-unmodelled', 'instance-store');
    assert.equal(d.severity, 'information');
    assert.match(
      d.message,
      /^i4i\.xlarge's instance store: 1 × 937 GB NVMe SSD, 100,000 random read and 55,000 random write IOPS at 4 KiB, all volumes together \(aws-2025: Instance store specifications, 2024\)\. AWS gives no throughput for it: this disk has no figures and workload 'oltp' is not evaluated/,
    );
    // i3.16xlarge: 8 x 1,900 GB, 3,300,000 / 1,440,000.
    assert.match(
      expectAt(spec('i3.16xlarge'), 'instance-store-unmodelled', 'instance-store').message,
      /8 × 1,900 GB NVMe SSD, 3,300,000 random read and 1,440,000 random write IOPS/,
    );
    // i4i.24xlarge, a size only the 2024 guide lists: 6 x 3,750 GB, 2,400,000 / 1,320,000.
    assert.match(
      expectAt(spec('i4i.24xlarge'), 'instance-store-unmodelled', 'instance-store').message,
      /6 × 3,750 GB NVMe SSD, 2,400,000 random read and 1,320,000 random write IOPS/,
    );
  });

  it('no figure is made up: the disk and its workloads are left out, the EBS volume keeps its figures', () => {
    const a = analyze(spec('i4i.xlarge', OLTP));
    const vm = a.vms[0];
    assert.deepEqual(
      vm.disks.map((d) => d.spec.name),
      ['root'],
    );
    assert.deepEqual(vm.workloads, []);
    assert.deepEqual(
      a.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code),
      [],
    );
  });

  it('the report lists the instance store like every disk: no figures, no price of its own; the hover says what AWS documents', () => {
    const text = spec('i4i.xlarge', OLTP);
    const a = analyze(text);
    const vm = fileReport('x.perf.yaml', a).vms[0];
    const scratch = vm.disks.find((d) => d.name === 'scratch')!;
    // 1 x 937 GB: 937 x 10^9 / 2^30 GiB.
    assert.equal(scratch.size_gib, 872.65);
    assert.deepEqual([scratch.read_iops, scratch.write_iops, scratch.read_mibps, scratch.write_mibps], [null, null, null, null]);
    assert.equal(scratch.monthly_cost, 0);
    assert.equal(scratch.monthly_cost_complete, true);
    assert.match(scratch.cost_explanation, /^part of i4i\.xlarge's price: its instance store, 1 × 937 GB NVMe SSD \(aws-2025: /);
    // The disks' part of the VM's price is the EBS root volume's alone (50 GiB of gp3 at $0.08).
    assert.equal(vm.disks_monthly_cost, 4);
    assert.equal(vm.workloads[0].read_iops, null);
    const h = hover(a, text.indexOf('instance-store'))!.markdown;
    assert.match(
      h,
      /the instance store of i4i\.xlarge: 1 × 937 GB NVMe SSD \(873 GiB\), 100,000 random read and 55,000 random write IOPS at 4 KiB/,
    );
    assert.match(h, /Price: part of i4i\.xlarge's\./);
    // A VM whose only disk is an instance store pays nothing for disks: known, not missing.
    const only = analyze(text.replace(/ {6}- name: root\n {8}type: gp3\n {8}size: 50GiB\n/, ''));
    assert.equal(fileReport('x.perf.yaml', only).vms[0].disks_monthly_cost, 0);
    // On an instance type without instance store (an error), its price is not known to be nothing.
    const none = fileReport(
      'x.perf.yaml',
      analyze(text.replace(/ {6}- name: root\n {8}type: gp3\n {8}size: 50GiB\n/, '').replace('i4i.xlarge', 'm6i.xlarge')),
    ).vms[0];
    assert.equal(none.disks_monthly_cost, null);
    assert.equal(none.disks[0].monthly_cost, null);
  });

  it('no-instance-store: an EBS-only instance type has none', () => {
    const d = expectAt(spec('m6i.xlarge'), 'no-instance-store', 'instance-store');
    assert.equal(d.severity, 'error');
    assert.match(d.message, /^m6i\.xlarge has no instance store in aws-2025; instance types with it: i3\.\*, i4i\.\*/);
  });

  it('editions without an instance store table keep instance-store an unknown disk type', () => {
    const text = spec('i4i.xlarge').replace('provider: aws', 'provider: gcp').replace('i4i.xlarge', 'n2-standard-8');
    assert.ok(analyze(text).diagnostics.some((x) => x.code === 'unknown-disk-type'));
  });
});

describe('instance store in a catalog whose table gives no block size', () => {
  // A catalog of one's own may leave out the block size its instance store IOPS are stated at.
  const aws = builtinRegistry.get('aws-2025')!;
  const { block_kib: _dropped, ...table } = aws.instance_store!;
  const registry = new CatalogRegistry([
    ...builtinRegistry.editions().map((e) => builtinRegistry.get(e)!),
    { ...aws, edition: 'aws-2025-no-block', instance_store: table },
  ]);
  const text = spec('i4i.xlarge').replace('provider: aws\n', 'provider: aws\ncatalog: aws-2025-no-block\n');

  it('says no block size rather than assume one: the finding, the hover, and no fio jobs made up', () => {
    const a = analyze(text, { registry });
    assert.match(
      a.diagnostics.find((d) => d.code === 'instance-store-unmodelled')!.message,
      /^i4i\.xlarge's instance store: 1 × 937 GB NVMe SSD, 100,000 random read and 55,000 random write IOPS, all volumes together \(aws-2025-no-block: /,
    );
    const h = hover(a, text.indexOf('instance-store'))!.markdown;
    assert.match(h, /55,000 random write IOPS, all volumes together\./);
    assert.doesNotMatch(h, /storage-perf fio/);
    assert.deepEqual(
      generateFioJobs(a).map((f) => f.disk),
      ['root'],
    );
    // With the block size, the same spec gets its instance store's probes.
    assert.deepEqual(
      generateFioJobs(analyze(text.replace('catalog: aws-2025-no-block\n', ''))).map((f) => f.disk),
      ['root', 'scratch'],
    );
  });
});
