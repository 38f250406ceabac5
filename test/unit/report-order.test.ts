/**
 * The report lists a VM's disks and workloads in the order the spec writes them, whatever part of the evaluation
 * each comes from (evaluated, without a valid type, left out); a name written twice is listed where it is first
 * written, both of its disks together.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport } from '../../core/src';

const spec = (disks: string[], workloads: string[]) => `version: 1
provider: gcp
catalog: gcp-2024
region: us-central1
vms:
  - name: db
    machine_type: n2-standard-8
    disks:
${disks.map((d) => `      - ${d}`).join('\n')}
    workloads:
${workloads.map((w) => `      - ${w}`).join('\n')}
`;

const disk = (name: string, type: string, size: string) => `{ name: ${name}, type: ${type}, size: ${size} }`;
const workload = (name: string, on: string) => `{ name: ${name}, disk: ${on}, pattern: random, block_size: 4KiB, read_ratio: 0.7 }`;

function listed(text: string) {
  const vm = fileReport('x.perf.yaml', analyze(text)).vms[0];
  return { disks: vm.disks.map((d) => `${d.name}:${d.size_gib}`), workloads: vm.workloads.map((w) => w.name) };
}

describe('report order', () => {
  it('lists disks and workloads as written when each part is where the spec has it', () => {
    const text = spec(
      [disk('data', 'pd-ssd', '500GiB'), disk('wal', 'pd-balanced', '100GiB')],
      [workload('oltp', 'data'), workload('log', 'wal')],
    );
    assert.deepEqual(listed(text), { disks: ['data:500', 'wal:100'], workloads: ['oltp', 'log'] });
  });

  it('puts a disk without figures and a workload left out in their written places', () => {
    const text = spec([disk('a', 'no-such-type', '10GiB'), disk('b', 'pd-ssd', '50GiB')], [workload('x', 'nowhere'), workload('y', 'b')]);
    assert.deepEqual(listed(text), { disks: ['a:null', 'b:50'], workloads: ['x', 'y'] });
  });

  it('lists a name written twice where it is first written', () => {
    const text = spec(
      [
        disk('a', 'pd-ssd', '100GiB'),
        disk('b', 'pd-balanced', '200GiB'),
        disk('a', 'pd-ssd', '300GiB'),
        disk('c', 'no-such-type', '10GiB'),
      ],
      [workload('w', 'b'), workload('y', 'a')],
    );
    assert.deepEqual(listed(text).disks, ['a:100', 'a:300', 'b:200', 'c:null']);
  });
});
