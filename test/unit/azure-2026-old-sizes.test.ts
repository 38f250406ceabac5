/**
 * azure-2026: the older sizes real Terraform uses (Standard_F2 above all, Standard_DS1_v2, Standard_B1s,
 * Standard_D2_v3, Standard_A1_v2), as Microsoft's size pages give them. Each row below cites its page; the catalog's
 * sources name the page's file and commit in MicrosoftDocs/azure-compute-docs or MicrosoftDocs/azure-docs.
 *
 * F, Dv2, Dv3 and Av2 sizes have no premium storage ("Premium Storage: Not Supported"), so Premium SSD, Premium SSD
 * v2 and Ultra Disk are refused on them; their pages publish no per-VM disk limit (the old "max data disks /
 * throughput: IOPS" column, 8x500 for an F2, is the data disk count and 500 IOPS per data disk, a figure of the
 * disks), so their disks' figures are upper bounds (machine-limits-unknown).
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, resolveMachine, vmLimitRow, type Catalog, type Machine } from '../../core/src';
import { applyFix, find } from '../checks/helpers';

const az = builtinRegistry.get('azure-2026') as Catalog;
/** Microsoft's MB/s (10^6 bytes: "MBps = 10^6 bytes/sec" in every size table) in MiB/s. */
const MB = 1e6 / 2 ** 20;

function machine(name: string): Machine {
  const r = resolveMachine(az, { machine_type: name });
  assert.ok(r.ok, `${name}: ${r.ok ? '' : r.message}`);
  return r.machine;
}

const rowOf = <T extends { machine_types?: string[] }>(rows: T[] | undefined, name: string) =>
  rows?.find((r) => r.machine_types?.includes(name));

/** A size as the catalog holds it, in Microsoft's units. */
function size(name: string) {
  const m = machine(name);
  const lim = vmLimitRow(az, m, 'standard-ssd');
  const cached = rowOf(m.info.cached_limits?.rows, name);
  const mb = (v: unknown) => Math.round(((v as number) / MB) * 10) / 10;
  return {
    vcpus: m.vcpus,
    disks: rowOf(m.info.disk_count_limits?.rows, name)?.total,
    network: rowOf(m.info.egress_gbps?.rows, name) ? rowOf(m.info.egress_gbps?.rows, name)!.gbps * 1000 : undefined,
    uncached: lim && !lim.row.upper_bound_of ? [lim.row.read_iops, mb(lim.row.read_mibps)] : undefined,
    burst: lim?.row.burst ? [lim.row.burst.read_iops, mb(lim.row.burst.read_mibps)] : undefined,
    cached: cached ? [cached.iops, mb(cached.mibps), cached.cache_gib] : undefined,
    premium: m.info.disk_types?.includes('premium-ssd'),
    source: m.info.types_source?.source,
  };
}

