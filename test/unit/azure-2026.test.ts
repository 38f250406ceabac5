/**
 * azure-2026: Microsoft's tables as the catalog holds them (MB/s of 10^6 bytes converted exactly to MiB/s), at
 * least two rows of every series' size table, and the worked examples of the disk and VM performance page
 * (https://learn.microsoft.com/en-us/azure/virtual-machines/disks-performance) reproduced from specs.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, resolveMachine, vmLimitRow, type Catalog, type Machine } from '../../core/src';
import { ioUnits } from '../../core/src/model/tiers';
import { withController } from '../../core/src/model/disk-controller';

const az = builtinRegistry.get('azure-2026') as Catalog;
/** Microsoft's MB/s (10^6 bytes, "MBps = 10^6 bytes/sec" in every size table's footnote) in MiB/s. */
const MB = 1e6 / 2 ** 20;

function machine(name: string, controller?: 'scsi' | 'nvme'): Machine {
  const r = resolveMachine(az, { machine_type: name });
  assert.ok(r.ok, `${name}: ${r.ok ? '' : r.message}`);
  return withController(r.machine, controller);
}

/** The size's uncached (and burst) row for a disk type, in Microsoft's units. */
function row(name: string, type: string, controller?: 'scsi' | 'nvme') {
  const m = machine(name, controller);
  const found = vmLimitRow(az, m, type);
  assert.ok(found, `${name} has a row for ${type}`);
  const r = found.row;
  const mb = (v: unknown) => Math.round((v as number) / MB);
  return {
    iops: r.read_iops,
    mbps: mb(r.read_mibps),
    burst: r.burst ? [r.burst.read_iops, mb(r.burst.read_mibps)] : undefined,
    source: found.table.source,
  };
}

