/**
 * Findings past the file's cap (core/src/finding-cap.ts) are counted, not listed, and where the cap can be applied
 * while the VMs are checked, the checks skip what only a listed finding needs (target-unreachable's advice).
 * What a file lists must not change for it: the same findings, messages, fixes and more-findings as an analysis
 * that applies the cap only at its end. A comment with an asterisk at the end of the text (text that might be an
 * alias) is what makes the analysis keep every finding to the end; it changes no finding and no offset.
 */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { evaluationWork } from '../../core/src/model/evaluate';
import { distinctFleet, FLEET_EDITIONS } from '../../bench/fleet';

/** `n` VMs whose machine caps their one disk (capped-by-vcpu each), no two alike: sizes from `base` GiB up. */
function cappedVms(n: number, base: number): string {
  const vms = Array.from(
    { length: n },
    (_, i) =>
      `  - name: vm${i}\n    machine_type: n2-standard-2\n    disks:\n      - name: data\n        type: pd-ssd\n        size: ${base + i}GiB\n`,
  );
  return `version: 1\nprovider: gcp\ncatalog: gcp-2024\nregion: us-central1\nvms:\n${vms.join('')}`;
}

/**
 * `n` VMs whose one io2 disk is provisioned above what m6i.32xlarge sustains (160,000 IOPS), no two alike: IOPS from
 * `base` up (provisioned-above-vm-limit each, and capped-by-vcpu, whose search for a larger machine evaluates none:
 * the series' only larger size, metal, has the same limit).
 */
function overProvisionedVms(n: number, base: number): string {
  const vms = Array.from(
    { length: n },
    (_, i) =>
      `  - name: vm${i}\n    machine_type: m6i.32xlarge\n    disks:\n      - name: data\n        type: io2\n        size: 1000GiB\n        provisioned_iops: ${base + i}\n`,
  );
  return `version: 1\nprovider: aws\ncatalog: aws-2025\nregion: us-east-1\nvms:\n${vms.join('')}`;
}

/**
 * `n` VMs whose one st1 volume takes random 16 KiB I/O (hdd-random-io each, whose fix searches for an SSD type), no
 * two alike: sizes from `base` GiB up. The workload's target is met: no other finding searches.
 */
function randomOnHddVms(n: number, base: number): string {
  const vms = Array.from(
    { length: n },
    (_, i) =>
      `  - name: vm${i}\n    machine_type: m6i.4xlarge\n    disks:\n      - name: logs\n        type: st1\n        size: ${base + i}GiB\n` +
      `    workloads:\n      - name: scan\n        disk: logs\n        pattern: random\n        read_ratio: 1\n        block_size: 16KiB\n        target:\n          iops: 10\n`,
  );
  return `version: 1\nprovider: aws\ncatalog: aws-2025\nregion: us-east-1\nvms:\n${vms.join('')}`;
}

/**
 * `n` VMs whose workload's small blocks hold its throughput under its target (block-size-too-small and
 * target-unreachable each, both of whose messages name what meets it), no two alike: targets from `base` MiB/s up, a tenth apart
 * (VMs apart in their disk sizes alone would share their size searches).
 */
function smallBlockVms(n: number, base: number): string {
  const vms = Array.from(
    { length: n },
    (_, i) =>
      `  - name: vm${i}\n    machine_type: n2-standard-8\n    disks:\n      - name: data\n        type: pd-ssd\n        size: 100GiB\n` +
      `    workloads:\n      - name: scan\n        disk: data\n        pattern: random\n        read_ratio: 1\n        block_size: 4KiB\n        target:\n          throughput: ${(base + i / 10).toFixed(1)}MiB/s\n`,
  );
  return `version: 1\nprovider: gcp\ncatalog: gcp-2024\nregion: us-central1\nvms:\n${vms.join('')}`;
}

/** `n` VMs whose machine has too few vCPUs for their local SSD (local-ssd-vcpus each), no two alike: sizes from `base` GiB up. */
function fewVcpuLocalSsdVms(n: number, base: number): string {
  const vms = Array.from(
    { length: n },
    (_, i) =>
      `  - name: vm${i}\n    machine_type: n2-standard-2\n    disks:\n      - name: scratch\n        type: local-ssd\n        count: 4\n        interface: nvme\n` +
      `      - name: data\n        type: pd-standard\n        size: ${base + i}GiB\n`,
  );
  return `version: 1\nprovider: gcp\ncatalog: gcp-2024\nregion: us-central1\nvms:\n${vms.join('')}`;
}

/** The analysis of `text` and how many disks its evaluations and searches evaluated. */
function withWork(text: string): { diagnostics: ReturnType<typeof analyze>['diagnostics']; work: number } {
  const before = evaluationWork();
  const { diagnostics } = analyze(text);
  return { diagnostics, work: evaluationWork() - before };
}

