/** Per-VM caps (core/src/checks/vm-caps.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, hover } from '../../core/src';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BASE, expectAt, find } from './helpers';

const ROOT = resolve(__dirname, '../../..');

const hd = (machine: string, disks: string) =>
  BASE.replace('n2-standard-8', machine).replace('      - name: data\n        type: pd-ssd\n        size: 500GiB\n', disks);
const hdb = (name: string, iops: number, type = 'hyperdisk-balanced') =>
  `      - name: ${name}\n        type: ${type}\n        size: 1000GiB\n        provisioned_iops: ${iops}\n        provisioned_throughput: 2400MiB/s\n`;

describe('checks: vm-caps', () => {
  it('capped-by-vcpu on the machine type, with a machine fix', () => {
    const d = expectAt(BASE, 'capped-by-vcpu', 'machine_type');
    assert.equal(d.fixes?.[0].kind === 'set-value' && d.fixes[0].value, 'n2-standard-16');
  });
  it('capped-by-vcpu names a per-instance limit by the instance, and several capped disks by name only', () => {
    // aws-2025: m6i.2xlarge's EBS limit (per instance type): 298 MiB/s. The example's volumes each fit under it
    // alone (250 and 80 MiB/s); together they could do 330, stated once, and their targets ask 138: no finding.
    const aws = readFileSync(join(ROOT, 'examples/aws-db.perf.yaml'), 'utf8');
    assert.ok(!analyze(aws).diagnostics.some((d) => d.code === 'capped-by-vcpu'));
    // Each volume over the limit alone: both named, the limit by the instance, not by its vCPUs.
    // (500 and 480 MiB/s alone: over m6i.2xlarge's 298, under m6i.4xlarge's 596.)
    const over = aws.replace('provisioned_throughput: 250MiB/s', 'provisioned_throughput: 500MiB/s').replace('size: 2TiB ', 'size: 12TiB ');
    const d = expectAt(over, 'capped-by-vcpu', 'machine_type');
    assert.equal(d.message, "m6i.2xlarge's per-instance limit caps 2 disks below their own figures: data, backup; m6i.4xlarge lifts it");
    assert.doesNotMatch(d.message, /vCPU/);
    // Google's N2 rows go by vCPU count: said so, with the one disk's figures.
    assert.equal(
      expectAt(BASE, 'capped-by-vcpu', 'machine_type').message,
      'n2-standard-8 (8 vCPUs) caps data at 15,000 IOPS read and write (its own: 21,000); n2-standard-16 (16 vCPUs) lifts it',
    );
  });
  it('capped-by-vcpu fires where the targets together exceed a shared limit, never for disks that alone fit under it', () => {
    const aws = readFileSync(join(ROOT, 'examples/aws-db.perf.yaml'), 'utf8');
    // oltp's 16 KiB at 9,000 IOPS asks 141 MiB/s of data and backup-stream 200 of backup: 341 of the 298 shared.
    const text = aws
      .replace('provisioned_iops: 6000', 'provisioned_iops: 9000')
      .replace('iops: 5000', 'iops: 9000')
      .replace('size: 2TiB ', 'size: 6TiB ')
      .replace('write_throughput: 60MiB/s', 'write_throughput: 200MiB/s');
    const a = analyze(text);
    assert.ok(
      a.vms[0].disks.every((d) => d.figures.by('read_mibps') !== 'vm'),
      'each volume alone fits under the limit',
    );
    const d = expectAt(text, 'capped-by-vcpu', 'machine_type');
    assert.equal(d.severity, 'warning');
    assert.match(
      d.message,
      /^m6i\.2xlarge's per-instance limit holds data and backup together ≤ 298 MiB\/s of reads and writes; their targets ask 3\d\d, more than it; m6i\.4xlarge lifts it$/,
    );
  });
  it('a machine given by series and vCPUs is named by them: its vCPU count is said once, in the finding and the hover', () => {
    const text =
      'version: 1\nprovider: yandex\nvms:\n  - name: app\n    series: standard-v3\n    vcpus: 2\n    disks:\n      - name: data\n        type: network-ssd-nonreplicated\n        size: 3720GiB\n' +
      '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1\n        target:\n          iops: 80000\n';
    const a = analyze(text);
    const said = [...a.diagnostics.map((d) => d.message), hover(a, text.indexOf('standard-v3'))!.markdown];
    assert.deepEqual(
      said.filter((m) => /vCPUs? \(\d+ vCPUs?\)|vCPUs has \d+ vCPUs|vCPUs, \d+ vCPUs/.test(m)),
      [],
    );
    assert.match(find(a, 'capped-by-vcpu').message, /^standard-v3 with 2 vCPUs caps data at .*; standard-v3 with 12 vCPUs lifts it$/);
    assert.match(find(a, 'cpu-insufficient').message, /; the VM has 2 vCPUs \(standard-v3\)$/);
  });
  it('capped-by-vcpu: a disk that alone fits the limit is not capped, however large the disk beside it', () => {
    // Found by the invariant suite when the limit was split among all disks: a 64 TiB pd-ssd beside a 10 GiB
    // pd-standard shared n2d's 1,200 MiB/s on every size, and no machine lifted the "cap". Alone, the pd-ssd's own
    // 1,200 MiB/s maximum fits the row; the two together are a shared limit, stated once.
    const text = hd(
      'n2d-highcpu-64',
      '      - name: big\n        type: pd-ssd\n        size: 64TiB\n      - name: small\n        type: pd-standard\n        size: 10GiB\n',
    );
    const a = analyze(text);
    assert.ok(!a.diagnostics.some((d) => d.code === 'capped-by-vcpu'));
    const limit = fileReport('x', a).vms[0].shared_limits.find((l) => l.metric === 'read_mibps')!;
    assert.deepEqual([limit.value, limit.disks], [1200, ['big', 'small']]);
  });
  it('shared-baseline on the type', () => {
    const text = BASE + '      - name: more\n        type: pd-ssd\n        size: 100GiB\n';
    expectAt(text, 'shared-baseline', 'pd-ssd');
  });
  it('machine-limits-unknown (information) for a persistent disk type without a per-VM row', () => {
    // Google's G2 table lists pd-balanced and pd-ssd only, though G2 attaches pd-standard.
    const text = BASE.replace('n2-standard-8', 'g2-standard-4').replace('type: pd-ssd', 'type: pd-standard');
    const d = expectAt(text, 'machine-limits-unknown', 'pd-standard');
    assert.equal(d.severity, 'information');
    assert.equal(fileReport('x', analyze(text)).vms[0].disks[0].vm_limit_known, false);
  });
  it('vm-limit-unknown: n4-standard-2 with a 160,000 IOPS Hyperdisk Balanced volume is not presented as capped', () => {
    const text = hd('n4-standard-2', hdb('data', 160000));
    const d = expectAt(text, 'vm-limit-unknown', 'hyperdisk-balanced');
    // A gap of the catalog, not of the configuration: information, which `--fail-on warning` does not fail on.
    assert.equal(d.severity, 'information');
    assert.equal(
      d.message,
      "gcp-2024 has no per-VM hyperdisk-balanced limit for n4-standard-2: Google caps it per instance, so the VM may deliver less than these figures (the volume's own)",
    );
    const a = analyze(text);
    const disk = fileReport('x', a).vms[0].disks[0];
    assert.equal(disk.vm_limit_known, false);
    assert.notEqual(disk.limited_by!.read_iops, 'vm');
    const h = hover(a, text.indexOf('name: data') + 7)!;
    assert.match(h.markdown, /\*\*Per-VM limit unknown\*\*: gcp-2024 has no hyperdisk-balanced row for n4-standard-2/);
    const hm = hover(a, text.indexOf('n4-standard-2') + 2)!;
    assert.match(hm.markdown, /Per-VM limit unknown \(no row in gcp-2024\) for hyperdisk-balanced\./);
  });
  it('c4d-standard-2 caps a 160,000 IOPS Hyperdisk Balanced volume at its 22,500 IOPS and 400 MiB/s', () => {
    const a = analyze(hd('c4d-standard-2', hdb('data', 160000)));
    const disk = fileReport('x', a).vms[0].disks[0];
    assert.equal(disk.read_iops, 22500);
    assert.equal(disk.write_mibps, 400);
    assert.equal(disk.limited_by!.read_iops, 'vm');
    assert.equal(disk.vm_limit_known, true);
    assert.match(disk.explanation!.read_iops, /c4d-standard-2 limit for hyperdisk-balanced: 22,500 IOPS/);
    assert.ok(!a.diagnostics.some((d) => d.code === 'vm-limit-unknown'));
  });
  it("a shared per-VM limit serves the workloads' targets first: c4d-standard-16's 75,000 IOPS for 70,000 asked of 90,000", () => {
    // Alone a 60,000 and b 30,000 fit the limit each; busy together they could do 90,000 and share 75,000: the
    // targets (70,000) first, the 5,000 left by what each could still add.
    const w = (name: string, disk: string, iops: number) =>
      `      - name: ${name}\n        disk: ${disk}\n        block_size: 4KiB\n        read_ratio: 1\n        target:\n          iops: ${iops}\n`;
    // 500 MiB/s each: their throughput fits the 1,200 MiB/s limit together; alone, each disk's IOPS would fit it too.
    const disks = (hdb('a', 60000) + hdb('b', 30000)).replace(/2400MiB\/s/g, '500MiB/s');
    const text = hd('c4d-standard-16', disks) + '    workloads:\n' + w('wa', 'a', 55000) + w('wb', 'b', 15000);
    const a = analyze(text);
    const [x, y] = fileReport('x', a).vms[0].disks;
    assert.deepEqual([x.read_iops, y.read_iops], [60000, 30000]);
    const [wa, wb] = a.vms[0].workloads;
    assert.ok(Math.abs(wa.read_iops - (55000 + 5000 * (5000 / 20000))) < 1e-6, String(wa.read_iops));
    assert.ok(Math.abs(wb.read_iops - (15000 + 5000 * (15000 / 20000))) < 1e-6, String(wb.read_iops));
    assert.ok(a.vms[0].workloads.every((wl) => wl.meets_target));
    // No disk alone over the limit, and the targets fit it together: nothing to say, no machine to buy.
    assert.ok(!a.diagnostics.some((d) => d.code === 'capped-by-vcpu'));
    // A disk the machine caps even alone (2,400 MiB/s over 1,200) gets the warning and the machine that lifts it.
    const alone = hd('c4d-standard-16', hdb('a', 60000) + hdb('b', 30000)) + '    workloads:\n' + w('wa', 'a', 55000) + w('wb', 'b', 15000);
    const warned = expectAt(alone, 'capped-by-vcpu', 'machine_type');
    assert.equal(warned.severity, 'warning');
    assert.ok(warned.fixes?.length);
  });
  it('two Hyperdisk Balanced volumes on c4d-standard-16: each alone under its 75,000 IOPS, the limit stated once', () => {
    const a = analyze(hd('c4d-standard-16', hdb('a', 60000) + hdb('b', 30000)));
    const vm = fileReport('x', a).vms[0];
    const [x, y] = vm.disks;
    assert.deepEqual([x.read_iops, y.read_iops, x.read_mibps, y.read_mibps], [60000, 30000, 1200, 1200]);
    const iops = vm.shared_limits.find((l) => l.metric === 'read_iops')!;
    assert.deepEqual([iops.value, iops.disks, iops.demand, iops.reached], [75000, ['a', 'b'], 0, false]);
    assert.equal(vm.shared_limits.find((l) => l.metric === 'read_mibps')!.value, 1200);
  });
  it('C4D throughput limits after the 2026-07-28 increase: c4d-standard-96 at 3,125 MiB/s', () => {
    const a = analyze(hd('c4d-standard-96', hdb('a', 20000) + hdb('b', 20000)));
    const vm = fileReport('x', a).vms[0];
    assert.equal(vm.shared_limits.find((l) => l.metric === 'read_mibps')!.value, 3125);
    assert.ok(vm.disks.every((d) => d.read_mibps! <= 3125));
  });
  it('Hyperdisk Balanced High Availability on c3-standard-22: 120,000 IOPS and 1,800 MiB/s (release note of 2025-09-04)', () => {
    const ha = (n: string) => hdb(n, 100000, 'hyperdisk-balanced-high-availability');
    const vm = fileReport('x', analyze(hd('c3-standard-22', ha('a') + ha('b')))).vms[0];
    assert.deepEqual(
      vm.disks.map((d) => d.read_iops),
      [100000, 100000],
    );
    assert.equal(vm.shared_limits.find((l) => l.metric === 'read_iops')!.value, 120000);
    assert.equal(vm.shared_limits.find((l) => l.metric === 'read_mibps')!.value, 1800);
  });
  it('hyperdisk-shared-limit-unknown on the second Hyperdisk type of a VM', () => {
    const text = hd('c4d-standard-16', hdb('a', 3000) + hdb('b', 3000, 'hyperdisk-balanced-high-availability'));
    expectAt(text, 'hyperdisk-shared-limit-unknown', 'hyperdisk-balanced-high-availability');
  });
  it('capped-by-vcpu is a warning when the cap takes 5 % or more, or a target is missed; information otherwise', () => {
    // n2-standard-8 holds pd-ssd to 15,000 IOPS. 317 GiB alone: 6,000 + 30 × 317 = 15,510 IOPS, 3.3 % above it.
    const small = BASE.replace('size: 500GiB', 'size: 317GiB');
    const d = analyze(small).diagnostics.find((x) => x.code === 'capped-by-vcpu')!;
    assert.equal(d.severity, 'information');
    // 500 GiB alone: 21,000 IOPS, 28.6 % taken away.
    assert.equal(analyze(BASE).diagnostics.find((x) => x.code === 'capped-by-vcpu')!.severity, 'warning');
    // The small cap, but a workload on the disk misses its target because of it.
    const missed =
      small +
      '    workloads:\n      - name: w\n        disk: data\n        block_size: 4k\n        read_ratio: 1\n        target:\n          iops: 15500\n';
    assert.equal(analyze(missed).diagnostics.find((x) => x.code === 'capped-by-vcpu')!.severity, 'warning');
  });
});