describe('azure-2026: size tables', () => {
  // [size, vCPUs, max data disks, uncached IOPS, uncached MBps, burst IOPS, burst MBps, network Mbps], from each
  // series page (https://learn.microsoft.com/en-us/azure/virtual-machines/sizes/...), two or more rows each.
  const rows: Array<[string, number, number, number, number, number, number, number]> = [
    ['Standard_D2s_v5', 2, 4, 3750, 85, 10000, 1200, 12500], // general-purpose/dsv5-series
    ['Standard_D96s_v5', 96, 32, 80000, 2600, 80000, 4000, 35000],
    ['Standard_D8ds_v5', 8, 16, 12800, 290, 20000, 1200, 12500], // general-purpose/ddsv5-series
    ['Standard_D64ds_v5', 64, 32, 80000, 1735, 80000, 3000, 30000],
    ['Standard_D8as_v5', 8, 16, 12800, 200, 20000, 600, 12500], // general-purpose/dasv5-series
    ['Standard_D96as_v5', 96, 32, 80000, 1600, 80000, 2000, 40000],
    ['Standard_E20s_v5', 20, 32, 32000, 750, 64000, 1600, 12500], // memory-optimized/esv5-series
    ['Standard_E104is_v5', 104, 64, 120000, 4000, 120000, 4000, 100000],
    ['Standard_E4ds_v5', 4, 8, 6400, 145, 20000, 1200, 12500], // memory-optimized/edsv5-series
    ['Standard_E104ids_v5', 104, 64, 120000, 4000, 120000, 4000, 100000],
    ['Standard_F2s_v2', 2, 4, 3200, 47, 4000, 200, 5000], // compute-optimized/fsv2-series
    ['Standard_F72s_v2', 72, 32, 80000, 1100, 80000, 2000, 30000],
    ['Standard_L8s_v3', 8, 16, 12800, 290, 20000, 1200, 12500], // storage-optimized/lsv3-series
    ['Standard_L80s_v3', 80, 32, 80000, 2160, 80000, 3000, 32000],
    ['Standard_B2ts_v2', 2, 4, 3750, 85, 10000, 960, 6250], // general-purpose/bsv2-series
    ['Standard_B32s_v2', 32, 32, 51200, 600, 80000, 960, 6250],
    ['Standard_D2s_v6', 2, 8, 3750, 106, 40000, 1250, 12500], // general-purpose/dsv6-series
    ['Standard_D192s_v6', 192, 64, 260000, 12000, 260000, 12000, 82000],
    ['Standard_E20s_v6', 20, 48, 32000, 1060, 64000, 1600, 12500], // memory-optimized/esv6-series
    ['Standard_E192is_v6', 192, 64, 260000, 12000, 260000, 12000, 200000],
    ['Standard_D2as_v6', 2, 4, 4000, 90, 20000, 1250, 12500], // general-purpose/dasv6-series
    ['Standard_D96as_v6', 96, 32, 175000, 4320, 175000, 5090, 40000],
    ['Standard_D8s_v3', 8, 16, 12800, 192, 16000, 400, 2000], // general-purpose/dsv3-series (new page's network)
    ['Standard_D64s_v3', 64, 32, 80000, 1200, 80000, 2000, 30000],
  ];

  it("each size's vCPUs, data disks, uncached and burst limits and network are the page's row", () => {
    for (const [name, vcpus, disks, iops, mbps, bi, bm, net] of rows) {
      const m = machine(name);
      assert.equal(m.vcpus, vcpus, `${name} vCPUs`);
      const count = m.info.disk_count_limits!.rows.find((r) => r.machine_types?.includes(name));
      assert.equal(count?.total, disks, `${name} data disks`);
      const r = row(name, 'premium-ssd');
      assert.equal(r.iops, iops, `${name} uncached IOPS`);
      assert.equal(r.mbps, mbps, `${name} uncached MBps`);
      assert.deepEqual(r.burst ?? [iops, mbps], [bi, bm], `${name} burst`);
      assert.equal(r.source, `size-${m.series}`);
      const egress = m.info.egress_gbps!.rows!.find((x) => x.machine_types?.includes(name));
      assert.equal(egress!.gbps * 1000, net, `${name} network`);
    }
  });

  it('throughput is kept in MiB/s converted exactly from MB/s: the D8s_v3 192 MBps is 183.105 MiB/s', () => {
    const m = machine('Standard_D8s_v3');
    assert.ok(Math.abs((vmLimitRow(az, m, 'premium-ssd')!.row.read_mibps as number) - 192 * MB) < 1e-5);
    const p30 = (az.disk_types['premium-ssd'] as { tiers: { rows: Array<{ name: string; mibps: number }> } }).tiers.rows;
    assert.ok(Math.abs(p30.find((r) => r.name === 'P30')!.mibps - 200 * MB) < 1e-5);
  });

  it('Premium SSD v2 and Ultra have their own column where the page publishes one (Dsv6, Esv6, Dasv6, Ebsv5, Lsv3)', () => {
    // dsv6-series: D2s_v6 Premium SSD 3,750 / 106, Premium SSD v2 and Ultra 4,167 / 124, burst 44,444 / 1,463
    assert.deepEqual(row('Standard_D2s_v6', 'premium-ssd-v2'), { iops: 4167, mbps: 124, burst: [44444, 1463], source: 'size-dsv6' });
    assert.deepEqual(row('Standard_D192s_v6', 'ultra-disk').iops, 400400);
    assert.deepEqual(row('Standard_E192is_v6', 'ultra-disk').iops, 400000); // esv6-series: 400,000, not 400,400
    assert.equal(row('Standard_L8s_v3', 'premium-ssd-v2').iops, 12800); // lsv3-series
    // dasv5-series has no such column: one uncached limit for every remote disk
    assert.equal(row('Standard_D8as_v5', 'premium-ssd-v2').iops, 12800);
  });

  it('Ebsv5 limits differ by controller: NVMe above SCSI, and Premium SSD v2 / Ultra above Premium SSD', () => {
    // memory-optimized/ebdsv5-ebsv5-series: E8bs_v5 NVMe 33,000 / 930 (v2 44,200 / 1,200), SCSI 24,200 / 680 (v2 32,400 / 680)
    assert.deepEqual(row('Standard_E8bs_v5', 'premium-ssd', 'nvme').iops, 33000);
    assert.deepEqual(row('Standard_E8bs_v5', 'premium-ssd-v2', 'nvme').mbps, 1200);
    assert.deepEqual(row('Standard_E8bs_v5', 'premium-ssd', 'scsi').mbps, 680);
    assert.deepEqual(row('Standard_E8bds_v5', 'ultra-disk', 'scsi').iops, 32400);
    assert.deepEqual(row('Standard_E64bs_v5', 'ultra-disk', 'scsi'), { iops: 160800, mbps: 6500, burst: undefined, source: 'size-ebsv5' });
    // The default is SCSI; E112i sizes are NVMe only, whatever the spec asks.
    assert.equal(row('Standard_E8bs_v5', 'premium-ssd').iops, 24200);
    assert.equal(row('Standard_E112ibs_v5', 'premium-ssd', 'scsi').iops, 260000);
  });

  it('cached limits and cache sizes where the page publishes them (Dsv3, the older Fsv2 page)', () => {
    const d8 = machine('Standard_D8s_v3').info.cached_limits!.rows.find((r) => r.machine_types.includes('Standard_D8s_v3'))!;
    assert.deepEqual([d8.iops, Math.round(d8.mibps / MB), d8.cache_gib], [16000, 128, 200]);
    const f72 = machine('Standard_F72s_v2').info.cached_limits!.rows.find((r) => r.machine_types.includes('Standard_F72s_v2'))!;
    assert.deepEqual([f72.iops, Math.round(f72.mibps / MB), f72.cache_gib], [144000, 1152, 1520]);
    assert.equal(machine('Standard_D8s_v5').info.cached_limits, undefined, 'v5 pages publish no cached limit');
    assert.equal(machine('Standard_L8s_v3').info.host_caching!.supported, false, 'Lsv3: premium storage caching not supported');
  });

  it('names are read in any case, as Azure writes them or not', () => {
    assert.equal(machine('standard_d8s_v5').name, 'Standard_D8s_v5');
    assert.equal(machine('STANDARD_D8S_V5').name, 'Standard_D8s_v5');
  });

  it('the dated conflicts are decided for 2026 and said so', () => {
    const pv2 = az.disk_types['premium-ssd-v2'];
    assert.ok(pv2.model === 'provisioned');
    assert.ok(Math.abs(pv2.provisioned.mibps!.max - 2000 * MB) < 1e-5, 'Premium SSD v2: 2,000 MB/s (2026 page), not 1,200');
    assert.match(az.sources.types.note!, /1,200 MB\/s/);
    assert.match(az.sources['size-dsv3'].note!, /conflicting/);
    assert.match(az.sources.prices.note!, /Secondary/);
  });
});

