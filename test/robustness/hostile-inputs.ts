/** Hostile spec texts, built in memory (a 10 MB file does not belong in the repository). */

/** Billion laughs: ten levels of nine aliases each, 9^9 nodes once expanded, 400 bytes of text. */
export function billionLaughs(): string {
  let t = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < 10; i++) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    t += `${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
  }
  return t;
}

/**
 * A spec with `vms` VMs of 11 lines each (a disk and a workload with a target): the expensive shape. Alike but
 * for their names, unless `distinct`: then each disk has its own size (2,000 GiB and up, capped by the machine
 * like 500 GiB), so that no VM's evaluation or findings can be shared with another's.
 */
export function manyVms(vms: number, distinct = false): string {
  const lines = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms:'];
  for (let i = 0; i < vms; i++) {
    lines.push(
      `  - name: vm${i}`,
      '    machine_type: n2-standard-8',
      '    disks:',
      '      - name: d',
      '        type: pd-ssd',
      `        size: ${distinct ? 2000 + i : 500}GiB`,
      '    workloads:',
      '      - name: w',
      '        block_size: 8k',
      '        read_ratio: 0.5',
      '        target: {iops: 1000}',
    );
  }
  return lines.join('\n') + '\n';
}

/** The example followed by `n` comment lines. */
export function withComments(spec: string, n: number): string {
  const out = [spec];
  for (let i = 0; i < n; i++) out.push(`# comment line ${i}`);
  return out.join('\n') + '\n';
}

/** Deterministic pseudo-random bytes. */
export function garbage(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
}

/**
 * An alias bomb built of ordinary spec parts: the first VM anchors a list of `workloads` workloads and every other
 * VM aliases it (250 × 40: about 30 KB of text, 10,000 workloads once expanded). With `aliasedDisks` instead, every
 * VM aliases one anchored list of three disks: the legitimate use of an anchor, the same few nodes repeated.
 */
export function aliasedWorkloads(vms: number, workloads: number): string {
  const lines = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms:'];
  for (let i = 0; i < vms; i++) {
    lines.push(`  - name: vm${i}`, '    machine_type: n2-standard-8', '    disks: [{name: d, type: pd-ssd, size: 500GiB}]');
    if (i > 0) lines.push('    workloads: *w');
    else {
      lines.push('    workloads: &w');
      for (let j = 0; j < workloads; j++) lines.push(`      - {name: w${j}, disk: d, block_size: 8k, target: {iops: 1000}}`);
    }
  }
  return lines.join('\n') + '\n';
}
export function aliasedDisks(vms: number): string {
  const lines = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms:'];
  for (let i = 0; i < vms; i++) {
    lines.push(`  - name: vm${i}`, '    machine_type: n2-standard-8');
    if (i > 0) lines.push('    disks: *d');
    else
      lines.push(
        '    disks: &d',
        '      - {name: boot, type: pd-balanced, size: 50GiB}',
        '      - {name: data, type: pd-ssd, size: 500GiB}',
        '      - {name: logs, type: pd-standard, size: 200GiB}',
      );
  }
  return lines.join('\n') + '\n';
}
