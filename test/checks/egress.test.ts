/** Network egress (core/src/checks/egress.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { BASE, expectAt } from './helpers';

const codes = (text: string) => analyze(text).diagnostics.map((d) => d.code);

describe('checks: egress', () => {
  it('capped-by-egress on other_egress', () => {
    const text = BASE.replace('machine_type: n2-standard-8', 'machine_type: n1-standard-1\n    other_egress: 2Gbps');
    const d = expectAt(text, 'capped-by-egress', 'other_egress');
    // The multiplier of each replication is the hover's and the explanation's: the message stays a fact and its cause.
    assert.equal(
      d.message,
      'network egress caps writes to data at 123 MiB/s: n1-standard-1 has 2 Gbit/s (238 MiB/s), other egress assumed 238 MiB/s, leaving 143 MiB/s for disk writes',
    );
  });

  // n1-standard-1: 2 Gbit/s of egress (gcp-2024's N1 rows), 238.4 MiB/s. With as much other egress, disk
  // writes keep 60% of it (143.1 MiB/s), and zonal writes cost 1.16× in egress: 143.1 / 1.16 = 123.3 MiB/s,
  // below the machine's own per-VM write limit (204 MiB/s).
  const N1 = BASE.replace('machine_type: n2-standard-8', 'machine_type: n1-standard-1\n    other_egress: 2Gbps');
  const workload = (readRatio: number) =>
    `    workloads:\n      - name: w\n        disk: data\n        pattern: sequential\n        block_size: 1MiB\n        read_ratio: ${readRatio}\n`;

  it('the egress cap binds the write figure, whatever the workloads', () => {
    const d = analyze(N1 + workload(1)).vms[0].disks[0];
    assert.equal(d.figures.by('write_mibps'), 'egress');
    assert.equal(Math.round(d.figures.write_mibps * 10) / 10, 123.3);
  });
  it('a disk that only reads is not flagged; one that writes is', () => {
    assert.ok(!codes(N1 + workload(1)).includes('capped-by-egress'));
    expectAt(N1 + workload(0.5), 'capped-by-egress', 'other_egress');
    // No workloads: the figures themselves are capped, and that is said.
    expectAt(N1, 'capped-by-egress', 'other_egress');
  });

  it("egress-unknown: a series without a stated cap gets none, not another series' default", () => {
    const text = BASE.replace('machine_type: n2-standard-8', 'machine_type: c3-standard-8');
    expectAt(text, 'egress-unknown', 'machine_type');
    const e = analyze(text).vms[0];
    assert.equal(e.egress, undefined);
    assert.ok(e.disks.every((d) => d.figures.by('write_mibps') !== 'egress'));
    // n2 is under the documented rule: 2 Gbit/s per vCPU up to 32; no finding.
    assert.equal(analyze(BASE).vms[0].egress?.cap_gbps, 16);
    assert.ok(!codes(BASE).includes('egress-unknown'));
  });

  it("other-egress-over-cap: other egress above the machine's cap, on the value", () => {
    // n2-standard-4: 2 Gbit/s per vCPU, 8 Gbit/s (gcp-2024); 10 Gbit/s of other egress cannot leave it.
    const at = (v: string) => BASE.replace('machine_type: n2-standard-8', `machine_type: n2-standard-4\n    other_egress: ${v}`);
    const d = expectAt(at('10Gbps'), 'other-egress-over-cap', '10Gbps');
    assert.equal(
      d.message,
      "other_egress is 1,192 MiB/s, more than n2-standard-4's egress cap of 8 Gbit/s (954 MiB/s): lower it, or use a machine with a higher cap",
    );
    assert.ok(!codes(at('8Gbps')).includes('other-egress-over-cap'), 'at the cap: no finding');
  });

  it('other_egress in megabytes leaves the disks less than the same figure in megabits', () => {
    const other = (v: string) =>
      analyze(BASE.replace('machine_type: n2-standard-8', `machine_type: n2-standard-8\n    other_egress: ${v}`)).vms[0].egress!;
    assert.equal(Math.round(other('200MBps').other_mibps * 10) / 10, 190.7);
    assert.equal(Math.round(other('200Mbps').other_mibps * 10) / 10, 23.8);
    assert.ok(other('200MBps').budget_mibps < other('200Mbps').budget_mibps);
  });

  it("egress is shared by the workloads' targets first, like a per-VM limit", () => {
    // Found by the invariant suite, as figures that fell on a larger machine: a per-VM limit was shared by the
    // targets first, egress in proportion to what each disk could do, so 'data' got 289 MiB/s of writes where
    // its workload asks 300 and the other disk none.
    const text = [
      'version: 1',
      'provider: gcp',
      'catalog: gcp-2024',
      'vms:',
      '  - name: db',
      '    machine_type: e2-highcpu-16',
      '    other_egress: 600MiB/s',
      '    disks:',
      '      - name: data',
      '        type: pd-ssd',
      '        size: 380GiB',
      '        replication: regional',
      '      - name: archive',
      '        type: pd-standard',
      '        size: 64TiB',
      '        replication: regional',
      '    workloads:',
      '      - name: load',
      '        disk: data',
      '        pattern: sequential',
      '        block_size: 1m',
      '        read_ratio: 0',
      '        target:',
      '          write_throughput: 300MiB/s',
      '',
    ].join('\n');
    // The archive's workload runs at once (no target): the two disks share the egress left, the target first.
    const both = text.replace(
      '    workloads:\n',
      '    workloads:\n      - name: cold\n        disk: archive\n        pattern: sequential\n        block_size: 1m\n        read_ratio: 0\n',
    );
    const vm = analyze(both).vms[0];
    const load = vm.workloads.find((w) => w.spec.name === 'load')!;
    assert.equal(load.limited_by, 'egress');
    assert.ok(load.write_mibps >= 300 - 1e-6, String(load.write_mibps));
    assert.match(load.why, /MiB\/s of egress for its workloads' targets/);
    assert.equal(load.meets_target, true);
    // Each disk alone is held to the whole budget; together they are a shared limit, stated once.
    const limit = vm.sharedLimits!.find((l) => l.by === 'egress')!;
    assert.deepEqual(limit.disks, ['data', 'archive']);
    assert.equal(limit.unit, 'MiB/s of egress');
  });
});
