/** Disk types not modelled on the machine (core/src/checks/unmodelled.ts): the finding, its range, and no figure made up. */
import * as assert from 'node:assert/strict';
import { analyze, EvaluationCache, fileReport, hover } from '../../core/src';
import { expectAt } from './helpers';

// aws-2023: io2 on M7g ran on EBS Block Express, which that edition does not model; on M6i it is modelled.
const spec = (machine: string, workloads = '') => `version: 1
provider: aws
catalog: aws-2023
vms:
  - name: db
    machine_type: ${machine}
    disks:
      - name: root
        type: gp3
        size: 50GiB
      - name: data
        type: io2
        size: 500GiB
        provisioned_iops: 100000
${workloads}`;
const WORKLOADS = `    workloads:
      - name: oltp
        disk: data
        block_size: 16KiB
        read_ratio: 0.7
        target:
          iops: 50000
      - name: boot
        disk: root
        block_size: 16KiB
        read_ratio: 1
`;

describe('checks: unmodelled', () => {
  it("disk-unmodelled: on the disk's type, with the edition's reason and the workloads left out", () => {
    const d = expectAt(spec('m7g.2xlarge', WORKLOADS), 'disk-unmodelled', 'io2');
    assert.equal(d.severity, 'warning');
    assert.ok(d.message.length <= 240, `${d.message.length} characters`);
    assert.equal(
      d.message,
      "io2 on m7g.2xlarge in aws-2023: io2 on C7g, M7g and R5b ran on EBS Block Express (up to 256,000 IOPS, 4,000 MiB/s, 64 TiB), which this edition does not model; disk 'data' has no figures and workload 'oltp' is not evaluated",
    );
  });

  it('no figure is made up: the disk is priced but has none, its workloads are left out, the other disk keeps its own', () => {
    const a = analyze(spec('m7g.2xlarge', WORKLOADS));
    const vm = a.vms[0];
    assert.deepEqual(
      vm.disks.map((d) => d.spec.name),
      ['root'],
    );
    assert.deepEqual(
      vm.workloads.map((w) => w.spec.name),
      ['boot'],
    );
    // 100,000 IOPS is above the 64,000 of the io2 the edition models: no range error, since that io2 is not this one.
    assert.deepEqual(
      a.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code),
      [],
    );
    // The price needs no figures: 500 GiB × $0.125 + IOPS in AWS's tiers (32,000 × $0.065 + 32,000 × $0.0455
    // + 36,000 × $0.03185), all of it in the VM's total.
    const io2 = 500 * 0.125 + 32000 * 0.065 + 32000 * 0.0455 + 36000 * 0.03185;
    assert.ok(Math.abs(vm.unmodelled![0].cost.monthly! - io2) < 0.01, String(vm.unmodelled![0].cost.monthly));
    const disks = vm.disks[0].cost.monthly! + io2;
    assert.ok(Math.abs(vm.monthly_cost! - (vm.machine_cost.monthly! + disks)) < 0.01);
    // The report lists the disk with null figures and its price, and the workload with null figures.
    const r = fileReport('x.perf.yaml', a).vms[0];
    const data = r.disks.find((d) => d.name === 'data')!;
    assert.equal(data.read_iops, null);
    assert.ok(Math.abs(data.monthly_cost! - io2) < 0.01);
    assert.ok(Math.abs(r.disks_monthly_cost! - disks) < 0.01);
    assert.equal(r.workloads.find((w) => w.name === 'oltp')!.meets_target, null);
  });

  it('a workload on every disk, one of them without figures, is not evaluated over the others alone', () => {
    const a = analyze(spec('m7g.2xlarge', WORKLOADS.replace('        disk: root\n', '')));
    assert.deepEqual(a.vms[0].workloads, []);
  });

  it('on a machine the edition models the type on, the disk has its figures and no finding', () => {
    const a = analyze(spec('m6i.2xlarge').replace('100000', '50000'));
    assert.deepEqual(
      a.vms[0].disks.map((d) => d.spec.name),
      ['root', 'data'],
    );
    assert.ok(!a.diagnostics.some((x) => x.code === 'disk-unmodelled'));
  });

  it('VMs written alike share one evaluation, each with its own disk without figures (hover on the second answers)', () => {
    const one = spec('m7g.2xlarge').split('vms:\n')[1];
    const text = spec('m7g.2xlarge') + one.replace('name: db', 'name: db2');
    const a = analyze(text, { cache: new EvaluationCache() });
    assert.deepEqual(
      a.vms.map((v) => v.unmodelled?.map((u) => u.spec.path)),
      [['/vms/0/disks/1'], ['/vms/1/disks/1']],
    );
    assert.match(hover(a, text.lastIndexOf('type: io2') + 7)!.markdown, /^\*\*disk data\*\* — io2 on m7g\.2xlarge: no figures in aws-2023/);
  });
});
