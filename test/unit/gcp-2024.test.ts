/** The current model: baselines plus per-GiB rates, one baseline per disk type per VM (seed 002's worked examples). */
import * as assert from 'node:assert/strict';
import { analyze, CatalogRegistry, fileReport } from '../../core/src';
import { approx, diskOf, errors, run, specText, vmOf } from '../helpers';

describe('gcp-2024', () => {
  it('E2, 4 vCPUs, 100 GiB zonal pd-ssd: min(15000, 100000, 6000 + 30 × 100) = 9,000 IOPS; min(240, 1200, 240 + 0.48 × 100) = 240 MiB/s', () => {
    const a = run(specText({ catalog: 'gcp-2024', machine: 'e2-standard-4', disks: [{ type: 'pd-ssd', size: '100GiB' }] }));
    assert.deepEqual(errors(a), []);
    const d = diskOf(a);
    assert.equal(d.figures.read_iops, 9000);
    assert.equal(d.figures.write_iops, 9000);
    assert.equal(d.figures.by('read_iops'), 'size');
    assert.equal(d.figures.read_mibps, 240);
    assert.equal(d.figures.by('read_mibps'), 'vm');
    assert.match(d.figures.why('read_iops'), /6,000 IOPS baseline/);
    assert.match(d.figures.why('read_mibps'), /gcp-2024/);
  });

  it('two 50 GiB pd-ssd disks perform like one 100 GiB disk (one baseline per type per VM), not 15,000', () => {
    const two = run(
      specText({
        catalog: 'gcp-2024',
        machine: 'e2-standard-4',
        disks: [
          { type: 'pd-ssd', size: 50 },
          { type: 'pd-ssd', size: 50 },
        ],
      }),
    );
    const vm = vmOf(two);
    const total = vm.disks.reduce((s, d) => s + d.figures.read_iops, 0);
    assert.equal(total, 9000);
    assert.equal(vm.disks[0].figures.read_iops, 4500);
    assert.deepEqual(vm.disks[0].baselineGroup, ['d0', 'd1']);
    assert.equal(vm.disks[1].baselineGroup, vm.disks[0].baselineGroup, 'one array for the group');
    assert.ok(two.diagnostics.some((d) => d.code === 'shared-baseline'));
  });

  it('disks of different types each get their own baseline', () => {
    const a = run(
      specText({
        catalog: 'gcp-2024',
        machine: 'n2-standard-32',
        disks: [
          { type: 'pd-ssd', size: 50 },
          { type: 'pd-balanced', size: 50 },
        ],
      }),
    );
    const [ssd, bal] = vmOf(a).disks;
    assert.equal(ssd.figures.read_iops, 6000 + 30 * 50);
    assert.equal(bal.figures.read_iops, 3000 + 6 * 50);
    assert.equal(a.diagnostics.filter((d) => d.code === 'shared-baseline').length, 0);
  });

  it('disks of different types share the limit of the fastest type the machine supports: 2 TiB pd-ssd + 2 TiB pd-balanced on n2-standard-8 reach 15,000 IOPS together, not 15,000 each', () => {
    const text = specText({
      catalog: 'gcp-2024',
      machine: 'n2-standard-8',
      disks: [
        { type: 'pd-ssd', size: '2TiB' },
        { type: 'pd-balanced', size: '2TiB' },
      ],
    });
    const v = vmOf(run(text));
    const [ssd, bal] = v.disks;
    // Alone, each type is held to its own 15,000 IOPS row; together they share pd-ssd's row: 15,000 IOPS, 800 MiB/s.
    for (const m of ['read_iops', 'write_iops'] as const) {
      assert.equal(ssd.figures[m], 15000, m);
      assert.equal(bal.figures[m], 15000, m);
      const limit = v.sharedLimits!.find((l) => l.metric === m && /across persistent disk types/.test(l.why))!;
      assert.deepEqual([limit.value, limit.disks, limit.reached], [15000, [ssd.spec.name, bal.spec.name], false]);
    }
    const across = v.sharedLimits!.find((l) => l.metric === 'read_mibps' && /across/.test(l.why))!;
    assert.equal(across.value, 800);
    assert.match(across.why, /pd-ssd's row, the fastest type n2-standard-8 supports/);
    assert.match(across.why, /Multiple disks attached to a single compute instance/);
    // A workload over both disks runs on both at once: it reaches the shared limit, not 15,000 on each.
    const busy = vmOf(run(text.trimEnd() + '\n    workloads:\n      - name: all\n        block_size: 4KiB\n        read_ratio: 1\n'))
      .workloads[0];
    assert.ok(Math.abs(busy.read_iops - 15000) < 1e-6, String(busy.read_iops));
    assert.match(busy.why, /shared by the disks whose workloads run at once/);
  });

  it('n2-standard-8 caps a 500 GiB pd-ssd at 15,000 IOPS and says which machine lifts it', () => {
    const a = run(specText({ catalog: 'gcp-2024', machine: 'n2-standard-8', disks: [{ type: 'pd-ssd', size: 500 }] }));
    const d = diskOf(a);
    assert.equal(d.figures.read_iops, 15000);
    assert.equal(d.figures.by('read_iops'), 'vm');
    assert.equal(d.diskOnly.read_iops, 21000);
    assert.equal(d.figures.read_mibps, 480);
    const w = a.diagnostics.find((x) => x.code === 'capped-by-vcpu');
    assert.ok(w, 'capped-by-vcpu expected');
    assert.match(w.message, /n2-standard-16/);
    assert.equal(a.parsed.text.slice(w.span.start, w.span.end), 'machine_type');
  });

  it('egress: 1.16x multiplier; other egress above 40% of the cap leaves disk writes 60%', () => {
    const free = diskOf(run(specText({ catalog: 'gcp-2024', machine: 'n2-standard-2', disks: [{ type: 'pd-ssd', size: 2000 }] })));
    // 2 vCPUs × 2 Gbit/s = 476.8 MiB/s of egress; ÷ 1.16 = 411 MiB/s: the 240 MiB/s row binds first.
    assert.equal(free.figures.write_mibps, 240);
    // N1 with 1 vCPU: 2 Gbit/s of egress; the table's 204 MiB/s write row is above 60% of it ÷ 1.16.
    const busy = run(
      specText({ catalog: 'gcp-2024', machine: 'n1-standard-1', other_egress: '2Gbps', disks: [{ type: 'pd-ssd', size: 2000 }] }),
    );
    const d = diskOf(busy);
    approx(d.figures.write_mibps, (0.6 * 2e9) / 8 / 2 ** 20 / 1.16, 'write budget');
    assert.equal(d.figures.by('write_mibps'), 'egress');
    const e = busy.diagnostics.find((x) => x.code === 'capped-by-egress');
    assert.ok(e);
    assert.equal(busy.parsed.text.slice(e.span.start, e.span.end), 'other_egress');
  });

  it('Hyperdisk Balanced High Availability writes to two zones: the regional multiplier applies though the spec says nothing', () => {
    // gcp-2024 states no egress cap for C4D (egress-unknown): this test gives the series one, 2 Gbit/s per vCPU,
    // to see which multiplier its writes pay.
    const registry = new CatalogRegistry();
    const c = structuredClone(registry.get('gcp-2024')!);
    c.machine_series.c4d.egress_gbps = { per_vcpu: 2 };
    registry.add(c);
    const a = analyze(
      specText({
        catalog: 'gcp-2024',
        machine: 'c4d-standard-2',
        disks: [{ type: 'hyperdisk-balanced-high-availability', size: 100, provisioned_throughput: '400MiB/s' }],
      }),
      { registry },
    );
    const d = diskOf(a);
    // 2 vCPUs × 2 Gbit/s = 476.8 MiB/s ÷ 2.32 (regional) = 205.5 MiB/s, below the 400 MiB/s of c4d-*-2's row.
    approx(d.figures.write_mibps, 4e9 / 8 / 2 ** 20 / 2.32, 'write budget');
    assert.equal(d.figures.by('write_mibps'), 'egress');
    assert.match(d.figures.why('write_mibps'), /÷ 2\.32 write multiplier \(regional\)/);
    assert.equal(d.figures.read_mibps, 400);
  });

  it("shared-core E2 egress is Google's E2 table: e2-micro and e2-small 1 Gbit/s, e2-medium 2 Gbit/s (not 2 per vCPU)", () => {
    const cap = (machine: string) =>
      vmOf(run(specText({ catalog: 'gcp-2024', machine, disks: [{ type: 'pd-balanced', size: 100 }] }))).egress?.cap_gbps;
    assert.deepEqual([cap('e2-micro'), cap('e2-small'), cap('e2-medium'), cap('e2-standard-2')], [1, 1, 2, 4]);
    // A shared-core custom type has its predefined shape's egress.
    assert.equal(cap('e2-custom-micro-2048'), 1);
    const d = diskOf(run(specText({ catalog: 'gcp-2024', machine: 'e2-micro', disks: [{ type: 'pd-ssd', size: 1000 }] })));
    // 1 Gbit/s = 119.2 MiB/s ÷ 1.16 = 102.8 MiB/s of writes, below e2-medium's 200 MiB/s row.
    approx(d.figures.write_mibps, 1e9 / 8 / 2 ** 20 / 1.16, 'write budget');
    assert.equal(d.figures.by('write_mibps'), 'egress');
    assert.match(d.figures.why('write_mibps'), /network egress: 1 Gbit\/s/);
    assert.match(d.figures.why('write_mibps'), /E2 shared-core/);
  });

  it('e2-micro and e2-small have no per-VM row of their own: limit unknown, and never better than e2-medium', () => {
    const disks = [{ type: 'pd-ssd', size: '2TiB' }];
    const medium = diskOf(run(specText({ catalog: 'gcp-2024', machine: 'e2-medium', disks })));
    for (const machine of ['e2-micro', 'e2-small']) {
      const a = run(specText({ catalog: 'gcp-2024', machine, disks }));
      const d = diskOf(a);
      assert.equal(d.vmLimitKnown, false, machine);
      for (const m of ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'] as const)
        assert.ok(d.figures[m] <= medium.figures[m] + 1e-9, `${machine} ${m}: ${d.figures[m]} > e2-medium's ${medium.figures[m]}`);
      assert.equal(d.figures.read_iops, 12000);
      assert.match(d.figures.why('read_iops'), new RegExp(`at most e2-medium's row: ${machine}'s own limit is not published`));
      const f = a.diagnostics.find((x) => x.code === 'machine-limits-unknown');
      assert.ok(f, `${machine}: machine-limits-unknown expected`);
      assert.match(f.message, /held to e2-medium's row at most/);
    }
  });

  it('pd-extreme: provisioned IOPS, capped by the machine', () => {
    const a = run(
      specText({ catalog: 'gcp-2024', machine: 'n2-standard-64', disks: [{ type: 'pd-extreme', size: 1000, provisioned_iops: 50000 }] }),
    );
    assert.deepEqual(errors(a), []);
    const d = diskOf(a);
    assert.equal(d.figures.read_iops, 50000);
    assert.equal(d.figures.by('read_iops'), 'provisioned');
    assert.ok(d.cost.monthly! > 50000 * 0.065);
  });

  it('hyperdisk-balanced: provisioned within 500 IOPS per GiB; out of range is flagged', () => {
    const a = run(
      specText({
        catalog: 'gcp-2024',
        machine: 'c3-standard-8',
        disks: [{ type: 'hyperdisk-balanced', size: 10, provisioned_iops: 10000, provisioned_throughput: '200MiB/s' }],
      }),
    );
    const d = diskOf(a);
    assert.equal(d.figures.read_iops, 5000);
    assert.ok(a.diagnostics.some((x) => x.code === 'provisioned-out-of-range'));
  });

  it('local SSD by device count (NVMe)', () => {
    const a = run(specText({ catalog: 'gcp-2024', machine: 'n2-standard-16', disks: [{ type: 'local-ssd', count: 2 }] }));
    const d = diskOf(a);
    assert.equal(d.figures.read_iops, 340000);
    assert.equal(d.figures.write_iops, 180000);
    assert.equal(d.figures.by('read_iops'), 'devices');
  });

  it("local SSD SCSI figures are Google's per-count table, not per-GiB rates rounded (100,000 / 70,000 IOPS, 390 / 270 MiB/s per device)", () => {
    const table: Array<[number, number, number, number, number]> = [
      [1, 100000, 70000, 390, 270],
      [2, 200000, 140000, 780, 550],
      [3, 300000, 210000, 1170, 820],
      [4, 400000, 280000, 1560, 1090],
      [8, 400000, 280000, 1560, 1090],
      [16, 900000, 800000, 6240, 3120],
      [24, 900000, 800000, 9360, 4680],
    ];
    // On n1-standard-96, which takes every count of the table (n2-standard-96 takes 16 or 24 only; other counts
    // there are refused, with no figures).
    for (const [count, ri, wi, rm, wm] of table) {
      const d = diskOf(
        run(specText({ catalog: 'gcp-2024', machine: 'n1-standard-96', disks: [{ type: 'local-ssd', count, interface: 'scsi' }] })),
      );
      assert.deepEqual(
        [d.figures.read_iops, d.figures.write_iops, d.figures.read_mibps, d.figures.write_mibps],
        [ri, wi, rm, wm],
        `${count} SCSI device(s)`,
      );
      assert.equal(d.figures.by('read_iops'), 'devices');
    }
    // The table has no 32-disk SCSI row: 32 disks are held to the 24-disk row, and the sentence says so.
    const d = diskOf(
      run(specText({ catalog: 'gcp-2024', machine: 'c3-standard-176-lssd', disks: [{ type: 'local-ssd', count: 32, interface: 'scsi' }] })),
    );
    assert.equal(d.figures.read_iops, 900000);
    assert.match(d.figures.why('read_iops'), /32 SCSI devices of 375 GiB: held to the row for 24 devices, the largest the table gives/);
  });

  it("local SSD NVMe: 32 devices have Google's own 32-device row (3,200,000 / 1,600,000 IOPS, 12,480 / 6,240 MiB/s)", () => {
    const d = diskOf(run(specText({ catalog: 'gcp-2024', machine: 'c3-standard-176-lssd', disks: [{ type: 'local-ssd', count: 32 }] })));
    assert.deepEqual(
      [d.figures.read_iops, d.figures.write_iops, d.figures.read_mibps, d.figures.write_mibps],
      [3200000, 1600000, 12480, 6240],
    );
    assert.match(d.figures.why('read_iops'), /32 NVMe devices of 375 GiB: row for 32 devices/);
  });

  it('24 local SSD devices on n2-standard-2 are not credited 2,400,000 IOPS as reached: the figure is marked and a target on it is not judged met', () => {
    const a = run(
      specText({
        catalog: 'gcp-2024',
        machine: 'n2-standard-2',
        disks: [{ type: 'local-ssd', count: 24 }],
        workloads: [{ block_size: '4k', read_ratio: 1, target: { iops: 100000 } }],
      }),
    );
    const d = diskOf(a);
    // Google: full Local SSD performance on N2 needs at least 24 vCPUs.
    assert.deepEqual(d.vcpusNeeded?.need, 24);
    assert.equal(d.figures.read_iops, 2400000);
    assert.match(d.figures.why('read_iops'), /not reached on n2-standard-2, which has 2 vCPUs: .*24 vCPUs/);
    // Met at the table's figures, which the machine does not reach: not judged (neither met nor missed), no
    // target-unreachable error (Google gives no figure for fewer vCPUs); local-ssd-vcpus says why.
    const w = vmOf(a).workloads[0];
    assert.equal(w.meets_target, undefined);
    assert.ok(!a.diagnostics.some((x) => x.code === 'target-unreachable'));
    assert.ok(a.diagnostics.some((x) => x.code === 'local-ssd-vcpus'));
    assert.equal(fileReport('x', a).vms[0].workloads[0].meets_target, null);
    // A target missed even at the table's figures is missed, and says the figures are not reached either.
    const far = run(
      specText({
        catalog: 'gcp-2024',
        machine: 'n2-standard-2',
        disks: [{ type: 'local-ssd', count: 24 }],
        workloads: [{ block_size: '4k', read_ratio: 1, target: { iops: 3000000 } }],
      }),
    );
    const missed = vmOf(far).workloads[0];
    assert.equal(missed.meets_target, false);
    assert.match(missed.shortfalls.join(' '), /its local SSD figures only with 24 vCPUs \(the machine has 2\)/);
    // Enough vCPUs: reached, and the target is met.
    const big = run(
      specText({
        catalog: 'gcp-2024',
        machine: 'n2-standard-32',
        disks: [{ type: 'local-ssd', count: 24 }],
        workloads: [{ block_size: '4k', read_ratio: 1, target: { iops: 100000 } }],
      }),
    );
    assert.equal(diskOf(big).vcpusNeeded, undefined);
    assert.equal(vmOf(big).workloads[0].meets_target, true);
  });

  it('regional pd-ssd costs twice the zonal price', () => {
    const z = diskOf(run(specText({ catalog: 'gcp-2024', machine: 'n2-standard-8', disks: [{ type: 'pd-ssd', size: 100 }] })));
    const r = diskOf(
      run(specText({ catalog: 'gcp-2024', machine: 'n2-standard-8', disks: [{ type: 'pd-ssd', size: 100, replication: 'regional' }] })),
    );
    assert.equal(z.cost.monthly, 17);
    assert.equal(r.cost.monthly, 34);
  });
});
