/** Volume type fit (core/src/checks/volume-fit.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, builtinRegistry, CatalogRegistry, fixEdits, type Catalog, type FixData } from '../../core/src';
import { expectAt, sameAgain, withReplica } from './helpers';

const applyFix = (text: string, f: FixData, opts = {}) => applyEdits(text, fixEdits(text, analyze(text, opts).parsed.tree, f));

/** An AWS instance with one volume and one workload. */
const AWS = (machine: string, disk: string, workload: string) => `version: 1
provider: aws
vms:
  - name: db
    machine_type: ${machine}
    disks:
      - name: data
${disk}    workloads:
      - name: w
        disk: data
${workload}`;
const ST1 = (workload: string) => AWS('m6i.2xlarge', '        type: st1\n        size: 2TiB\n', workload);
const RANDOM = '        pattern: random\n        block_size: 16KiB\n        read_ratio: 0.7\n';

describe('checks: volume-fit', () => {
  it('hdd-random-io analysed again with the same cache (the next edit, the other side of a diff) still offers SSD', () => {
    // A target the volume misses (80 IOPS) and an SSD of its size meets: the fix is searched on the VM with it.
    const said = sameAgain(withReplica(ST1(`${RANDOM}        target:\n          iops: 1000\n`), 'm6i.4xlarge'), 'hdd-random-io');
    assert.ok(
      said.some(([m]) => /^VM 'db2': .*; use an SSD type$/.test(m)),
      JSON.stringify(said),
    );
  });

  it('hdd-random-io: random 16 KiB I/O on a 2 TiB st1 gets 80 I/Os a second, each counted as 1 MiB', () => {
    const d = expectAt(ST1(RANDOM), 'hdd-random-io', 'st1');
    assert.match(
      d.message,
      /random 16KiB I\/O on data \(st1\): each I\/O counts as a full 1MiB of the volume's 80 MiB\/s, so it reaches 80 IOPS, 1\.3 MiB\/s/,
    );
    // us-east-1: st1 2,048 GiB × $0.045 = $92.16; gp3 2,048 GiB × $0.08 = $163.84.
    assert.deepEqual(
      d.fixes?.map((f) => f.title),
      ["Switch 'data' to gp3 (+$71.68/month)"],
    );
    assert.equal(applyFix(ST1(RANDOM), d.fixes![0]), ST1(RANDOM).replace('type: st1', 'type: gp3'));
  });

  it("hdd-random-io counts the I/Os against the volume's throughput, not what the instance's limit leaves of it", () => {
    // A 12.5 TiB st1 does 500 MiB/s; m6i.large holds it to 77.5 MiB/s of bytes, but 500 random 16 KiB I/Os a second
    // move only 7.8 MiB/s: the volume's 500 I/Os bind.
    const text = AWS('m6i.large', '        type: st1\n        size: 12.5TiB\n', RANDOM);
    const d = expectAt(text, 'hdd-random-io', 'st1');
    assert.match(d.message, /each I\/O counts as a full 1MiB of the volume's 500 MiB\/s, so it reaches 500 IOPS, 7\.8 MiB\/s/);
  });

  it('the fix provisions what a target needs beyond gp3 at its size', () => {
    const text = ST1(`${RANDOM}        target:\n          iops: 5000\n`);
    const d = expectAt(text, 'hdd-random-io', 'st1');
    // 5,000 IOPS: 2,000 above the included 3,000 at $0.005 each: $163.84 + $10.00 − $92.16.
    assert.equal(d.fixes?.[0].title, "Switch 'data' to gp3, 5,000 IOPS provisioned (+$81.68/month)");
    const after = analyze(applyFix(text, d.fixes![0]));
    assert.equal(after.vms[0].disks[0].typeName, 'gp3');
    assert.equal(after.vms[0].workloads[0].meets_target, true);
  });

  it('nothing for sequential I/O, or random I/O of 1 MiB blocks', () => {
    const none = (text: string) => assert.ok(!analyze(text).diagnostics.some((x) => x.code === 'hdd-random-io'), text);
    none(ST1('        pattern: sequential\n        block_size: 16KiB\n        read_ratio: 1\n'));
    none(ST1('        pattern: random\n        block_size: 1MiB\n        read_ratio: 1\n'));
  });

  // Every family aws-2025 holds is built on the Nitro System (AWS's list of 2023): a test edition marks t3 as
  // not built on it, and another leaves t3 out of the table.
  const variant = (edition: string, series: Record<string, boolean>) => {
    const aws = builtinRegistry.get('aws-2025') as Catalog;
    const c = { ...aws, edition, platform: { ...aws.platform!, series } };
    const registry = new CatalogRegistry([...builtinRegistry.editions().map((e) => builtinRegistry.get(e)!), c]);
    return { registry };
  };
  const IO2 = (edition: string, iops = 100000) =>
    AWS('t3.2xlarge', `        type: io2\n        size: 1TiB\n        provisioned_iops: ${iops}\n`, RANDOM).replace(
      'provider: aws\n',
      `provider: aws\ncatalog: ${edition}\n`,
    );
  const all = (aws: Catalog) => Object.fromEntries(Object.keys(aws.platform!.series).map((s) => [s, true]));

  it('needs-platform: io2 above 64,000 IOPS on an instance not built on the Nitro System', () => {
    const aws = builtinRegistry.get('aws-2025') as Catalog;
    const opts = variant('aws-test-off-nitro', { ...all(aws), t3: false });
    const text = IO2('aws-test-off-nitro');
    const a = analyze(text, opts);
    const d = a.diagnostics.find((x) => x.code === 'needs-platform');
    assert.ok(d, a.diagnostics.map((x) => x.code).join());
    assert.equal(text.slice(d.span.start, d.span.end), '100000');
    assert.equal(d.severity, 'error');
    assert.match(
      d.message,
      /t3\.2xlarge is not built on the Nitro System: io2 above 64,000 IOPS \(100,000 provisioned\) does not attach to it \(aws-test-off-nitro\); provision at most 64,000 or use an instance built on it/,
    );
    assert.equal(d.fixes?.[0].title, 'Provision 64,000 IOPS');
    assert.equal(applyFix(text, d.fixes![0], opts), text.replace('provisioned_iops: 100000', 'provisioned_iops: 64000'));
    // Or an instance of the same vCPUs built on it, of the same letter first (8 vCPUs: t3a.2xlarge, burstable too).
    assert.match(d.fixes?.[1].title ?? '', /^Change machine to t3a\.2xlarge, built on the Nitro System/);
  });

  it('needs-platform on the size of an io2 volume above 16 TiB: no IOPS cap fixes that', () => {
    const aws = builtinRegistry.get('aws-2025') as Catalog;
    const opts = variant('aws-test-big', { ...all(aws), t3: false });
    const text = IO2('aws-test-big', 20000).replace('size: 1TiB', 'size: 20TiB');
    const d = analyze(text, opts).diagnostics.find((x) => x.code === 'needs-platform');
    assert.ok(d);
    assert.equal(text.slice(d.span.start, d.span.end), '20TiB');
    assert.match(d.message, /io2 above 16 TiB \(20 TiB\) does not attach to it \(aws-test-big\); use an instance built on it/);
    assert.deepEqual(
      d.fixes?.map((f) => f.title.replace(/ \(.*/, '')),
      ['Change machine to t3a.2xlarge, built on the Nitro System'],
    );
  });

  it('needs-platform: the machine it offers keeps every target met today (not one whose instance store leaves a workload unevaluated)', () => {
    // Found by the invariant suite (seed 13 at 1,000 runs): h1.16xlarge's fix was hpc6id.32xlarge (same letter first),
    // whose NVMe instance store joins a workload written for all the VM's disks, which then has no throughput figure.
    const text = `version: 1
provider: aws
catalog: aws-2025
vms:
  - name: vm
    machine_type: h1.16xlarge
    disks:
      - name: d0
        type: gp3
        size: 1GiB
      - name: d1
        type: io2
        size: 65536GiB
    workloads:
      - name: w
        pattern: random
        block_size: 4k
        read_ratio: 0
        target:
          throughput: 5MiB/s
`;
    const a = analyze(text);
    assert.equal(a.vms[0].workloads[0].meets_target, true);
    const d = a.diagnostics.find((x) => x.code === 'needs-platform');
    const fix = d?.fixes?.find((f) => f.title.startsWith('Change machine'));
    assert.ok(fix, JSON.stringify(d));
    const after = analyze(applyFix(text, fix));
    assert.equal(after.vms[0].workloads[0]?.meets_target, true, fix.title);
    assert.ok(!after.diagnostics.some((x) => x.code === 'needs-platform'));
  });

  it('platform-unknown: the edition does not say whether the family is built on it; nothing at 64,000 or on Nitro', () => {
    const aws = builtinRegistry.get('aws-2025') as Catalog;
    const rest = Object.fromEntries(Object.entries(all(aws)).filter(([s]) => s !== 't3'));
    const opts = variant('aws-test-unknown', rest);
    const a = analyze(IO2('aws-test-unknown'), opts);
    const d = a.diagnostics.find((x) => x.code === 'platform-unknown');
    assert.ok(d);
    assert.equal(IO2('aws-test-unknown').slice(d.span.start, d.span.end), 'machine_type');
    assert.match(d.message, /io2 above 64,000 IOPS \(100,000 provisioned\); aws-test-unknown does not say whether t3 is/);
    assert.ok(!analyze(IO2('aws-test-unknown', 64000), opts).diagnostics.some((x) => x.code === 'platform-unknown'));
    // The built-in edition: t3 is on the Nitro System.
    const builtin = analyze(IO2('aws-2025'));
    assert.ok(!builtin.diagnostics.some((x) => x.code === 'needs-platform' || x.code === 'platform-unknown'));
  });

  it('I3 in the built-in edition: i3.8xlarge is not on the Nitro System (needs-platform), i3.metal is (nothing)', () => {
    const on = (machine: string) => analyze(IO2('aws-2025').replace('t3.2xlarge', machine)).diagnostics;
    const d = on('i3.8xlarge').find((x) => x.code === 'needs-platform');
    assert.ok(
      d,
      on('i3.8xlarge')
        .map((x) => x.code)
        .join(),
    );
    assert.equal(d.severity, 'error');
    assert.match(
      d.message,
      /^i3\.8xlarge is not built on the Nitro System: io2 above 64,000 IOPS \(100,000 provisioned\) does not attach to it/,
    );
    // Same vCPUs on the platform: i4i.8xlarge (the same letter first).
    assert.match(d.fixes?.[1].title ?? '', /^Change machine to i4i\.8xlarge, built on the Nitro System/);
    assert.ok(!on('i3.8xlarge').some((x) => x.code === 'platform-unknown'));
    assert.ok(!on('i3.metal').some((x) => x.code === 'needs-platform' || x.code === 'platform-unknown'));
  });
});