describe('azure-2026: the older sizes (F, Fs, Dv2, DSv2, Dv3, Av2, Bv1)', () => {
  // [size, vCPUs, max data disks, network Mbps, uncached IOPS / MBps, burst IOPS / MBps, cached IOPS / MBps / cache GiB, premium]
  type Row = [string, number, number, number | undefined, number[] | undefined, number[] | undefined, number[] | undefined, boolean];
  const rows: Row[] = [
    // https://learn.microsoft.com/en-us/azure/virtual-machines/sizes-previous-gen (F-series: 8/8x500, 2/1500)
    ['Standard_F2', 2, 8, 1500, undefined, undefined, undefined, false],
    ['Standard_F16', 16, 64, 12000, undefined, undefined, undefined, false],
    // the same page, Fs-series: 8 data disks, 8000/64 (24), 6400/96, 2/1500
    ['Standard_F2s', 2, 8, 1500, [6400, 96], undefined, [8000, 64, 24], true],
    ['Standard_F16s', 16, 64, 12000, [51200, 768], undefined, [64000, 512, 192], true],
    // sizes/general-purpose/dv2-series: 4 remote disks, 750 Mbps; 64 and 12,000
    ['Standard_D1_v2', 1, 4, 750, undefined, undefined, undefined, false],
    ['Standard_D5_v2', 16, 64, 12000, undefined, undefined, undefined, false],
    // sizes/memory-optimized/dv2-dsv2-series-memory: D11_v2 8/8x500, 1500; D15_v2 20 vCPUs, 64, 25000
    ['Standard_D11_v2', 2, 8, 1500, undefined, undefined, undefined, false],
    ['Standard_D15_v2', 20, 64, 25000, undefined, undefined, undefined, false],
    // sizes/general-purpose/dsv2-series (uncached 3200 / 48) with the older dv2-dsv2-series page's cached 4000/32 (43)
    ['Standard_DS1_v2', 1, 4, 750, [3200, 48], undefined, [4000, 32, 43], true],
    ['Standard_DS5_v2', 16, 64, 12000, [51200, 768], undefined, [64000, 512, 688], true],
    // sizes/memory-optimized/dv2-dsv2-series-memory: DS11_v2 8000/64 (72), 6400/96; DS15_v2 80000/640 (720), 64000/960
    ['Standard_DS11_v2', 2, 8, 1500, [6400, 96], undefined, [8000, 64, 72], true],
    ['Standard_DS15_v2', 20, 64, 25000, [64000, 960], undefined, [80000, 640, 720], true],
    // sizes/general-purpose/dv3-series: max remote disks and network only
    ['Standard_D2_v3', 2, 4, 1000, undefined, undefined, undefined, false],
    ['Standard_D64_v3', 64, 32, 30000, undefined, undefined, undefined, false],
    // sizes/general-purpose/av2-series: A1_v2 2 disks, 250 Mbps; A8m_v2 16, 2000
    ['Standard_A1_v2', 1, 2, 250, undefined, undefined, undefined, false],
    ['Standard_A8m_v2', 8, 16, 2000, undefined, undefined, undefined, false],
    // sizes/general-purpose/bv1-series: B1s 2 disks, 320 / 10, burst 4000 / 100; B20ms 32, 4320 / 50, 16000 / 400
    ['Standard_B1s', 1, 2, undefined, [320, 10], [4000, 100], undefined, true],
    ['Standard_B2ms', 2, 4, undefined, [1920, 22.5], [4000, 100], undefined, true],
    ['Standard_B20ms', 20, 32, undefined, [4320, 50], [16000, 400], undefined, true],
  ];

  it("each size's vCPUs, data disks, network, uncached, burst and cached limits and premium storage are the page's", () => {
    for (const [name, vcpus, disks, network, uncached, burst, cached, premium] of rows) {
      const s = size(name);
      assert.deepEqual(
        [s.vcpus, s.disks, s.network, s.uncached, s.burst, s.cached, s.premium],
        [vcpus, disks, network, uncached, burst, cached, premium],
        name,
      );
    }
  });

  it('every table names its page, the file and commit it was read from, and its date', () => {
    for (const [name] of rows) {
      const key = size(name).source!;
      const src = az.sources[key];
      assert.match(src.url, /^https:\/\/learn\.microsoft\.com\//, `${name}: ${key}`);
      assert.match(src.file ?? '', /^MicrosoftDocs\/azure-(compute-)?docs articles\/virtual-machines\//, key);
      assert.match(src.commit ?? '', /^[0-9a-f]{40}$/, key);
      assert.match(src.date, /^20\d\d-\d\d-\d\d$/, key);
    }
  });

  it('values the pages disagree on, or that are read rather than stated, say so', () => {
    // DSv2 caching: "Not Supported" on the 2024 page, "Supported" with cached limits on the 2020 and 2022 pages.
    assert.match(az.sources['size-dsv2'].note!, /\[conflicting\]/);
    assert.equal(machine('Standard_DS1_v2').info.host_caching?.supported, true);
    // Bv1: the page writes Standard_B1ls2 in three tables and Standard_B1ls in one.
    assert.match(az.sources['size-bv1'].note!, /B1ls2.*\[conflicting\]/);
    assert.equal(machine('Standard_B1ls').vcpus, 1);
    // The old "max data disks / throughput: IOPS" column is read as a figure of the disks, never as a VM limit.
    for (const key of ['size-f', 'size-dv2', 'size-dv2-memory', 'size-av2']) assert.match(az.sources[key].note!, /\[inferred\]/, key);
  });

  it('names are read as Azure writes them and in any case', () => {
    assert.equal(machine('standard_f2').name, 'Standard_F2');
    assert.equal(machine('STANDARD_DS1_V2').name, 'Standard_DS1_v2');
  });
});

/** One VM on `size` with `disks` (YAML flow maps) and a workload on the first disk, as a spec's text. */
function spec(machineType: string, disks: string[], target = ''): string {
  return [
    'version: 1',
    'provider: azure',
    'region: eastus',
    'vms:',
    '  - name: vm',
    `    machine_type: ${machineType}`,
    '    disks:',
    ...disks.map((d) => `      - ${d}`),
    '    workloads:',
    `      - { name: w, disk: d, block_size: 8KiB, read_ratio: 0.5${target} }`,
    '',
  ].join('\n');
}

describe('azure-2026: premium disks on sizes without premium storage', () => {
  // "Premium Storage: Not Supported": https://learn.microsoft.com/en-us/azure/virtual-machines/sizes-previous-gen (F-series)
  for (const type of ['premium-ssd', 'premium-ssd-v2', 'ultra-disk']) {
    it(`${type} on a Standard_F2 is refused, with a fix to standard-ssd that analyses clean`, () => {
      const text = spec('Standard_F2', [`{ name: d, type: ${type}, size: 256GiB }`]);
      const d = find(analyze(text), 'disk-type-not-on-series');
      assert.equal(text.slice(d.span.start, d.span.end), type);
      assert.equal(d.message, `f machines cannot attach ${type}; they take standard-ssd, standard-hdd (azure-2026: size-f)`);
      const fix = d.fixes?.find((f) => f.preferred);
      assert.ok(fix?.kind === 'set-value');
      assert.equal(fix.value, 'standard-ssd');
      const fixed = analyze(applyFix(text, fix));
      // The other fix keeps the disk and changes the size to the one with premium storage, Standard_F2s, which takes
      // Premium SSD and Premium SSD v2 but not Ultra Disk (the Ultra Disk page does not list Fs): none for that.
      const size = d.fixes?.find((f) => !f.preferred);
      if (type === 'ultra-disk') assert.equal(size, undefined);
      else {
        assert.ok(size?.kind === 'set-value');
        assert.equal(size.value, 'Standard_F2s');
        const resized = analyze(applyFix(text, size));
        assert.deepEqual(
          resized.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code),
          [],
        );
        assert.equal(resized.vms[0].machine?.name, 'Standard_F2s');
      }
      assert.deepEqual(
        fixed.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code),
        [],
      );
      assert.equal(fixed.vms[0].disks[0].typeName, 'standard-ssd');
      assert.equal(fixed.vms[0].disks[0].figures.read_iops, 500, 'E15: 500 IOPS');
    });
  }

  it('the same on Dv2, Dv3 and Av2 sizes; Premium SSD on their s counterparts is taken', () => {
    for (const m of ['Standard_D2_v2', 'Standard_D12_v2', 'Standard_D2_v3', 'Standard_A2m_v2'])
      find(analyze(spec(m, ['{ name: d, type: premium-ssd, size: 256GiB }'])), 'disk-type-not-on-series');
    for (const m of ['Standard_F2s', 'Standard_DS2_v2', 'Standard_DS12_v2', 'Standard_B2s'])
      assert.ok(
        !analyze(spec(m, ['{ name: d, type: premium-ssd, size: 256GiB }'])).diagnostics.some((x) => x.code.startsWith('disk-type')),
        m,
      );
  });
});

