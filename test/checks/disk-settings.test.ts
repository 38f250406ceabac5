/** Disk settings (core/src/checks/disk-settings.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, fileReport } from '../../core/src';
import { BASE, expectAt, find } from './helpers';

describe('checks: disk-settings', () => {
  it('size-out-of-range: negative, zero and above the maximum', () => {
    expectAt(BASE.replace('500GiB', '-5GB'), 'bad-quantity', '-5GB');
    expectAt(BASE.replace('500GiB', '100TiB'), 'size-out-of-range', '100TiB');
    expectAt(BASE.replace('500GiB', '0'), 'size-out-of-range', '0');
  });
  it("size-out-of-range: Google's persistent disks from 10 GiB, a regional standard disk from 200 GiB (its storage options table)", () => {
    // 5 GB is below the table's 10 GB: refused, with no figures; every message says the same range.
    const smallText = BASE.replace('pd-ssd', 'pd-standard').replace('500GiB', '5GB');
    const s = expectAt(smallText, 'size-out-of-range', '5GB');
    assert.equal(s.message, 'pd-standard sizes run from 10 GiB to 64 TiB; this is 4.7 GiB');
    assert.equal(fileReport('s.perf.yaml', analyze(smallText)).vms[0].disks[0].read_iops, null);
    const unsized = find(analyze(BASE.replace('pd-ssd', 'pd-standard').replace('        size: 500GiB\n', '')), 'missing-size');
    assert.match(unsized.message, /\(pd-standard: 10 GiB to 64 TiB\)/);
    expectAt(BASE.replace('500GiB', '9GiB'), 'size-out-of-range', '9GiB');
    expectAt(BASE.replace('pd-ssd', 'pd-balanced').replace('500GiB', '9GiB'), 'size-out-of-range', '9GiB');
    assert.ok(!analyze(BASE.replace('500GiB', '10GiB')).diagnostics.some((d) => d.code === 'size-out-of-range'));
    const regional = BASE.replace('pd-ssd', 'pd-standard\n        replication: regional').replace('500GiB', '100GiB');
    const d = expectAt(regional, 'size-out-of-range', '100GiB');
    assert.equal(d.message, 'regional pd-standard sizes run from 200 GiB to 64 TiB; this is 100 GiB');
    assert.equal(fileReport('s.perf.yaml', analyze(regional)).vms[0].disks[0].read_iops, null);
    expectAt(BASE.replace('500GiB', '0.5GiB'), 'size-out-of-range', '0.5GiB');
  });
  it('a size that cannot be read is one error on it; the disk stays in the report without figures, the totals partial', () => {
    const TWO = BASE + '      - name: logs\n        type: pd-balanced\n        size: 100GiB\n';
    for (const size of ['1e3GiB', '1_000GiB', '2T', '0x10GiB', '-100GiB', '0', '-5']) {
      const text = TWO.replace('size: 500GiB', `size: ${size}`);
      const a = analyze(text);
      const onSize = a.diagnostics.filter((d) => d.severity === 'error');
      assert.equal(onSize.length, 1, `${size}: ${onSize.map((d) => `${d.code}: ${d.message}`).join(' | ')}`);
      assert.equal(text.slice(onSize[0].span.start, onSize[0].span.end), size);
      const vm = fileReport('s.perf.yaml', a).vms[0];
      const data = vm.disks.find((d) => d.name === 'data');
      assert.ok(data, `${size}: disk 'data' is in the report`);
      assert.deepEqual(
        [data.size_gib, data.read_iops, data.write_mibps, data.limited_by, data.monthly_cost],
        [null, null, null, null, null],
      );
      assert.match(data.cost_explanation, /no valid size/);
      assert.equal(vm.monthly_cost_complete, false, `${size}: the VM's total is partial`);
      assert.ok(vm.monthly_cost_missing.some((m) => /'data' has no valid size/.test(m)));
      assert.equal(a.monthly_cost_complete, false, `${size}: the file's total is partial`);
      // The other disk keeps its figures.
      assert.equal(vm.disks.find((d) => d.name === 'logs')?.read_iops !== null, true);
    }
  });
  it('size-out-of-range: on a type the machine cannot attach, the size is offered, not preferred (the type changes first)', () => {
    // pd-extreme starts at 500 GiB and needs 64 vCPUs on N2: 500 GiB of it would still not attach to n2-standard-8,
    // and the switch to pd-ssd, which takes 200 GiB, is the preferred fix.
    const text = BASE.replace('pd-ssd', 'pd-extreme').replace('500GiB', '200GiB');
    const size = expectAt(text, 'size-out-of-range', '200GiB');
    assert.deepEqual(
      size.fixes?.map((f) => [f.title, !!f.preferred]),
      [['Set size to 500GiB', false]],
    );
    const type = analyze(text).diagnostics.find((d) => d.code === 'disk-type-not-on-machine');
    assert.deepEqual(
      type?.fixes?.filter((f) => f.preferred).map((f) => f.title),
      ['Use pd-ssd'],
    );
    // On a machine that attaches it, the nearest size is the fix.
    const sized = expectAt(text.replace('n2-standard-8', 'n2-standard-64'), 'size-out-of-range', '200GiB');
    assert.deepEqual(
      sized.fixes?.map((f) => [f.title, !!f.preferred]),
      [['Set size to 500GiB', true]],
    );
  });
  it('missing-size with an add-key fix', () => {
    const d = expectAt(BASE.replace('        size: 500GiB\n', ''), 'missing-size', 'name');
    assert.equal(d.fixes?.[0].kind, 'add-key');
  });
  it('not-applicable', () => {
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        count: 2'), 'not-applicable', 'count');
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        provisioned_iops: 20000'), 'not-applicable', 'provisioned_iops');
  });
  it('provisioned-out-of-range', () => {
    expectAt(
      BASE.replace('type: pd-ssd', 'type: pd-extreme').replace('500GiB', '1000GiB\n        provisioned_iops: 500000'),
      'provisioned-out-of-range',
      '500000',
    );
  });
  it('allocation-unit (Yandex)', () => {
    const text =
      'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-ssd\n        size: 100GiB\n';
    expectAt(text, 'allocation-unit', '100GiB');
    // 100 GiB of network-hdd is 0.39 of a 256 GiB unit: its figures are a whole unit's, whose price is 2.56 times
    // as much (priced per GiB), not "a little more".
    const hdd = expectAt(text.replace('network-ssd', 'network-hdd'), 'allocation-unit', '100GiB');
    assert.equal(
      hdd.message,
      '100 GiB is 0.39 allocation units of 256 GiB; performance comes in whole units, so its figures are those of 256 GiB, which costs 2.56× as much',
    );
  });
  it('hdd-burst', () => {
    const text =
      'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-hdd\n        size: 256GiB\n';
    expectAt(text, 'hdd-burst', 'network-hdd');
  });

  const AWS = (disk: string) =>
    `version: 1\nprovider: aws\nvms:\n  - name: a\n    machine_type: m6i.xlarge\n    disks:\n      - name: d\n${disk}`;
  it('provisioned-ratio (AWS gp3: at most 0.25 MiB/s per provisioned IOPS), with both fixes', () => {
    const d = expectAt(
      AWS('        type: gp3\n        size: 200GiB\n        provisioned_throughput: 900MiB/s\n'),
      'provisioned-ratio',
      '900MiB/s',
    );
    assert.match(d.message, /3,000 provisioned IOPS takes at most 750 MiB\/s/);
    assert.deepEqual(
      d.fixes?.map((f) => f.title),
      ['Provision 750 MiB/s', 'Provision 3,600 IOPS'],
    );
    // Within the ratio, and the included 125 MiB/s at any IOPS: nothing.
    const ok = analyze(
      AWS('        type: gp3\n        size: 200GiB\n        provisioned_iops: 4000\n        provisioned_throughput: 1000MiB/s\n'),
    );
    assert.equal(ok.diagnostics.filter((x) => x.code === 'provisioned-ratio').length, 0);
  });
  it('provisioned-out-of-range (AWS gp3 keeps its 3,000 IOPS at 1 GiB; 500 IOPS per GiB above)', () => {
    const ok = analyze(AWS('        type: gp3\n        size: 1GiB\n        provisioned_iops: 3000\n'));
    assert.equal(ok.diagnostics.filter((x) => x.severity === 'error').length, 0);
    const d = expectAt(
      AWS('        type: gp3\n        size: 10GiB\n        provisioned_iops: 16000\n'),
      'provisioned-out-of-range',
      '16000',
    );
    assert.match(d.message, /takes 3,000 to 5,000 provisioned IOPS/);
    expectAt(AWS('        type: io1\n        size: 100GiB\n        provisioned_iops: 10000\n'), 'provisioned-out-of-range', '10000');
  });
  it("provisioned-out-of-range: Hyperdisk Throughput takes 10 to 90 MiB/s per TiB (Google's size and performance limits)", () => {
    const HDT = (size: string, mibps: string) =>
      BASE.replace('n2-standard-8', 'c3-standard-22').replace(
        'type: pd-ssd\n        size: 500GiB',
        `type: hyperdisk-throughput\n        size: ${size}\n        provisioned_throughput: ${mibps}`,
      );
    const d = expectAt(HDT('2TiB', '600MiB/s'), 'provisioned-out-of-range', '600MiB/s');
    assert.equal(d.message, 'hyperdisk-throughput of 2 TiB takes 20 to 180 provisioned MiB/s; 600 is outside');
    assert.deepEqual(
      d.fixes?.map((f) => f.title),
      ['Provision 180 MiB/s'],
    );
    // The figures are what the volume can be provisioned with, not the 600 asked.
    assert.equal(analyze(HDT('2TiB', '600MiB/s')).vms[0].disks[0].figures.read_mibps, 180);
    for (const [size, mibps] of [
      ['2TiB', '180MiB/s'],
      ['10TiB', '900MiB/s'],
      ['32TiB', '2400MiB/s'],
    ])
      assert.ok(!analyze(HDT(size, mibps)).diagnostics.some((x) => x.code === 'provisioned-out-of-range'), `${size} ${mibps}`);
    expectAt(HDT('10TiB', '901MiB/s'), 'provisioned-out-of-range', '901MiB/s');
    expectAt(HDT('10TiB', '99MiB/s'), 'provisioned-out-of-range', '99MiB/s');
  });
  it('size-out-of-range (AWS st1 starts at 125 GiB)', () => {
    const d = expectAt(AWS('        type: st1\n        size: 100GiB\n'), 'size-out-of-range', '100GiB');
    assert.equal(d.fixes?.[0].title, 'Set size to 125GiB');
  });
  it('missing-provisioned-iops (AWS io1 and io2) on the type, with an add-key fix', () => {
    const d = expectAt(AWS('        type: io2\n        size: 10GiB\n'), 'missing-provisioned-iops', 'type');
    assert.match(d.message, /100 to 10,000 at 10 GiB/);
    assert.equal(d.fixes?.[0].kind, 'add-key');
  });
});