/** A spec of one VM on Azure, its disks and one workload, as YAML text. */
function spec(size: string, disks: string[], workload: string): string {
  return [
    'version: 1',
    'provider: azure',
    'region: eastus',
    'vms:',
    '  - name: vm',
    `    machine_type: ${size}`,
    '    disks:',
    ...disks.map((d) => `      - ${d}`),
    '    workloads:',
    `      - ${workload}`,
    '',
  ].join('\n');
}

function workloadIops(text: string): { iops: number; limited_by: string; meets?: boolean } {
  const a = analyze(text);
  const w = a.vms[0].workloads[0];
  return { iops: Math.round(w.read_iops + w.write_iops), limited_by: w.limited_by, meets: w.meets_target };
}

describe("azure-2026: Microsoft's worked examples (https://learn.microsoft.com/en-us/azure/virtual-machines/disks-performance)", () => {
  it('disk-level capping: three E30 disks on a Standard_D8s_v3 give the application 1,500 IOPS', () => {
    const text = spec(
      'Standard_D8s_v3',
      [
        '{ name: a, type: standard-ssd, size: 1024GiB }',
        '{ name: b, type: standard-ssd, size: 1024GiB }',
        '{ name: c, type: standard-ssd, size: 1024GiB }',
      ],
      '{ name: app, block_size: 8KiB, read_ratio: 0.5, target: { iops: 15000 } }',
    );
    assert.deepEqual(workloadIops(text), { iops: 1500, limited_by: 'size', meets: false });
  });

  it('VM-level capping: three P30 disks on a Standard_D8s_v3 give 12,800 IOPS, its uncached limit', () => {
    const text = spec(
      'Standard_D8s_v3',
      [
        '{ name: a, type: premium-ssd, size: 1024GiB }',
        '{ name: b, type: premium-ssd, size: 1024GiB }',
        '{ name: c, type: premium-ssd, size: 1024GiB }',
      ],
      '{ name: app, block_size: 8KiB, read_ratio: 0.5, target: { iops: 15000 } }',
    );
    assert.deepEqual(workloadIops(text), { iops: 12800, limited_by: 'vm', meets: false });
  });

  it('cached plus uncached: three cached P30 and two uncached P30 on a Standard_D8s_v3 serve a 25,000 IOPS request', () => {
    // The page's set-up: a P30 OS disk and two P30 data disks with read/write caching, two P30 data disks without.
    const disks = [
      '{ name: os, role: os, type: premium-ssd, size: 1024GiB, caching: read-write }',
      '{ name: c1, type: premium-ssd, size: 1024GiB, caching: read-write }',
      '{ name: c2, type: premium-ssd, size: 1024GiB, caching: read-write }',
      '{ name: u1, type: premium-ssd, size: 1024GiB }',
      '{ name: u2, type: premium-ssd, size: 1024GiB }',
    ];
    const wl = '{ name: app, block_size: 4KiB, read_ratio: 1, cache_hit_ratio: 1, target: { iops: 25000 } }';
    const both = workloadIops(spec('Standard_D8s_v3', disks, wl));
    assert.equal(both.meets, true, 'the cached limit (16,000) and the uncached one (12,800) add up');
    // The uncached disks give 10,000 (2 × 5,000); the cache path is held to the cached limit, 16,000.
    assert.equal(both.iops, 10000 + 16000);
    // Without host caching the same disks share the uncached limit alone: 12,800, short of the request.
    const none = workloadIops(
      spec(
        'Standard_D8s_v3',
        disks.map((d) => d.replace(/, caching: read-write/, '')),
        wl,
      ),
    );
    assert.deepEqual(none, { iops: 12800, limited_by: 'vm', meets: false });
  });
});