describe('azure-2026: figures on the older sizes', () => {
  it('a standard-ssd on a Standard_F2 has figures: its own E15 tier, upper bounds since the size publishes no limit', () => {
    const a = analyze(spec('Standard_F2', ['{ name: d, type: standard-ssd, size: 256GiB }'], ', target: { iops: 400 }'));
    const d = a.vms[0].disks[0];
    assert.equal(d.figures.read_iops, 500); // E15: 500 IOPS, 60 MB/s (disks-scalability-targets)
    assert.ok(Math.abs(d.figures.read_mibps - 60 * MB) < 1e-6);
    assert.equal(d.vmLimitKnown, false);
    assert.match(find(a, 'machine-limits-unknown').message, /no per-VM standard-ssd limits for Standard_F2/);
    assert.equal(d.cost.monthly, 19.2, 'E15, East US (secondary price source)');
    assert.equal(a.vms[0].workloads[0].meets_target, undefined, 'a target reached only by upper bounds is not judged');
  });

  it('a P30 on a Standard_DS1_v2 is held to its 3,200 IOPS uncached limit (dsv2-series)', () => {
    const d = analyze(spec('Standard_DS1_v2', ['{ name: d, type: premium-ssd, size: 1024GiB }'])).vms[0].disks[0];
    assert.equal(d.figures.read_iops, 3200);
    assert.equal(d.figures.by('read_iops'), 'vm');
    assert.ok(Math.abs(d.figures.read_mibps - 48 * MB) < 1e-6);
  });

  it('a Standard_B1s holds a P10 to 320 IOPS and 10 MB/s, and bursts to 4,000 / 100 for 30 minutes (bv1-series)', () => {
    const a = analyze(spec('Standard_B1s', ['{ name: d, type: premium-ssd, size: 128GiB }']));
    const d = a.vms[0].disks[0];
    assert.deepEqual([d.figures.read_iops, d.figures.by('read_iops')], [320, 'vm']);
    assert.ok(Math.abs(d.figures.read_mibps - 10 * MB) < 1e-6);
    // Bv1: "Premium Storage caching: Not Supported".
    const cached = spec('Standard_B1s', ['{ name: d, type: premium-ssd, size: 128GiB, caching: read-only }']);
    const said = find(analyze(cached), 'host-caching-no-effect');
    assert.equal(said.severity, 'information');
    assert.match(said.message, /Standard_B1s has no host cache/);
  });
});
