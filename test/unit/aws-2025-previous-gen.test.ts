/**
 * AWS (aws-2025) instance families without per-instance EBS limits: T2, which is not EBS-optimized, and the
 * previous-generation C1, C3, I2, M1, M2, M3 and R3, whose EBS optimization is optional and off by default (and
 * which a spec or a Terraform configuration does not state). Their sizes and vCPUs come from the 2024 instance
 * types guide (source it-2024), their prices from the on-demand feed the other families use (T2 in its current
 * generation file, the others in its previous-generation one). A volume on them has its own figures as upper
 * bounds, with machine-limits-unknown saying why from the catalog's note.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, fileReport, hover, resolveMachine, vmLimitRow, type Catalog } from '../../core/src';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';
import { diskOf, errors, specText, vmOf } from '../helpers';

const aws = builtinRegistry.get('aws-2025') as Catalog;
const FAMILIES = ['t2', 'm3', 'c1', 'c3', 'i2', 'm1', 'm2', 'r3'];

describe('aws-2025: T2 and the previous-generation families without EBS limits', () => {
  // Two sizes per family as the sources print them: vCPUs (it-2024, Performance specifications) and the us-east-1
  // on-demand Linux price per hour (the price feed of 2025-04-04).
  const rows: Array<[string, number, number]> = [
    ['t2.micro', 1, 0.0116],
    ['t2.2xlarge', 8, 0.3712],
    ['m3.medium', 1, 0.067],
    ['m3.2xlarge', 8, 0.532],
    ['c1.medium', 2, 0.13],
    ['c1.xlarge', 8, 0.52],
    ['c3.large', 2, 0.105],
    ['c3.8xlarge', 32, 1.68],
    ['i2.xlarge', 4, 0.853],
    ['i2.8xlarge', 32, 6.82],
    ['m1.small', 1, 0.044],
    ['m1.xlarge', 4, 0.35],
    ['m2.xlarge', 2, 0.245],
    ['m2.4xlarge', 8, 0.98],
    ['r3.large', 2, 0.166],
    ['r3.8xlarge', 32, 2.66],
  ];

  it("each size has the guide's vCPUs, the feed's price and no per-instance EBS row", () => {
    for (const [name, vcpus, hourly] of rows) {
      const r = resolveMachine(aws, { machine_type: name });
      assert.ok(r.ok, name);
      assert.equal(r.machine.vcpus, vcpus, `${name} vCPUs`);
      assert.equal(r.machine.info.types_source?.source, 'it-2024', name);
      assert.equal(vmLimitRow(aws, r.machine, 'gp3'), undefined, `${name} has no EBS row`);
      const family = name.split('.')[0];
      assert.equal(aws.machine_prices?.series[family]?.per_type_hour?.[name]?.['us-east-1'], hourly, `${name} price`);
    }
  });

  it('every family says why it has no EBS limits, citing the guide; none is left in other_series but Mac', () => {
    for (const family of FAMILIES) {
      const note = aws.machine_series[family].vm_limits_note;
      assert.ok(note, family);
      assert.equal(note.source, 'it-2024', family);
      assert.match(note.why, new RegExp(`^${family.toUpperCase()} is (not EBS-optimized|EBS-optimized only if launched so)`), family);
      assert.equal(aws.platform?.series[family], false, `${family} runs on Xen, not the Nitro System`);
    }
    assert.deepEqual(aws.other_series?.series, ['mac1', 'mac2', 'mac2-m1ultra', 'mac2-m2', 'mac2-m2pro']);
    const a = analyze(specText({ provider: 'aws', machine: 'mac1.metal', disks: [{ type: 'gp3', size: 100 }] }));
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      ['unmodelled-machine-type'],
    );
  });

  it("a family's size the feed lacks in a region has no price there, never a default (c1.medium in eu-central-1)", () => {
    assert.equal(aws.machine_prices?.series.c1?.per_type_hour?.['c1.medium']?.['eu-central-1'], undefined);
    const a = analyze(specText({ provider: 'aws', region: 'eu-central-1', machine: 'c1.medium', disks: [{ type: 'gp3', size: 100 }] }));
    const v = fileReport('x.perf.yaml', a).vms[0];
    assert.equal(v.machine_monthly_cost, null);
    assert.equal(v.monthly_cost_complete, false);
    assert.ok(a.diagnostics.some((d) => d.code === 'price-unknown'));
    // The same size in us-east-1: $0.13 an hour.
    const east = fileReport('x', analyze(specText({ provider: 'aws', machine: 'c1.medium', disks: [{ type: 'gp3', size: 100 }] })));
    assert.equal(east.vms[0].machine_monthly_cost, Math.round(0.13 * 730 * 100) / 100);
  });

  it("instance store as the guide lists it, without IOPS: m3.medium's 1 × 4 GB SSD, c1.xlarge's 4 × 420 GB HDD", () => {
    assert.deepEqual({ ...aws.instance_store?.unstated?.['m3.medium'] }, { devices: 1, device_gb: 4, media: 'SSD' });
    assert.deepEqual({ ...aws.instance_store?.unstated?.['c1.xlarge'] }, { devices: 4, device_gb: 420, media: 'HDD' });
    assert.equal(aws.instance_store?.unstated?.['t2.micro'], undefined);
  });
});

describe('aws-2025: a gp3 volume on t2.micro', () => {
  const TEXT = specText({
    provider: 'aws',
    region: 'us-east-1',
    machine: 't2.micro',
    disks: [{ name: 'data', type: 'gp3', size: '100GiB' }],
    workloads: [{ name: 'w', disk: 'data', block_size: '16KiB', read_ratio: 0.7, target: { iops: 2000 } }],
  });

  it("has the volume's own figures, none presented as capped by the instance", () => {
    const a = analyze(TEXT);
    assert.deepEqual(errors(a), []);
    const d = diskOf(a);
    assert.equal(d.figures.read_iops, 3000);
    assert.equal(d.figures.write_iops, 3000);
    assert.equal(d.figures.read_mibps, 125);
    assert.equal(d.vmLimitKnown, false);
    for (const k of ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'] as const) assert.notEqual(d.figures.by(k), 'vm', k);
    assert.ok(!a.diagnostics.some((x) => x.code === 'capped-by-vcpu' || x.code === 'provisioned-above-vm-limit'));
  });

  it('says machine-limits-unknown (information) on the type, with why from the catalog', () => {
    const a = analyze(TEXT);
    const f = a.diagnostics.filter((x) => x.code === 'machine-limits-unknown');
    assert.equal(f.length, 1);
    assert.equal(f[0].severity, 'information');
    assert.equal(
      f[0].message,
      "aws-2025 has no per-VM gp3 limits for t2.micro (T2 is not EBS-optimized: its EBS traffic shares the instance's network); only the disk's own limits apply",
    );
    assert.equal(TEXT.slice(f[0].span.start, f[0].span.end), 'gp3');
  });

  it('is priced in us-east-1: $0.0116 an hour for the instance, $0.08 per GiB-month for the volume', () => {
    const v = fileReport('x.perf.yaml', analyze(TEXT)).vms[0];
    assert.equal(v.machine_monthly_cost, 8.47);
    assert.equal(v.monthly_cost, 8.47 + 8);
    assert.equal(v.monthly_cost_complete, true);
  });

  it('marks the figures as upper bounds in the JSON report and the hover; a target reached there is not judged', () => {
    const a = analyze(TEXT);
    const r = fileReport('x.perf.yaml', a).vms[0];
    assert.equal(r.disks[0].vm_limit_known, false);
    assert.equal(r.disks[0].upper_bound, 'VM limit unknown');
    assert.equal(r.workloads[0].meets_target, null);
    const h = hover(a, TEXT.indexOf('name: data') + 7)!;
    assert.match(h.markdown, /\| read IOPS +\| +≤ 3,000 IOPS \(VM limit unknown\) \|/);
    assert.match(h.markdown, /\*\*Per-VM limit unknown\*\*: aws-2025 has no gp3 row for t2\.micro/);
  });

  it('on m3.xlarge the message says its EBS optimization is optional, and the figures stay the volume’s own', () => {
    const text = specText({ provider: 'aws', machine: 'm3.xlarge', disks: [{ type: 'io1', size: 100, provisioned_iops: 5000 }] });
    const a = analyze(text);
    const f = a.diagnostics.find((x) => x.code === 'machine-limits-unknown');
    assert.match(
      f!.message,
      /^aws-2025 has no per-VM io1 limits for m3\.xlarge \(M3 is EBS-optimized only if launched so \(m3\.xlarge 500 Mbps/,
    );
    assert.ok(f!.message.length <= 240, f!.message);
    assert.equal(vmOf(a).disks[0].figures.read_iops, 5000);
  });
});

describe('terraform .tf: an aws_instance of t2.micro', () => {
  before(loadTfParser);

  it('now has figures: its root volume as its own, machine-limits-unknown, and a price', () => {
    const { a, r } = runTf(`
provider "aws" {
  region = "us-east-1"
}

resource "aws_instance" "web" {
  ami           = "ami-0abcdef1234567890"
  instance_type = "t2.micro"
  root_block_device {
    volume_type = "gp3"
    volume_size = 20
  }
}
`);
    assert.ok(!a.diagnostics.some((d) => d.code === 'unmodelled-machine-type' || d.severity === 'error'));
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.disks[0].read_iops, v.disks[0].vm_limit_known]),
      [['aws_instance.web', 3000, false]],
    );
    assert.ok(a.diagnostics.some((d) => d.code === 'machine-limits-unknown' && d.message.includes('T2 is not EBS-optimized')));
    assert.equal(r.vms[0].machine_monthly_cost, 8.47);
  });
});
