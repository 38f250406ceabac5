/**
 * A VM whose machine is unknown has no figures. Without the machine's per-VM limits, a disk's figures are
 * its own: a 2 TiB pd-ssd alone is rated 67,440 IOPS (gcp-2024: a 6,000 IOPS baseline plus 30 IOPS per GiB),
 * while on an n2-standard-8 the per-VM limit holds it to 15,000. Showing 67,440 for a VM whose machine is
 * misspelt would be a number that looks right and is four times too high.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, hover, inlayHints } from '../../core/src';

const spec = (machine: string) => `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
${machine}
    disks:
      - name: data
        type: pd-ssd
        size: 2TiB
    workloads:
      - name: oltp
        pattern: random
        block_size: 8KiB
        read_ratio: 0.7
        target:
          iops: 50000
`;

const UNKNOWN = {
  'a vCPU count the family does not offer': '    machine_type: n2-standard-7',
  'a series the catalog does not know': '    machine_type: q9-standard-8',
  'a vCPU count the series does not offer': '    series: n1\n    vcpus: 3',
  'no machine at all': '',
};

describe('a VM whose machine is unknown', () => {
  it('the same disk on a known machine is capped by it (the figure an unknown machine would lose)', () => {
    const a = analyze(spec('    machine_type: n2-standard-8'));
    const d = a.vms[0].disks[0];
    assert.equal(d.diskOnly.read_iops, 67440);
    assert.equal(d.figures.read_iops, 15000);
    assert.equal(d.figures.by('read_iops'), 'vm');
  });

  for (const [what, machine] of Object.entries(UNKNOWN)) {
    it(`${what}: one error, and no figure anywhere`, () => {
      const text = spec(machine);
      const a = analyze(text);
      const errors = a.diagnostics.filter((d) => d.severity === 'error');
      assert.equal(errors.length, 1, errors.map((d) => `${d.code}: ${d.message}`).join(' | '));
      // No other finding speaks about figures it does not have (a missed target, a cap, egress).
      assert.deepEqual(
        a.diagnostics.filter((d) => d !== errors[0]).map((d) => d.code),
        [],
      );
      const vm = a.vms[0];
      assert.ok(vm.unavailable, 'the evaluation says why it has no figures');
      assert.deepEqual([vm.disks, vm.workloads], [[], []]);

      const r = fileReport('spec.perf.yaml', a).vms[0];
      assert.equal(r.figures_unavailable, vm.unavailable);
      assert.deepEqual(
        r.disks.map((d) => [d.name, d.read_iops, d.write_iops, d.read_mibps, d.write_mibps, d.limited_by, d.monthly_cost]),
        [['data', null, null, null, null, null, null]],
      );
      assert.deepEqual(
        r.workloads.map((w) => [w.name, w.read_iops, w.write_iops, w.meets_target, w.limited_by]),
        [['oltp', null, null, null, null]],
      );
      assert.equal(fileReport('spec.perf.yaml', a).monthly_cost, null);

      const h = hover(a, text.indexOf('size: 2TiB'));
      assert.ok(h?.markdown.includes('no figures'), h?.markdown);
      assert.ok(!/67,440|67440/.test(h!.markdown), h!.markdown);
      assert.deepEqual(inlayHints(a), []);
    });
  }
});
