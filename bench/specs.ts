/** The specs the benchmarks measure: VMs of one realistic shape, varied by a counter. */

const MACHINES = ['n2-standard-8', 'n2-standard-16', 'e2-standard-4', 'c3-standard-22', 'n1-standard-32'];

/**
 * One VM: a data disk whose type follows `k` and whose size follows `sizeK`, a log disk, and an OLTP workload
 * whose target follows `k`.
 */
export function vmLines(name: string, k: number, sizeK = k): string[] {
  return [
    `  - name: ${name}`,
    `    machine_type: ${MACHINES[k % MACHINES.length]}`,
    '    disks:',
    '      - name: data',
    `        type: ${k % 3 ? 'pd-ssd' : 'pd-balanced'}`,
    `        size: ${100 + (sizeK % 40) * 50}GiB`,
    '      - name: logs',
    '        type: pd-standard',
    '        size: 200GiB',
    '    workloads:',
    '      - name: oltp',
    '        disk: data',
    '        block_size: 8KiB',
    '        read_ratio: 0.7',
    '        queue_depth: 32',
    '        target:',
    `          iops: ${5000 + (k % 7) * 2000}`,
  ];
}

export const SPEC_HEAD = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms:'];
