/**
 * A disk's options against its type, size and machine (core/src/checks/disk-options.ts), on Azure specs, and the
 * existing codes Azure's rules reach (too-many-disks, capped-by-vcpu, provisioning bounds, provisioned-above-vm-limit).
 * Each rule cites the page it comes from.
 */
import * as assert from 'node:assert/strict';
import { analyze, textWithFix } from '../../core/src';
import { expectAt, find } from './helpers';

/** One Azure VM with the given disk lines (each a flow mapping) and optional workload lines. */
const azure = (size: string, disks: string[], workloads: string[] = []) =>
  [
    'version: 1',
    'provider: azure',
    'region: eastus',
    'vms:',
    '  - name: db',
    `    machine_type: ${size}`,
    '    disks:',
    ...disks.map((d) => `      - ${d}`),
    ...(workloads.length ? ['    workloads:', ...workloads.map((w) => `      - ${w}`)] : []),
    '',
  ].join('\n');

const codes = (text: string) => analyze(text).diagnostics.map((d) => d.code);

describe('checks: disk-options', () => {
  it('os-disk-type: Premium SSD v2 and Ultra Disk cannot be the OS disk (disks-types, disks-deploy-premium-v2)', () => {
    const d = expectAt(
      azure('Standard_D8s_v5', ['{ name: os, role: os, type: premium-ssd-v2, size: 64GiB }']),
      'os-disk-type',
      'premium-ssd-v2',
    );
    assert.equal(d.severity, 'error');
    assert.match(d.message, /^premium-ssd-v2 cannot be an OS disk \(azure-2026: /);
    expectAt(azure('Standard_D8s_v5', ['{ name: os, role: os, type: ultra-disk, size: 64GiB }']), 'os-disk-type', 'ultra-disk');
    assert.ok(!codes(azure('Standard_D8s_v5', ['{ name: os, role: os, type: premium-ssd, size: 64GiB }'])).includes('os-disk-type'));
  });

  it('host-caching-unsupported: on Premium SSD v2, on Ultra, at 4 TiB and more; host-caching-no-effect on a size without premium caching (premium-storage-performance, lsv3-series)', () => {
    const on = (size: string, disk: string) => expectAt(azure(size, [disk]), 'host-caching-unsupported', 'read-only');
    assert.match(
      on('Standard_D8s_v5', '{ name: d, type: premium-ssd-v2, size: 100GiB, caching: read-only }').message,
      /premium-ssd-v2 has no host caching/,
    );
    assert.match(
      on('Standard_D8s_v5', '{ name: d, type: ultra-disk, size: 100GiB, caching: read-only }').message,
      /ultra-disk has no host caching/,
    );
    assert.match(on('Standard_D8s_v5', '{ name: d, type: premium-ssd, size: 4096GiB, caching: read-only }').message, /stops at 4,096 GiB/);
    // A size without a cache takes the setting (the page says no cache, not refused): information, not this error.
    const l8 = azure('Standard_L8s_v3', ['{ name: d, type: premium-ssd, size: 1024GiB, caching: read-only }']);
    assert.ok(!codes(l8).includes('host-caching-unsupported'));
    assert.match(
      expectAt(l8, 'host-caching-no-effect', 'read-only').message,
      /Standard_L8s_v3 has no host cache .*'d' is evaluated uncached/,
    );
    // 4,095 GiB is below 4 TiB: cached.
    assert.ok(
      !codes(azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 4095GiB, caching: read-only }'])).includes(
        'host-caching-unsupported',
      ),
    );
  });

  it("host-caching-no-effect's fix sets caching: none, and analysed again the finding is gone and the figures unchanged", () => {
    const text = azure('Standard_L8s_v3', ['{ name: d, type: premium-ssd, size: 1024GiB, caching: read-only }']);
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'host-caching-no-effect')!;
    const fix = d.fixes!.find((f) => f.title === 'Set caching: none')!;
    const after = analyze(textWithFix(a, fix));
    assert.match(after.parsed.text, /caching: none/);
    assert.ok(!after.diagnostics.some((x) => x.code === 'host-caching-no-effect'));
    assert.deepEqual(after.vms[0].disks[0].figures.read_iops, a.vms[0].disks[0].figures.read_iops);
  });

  it('performance-plus-size: below 513 GiB (disks-enable-performance)', () => {
    const d = expectAt(
      azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 512GiB, performance_plus: true }']),
      'performance-plus-size',
      'true',
    );
    assert.match(d.message, /needs 513 GiB or more; 'd' is 512 GiB/);
    assert.ok(
      !codes(azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 513GiB, performance_plus: true }'])).includes(
        'performance-plus-size',
      ),
    );
  });

  it('on-demand-bursting-size: below P30 (disk-bursting)', () => {
    expectAt(
      azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 512GiB, bursting: on-demand }']),
      'on-demand-bursting-size',
      'on-demand',
    );
    expectAt(
      azure('Standard_D8s_v5', ['{ name: d, type: standard-ssd, size: 1024GiB, bursting: on-demand }']),
      'on-demand-bursting-size',
      'on-demand',
    );
    assert.ok(
      !codes(azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 1024GiB, bursting: on-demand }'])).includes(
        'on-demand-bursting-size',
      ),
    );
  });

  it('performance-tier-invalid: P1-P40 go up to P50 only; P50 has none above it (disks-change-performance)', () => {
    const d = expectAt(
      azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 128GiB, tier: P60 }']),
      'performance-tier-invalid',
      'P60',
    );
    assert.match(d.message, /'d' is P10 by its size; it can be set to P15, P20, P30, P40, P50, not P60/);
    assert.ok(
      !codes(azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 128GiB, tier: P50 }'])).includes('performance-tier-invalid'),
    );
    // The valid tier sets the figures: a P10 at tier P50 has 7,500 IOPS.
    const a = analyze(azure('Standard_D32s_v5', ['{ name: d, type: premium-ssd, size: 128GiB, tier: P50 }']));
    assert.equal(a.vms[0].disks[0].figures.read_iops, 7500);
  });

  it("too-many-disks: more data disks than the size's maximum, the OS disk not counted (dsv5-series: D2s_v5 takes 4)", () => {
    const data = [1, 2, 3, 4].map((i) => `{ name: d${i}, type: premium-ssd, size: 64GiB }`);
    const os = '{ name: os, role: os, type: premium-ssd, size: 64GiB }';
    assert.ok(!codes(azure('Standard_D2s_v5', [os, ...data])).includes('too-many-disks'));
    const d = expectAt(
      azure('Standard_D2s_v5', [os, ...data, '{ name: d5, type: standard-ssd, size: 64GiB }']),
      'too-many-disks',
      'standard-ssd',
    );
    assert.match(d.message, /^Standard_D2s_v5 attaches at most 4 disks; 5 are given/);
  });

  it('Premium SSD v2 and Ultra provisioning outside the type rules is refused (disks-types: 500 IOPS per GiB, 0.25 MB/s per IOPS)', () => {
    // 10 GiB of Premium SSD v2 allows 5,000 IOPS; 40,000 is more than it takes.
    const a = analyze(azure('Standard_D8s_v5', ['{ name: d, type: premium-ssd-v2, size: 10GiB, provisioned_iops: 40000 }']));
    assert.ok(
      a.diagnostics.some((x) => x.severity === 'error' && /provisioned_iops|IOPS/.test(x.message)),
      a.diagnostics.map((x) => x.message).join(' | '),
    );
    // Ultra: 4 GiB allows 4,000 IOPS.
    const u = analyze(azure('Standard_D8s_v5', ['{ name: d, type: ultra-disk, size: 4GiB, provisioned_iops: 8000 }']));
    assert.ok(
      u.diagnostics.some((x) => x.severity === 'error' && /IOPS/.test(x.message)),
      u.diagnostics.map((x) => x.message).join(' | '),
    );
  });

  it('capped-by-vcpu names the size that lifts the uncached limit (disks-performance: 3 × P30 on D8s_v3)', () => {
    const disks = ['a', 'b', 'c'].map((n) => `{ name: ${n}, type: premium-ssd, size: 1024GiB }`);
    const a = analyze(azure('Standard_D8s_v3', disks, ['{ name: app, block_size: 8KiB, read_ratio: 0.5, target: { iops: 15000 } }']));
    const d = a.diagnostics.find((x) => x.code === 'capped-by-vcpu');
    assert.ok(d, a.diagnostics.map((x) => x.code).join(', '));
    assert.match(d.message, /≤ 12,800 read and write IOPS; their targets ask 15,000, more than it; Standard_D16s_v3 lifts it/);
  });

  it('provisioned-above-vm-limit: a Premium SSD v2 provisioned above the size sustains, with its monthly cost', () => {
    // D2s_v5 sustains 3,750 IOPS; 20,000 provisioned IOPS on 100 GiB: 16,250 × $0.00511 a month cannot be used.
    const a = analyze(azure('Standard_D2s_v5', ['{ name: d, type: premium-ssd-v2, size: 100GiB, provisioned_iops: 20000 }']));
    const d = a.diagnostics.find((x) => x.code === 'provisioned-above-vm-limit');
    assert.ok(d, a.diagnostics.map((x) => x.code).join(', '));
    assert.match(
      d.message,
      /^d: 20,000 IOPS provisioned; Standard_D2s_v5 sustains 3,750 for all its disks: \$83\.04\/month pays for what it cannot use/,
    );
  });

  it('provisioned-above-vm-limit: a performance tier the size cannot use, with its monthly cost and the tier that is enough', () => {
    // D2s_v5 sustains 3,750 IOPS and 85 MB/s; a P10 set to P50 (7,500 IOPS) gives no more there than P30.
    const text = azure('Standard_D2s_v5', ['{ name: d, type: premium-ssd, size: 128GiB, tier: P50 }']);
    const d = expectAt(text, 'provisioned-above-vm-limit', 'P50');
    assert.match(
      d.message,
      /^d: tier P50 \(7,500 IOPS, 238 MiB\/s\); Standard_D2s_v5 sustains 3,750 IOPS and 81\.1 MiB\/s for all its disks, which P30 reaches too: \$360\.40\/month pays for what it cannot use$/,
    );
    assert.equal(d.fixes?.[0].title, 'Set tier P30 (−$360.40/month)');
    // On a size that uses it, no finding; P50 itself gives no more than P40 (7,500 IOPS, 250 MB/s), which is cheaper.
    assert.ok(
      !codes(azure('Standard_D16s_v5', ['{ name: d, type: premium-ssd, size: 128GiB, tier: P40 }'])).includes('provisioned-above-vm-limit'),
    );
    const p50 = analyze(azure('Standard_D16s_v5', ['{ name: d, type: premium-ssd, size: 128GiB, tier: P50 }']));
    assert.match(find(p50, 'provisioned-above-vm-limit').message, /which P40 reaches too/);
  });
});
