/** Yandex Cloud: allocation units, per-unit and per-disk caps, the documented IOPS and mixed read/write formulas. */
import * as assert from 'node:assert/strict';
import { builtinRegistry, CatalogRegistry, analyze, type Catalog } from '../../core/src';
import { approx, diskOf, errors, run, specText, vmOf } from '../helpers';

const y = (type: string, size: string | number, extra: Partial<Parameters<typeof specText>[0]> = {}) =>
  run(specText({ provider: 'yandex', series: 'standard-v3', vcpus: 96, ...extra, disks: [{ type, size }] }));

describe('yandex-2025', () => {
  it('per-unit scaling and per-disk caps', () => {
    // type, size (GiB), read IOPS, write IOPS, read MiB/s, write MiB/s
    const rows: Array<[string, number, number, number, number, number]> = [
      ['network-ssd', 32, 1000, 1000, 15, 15],
      ['network-ssd', 640, 20000, 20000, 300, 300], // read IOPS cap reached at 20 units
      ['network-ssd', 960, 20000, 30000, 450, 450], // bandwidth cap at 30 units
      ['network-ssd', 1280, 20000, 40000, 450, 450], // write IOPS cap at 40 units
      ['network-hdd', 256, 300, 300, 30, 30],
      ['network-hdd', 1792, 2000, 2100, 210, 210], // read IOPS cap at 7 units
      ['network-hdd', 2048, 2000, 2400, 240, 240], // bandwidth cap at 8 units
      ['network-hdd', 9472, 2000, 11000, 240, 240], // write IOPS cap at 37 units
      ['network-ssd-nonreplicated', 93, 28000, 5600, 110, 82],
      ['network-ssd-nonreplicated', 279, 75000, 16800, 330, 246],
      ['network-ssd-nonreplicated', 1302, 75000, 75000, 1024, 1024],
      ['network-ssd-io-m3', 744, 75000, 40000, 880, 656],
    ];
    for (const [type, size, r, w, rm, wm] of rows) {
      const a = y(type, size);
      assert.deepEqual(errors(a), [], `${type} ${size}`);
      const d = diskOf(a);
      assert.deepEqual(
        [d.figures.read_iops, d.figures.write_iops, d.figures.read_mibps, d.figures.write_mibps],
        [r, w, rm, wm],
        `${type} ${size} GiB`,
      );
    }
  });

  it('per-VM caps per vCPU (network-ssd: 3,500 IOPS and 45 MiB/s per vCPU)', () => {
    const d = diskOf(y('network-ssd', 1280, { vcpus: 2 }));
    assert.equal(d.figures.write_iops, 7000);
    assert.equal(d.figures.by('write_iops'), 'vm');
    assert.equal(d.figures.read_mibps, 90);
  });

  it('documented IOPS formula: 1 / (1/MaxIOPS + size/MaxBandwidth); 1,024 GiB network-ssd writes at 4 KiB ≈ 25.0k', () => {
    const a = run(
      specText({
        provider: 'yandex',
        series: 'standard-v3',
        vcpus: 96,
        disks: [{ type: 'network-ssd', size: 1024 }],
        workloads: [{ block_size: '4k', read_ratio: 0 }],
      }),
    );
    approx(vmOf(a).workloads[0].write_iops, 1 / (1 / 32000 + 4 / 1024 / 450));
    assert.equal(Math.round(vmOf(a).workloads[0].write_iops / 100) / 10, 25);
  });

  it('the min() reading is available by catalog switch and gives 32,000', () => {
    const base = builtinRegistry.get('yandex-2025')!;
    const minCatalog: Catalog = { ...base, edition: 'yandex-2025-min', io: { ...base.io, iops_formula: 'min' } };
    const registry = new CatalogRegistry([...['gcp-2020', 'gcp-2024', 'yandex-2025'].map((e) => builtinRegistry.get(e)!), minCatalog]);
    const a = analyze(
      specText({
        provider: 'yandex',
        catalog: 'yandex-2025-min',
        series: 'standard-v3',
        vcpus: 96,
        disks: [{ type: 'network-ssd', size: 1024 }],
        workloads: [{ block_size: '4k', read_ratio: 0 }],
      }),
      { registry },
    );
    assert.equal(vmOf(a).workloads[0].write_iops, 32000);
  });

  it("the seed's fio runs agree with MiB/s and the harmonic formula: 4 MiB writes → 112 IOPS, 449 MiB/s; 4 KiB random reads → 17.0k", () => {
    const a = run(
      specText({
        provider: 'yandex',
        series: 'standard-v3',
        vcpus: 96,
        disks: [{ type: 'network-ssd', size: 1280 }],
        workloads: [
          { name: 'writebw', block_size: '4M', read_ratio: 0, pattern: 'sequential' },
          { name: 'randread', block_size: '4k', read_ratio: 1 },
        ],
      }),
    );
    const [bw, rr] = vmOf(a).workloads;
    assert.equal(Math.round(bw.write_iops), 112);
    assert.equal(Math.round(bw.write_mibps), 449); // measured: BW=449MiB/s (471MB/s)
    // Had "MB/s" meant 10^6 bytes/s, the cap would be 429 MiB/s and the prediction 429, not the measured 449.
    assert.equal(Math.round(rr.read_iops / 100) / 10, 17); // measured: IOPS=17.0k
  });

  it('mixed reads and writes: 1 / (α/WriteIOPS + (1−α)/ReadIOPS)', () => {
    const a = run(
      specText({
        provider: 'yandex',
        series: 'standard-v3',
        vcpus: 96,
        disks: [{ type: 'network-ssd', size: 1280 }],
        workloads: [{ block_size: '4k', read_ratio: 0.5 }],
      }),
    );
    const w = vmOf(a).workloads[0];
    const R = 1 / (1 / 20000 + 4 / 1024 / 450);
    const W = 1 / (1 / 40000 + 4 / 1024 / 450);
    approx(w.read_iops + w.write_iops, 1 / (0.5 / W + 0.5 / R));
    approx(w.read_iops, w.write_iops);
  });

  it('allocation units: sizes between units are flagged with a round-up fix; whole-unit types require it', () => {
    const ssd = y('network-ssd', 100);
    const au = ssd.diagnostics.find((d) => d.code === 'allocation-unit');
    assert.ok(au);
    assert.equal(au.severity, 'warning');
    assert.equal(au.fixes?.[0].kind === 'set-value' && au.fixes[0].value, '128GiB');
    const nonrepl = y('network-ssd-nonreplicated', 100);
    assert.equal(nonrepl.diagnostics.find((d) => d.code === 'allocation-unit')?.severity, 'error');
  });

  it('small HDDs get the burst-credit information', () => {
    assert.ok(y('network-hdd', 256).diagnostics.some((d) => d.code === 'hdd-burst'));
    assert.ok(!y('network-hdd', 2048).diagnostics.some((d) => d.code === 'hdd-burst'));
  });

  it('prices in RUB', () => {
    const a = y('network-ssd', 64);
    assert.equal(a.catalog?.currency, 'RUB');
    approx(diskOf(a).cost.monthly! * 100, 64 * 9.1104 * 100);
  });
});
