/**
 * AWS Magnetic (`standard`), a previous-generation EBS volume type. AWS's volume types page gives its figures only
 * as ranges (https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html, "Previous generation
 * volumes", read 2026-11-29 in the user guide's archived source of 2023-05-11): volume size 1 GiB - 1 TiB, max IOPS
 * per volume 40 - 200, max throughput per volume 40 - 90 MiB/s. The figures are the top of each range, marked as
 * upper bounds wherever they are shown, with a finding that says the bottom. Its price (the EBS pricing page's data
 * feed of 2024-07-18) is $0.05 per GB-month and $0.05 per million I/O requests in us-east-1: the capacity is
 * priced, the requests depend on the workload and are a gap, never $0.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, fileReport, hover } from '../../core/src';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';

const spec = (target: number, region = 'us-east-1') =>
  'version: 1\nprovider: aws\n' +
  `region: ${region}\n` +
  'vms:\n  - name: db\n    machine_type: m6i.4xlarge\n    disks:\n' +
  '      - name: old\n        type: standard\n        size: 100GiB\n' +
  '    workloads:\n      - name: w\n        disk: old\n        pattern: random\n        read_ratio: 1\n' +
  `        block_size: 16KiB\n        target: { iops: ${target} }\n`;

const RANGE = 'range 40–200 IOPS, 40–90 MiB/s';

describe('AWS Magnetic (standard) volumes', () => {
  it('the catalog has the ranges of the volume types page and the prices of the feed in the six regions', () => {
    const t = builtinRegistry.get('aws-2025')!.disk_types.standard;
    assert.equal(t.model, 'scaled');
    if (t.model !== 'scaled') return;
    assert.deepEqual([t.size_gib.min, t.size_gib.max], [1, 1024]);
    assert.deepEqual([t.disk_max.read_iops, t.disk_max.read_mibps], [200, 90]);
    assert.deepEqual({ ...t.figure_range?.low }, { iops: 40, mibps: 40 });
    assert.deepEqual(
      { ...t.price?.per_gib_month },
      {
        'us-east-1': 0.05,
        'us-west-2': 0.05,
        'eu-west-1': 0.055,
        'eu-central-1': 0.059,
        'ap-northeast-1': 0.08,
        'ap-southeast-1': 0.08,
      },
    );
    assert.equal(t.price?.per_million_requests?.['us-east-1'], 0.05);
  });

  it('a spec: figures at the top of the ranges, marked as upper bounds in the JSON report', () => {
    const a = analyze(spec(150));
    const d = fileReport('x', a).vms[0].disks[0];
    assert.deepEqual([d.read_iops, d.write_iops, d.read_mibps, d.write_mibps], [200, 200, 90, 90]);
    assert.equal(d.vm_limit_known, true);
    assert.equal(d.upper_bound, RANGE);
  });

  it('… and in the hover, each figure "≤ … (range …)"', () => {
    const text = spec(150);
    const h = hover(analyze(text), text.indexOf('name: old') + 7)!;
    assert.match(h.markdown, /\| read IOPS +\| +≤ 200 IOPS \(range 40–200 IOPS, 40–90 MiB\/s\) \|/);
    assert.match(h.markdown, /\| write throughput +\| +≤ 90 MiB\/s \(range 40–200 IOPS, 40–90 MiB\/s\) \|/);
  });

  it('one information finding on the type says the range and the least it may deliver, and the I/O charge', () => {
    const text = spec(150);
    const found = analyze(text).diagnostics.filter((x) => x.code === 'disk-figures-range');
    assert.equal(found.length, 1);
    assert.equal(found[0].severity, 'information');
    assert.equal(text.slice(found[0].span.start, found[0].span.end), 'standard');
    assert.equal(
      found[0].message,
      "disk 'old': Magnetic (standard) is given as a range 40–200 IOPS, 40–90 MiB/s: figures are its top; it may deliver 40 IOPS, 40 MiB/s; its I/O requests ($0.05 per million) are left out of its price",
    );
    assert.ok(!analyze(text).diagnostics.some((x) => x.code === 'unmodelled-disk-type' || x.code === 'price-unknown'));
  });

  it('the capacity is priced; the I/O requests are a gap, so the price is incomplete and never counts them as $0', () => {
    const r = fileReport('x', analyze(spec(150, 'eu-central-1')));
    const d = r.vms[0].disks[0];
    assert.equal(d.monthly_cost, 5.9);
    assert.equal(d.monthly_cost_complete, false);
    assert.equal(r.vms[0].monthly_cost_complete, false);
    assert.deepEqual(r.vms[0].monthly_cost_missing, ['I/O requests at $0.059 per million, which depend on the workload']);
  });

  it('a target reached only at the upper bounds is not judged; one missed even there is missed', () => {
    const w = (target: number) => fileReport('x', analyze(spec(target))).vms[0].workloads[0];
    assert.equal(w(150).meets_target, null);
    assert.equal(w(150).upper_bound, RANGE);
    assert.equal(w(300).meets_target, false);
  });
});

describe('terraform .tf: an aws_instance whose root_block_device is standard', () => {
  before(loadTfParser);

  it('gets the figures as upper bounds, the finding, and its capacity price with the I/O part missing', () => {
    const { a, r, text } = runTf(`
provider "aws" {
  region = "us-east-1"
}

resource "aws_instance" "vault" {
  ami           = "ami-0abcdef1234567890"
  instance_type = "m5.large"
  root_block_device {
    volume_type = "standard"
    volume_size = 50
  }
}
`);
    assert.ok(!a.diagnostics.some((d) => d.severity === 'error' || d.code === 'unmodelled-disk-type'));
    const d = r.vms[0].disks[0];
    // m5.large's sustained EBS throughput (77.5 MiB/s) is below the range's top: still an upper bound.
    assert.deepEqual([d.type, d.read_iops, d.write_mibps, d.upper_bound], ['standard', 200, 77.5, RANGE]);
    assert.equal(d.monthly_cost, 2.5);
    assert.equal(d.monthly_cost_complete, false);
    const found = a.diagnostics.filter((x) => x.code === 'disk-figures-range');
    assert.equal(found.length, 1);
    assert.equal(text.slice(found[0].span.start, found[0].span.end), '"standard"');
  });
});
