/** Findings and fixes on text several VMs share through an anchor (core/src/document/shared-text.ts). */
import * as assert from 'node:assert/strict';
import { analyze, type FixData } from '../../core/src';
import type { Diagnostic } from '../../core/src/diagnostics';
import { parseSpec } from '../../core/src/document/parse';
import { scopeSharedFindings } from '../../core/src/document/shared-text';

const SHARED = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: a
    machine_type: n2-standard-8
    disks: &d
      - name: data
        type: pd-sdd
        size: 500GiB
  - name: b
    machine_type: n2-standard-8
    disks: *d
`;

describe('findings and fixes on shared (anchored) text', () => {
  it('one finding per VM, each naming its VM; the fix offered once, saying which VMs it changes', () => {
    const a = analyze(SHARED);
    const found = a.diagnostics.filter((d) => d.code === 'unknown-disk-type');
    assert.deepEqual(
      found.map((d) => d.message.split(':')[0]),
      ["VM 'a'", "VM 'b'"],
    );
    const fixes = found.flatMap((d) => d.fixes ?? []);
    assert.deepEqual(
      fixes.map((f) => f.title),
      ["Use pd-ssd (shared text: changes VMs 'a', 'b')"],
    );
    // The edit is the anchor's text, the only place the type is written.
    assert.equal(fixes[0].kind === 'set-value' && fixes[0].path, '/vms/0/disks/0/type');
  });

  it('VMs that disagree about the edit of shared text get no fix that would change the others', () => {
    const parsed = parseSpec(SHARED);
    const span = parsed.tree.nodes.get('/vms/0/disks/0/size')!.value;
    const finding = (vm: number, value: string): Diagnostic => ({
      code: 'target-unreachable',
      severity: 'warning',
      message: 'too small',
      span: { start: span.start, end: span.end },
      path: `/vms/${vm}/disks/0/size`,
      fixes: [{ kind: 'set-value', path: `/vms/${vm}/disks/0/size`, value, title: `Write ${value}` } as FixData],
    });
    const out = scopeSharedFindings(SHARED, parsed.tree, parsed.spec, [finding(0, '1000GiB'), finding(1, '2000GiB')]);
    assert.deepEqual(
      out.map((d) => [d.message, d.fixes]),
      [
        ["VM 'a': too small", []],
        ["VM 'b': too small", []],
      ],
    );
  });

  it('text that no other VM shares is left as it was', () => {
    const text = SHARED.replace('    disks: *d\n', '    disks: [{name: data, type: pd-sdd, size: 500GiB}]\n');
    const found = analyze(text).diagnostics.filter((d) => d.code === 'unknown-disk-type');
    assert.equal(found.length, 2);
    for (const d of found) {
      assert.match(d.message, /^'pd-sdd' is not/);
      assert.deepEqual(
        d.fixes?.map((f) => f.title),
        ['Use pd-ssd'],
      );
    }
  });

  it('a key added to a mapping that a merge key brings into another VM is a shared edit: not offered unless both ask it', () => {
    // Found by the invariant suite: 'Add provisioned_iops: 100' on vm0's anchored io2 disk changed vm1's too
    // (it merges the mapping), and its title did not say so. vm1 adds the key to its own mapping instead.
    const text = [
      'version: 1',
      'provider: aws',
      'catalog: aws-2023',
      'vms:',
      '  - name: vm0',
      '    machine_type: r6i.24xlarge',
      '    disks:',
      '      - &d0',
      '        name: d0',
      '        type: io2',
      '        size: 4GiB',
      '  - name: vm1',
      '    machine_type: m5.large',
      '    disks:',
      '      - <<: *d0',
      '        name: d0',
      '',
    ].join('\n');
    const found = analyze(text).diagnostics.filter((d) => d.code === 'missing-provisioned-iops');
    assert.deepEqual(
      found.map((d) => [d.path, (d.fixes ?? []).map((f) => f.kind === 'add-key' && f.path)]),
      [
        ['/vms/0/disks/0', []],
        ['/vms/1/disks/0', ['/vms/1/disks/0']],
      ],
    );
  });

  it('a fix of several values that adds a key to a mapping another VM merges is not offered (it would change that VM)', () => {
    // Found by the invariant suite: 'Provision 640 IOPS on d0' added provisioned_iops to vm0's anchored io1, which
    // vm1 merges, without saying so.
    const text = [
      'version: 1',
      'provider: aws',
      'catalog: aws-2023',
      'vms:',
      '  - name: vm0',
      '    machine_type: t3.small',
      '    disks:',
      '      - &d0',
      '        name: d0',
      '        type: io1',
      '        size: 13GiB',
      '    workloads:',
      '      - name: w0',
      '        block_size: 8KiB',
      '        read_ratio: 0',
      '        target:',
      '          throughput: 5MiB/s',
      '  - name: vm1',
      '    machine_type: m5.large',
      '    disks:',
      '      - <<: *d0',
      '        name: d0',
      '',
    ].join('\n');
    const d = analyze(text).diagnostics.find((x) => x.code === 'target-unreachable')!;
    const touching = (d.fixes ?? []).filter((f) => f.kind === 'set-values' && f.values.some((v) => v.path === '/vms/0/disks/0'));
    assert.deepEqual(touching, []);
  });
});
