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
 * like 500 GiB; from `firstSize` on), so that no VM's evaluation or findings can be shared with another's.
 */
export function manyVms(vms: number, distinct = false, firstSize = 2000): string {
  const lines = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms:'];
  for (let i = 0; i < vms; i++) {
    lines.push(
      `  - name: vm${i}`,
      '    machine_type: n2-standard-8',
      '    disks:',
      '      - name: d',
      '        type: pd-ssd',
      `        size: ${distinct ? firstSize + i : 500}GiB`,
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

/**
 * A spec followed by `keys` unknown top-level keys of about 55 bytes a line: 90,000 of them make the 5 MB junk
 * spec of issue 26 (a finding each before the cap of core/src/checks/finding-cap.ts).
 */
export function unknownKeys(keys: number): string {
  const lines = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms: []'];
  for (let i = 0; i < keys; i++) lines.push(`junk_key_${String(i).padStart(6, '0')}: a value that pads this line to 55 bytes`);
  return lines.join('\n') + '\n';
}

/** One VM whose mapping repeats the key `name` `n` times, and `n` top-level keys each written twice. */
export function duplicateKeys(n: number): string {
  const lines = ['version: 1', 'provider: gcp', 'catalog: gcp-2024', 'vms:', '  - name: vm0'];
  for (let i = 0; i < n; i++) lines.push(`    name: vm${i + 1}`);
  lines.push('    machine_type: n2-standard-8', '    disks: [{name: d, type: pd-ssd, size: 500GiB}]');
  for (let i = 0; i < n; i++) lines.push(`k${i}: 1`, `k${i}: 2`);
  return lines.join('\n') + '\n';
}

/**
 * `vms` VMs that each take their machine and workload from the first by a merge key (`<<: *base`) and have a disk of
 * their own size (`firstSize` GiB and up), the workload's target out of reach: every VM has findings on the text they share.
 */
export function mergedVms(vms: number, firstSize = 1000): string {
  const lines = [
    'version: 1',
    'provider: gcp',
    'catalog: gcp-2024',
    'vms:',
    '  - &base',
    '    name: vm0',
    '    machine_type: n2-standard-8',
    '    disks: [{name: d, type: pd-ssd, size: 5000GiB}]',
    '    workloads: [{name: w, block_size: 8k, read_ratio: 0.5, target: {iops: 90000}}]',
  ];
  for (let i = 1; i < vms; i++)
    lines.push('  - <<: *base', `    name: vm${i}`, `    disks: [{name: d, type: pd-ssd, size: ${firstSize + i}GiB}]`);
  return lines.join('\n') + '\n';
}

/**
 * One VM with `disks` disks (past what any machine attaches) of three types, each its own size, and a workload on
 * each with a target it meets; with `unreachable`, every other target is out of reach and the disks declare their
 * data, so that findings ask for advice (searches that evaluate the VM again). The sizes start at `firstSize` GiB.
 */
export function manyDisks(disks: number, unreachable = false, firstSize = 100): string {
  const types = ['pd-ssd', 'pd-balanced', 'hyperdisk-balanced'];
  const data = unreachable ? ', data_size: 50GiB' : '';
  const lines = [
    'version: 1',
    'provider: gcp',
    'catalog: gcp-2024',
    'vms:',
    '  - name: vm0',
    '    machine_type: c3-standard-22',
    '    disks:',
  ];
  for (let i = 0; i < disks; i++) lines.push(`      - {name: d${i}, type: ${types[i % 3]}, size: ${firstSize + i}GiB${data}}`);
  lines.push('    workloads:');
  for (let i = 0; i < disks; i++)
    lines.push(`      - {name: w${i}, disk: d${i}, block_size: 8k, read_ratio: 0.7, target: {iops: ${unreachable && i % 2 ? 90000 : 5}}}`);
  return lines.join('\n') + '\n';
}

/** One VM whose disks are one flow sequence of `items` disks on one line, and an unknown key holding as many numbers. */
export function longFlowSequence(items: number): string {
  const disks = Array.from({ length: items }, (_, i) => `{name: d${i}, type: pd-balanced, size: ${10 + i}GiB}`);
  const numbers = Array.from({ length: items }, (_, i) => String(i));
  return [
    'version: 1',
    'provider: gcp',
    'catalog: gcp-2024',
    'vms:',
    '  - name: vm0',
    '    machine_type: n2-standard-8',
    `    disks: [${disks.join(', ')}]`,
    `numbers: [${numbers.join(', ')}]`,
  ].join('\n');
}
