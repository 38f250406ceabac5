/**
 * A workload sidecar linted beside the module it names keeps only what its workloads bring (core's
 * `workloadFindingsOnly`): the findings its VMs and disks have by themselves are the module's to report.
 */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { specText } from '../helpers';

const TEXT = specText({
  catalog: 'gcp-2024',
  machine: 'n2-standard-2',
  disks: [
    { name: 'a', type: 'pd-balanced', size: '100GiB' },
    { name: 'b', type: 'pd-balanced', size: '100GiB' },
  ],
  workloads: [{ name: 'w', disk: 'a', block_size: '4KiB', read_ratio: 0.7, target: { iops: 20000 } }],
});

describe('only what the workloads bring', () => {
  it("drops the VM's and disks' own findings, keeps the workloads' and the VM findings the workloads cause", () => {
    const all = analyze(TEXT).diagnostics.map((d) => d.code);
    // The fixture has each kind: a disk finding that needs no workload, a VM finding a workload causes, a workload's.
    for (const code of ['shared-baseline', 'cpu-insufficient', 'target-unreachable']) assert.ok(all.includes(code), all.join(' '));
    const only = analyze(TEXT, { workloadFindingsOnly: true }).diagnostics.map((d) => d.code);
    assert.ok(!only.includes('shared-baseline'), only.join(' '));
    assert.deepEqual(
      only,
      all.filter((c) => c !== 'shared-baseline'),
    );
  });

  it('without workloads nothing is dropped that concerns the spec rather than its VMs (an unknown top-level key)', () => {
    const text = `${TEXT}owner: storage-team\n`;
    const only = analyze(text, { workloadFindingsOnly: true }).diagnostics.map((d) => d.code);
    assert.ok(only.includes('unknown-key'), only.join(' '));
  });
});
