/**
 * Azure's on-demand bursting (azure-2026): a Premium SSD larger than 512 GiB (P30 and up) with `bursting: on-demand`
 * bursts to 30,000 IOPS and 1,000 MB/s with no time limit, billed per burst transaction ("On-demand bursting:
 * Premium SSD > 512 GiB only (P30+) ... Burst ceiling: 30,000 IOPS / 1,000 MB/s, no time limit",
 * https://learn.microsoft.com/en-us/azure/virtual-machines/disk-bursting and the Premium SSD table's max burst
 * row, https://learn.microsoft.com/en-us/azure/virtual-machines/disks-scalability-targets). Reported as `burst`
 * figures, as credit bursting is; the sustained figures stay the headline and the targets are judged on them.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, hover } from '../../core/src';

const MB = 1e6 / 2 ** 20;

function spec(machine: string, disk: string, target = 20000): string {
  return `version: 1
provider: azure
catalog: azure-2026
region: eastus
vms:
  - name: db
    machine_type: ${machine}
    disks:
      - name: data
        type: premium-ssd
${disk}      - name: plain
        type: premium-ssd
        size: 1TiB
    workloads:
      - name: oltp
        disk: data
        block_size: 8KiB
        read_ratio: 0.7
        target:
          iops: ${target}
`;
}

describe('Azure on-demand bursting', () => {
  it('a P30 with on-demand bursting bursts to 30,000 IOPS and 1,000 MB/s with no time limit; the sustained figures stay', () => {
    // Standard_D32s_v5: 51,200 IOPS and 865 MBps uncached: the IOPS burst is the disk's, the throughput the VM's.
    const text = spec('Standard_D32s_v5', '        size: 1TiB\n        bursting: on-demand\n');
    const a = analyze(text);
    const [data, plain] = a.vms[0].disks;
    assert.equal(data.figures.read_iops, 5000);
    assert.ok(Math.abs(data.figures.read_mibps - 200 * MB) < 0.01);
    assert.deepEqual(data.burst?.read_iops, { value: 30000, seconds: Infinity, ends: 'on-demand' });
    assert.ok(Math.abs(data.burst!.write_mibps!.value - 865 * MB) < 0.01, String(data.burst!.write_mibps!.value));
    assert.equal(plain.burst, undefined, 'a P30 without the setting does not burst');

    const r = fileReport('x.perf.yaml', a).vms[0];
    assert.deepEqual(r.disks[0].burst?.read_iops, { value: 30000, seconds: null, ends: 'on-demand' });
    assert.equal(r.disks[1].burst, undefined);
    const w = r.workloads[0];
    assert.equal(w.read_iops! + w.write_iops!, 5000, 'the target is judged on the sustained figures');
    assert.equal(w.meets_target, false);
    assert.deepEqual([w.burst?.read_iops, w.burst?.write_iops, w.burst?.seconds, w.burst?.ends], [21000, 9000, null, 'on-demand']);
    assert.equal(w.burst?.summary, '30,000 IOPS with no time limit, 5,000 sustained');
    assert.ok(!a.diagnostics.some((d) => d.code === 'gp2-out-of-burst' || d.code === 'instance-limit-only-in-window'));
  });

  it('the hover says it on the disk, the workload and the bursting key, with the source', () => {
    const text = spec('Standard_D32s_v5', '        size: 1TiB\n        bursting: on-demand\n');
    const a = analyze(text);
    const disk = hover(a, text.indexOf('name: data') + 7)!.markdown;
    assert.match(
      disk,
      /- read and write IOPS: 30,000 IOPS with no time limit, 5,000 sustained \(on-demand bursting, billed per burst transaction\)/,
    );
    const w = hover(a, text.indexOf('name: oltp') + 7)!.markdown;
    assert.match(
      w,
      /\*\*Burst\*\*: 30,000 IOPS with no time limit, 5,000 sustained \(on-demand bursting, billed per burst transaction\); the target is judged on the sustained figure/,
    );
    const key = hover(a, text.indexOf('on-demand') + 3)!.markdown;
    assert.match(
      key,
      /^\*\*On-demand bursting\*\*: up to 30,000 IOPS and 954 MiB\/s \(1,000 MB\/s\) with no time limit.*\(azure-2026: On-demand bursting: Premium SSD larger than 512 GiB/m,
    );
  });

  it("held by the size's sustained uncached limit: on a Standard_D8s_v3 a P40 bursts to 12,800 IOPS, not 30,000", () => {
    // Standard_D8s_v3: 12,800 IOPS and 192 MBps uncached (its 30-minute window above that is not added).
    const a = analyze(spec('Standard_D8s_v3', '        size: 2TiB\n        bursting: on-demand\n'));
    const data = a.vms[0].disks[0];
    assert.equal(data.figures.read_iops, 7500);
    assert.deepEqual(data.burst?.read_iops, { value: 12800, seconds: Infinity, ends: 'on-demand' });
  });

  it('below P30 the setting is refused and the disk bursts on credits for 30 minutes instead (P20: 3,500 IOPS)', () => {
    const a = analyze(spec('Standard_D32s_v5', '        size: 512GiB\n        bursting: on-demand\n'));
    assert.ok(a.diagnostics.some((d) => d.code === 'on-demand-bursting-size' && d.path === '/vms/0/disks/0/bursting'));
    const b = a.vms[0].disks[0].burst?.read_iops;
    assert.equal(b?.value, 3500);
    assert.equal(b?.ends, 'credits');
    assert.equal(b?.seconds, 1800);
  });
});
