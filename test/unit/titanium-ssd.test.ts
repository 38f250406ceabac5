/**
 * Titanium SSD: the local SSD of Z3, C4, C4A, C4D and H4D machine types. Each machine type comes with its own
 * devices (3,000 GiB on Z3 and on c4-*-288-lssd-metal, 6,000 GiB on z3-highmem-192-highlssd-metal, 375 GiB on the
 * others) whose figures Google gives per machine type in the Local SSD page's Titanium SSD table
 * (https://cloud.google.com/compute/docs/disks/local-ssd, 2026-04-14), not the 375 GiB NVMe device table. A machine
 * type whose devices are not the table's and whose figures Google does not give is refused as unmodelled.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport } from '../../core/src';

const spec = (machine: string, count: number) => `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: vm
    machine_type: ${machine}
    disks:
      - name: ssd
        type: local-ssd
        count: ${count}
        interface: nvme
`;
const report = (machine: string, count: number) => {
  const a = analyze(spec(machine, count));
  return { a, disk: fileReport('spec.perf.yaml', a).vms[0].disks[0] };
};
const figures = (d: ReturnType<typeof report>['disk']) => [d.size_gib, d.read_iops, d.write_iops, d.read_mibps, d.write_mibps];

describe('Titanium SSD: each machine type its own devices, with the figures Google gives for them', () => {
  it('z3-highmem-88-highlssd: 12 disks of 3,000 GiB, 36,000 GiB, 9,000,000 / 6,000,000 IOPS, 36,000 / 30,000 MiB/s', () => {
    const { a, disk } = report('z3-highmem-88-highlssd', 12);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.deepEqual(figures(disk), [36000, 9000000, 6000000, 36000, 30000]);
    assert.deepEqual(disk.limited_by, { read_iops: 'devices', write_iops: 'devices', read_mibps: 'devices', write_mibps: 'devices' });
    assert.match(
      disk.explanation!.read_iops,
      /^12 Titanium SSD disks of 3,000 GiB on z3-highmem-88-highlssd: 9,000,000 IOPS \(gcp-2024: Titanium SSD performance limits, Z3/,
    );
    // Z3's Titanium SSD at the general local SSD rate ($0.08 per GiB-month in us-central1): 36,000 GiB, not 4,500.
    assert.equal(disk.monthly_cost, 2880);
    assert.equal(disk.upper_bound, null);
  });

  it('c4-standard-288-lssd-metal: 6 disks of 3,000 GiB, 18,000 GiB at C4’s Titanium SSD rate', () => {
    const { disk } = report('c4-standard-288-lssd-metal', 6);
    assert.deepEqual(figures(disk), [18000, 7200000, 3600000, 30000, 15840]);
    // $0.16 per GiB-month in us-central1.
    assert.equal(disk.monthly_cost, 2880);
  });

  it('the 375 GiB Titanium SSD of C4, C4A, C4D and H4D has its own figures, not the NVMe table’s', () => {
    assert.deepEqual(figures(report('c4-standard-4-lssd', 1).disk), [375, 150000, 75000, 625, 330]);
    assert.deepEqual(figures(report('c4-highmem-288-lssd', 48).disk), [18000, 7200000, 3600000, 30000, 15840]);
    assert.deepEqual(figures(report('c4a-standard-32-lssd', 6).disk), [2250, 900000, 450000, 3900, 1980]);
    assert.deepEqual(figures(report('c4d-standard-64-lssd', 6).disk), [2250, 900000, 450000, 3750, 1980]);
    assert.deepEqual(figures(report('h4d-highmem-192-lssd', 10).disk), [3750, 1500000, 750000, 6250, 3300]);
    assert.deepEqual(figures(report('z3-highmem-192-highlssd-metal', 12).disk), [72000, 9000000, 6000000, 36000, 30000]);
    // Classic local SSD keeps the NVMe table (C3's -lssd types, N2).
    assert.deepEqual(figures(report('c3-standard-8-lssd', 2).disk), [750, 340000, 180000, 1320, 700]);
  });

  it('devices whose figures Google does not give (a4x-highgpu-4g: 4 × 3,000 GiB) are refused as unmodelled, priced, and said', () => {
    const { a, disk } = report('a4x-highgpu-4g', 4);
    assert.deepEqual([disk.read_iops, disk.limited_by], [null, null]);
    assert.equal(disk.size_gib, 12000);
    const said = a.diagnostics.find((d) => d.code === 'disk-unmodelled');
    assert.ok(said, a.diagnostics.map((d) => d.code).join(', '));
    assert.match(said.message, /a4x-highgpu-4g comes with 4 local SSD disks of 3,000 GiB, whose figures Google does not give/);
  });

  it('a count other than the machine type’s own is refused, as before', () => {
    const { a, disk } = report('z3-highmem-88-highlssd', 6);
    assert.ok(a.diagnostics.some((d) => d.code === 'local-ssd-count' && d.severity === 'error'));
    assert.deepEqual([disk.read_iops, disk.monthly_cost], [null, null]);
  });
});