describe('findings past the cap', () => {
  for (const edition of FLEET_EDITIONS)
    it(`${edition}: 300 distinct VMs list what they list when every finding is kept to the end`, () => {
      const text = distinctFleet(edition, 300, 17).text;
      const early = analyze(text).diagnostics;
      const late = analyze(`${text}# *\n`).diagnostics;
      const more = early.filter((d) => d.code === 'more-findings').map((d) => d.message);
      assert.ok(
        more.some((m) => m.includes(' more target-unreachable findings')),
        `the fleet has more missed targets than a file lists: ${more.join('; ')}`,
      );
      assert.deepEqual(early, late);
    });

  it('capped-by-vcpu past the cap: the machine that would lift the cap is not searched for, and the file lists the same', () => {
    // Each text of VMs no other analysis has seen (advice is memoised by a VM's content): 600 findings, the cap
    // applied while they come once 400 are in hand.
    const kept = withWork(`${cappedVms(600, 5000)}# *\n`);
    const early = withWork(cappedVms(600, 7000));
    const codes = (d: typeof early.diagnostics) => d.map((x) => x.code);
    assert.deepEqual(codes(early.diagnostics), [...Array<string>(100).fill('capped-by-vcpu'), 'more-findings']);
    assert.match(early.diagnostics[0].message, /; n2-standard-\d+ \(\d+ vCPUs\) lifts it$/);
    assert.ok(early.work < kept.work, `${early.work} disks evaluated with the cap applied as findings come, ${kept.work} without`);
    assert.deepEqual(early.diagnostics, analyze(`${cappedVms(600, 7000)}# *\n`).diagnostics);
  });

  it('provisioned-above-vm-limit past the cap: the VM is not evaluated again for the fix, and the file lists the same', () => {
    const kept = withWork(`${overProvisionedVms(600, 170000)}# *\n`);
    const early = withWork(overProvisionedVms(600, 170000));
    const above = (d: typeof early.diagnostics) =>
      d.filter((x) => x.code === 'provisioned-above-vm-limit' || x.message.includes(' provisioned-above-vm-limit '));
    assert.equal(above(early.diagnostics).length, 101);
    assert.match(above(early.diagnostics)[100].message, /^500 more provisioned-above-vm-limit findings/);
    assert.equal(
      above(early.diagnostics)[0].message,
      'data: 170,000 IOPS provisioned; m6i.32xlarge sustains 160,000 for all its disks: $318.50/month pays for what it cannot use',
    );
    assert.deepEqual(
      above(early.diagnostics)[0].fixes?.map((f) => f.title),
      ['Provision 160,000 IOPS (−$318.50/month)'],
    );
    // Every finding kept to the end: each VM evaluated, and again with its fix (one disk each). Applied as they come:
    // the VMs past the cap are evaluated once.
    assert.equal(kept.work, 1200);
    assert.ok(early.work < 1000, `${early.work} disks evaluated with the cap applied as findings come, ${kept.work} without`);
    assert.deepEqual(early.diagnostics, analyze(`${overProvisionedVms(600, 170000)}# *\n`).diagnostics);
  });

  it('block-size-too-small past the cap: no search for what meets the target, and the file lists the same', () => {
    // Each text of VMs no other analysis has seen (advice is memoised by a VM's content).
    const kept = withWork(`${smallBlockVms(600, 100)}# *\n`);
    const early = withWork(smallBlockVms(600, 200));
    const small = early.diagnostics.filter((x) => x.code === 'block-size-too-small');
    assert.equal(small.length, 100);
    assert.equal(
      small[0].message,
      'at 4KiB per I/O the IOPS limit caps throughput at 35.2 MiB/s; 32KiB blocks would reach the target (281 MiB/s)',
    );
    assert.ok(early.diagnostics.some((x) => x.message.startsWith('500 more block-size-too-small findings')));
    assert.ok(early.work < kept.work / 2, `${early.work} disks evaluated with the cap applied as findings come, ${kept.work} without`);
    assert.deepEqual(early.diagnostics, analyze(`${smallBlockVms(600, 200)}# *\n`).diagnostics);
  });

  it('local-ssd-vcpus past the cap: no machine is searched for its fix, and the file lists the same', () => {
    const kept = withWork(`${fewVcpuLocalSsdVms(600, 200)}# *\n`);
    const early = withWork(fewVcpuLocalSsdVms(600, 800));
    const local = early.diagnostics.filter((x) => x.code === 'local-ssd-vcpus');
    assert.equal(local.length, 100);
    assert.deepEqual(
      local[0].fixes?.map((f) => f.title),
      ['Change machine to n2-standard-16 (+$496.27/month, $719.17/month in all)'],
    );
    assert.ok(early.work < kept.work, `${early.work} disks evaluated with the cap applied as findings come, ${kept.work} without`);
    assert.deepEqual(early.diagnostics, analyze(`${fewVcpuLocalSsdVms(600, 800)}# *\n`).diagnostics);
  });

  it('hdd-random-io past the cap: no SSD type is searched for its fix, and the file lists the same', () => {
    const kept = withWork(`${randomOnHddVms(600, 1000)}# *\n`);
    const early = withWork(randomOnHddVms(600, 1000));
    const codes = (d: typeof early.diagnostics) => d.map((x) => x.code);
    assert.deepEqual(codes(early.diagnostics), [...Array<string>(100).fill('hdd-random-io'), 'more-findings']);
    assert.deepEqual(
      early.diagnostics[0].fixes?.map((f) => f.title),
      ["Switch 'logs' to gp3 (+$35.00/month)"],
    );
    assert.ok(early.work < kept.work, `${early.work} disks evaluated with the cap applied as findings come, ${kept.work} without`);
    assert.deepEqual(early.diagnostics, analyze(`${randomOnHddVms(600, 1000)}# *\n`).diagnostics);
  });
});
