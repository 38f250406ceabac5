/**
 * The gcp-2020 edition reproduces every table of Google's 2020 persistent disk performance page
 * (the project's seed document), within the tables' own rounding.
 */
import * as assert from 'node:assert/strict';
import { approx, diskOf, errors, run, specText, vmOf } from '../helpers';
import { adviceFor, builtinRegistry, fileReport } from '../../core/src';

const BIG_N1 = 'n1-standard-64'; // large enough that per-VM limits equal the per-disk maxima

function disk(type: string, size: number, machine = BIG_N1, extra: Record<string, string> = {}) {
  const a = run(specText({ catalog: 'gcp-2020', machine, ...extra, disks: [{ type, size, replication: extra.replication }] }));
  assert.deepEqual(errors(a), []);
  return diskOf(a);
}

describe('gcp-2020: seed tables', () => {
  describe('standard persistent disk, volume size table', () => {
    // size, read IOPS (<=16 KB), write IOPS (<=8 KB), write IOPS (16 KB), read MB/s, write MB/s
    const rows: number[][] = [
      [32, 24, 48, 48, 3, 3],
      [64, 48, 96, 96, 7, 7],
      [128, 96, 192, 192, 15, 15],
      [256, 192, 384, 384, 30, 30],
      [512, 384, 768, 768, 61, 61],
      [1000, 750, 1500, 1500, 120, 120],
      [1500, 1125, 2250, 2250, 180, 180],
      [2048, 1536, 3072, 3072, 240, 240],
      [4000, 3000, 6000, 6000, 240, 240],
      [5000, 3000, 7500, 7500, 240, 240],
      [8192, 3000, 12288, 7500, 240, 240],
      [10000, 3000, 15000, 7500, 240, 240],
      [16384, 3000, 15000, 7500, 240, 240],
      [32768, 3000, 15000, 7500, 240, 240],
      [65536, 3000, 15000, 7500, 240, 240],
    ];
    for (const [size, r, w8, w16, rm, wm] of rows) {
      it(`${size} GB`, () => {
        const d = disk('pd-standard', size);
        approx(Math.floor(d.figures.read_iops), r, 'read IOPS');
        approx(Math.floor(d.figures.write_iops), w8, 'write IOPS');
        approx(Math.floor(d.figures.write_iops_16k!), w16, 'write IOPS 16 KB');
        approx(Math.floor(d.figures.read_mibps), rm, 'read MB/s');
        approx(Math.floor(d.figures.write_mibps), wm, 'write MB/s');
      });
    }
  });

  describe('SSD persistent disk, volume size table', () => {
    const rows: number[][] = [
      [10, 300, 300, 300, 4.8, 4.8],
      [32, 960, 960, 960, 15, 15],
      [64, 1920, 1920, 1920, 30, 30],
      [128, 3840, 3840, 3840, 61, 61],
      [256, 7680, 7680, 7680, 122, 122],
      [500, 15000, 15000, 15000, 240, 240],
      [834, 25000, 25000, 25000, 400, 400],
      [1000, 30000, 30000, 25000, 480, 400],
      [1334, 40000, 30000, 25000, 640, 400],
      [1667, 50000, 30000, 25000, 800, 400],
      [2048, 60000, 30000, 25000, 983, 400],
      [4096, 60000, 30000, 25000, 1200, 400],
      [8192, 60000, 30000, 25000, 1200, 400],
      [16384, 60000, 30000, 25000, 1200, 400],
      [32768, 60000, 30000, 25000, 1200, 400],
      [65536, 60000, 30000, 25000, 1200, 400],
    ];
    for (const [size, r, w8, w16, rm, wm] of rows) {
      it(`${size} GB`, () => {
        const d = disk('pd-ssd', size);
        approx(d.figures.read_iops, r, 'read IOPS');
        approx(d.figures.write_iops, w8, 'write IOPS');
        approx(d.figures.write_iops_16k!, w16, 'write IOPS 16 KB');
        approx(rm % 1 ? d.figures.read_mibps : Math.floor(d.figures.read_mibps), rm, 'read MB/s');
        approx(wm % 1 ? d.figures.write_mibps : Math.floor(d.figures.write_mibps), wm, 'write MB/s');
      });
    }
  });

  describe('SSD persistent disk, per-instance limits by vCPU count', () => {
    // machine, read IOPS, write IOPS (<=8 KB), write IOPS (16 KB), read MB/s, write MB/s; "2 to 3 vCPUs" is per vCPU.
    const rows: Array<[string, number, number, number, number, number]> = [
      ['n1-standard-1', 15000, 9000, 4500, 240, 72],
      ['n1-standard-2', 15000, 15000, 2 * 4500, 240, 2 * 72],
      ['n1-standard-4', 15000, 15000, 15000, 240, 240],
      ['n1-standard-8', 15000, 15000, 15000, 800, 400],
      ['n1-standard-16', 25000, 25000, 25000, 1200, 400],
      ['n1-standard-32', 60000, 30000, 25000, 1200, 400],
      ['n1-standard-64', 60000, 30000, 25000, 1200, 400],
    ];
    for (const [machine, r, w8, w16, rm, wm] of rows) {
      it(machine, () => {
        const d = disk('pd-ssd', 4096, machine);
        approx(d.figures.read_iops, r, 'read IOPS');
        approx(d.figures.write_iops, w8, 'write IOPS');
        approx(d.figures.write_iops_16k!, w16, 'write IOPS 16 KB');
        approx(d.figures.read_mibps, rm, 'read MB/s');
        approx(d.figures.write_mibps, wm, 'write MB/s');
        assert.equal(d.figures.by('read_iops'), r < 60000 ? 'vm' : 'disk');
      });
    }
    it('fewer than 4 vCPUs also lower standard disk write IOPS, through the egress cap', () => {
      const d = disk('pd-standard', 10000, 'n1-standard-1');
      assert.equal(d.figures.by('write_iops'), 'egress');
      approx(d.figures.write_iops, Math.floor(((238.42 / 3.3) * 1024) / 8), 'write IOPS at 8 KiB');
    });
  });

  describe('C2 limits', () => {
    const standard: Array<[number, number, number, number, number, number]> = [
      [4, 3000, 4000, 4000, 240, 240],
      [8, 3000, 4000, 4000, 240, 240],
      [16, 3000, 4000, 4000, 240, 240],
      [30, 3000, 8000, 8000, 240, 240],
      [60, 3000, 15000, 15000, 240, 240],
    ];
    const ssd: Array<[number, number, number, number, number, number]> = [
      [4, 4000, 4000, 4000, 240, 240],
      [8, 4000, 4000, 4000, 240, 240],
      [16, 8000, 4000, 4000, 320, 240],
      [30, 15000, 8000, 8000, 600, 240],
      [60, 30000, 15000, 15000, 1200, 400],
    ];
    // "The performance by volume remains the same": the result is the lower of the C2 row and the volume's limit.
    const volume = { 'pd-standard': [3000, 15000, 7500, 240, 240], 'pd-ssd': [60000, 30000, 25000, 1200, 400] };
    for (const [type, rows] of [
      ['pd-standard', standard],
      ['pd-ssd', ssd],
    ] as const) {
      for (const [vcpus, ...row] of rows) {
        it(`${type} on c2-standard-${vcpus}`, () => {
          const d = disk(type, 65536, `c2-standard-${vcpus}`);
          const got = [d.figures.read_iops, d.figures.write_iops, d.figures.write_iops_16k!, d.figures.read_mibps, d.figures.write_mibps];
          row.forEach((v, i) => approx(got[i], Math.min(v, volume[type][i]), `column ${i}`));
        });
      }
    }
  });

  describe('network egress caps on write throughput', () => {
    // vCPUs, standard limit, standard allocation, standard size to reach, SSD limit, SSD allocation, SSD size to reach
    const rows = [
      [1, 72, 43, 600, 72, 43, 150],
      [2, 144, 86, 1200, 144, 86, 300],
      [4, 240, 173, 2000, 240, 173, 500],
      [8, 240, 240, 2000, 400, 346, 834],
    ];
    const contended = '100Gbps'; // other traffic saturating the link: disk writes keep their 60 %
    for (const [vcpus, stdLimit, stdAlloc, stdSize, ssdLimit, ssdAlloc, ssdSize] of rows) {
      it(`${vcpus} vCPU${vcpus > 1 ? 's' : ''}`, () => {
        const m = `n1-standard-${vcpus}`;
        approx(Math.floor(disk('pd-standard', 65536, m).figures.write_mibps), stdLimit, 'standard limit');
        approx(Math.floor(disk('pd-standard', 65536, m, { other_egress: contended }).figures.write_mibps), stdAlloc, 'standard allocation');
        approx(Math.floor(disk('pd-ssd', 65536, m).figures.write_mibps), ssdLimit, 'SSD limit');
        approx(Math.floor(disk('pd-ssd', 65536, m, { other_egress: contended }).figures.write_mibps), ssdAlloc, 'SSD allocation');
        for (const [type, limit, size] of [
          ['pd-standard', stdLimit, stdSize],
          ['pd-ssd', ssdLimit, ssdSize],
        ] as const) {
          const a = run(
            specText({
              catalog: 'gcp-2020',
              machine: m,
              disks: [{ type, size: 10 }],
              workloads: [{ block_size: '1m', read_ratio: 0, target: { write_throughput: `${limit}MiB/s` } }],
            }),
          );
          assert.equal(adviceFor(vmOf(a), a.region!).workload(vmOf(a).workloads[0].spec.name).disk_size_gib, size, `${type} size needed`);
        }
      });
    }
    it('regional disks use the 6.6x multiplier: 238 / 6.6 = ~36 MB/s on 1 vCPU', () => {
      approx(disk('pd-standard', 65536, 'n1-standard-1', { replication: 'regional' }).figures.write_mibps, 36, 'regional write');
    });
  });

  describe('simultaneous reads and writes', () => {
    const iops = (type: string, size: number, machine: string, r: number, w: number) => {
      const a = run(
        specText({ catalog: 'gcp-2020', machine, disks: [{ type, size }], workloads: [{ block_size: '8KiB', read_ratio: r / (r + w) }] }),
      );
      const wl = vmOf(a).workloads[0];
      approx(wl.read_iops, r, 'read IOPS');
      approx(wl.write_iops, w, 'write IOPS');
    };
    const iopsRows = {
      standard: [
        [3000, 0],
        [2250, 3750],
        [1500, 7500],
        [750, 11250],
        [0, 15000],
      ],
      ssd8: [
        [15000, 0],
        [11250, 3750],
        [7500, 7500],
        [3750, 11250],
        [0, 15000],
      ],
      ssd32: [
        [60000, 0],
        [45000, 7500],
        [30000, 15000],
        [15000, 22500],
        [0, 30000],
      ],
    };
    for (const [r, w] of iopsRows.standard) it(`standard IOPS ${r}/${w}`, () => iops('pd-standard', 65536, 'n1-standard-8', r, w));
    for (const [r, w] of iopsRows.ssd8) it(`SSD 8 vCPUs IOPS ${r}/${w}`, () => iops('pd-ssd', 4096, 'n1-standard-8', r, w));
    for (const [r, w] of iopsRows.ssd32) it(`SSD 32+ vCPUs IOPS ${r}/${w}`, () => iops('pd-ssd', 4096, 'n1-standard-32', r, w));

    const tput = (type: string, size: number, machine: string, r: number, w: number) => {
      const a = run(
        specText({ catalog: 'gcp-2020', machine, disks: [{ type, size }], workloads: [{ block_size: '1m', read_ratio: r / (r + w) }] }),
      );
      const wl = vmOf(a).workloads[0];
      approx(wl.read_mibps, r, 'read MB/s');
      approx(wl.write_mibps, w, 'write MB/s');
    };
    for (const [r, w] of [
      [240, 0],
      [180, 60],
      [120, 120],
      [60, 180],
      [0, 240],
    ])
      it(`standard throughput ${r}/${w}`, () => tput('pd-standard', 65536, 'n1-standard-8', r, w));
    it('SSD 8 vCPUs: 800 MB/s read and 400 MB/s write at once', () => tput('pd-ssd', 4096, 'n1-standard-8', 800, 400));
    it('SSD 16+ vCPUs: 1,200 MB/s read and 400 MB/s write at once', () => tput('pd-ssd', 4096, 'n1-standard-16', 1200, 400));
  });

  describe('block storage comparison: per-GB rates and local SSD per-instance limits', () => {
    // The page's per-GB rates are per-device figures divided by 375 GB and rounded (453.3 × 375 = 169,987.5):
    // the figures are the devices' own, as Google's local SSD table gives them, never the rounded products.
    it('local SSD NVMe: one device gives 170,000 / 90,000 IOPS and 660 / 350 MB/s; capped at 680,000 / 360,000 / 2,650 / 1,400', () => {
      const one = run(
        specText({ catalog: 'gcp-2020', machine: 'n1-standard-8', disks: [{ type: 'local-ssd', count: 1, interface: 'nvme' }] }),
      );
      const d = diskOf(one);
      assert.deepEqual([d.figures.read_iops, d.figures.write_iops, d.figures.read_mibps, d.figures.write_mibps], [170000, 90000, 660, 350]);
      const four = diskOf(
        run(specText({ catalog: 'gcp-2020', machine: 'n1-standard-16', disks: [{ type: 'local-ssd', count: 4, interface: 'nvme' }] })),
      );
      approx(four.figures.read_iops, 680000);
      approx(four.figures.write_iops, 360000);
      approx(four.figures.read_mibps, 2650);
      approx(four.figures.write_mibps, 1400);
    });
    it('local SSD SCSI: one device gives 100,000 / 70,000 IOPS and 390 / 270 MB/s, not 266.7 × 375 = 100,013', () => {
      const d = diskOf(
        run(specText({ catalog: 'gcp-2020', machine: 'n1-standard-8', disks: [{ type: 'local-ssd', count: 1, interface: 'scsi' }] })),
      );
      assert.deepEqual([d.figures.read_iops, d.figures.write_iops, d.figures.read_mibps, d.figures.write_mibps], [100000, 70000, 390, 270]);
    });
    it('local SSD SCSI: capped at 400,000 / 280,000 / 1,560 / 1,090', () => {
      const d = diskOf(
        run(specText({ catalog: 'gcp-2020', machine: 'n1-standard-32', disks: [{ type: 'local-ssd', count: 8, interface: 'scsi' }] })),
      );
      approx(d.figures.read_iops, 400000);
      approx(d.figures.write_iops, 280000);
      approx(d.figures.read_mibps, 1560);
      approx(d.figures.write_mibps, 1090);
      assert.equal(d.figures.by('read_iops'), 'devices');
    });
    it('SSD reaches 60,000 read IOPS at 2,000 GB and 30,000 write IOPS at 1,000 GB; standard 3,000 at 4 TB and 15,000 at 10 TB', () => {
      approx(disk('pd-ssd', 2000).figures.read_iops, 60000);
      approx(disk('pd-ssd', 1000).figures.write_iops, 30000);
      approx(disk('pd-standard', 4000).figures.read_iops, 3000);
      approx(disk('pd-standard', 10000).figures.write_iops, 15000);
    });
  });

  describe('size needed to match a 7200 RPM SATA drive (75 IOPS, 120 MB/s)', () => {
    const needed = (type: string, target: Record<string, string | number>, block: string, ratio: number) => {
      const a = run(
        specText({
          catalog: 'gcp-2020',
          machine: 'n1-standard-8',
          disks: [{ type, size: 10 }],
          workloads: [{ block_size: block, read_ratio: ratio, target }],
        }),
      );
      return adviceFor(vmOf(a), a.region!).workload(vmOf(a).workloads[0].spec.name).disk_size_gib;
    };
    it('standard: 100 GB for reads, 50 GB for writes, 1,000 GB for streaming', () => {
      assert.equal(needed('pd-standard', { read_iops: 75 }, '4k', 1), 100);
      assert.equal(needed('pd-standard', { write_iops: 75 }, '4k', 0), 50);
      assert.equal(needed('pd-standard', { read_throughput: '120MiB/s' }, '1m', 1), 1000);
      assert.equal(needed('pd-standard', { write_throughput: '120MiB/s' }, '1m', 0), 1000);
    });
    it('SSD: 250 GB for streaming; 3 GB of SSD would give 75 IOPS, but Google makes no pd-ssd under 10 GB', () => {
      assert.equal(needed('pd-ssd', { read_throughput: '120MiB/s' }, '1m', 1), 250);
      assert.equal(needed('pd-ssd', { write_throughput: '120MiB/s' }, '1m', 0), 250);
      // 30 IOPS per GB × 3 GB = 90 ≥ 75, by the page's own rate; Google's storage options table starts persistent
      // disks at 10 GB, so a 3 GB disk is refused, with no figures.
      const rate = builtinRegistry.get('gcp-2020')!.disk_types['pd-ssd'];
      assert.ok(rate.model === 'scaled' && rate.rates.read_iops_per_gib * 3 >= 75);
      const small = run(specText({ catalog: 'gcp-2020', machine: 'n1-standard-8', disks: [{ type: 'pd-ssd', size: 3 }] }));
      const refused = small.diagnostics.find((d) => d.code === 'size-out-of-range');
      assert.equal(refused?.message, 'pd-ssd sizes run from 10 GiB to 64 TiB; this is 3 GiB');
      assert.equal(fileReport('x', small).vms[0].disks[0].read_iops, null);
    });
  });

  describe('prices', () => {
    it('standard $0.040 and SSD $0.170 per GB-month; price per read IOPS', () => {
      const a = run(
        specText({
          catalog: 'gcp-2020',
          machine: 'n1-standard-8',
          disks: [
            { type: 'pd-standard', size: 100 },
            { type: 'pd-ssd', size: 100 },
          ],
        }),
      );
      const r = fileReport('x', a);
      const [std, ssd] = r.vms[0].disks;
      assert.equal(std.monthly_cost, 4);
      assert.equal(ssd.monthly_cost, 17);
      // The page: $0.040 / 0.75 = $0.0533 per read IOPS per GB.
      approx(std.price_per_read_iops! * 10000, 533, 'standard $/IOPS ×10,000');
      // The page prints "$0.170 / 30 = $0.2267", which is $0.170 / 0.75; the quotient it names is $0.00567.
      approx(ssd.price_per_read_iops! * 100000, 567, 'SSD $/IOPS ×100,000');
      assert.equal(r.monthly_cost, 21);
    });
  });
});
