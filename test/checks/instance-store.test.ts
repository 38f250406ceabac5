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
    // The finding is the fact and what to do; the volumes, the block size and the source are the hover's.
    const text = spec('i4i.xlarge', OLTP);
    const d = expectAt(text, 'instance-store-unmodelled', 'instance-store');
    assert.equal(d.severity, 'information');
    assert.equal(
      d.message,
      "i4i.xlarge's instance store: AWS gives 100,000 read and 55,000 write IOPS, no throughput; measure it with fio",
    );
    const onType = (t: string) => hover(analyze(t), t.indexOf('instance-store'))!.markdown;
    assert.match(
      onType(text),
      /i4i\.xlarge's instance store, 1 × 937 GB NVMe SSD: 100,000 random read IOPS at 4 KiB, all volumes together \(aws-2025: Instance store specifications/,
    );
    // i3.16xlarge: 8 x 1,900 GB, 3,300,000 / 1,440,000.
    assert.match(
      expectAt(spec('i3.16xlarge'), 'instance-store-unmodelled', 'instance-store').message,
      /AWS gives 3,300,000 read and 1,440,000 write IOPS/,
    );
    assert.match(onType(spec('i3.16xlarge')), /8 × 1,900 GB NVMe SSD/);
    // i4i.24xlarge, a size only the 2024 guide lists: 6 x 3,750 GB, 2,400,000 / 1,320,000.
    assert.match(
      expectAt(spec('i4i.24xlarge'), 'instance-store-unmodelled', 'instance-store').message,
      /AWS gives 2,400,000 read and 1,320,000 write IOPS/,
    );
    assert.match(onType(spec('i4i.24xlarge')), /6 × 3,750 GB NVMe SSD/);
    // Several workloads left out are counted, not named: the message stays short whatever their names.
    const big = OLTP.replace('block_size: 4KiB', 'block_size: 64KiB');
    const many = spec(
      'i4i.xlarge',
      big +
        big
          .replace('      - name: oltp', '      - name: a-second-workload-with-a-name-of-sixty-three-characters-at-most1')
          .replace('    workloads:\n', ''),
    );
    assert.match(
      expectAt(many, 'instance-store-unmodelled', 'instance-store').message,
      /; 2 workloads on it are not evaluated \(the report's explanations say why\); measure it with fio$/,
    );
  });

  it("AWS's IOPS are the disk's figures, so an IOPS target on it is judged; its throughput stays unknown", () => {
    // oltp: 4 KiB, 70 % reads, on i4i.xlarge's 100,000 read / 55,000 write IOPS, shared: 1 / (0.7/100,000 + 0.3/55,000).
    const text = spec('i4i.xlarge', OLTP + '        target:\n          iops: 90000\n');
    const a = analyze(text);
    const vm = a.vms[0];
    const scratch = vm.disks.find((d) => d.spec.name === 'scratch')!;
    assert.deepEqual([scratch.figures.read_iops, scratch.figures.write_iops], [100000, 55000]);
    assert.match(scratch.figures.why('read_iops'), /i4i\.xlarge's instance store, 1 × 937 GB NVMe SSD: 100,000 random read IOPS at 4 KiB/);
    assert.match(scratch.throughputUnknown!, /AWS gives no throughput for instance store/);
    const w = vm.workloads.find((x) => x.spec.name === 'oltp')!;
    const reach = 1 / (0.7 / 100000 + 0.3 / 55000);
    assert.equal(Math.round(w.read_iops + w.write_iops), Math.round(reach));
    assert.equal(w.meets_target, false);
    assert.ok(a.diagnostics.some((x) => x.code === 'target-unreachable'));
    // 80,000 is within reach: met, and no error.
    const met = analyze(spec('i4i.xlarge', OLTP + '        target:\n          iops: 80000\n'));
    assert.equal(met.vms[0].workloads[0].meets_target, true);
    assert.deepEqual(
      met.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code),
      [],
    );
    // The root volume keeps its own figures.
    assert.equal(vm.disks.find((d) => d.spec.name === 'root')!.figures.read_iops, 3000);
  });

  it('a workload needing what AWS does not state is left out, and the finding says why', () => {
    const wl = (name: string, block: string, target: string) =>
      `      - name: ${name}\n        disk: scratch\n        block_size: ${block}\n        read_ratio: 1\n        target:\n          ${target}\n`;
    const text = spec(
      'i4i.xlarge',
      '    workloads:\n' +
        wl('big', '64KiB', 'iops: 1000') +
        wl('scan', '4KiB', 'throughput: 100MiB/s') +
        '      - name: all\n        block_size: 4KiB\n        read_ratio: 1\n',
    );
    const a = analyze(text);
    assert.deepEqual(a.vms[0].workloads, []);
    // Three are counted in the finding (a message stays within 240 characters); the report says why for each.
    const m = a.diagnostics.find((x) => x.code === 'instance-store-unmodelled')!.message;
    assert.match(m, /; 3 workloads on it are not evaluated \(the report's explanations say why\)/);
    const why = Object.fromEntries(fileReport('x.perf.yaml', a).vms[0].workloads.map((w) => [w.name, w.explanation]));
    assert.match(why.big!, /AWS states instance store IOPS at 4 KiB only, and it uses larger blocks/);
    assert.match(why.scan!, /it has a throughput target, and AWS gives no throughput for instance store/);
    assert.match(why.all!, /it spreads over the instance store, which has no throughput figure, and other disks/);
  });

  it('the report lists the instance store like every disk: its IOPS, no throughput, no price of its own; the hover says what AWS documents', () => {
    const text = spec('i4i.xlarge', OLTP);
    const a = analyze(text);
    const vm = fileReport('x.perf.yaml', a).vms[0];
    const scratch = vm.disks.find((d) => d.name === 'scratch')!;
    // 1 x 937 GB: 937 x 10^9 / 2^30 GiB.
    assert.equal(scratch.size_gib, 872.65);
    assert.deepEqual([scratch.read_iops, scratch.write_iops, scratch.read_mibps, scratch.write_mibps], [100000, 55000, null, null]);
    assert.equal(scratch.explanation!.read_mibps, 'AWS gives no throughput for instance store: unknown');
    assert.equal(scratch.monthly_cost, 0);
    assert.equal(scratch.monthly_cost_complete, true);
    assert.match(scratch.cost_explanation, /^part of i4i\.xlarge's price: its instance store, 1 × 937 GB NVMe SSD \(aws-2025: /);
    // The disks' part of the VM's price is the EBS root volume's alone (50 GiB of gp3 at $0.08).
    assert.equal(vm.disks_monthly_cost, 4);
    // oltp (4 KiB, no throughput target) is evaluated on AWS's IOPS.
    assert.equal(vm.workloads[0].read_iops, Math.round(0.7 / (0.7 / 100000 + 0.3 / 55000)));
    const h = hover(a, text.indexOf('instance-store'))!.markdown;
    assert.match(h, /\| read IOPS +\| +100,000 IOPS \| devices/);
    assert.match(h, /\| read throughput +\| +unknown \|/);
    assert.match(h, /i4i\.xlarge's instance store, 1 × 937 GB NVMe SSD: 100,000 random read IOPS at 4 KiB, all volumes together/);
    assert.match(h, /\*\*No throughput\*\*: AWS gives none for instance store\./);
    assert.match(h, /part of i4i\.xlarge's price: its instance store/);
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

  it('no-instance-store: the message names a few families that have one and counts the others, within 240 characters', () => {
    const d = expectAt(spec('m7i-flex.large'), 'no-instance-store', 'instance-store');
    assert.match(
      d.message,
      /^m7i-flex\.large has no instance store in aws-2025; instance types with it: (\w+\.\*, ){5}\w+\.\* and \d+ more families$/,
    );
    assert.ok(d.message.length <= 240);
  });

  it('instance-store-unstated: an instance store AWS lists without IOPS (D3 HDD) has no figures, is priced with the instance, and its workloads are left out', () => {
    // AWS's instance types guide, Instance store specifications: d3.xlarge, 3 x 1980 GB HDD, no IOPS given.
    const text = spec('d3.xlarge', OLTP);
    const d = expectAt(text, 'instance-store-unstated', 'instance-store');
    assert.equal(d.severity, 'information');
    assert.match(
      d.message,
      /^d3\.xlarge's instance store \(3 × 1,980 GB [A-Za-z ]*HDD\): AWS states no IOPS for it, so it has no figures and workload 'oltp' is not evaluated; measure it with fio$/,
    );
    const a = analyze(text);
    assert.ok(!a.diagnostics.some((x) => x.code === 'no-instance-store'));
    const vm = fileReport('x.perf.yaml', a).vms[0];
    const scratch = vm.disks.find((x) => x.name === 'scratch')!;
    assert.equal(scratch.read_iops, null);
    assert.equal(scratch.monthly_cost, 0);
    assert.equal(vm.workloads.find((w) => w.name === 'oltp')?.read_iops ?? null, null);
    const onType = hover(a, text.indexOf('instance-store'))!.markdown;
    assert.match(onType, /the instance store of d3\.xlarge: 3 × 1,980 GB .*HDD .*AWS states no IOPS and no throughput for it/s);
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
      /^i4i\.xlarge's instance store: AWS gives 100,000 read and 55,000 write IOPS, no throughput/,
    );
    const h = hover(a, text.indexOf('instance-store'))!.markdown;
    assert.match(h, /55,000 random write IOPS, all volumes together \(/);
    assert.match(h, /does not say at what block size these IOPS hold: no workload on it is evaluated/);
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