function vmOf(text: string) {
  const a = analyze(text);
  assert.ok(a.vms[0], a.diagnostics.map((d) => d.message).join(' | '));
  return a.vms[0];
}

describe('azure-2026: how disk and VM limits combine', () => {
  const wl = (extra: string) => `{ name: w, block_size: 8KiB, read_ratio: 0.5${extra} }`;

  it('a size is rounded up to its tier: 200 GiB of Premium SSD is a P15, 1,100 IOPS / 125 MB/s, priced as P15 (disks-types)', () => {
    const d = vmOf(spec('Standard_D32s_v5', ['{ name: d, type: premium-ssd, size: 200GiB }'], wl(''))).disks[0];
    assert.equal(d.figures.read_iops, 1100);
    assert.ok(Math.abs(d.figures.read_mibps - 125 * MB) < 1e-6);
    assert.match(d.figures.why('read_iops'), /200 GiB rounded up to P15/);
    assert.equal(d.cost.monthly, 38.02);
    // A tier without a known price leaves the total partial, never $0 (P60 has none in this edition).
    const big = vmOf(spec('Standard_D32s_v5', ['{ name: d, type: premium-ssd, size: 8000GiB }'], wl(''))).disks[0];
    assert.equal(big.cost.monthly, undefined);
    assert.equal(big.cost.complete, false);
  });

  it('rule 1, per disk: each disk delivers at most its own tier (disks-performance: "E30 disks ... can only handle 500 IOPS")', () => {
    const d = vmOf(spec('Standard_D8s_v3', ['{ name: d, type: standard-ssd, size: 1024GiB }'], wl(''))).disks[0];
    assert.equal(d.figures.read_iops, 500);
    assert.equal(d.figures.by('read_iops'), 'size');
  });

  it('rule 1, I/O accounting: an I/O above 256 KiB counts as several against Premium and Standard SSD IOPS (disks-types)', () => {
    const d = vmOf(
      spec('Standard_D8s_v5', ['{ name: p, type: premium-ssd, size: 4GiB }', '{ name: s, type: standard-hdd, size: 32GiB }'], wl('')),
    ).disks;
    assert.deepEqual(
      [1, 256, 257, 512, 1024, 2048].map((k) => ioUnits(d[0], k)),
      [1, 1, 2, 2, 4, 8],
    );
    assert.equal(ioUnits(d[1], 1024), 1, 'Standard HDD: the 16 KiB unit is for billing only');
    // In this edition's tables the rule never binds before throughput does: every tier's IOPS × 256 KiB is above its
    // MB/s (a P1: 120 × 256 KiB = 30 MiB/s > 25 MB/s), burst and performance plus included. So a P1 at 1 MiB reads
    // is held by its throughput, 23.8 a second, below the 30 its IOPS allow at 4 units each.
    for (const name of ['premium-ssd', 'standard-ssd']) {
      const t = az.disk_types[name] as unknown as { tiers: { rows: Array<Record<string, number>> } };
      for (const r of t.tiers.rows)
        for (const [i, m] of [
          ['iops', 'mibps'],
          ['burst_iops', 'burst_mibps'],
          ['plus_iops', 'plus_mibps'],
        ])
          if (r[i] !== undefined) assert.ok(r[i] * 0.25 > r[m], `${name} ${r.name} ${i}`);
    }
    const w = vmOf(spec('Standard_D8s_v5', ['{ name: d, type: premium-ssd, size: 4GiB }'], '{ name: w, block_size: 1MiB, read_ratio: 1 }'))
      .workloads[0];
    assert.ok(Math.abs(w.read_iops - 25 * MB) < 0.01);
  });

  it('rule 2, per VM: the uncached limit caps the disks together (disks-performance: 3 × P30 on D8s_v3, 12,800)', () => {
    const e = vmOf(
      spec(
        'Standard_D8s_v3',
        ['a', 'b', 'c'].map((n) => `{ name: ${n}, type: premium-ssd, size: 1024GiB }`),
        wl(''),
      ),
    );
    assert.equal(Math.round(e.workloads[0].read_iops + e.workloads[0].write_iops), 12800);
    assert.equal(e.sharedLimits?.[0].value, 12800);
  });

  it('rule 2, throughput converts through the I/O size: 192 MB/s on D8s_v3 holds 1 MiB I/O to 183.1 a second', () => {
    const e = vmOf(
      spec(
        'Standard_D8s_v3',
        ['a', 'b', 'c'].map((n) => `{ name: ${n}, type: premium-ssd, size: 1024GiB }`),
        '{ name: w, block_size: 1MiB, read_ratio: 1 }',
      ),
    );
    assert.ok(Math.abs(e.workloads[0].read_mibps - 192 * MB) < 0.05);
  });

  it('rule 3, host caching: hits leave the uncached path; a miss and a write count on both; the cached limit adds (disks-performance)', () => {
    const disks = ['{ name: c, type: premium-ssd, size: 1024GiB, caching: read-only }'];
    const at = (extra: string) => vmOf(spec('Standard_D2s_v3', disks, `{ name: w, block_size: 4KiB${extra} }`)).workloads[0];
    const total = (w: { read_iops: number; write_iops: number }) => Math.round(w.read_iops + w.write_iops);
    // D2s_v3: uncached 3,200 IOPS, cached 4,000. No hits: the uncached limit, 3,200.
    assert.equal(total(at(', read_ratio: 1')), 3200);
    // Every read a hit: the cached limit alone, 4,000 (the disk and the uncached limit carry nothing).
    assert.equal(total(at(', read_ratio: 1, cache_hit_ratio: 1')), 4000);
    // Half the reads hit: the uncached path carries the misses, 3,200 of them, so 6,400 in all, held to 4,000 cached.
    assert.equal(total(at(', read_ratio: 1, cache_hit_ratio: 0.5')), 4000);
    // All writes: every one counts on both paths, so the uncached limit holds them whatever the hit ratio.
    assert.equal(total(at(', read_ratio: 0, cache_hit_ratio: 1')), 3200);
  });

  it('rule 4, where caching is allowed: at 4 TiB and more the cache is not used (premium-storage-performance)', () => {
    const w = vmOf(
      spec(
        'Standard_D2s_v3',
        ['{ name: c, type: premium-ssd, size: 4096GiB, caching: read-only }'],
        '{ name: w, block_size: 4KiB, read_ratio: 1, cache_hit_ratio: 1 }',
      ),
    ).workloads[0];
    assert.equal(Math.round(w.read_iops), 3200);
  });

  it('rule 5, which cached limit: a v5 size publishes none, so the cache path is held only by what its misses allow', () => {
    const w = vmOf(
      spec(
        'Standard_D2s_v5',
        ['{ name: c, type: premium-ssd, size: 1024GiB, caching: read-only }'],
        '{ name: w, block_size: 4KiB, read_ratio: 1, cache_hit_ratio: 0.5 }',
      ),
    ).workloads[0];
    // Uncached 3,750 over half the operations: 7,500, with no cached limit published to hold it.
    assert.equal(Math.round(w.read_iops), 7500);
  });

  it('rule 6, separate Premium SSD v2 / Ultra column on v6: a Premium SSD v2 on D2s_v6 reaches 4,167 IOPS, a Premium SSD 3,750', () => {
    const e = vmOf(
      spec(
        'Standard_D2s_v6',
        ['{ name: v2, type: premium-ssd-v2, size: 100GiB, provisioned_iops: 20000 }', '{ name: p, type: premium-ssd, size: 2048GiB }'],
        wl(''),
      ),
    );
    assert.deepEqual(
      e.disks.map((d) => [d.spec.name, Math.round(d.figures.read_iops)]),
      [
        ['v2', 4167],
        ['p', 3750],
      ],
    );
  });

  it('rule 7, bursting: a P20 bursts on credits to 3,500 IOPS for 30 minutes; a D8s_v5 to 20,000 in its window (disk-bursting)', () => {
    const p20 = vmOf(spec('Standard_D16s_v5', ['{ name: d, type: premium-ssd, size: 512GiB }'], wl(''))).disks[0];
    assert.equal(p20.figures.read_iops, 2300, 'sustained figures stay the headline');
    assert.equal(p20.burst?.read_iops?.value, 3500);
    assert.equal(p20.burst?.read_iops?.seconds, 1800);
    assert.equal(p20.burst?.read_iops?.ends, 'credits');
    // P30 and up do not burst on credits.
    assert.equal(
      vmOf(spec('Standard_D16s_v5', ['{ name: d, type: premium-ssd, size: 1024GiB }'], wl(''))).disks[0].burst?.read_iops,
      undefined,
    );
    // VM-level: D8s_v5 sustains 12,800 and bursts to 20,000 for 30 minutes; three P40 (7,500 each) reach it.
    const vm = vmOf(
      spec(
        'Standard_D8s_v5',
        ['a', 'b', 'c'].map((n) => `{ name: ${n}, type: premium-ssd, size: 2048GiB }`),
        wl(''),
      ),
    );
    const b = vm.workloads[0].burst;
    assert.ok(b, 'the workload has a burst');
    assert.equal(Math.round(b.read_iops + b.write_iops), 20000);
    assert.equal(b.seconds, 1800);
    assert.equal(b.ends, 'window');
  });

  it("rule 8, premium storage: the issue's 13 series are s series and take all five types (vm-naming-conventions)", () => {
    // The older series without premium storage (F, Dv2, Dv3, Av2) and with it (Fs, DSv2, Bv1): azure-2026-old-sizes.test.ts.
    for (const name of ['dsv5', 'ddsv5', 'dasv5', 'esv5', 'edsv5', 'ebsv5', 'fsv2', 'lsv3', 'bsv2', 'dsv6', 'esv6', 'dasv6', 'dsv3'])
      assert.deepEqual(
        az.machine_series[name].disk_types,
        ['premium-ssd', 'standard-ssd', 'standard-hdd', 'premium-ssd-v2', 'ultra-disk'],
        name,
      );
  });

  it('rule 9 and 10: max data disks leave the OS disk out; network bandwidth is kept apart from disk limits', () => {
    assert.equal(az.disk_types['premium-ssd'].network_writes, false);
    const e = vmOf(
      spec(
        'Standard_D2s_v5',
        [
          '{ name: os, role: os, type: premium-ssd, size: 64GiB }',
          ...[1, 2, 3, 4].map((i) => `{ name: d${i}, type: premium-ssd, size: 64GiB }`),
        ],
        wl(''),
      ),
    );
    assert.equal(e.disks.length, 5);
  });

  it('performance plus raises a P30 to 8,000 IOPS and 300 MB/s (disks-enable-performance)', () => {
    const d = vmOf(spec('Standard_D32s_v5', ['{ name: d, type: premium-ssd, size: 1024GiB, performance_plus: true }'], wl(''))).disks[0];
    assert.equal(d.figures.read_iops, 8000);
    assert.ok(Math.abs(d.figures.read_mibps - 300 * MB) < 1e-6);
  });

  it('Premium SSD v2: 3,000 IOPS and 125 MB/s free; 500 IOPS per GiB; 0.25 MB/s per IOPS up to 2,000 MB/s (disks-types)', () => {
    const d = (extra: string) => vmOf(spec('Standard_D96s_v6', [`{ name: d, type: premium-ssd-v2, ${extra} }`], wl(''))).disks[0];
    const base = d('size: 100GiB');
    assert.equal(base.figures.read_iops, 3000);
    assert.ok(Math.abs(base.figures.read_mibps - 125 * MB) < 1e-5);
    const top = d('size: 200GiB, provisioned_iops: 80000, provisioned_throughput: 2000MB/s');
    assert.equal(top.figures.read_iops, 80000);
    assert.ok(Math.abs(top.figures.read_mibps - 2000 * MB) < 1e-3);
    // Priced as the secondary source gives East US: 200 GiB × $0.0803 + 77,000 IOPS × $0.00511 + 1,875 MB/s × $0.0402.
    assert.ok(Math.abs(top.cost.monthly! - (200 * 0.0803 + 77000 * 0.00511 + 1875 * 0.0402)) < 0.02);
  });

  it('a zone-redundant disk of any type has no price here, never the locally redundant one', () => {
    for (const disk of [
      'type: premium-ssd-v2, size: 200GiB',
      'type: ultra-disk, size: 200GiB, provisioned_iops: 6000',
      'type: premium-ssd, size: 200GiB',
    ]) {
      const d = (extra: string) => vmOf(spec('Standard_D96s_v6', [`{ name: d, ${disk}${extra} }`], wl(''))).disks[0];
      assert.ok(d('').cost.monthly! > 0, disk);
      const zrs = d(', redundancy: zrs');
      assert.equal(zrs.cost.monthly, undefined, disk);
      assert.match(zrs.cost.gaps.map((m) => m.text).join('; '), /ZRS price unknown/, disk);
    }
  });
});
