/** The editor features of the core, on offsets: quick-fix edits, hovers, completion, outline, inlay hints. */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, complete, fixEdits, hover, inlayHints, symbols, type FixData } from '../../core/src';

const SPEC = `# capacity plan for the orders database
version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db            # primary
    machine_type: n2-standard-8
    disks:
      - name: data      # PGDATA
        type: pd-ssd    # SSD for random I/O
        size: 500GiB
    workloads:
      - name: oltp
        disk: data
        block_size: 8KiB
        read_ratio: 0.7
        target:
          iops: 12000
`;

function fix(text: string, f: FixData): string {
  const a = analyze(text);
  return applyEdits(text, fixEdits(text, a.parsed.tree, f));
}

describe('quick-fix edits', () => {
  it('set-value replaces only the value and keeps the trailing comment', () => {
    const out = fix(SPEC, { kind: 'set-value', path: '/vms/0/disks/0/type', value: 'pd-balanced', title: '' });
    assert.equal(out, SPEC.replace('type: pd-ssd    # SSD', 'type: pd-balanced    # SSD'));
  });
  it('set-value quotes what would not read back as the same string', () => {
    const out = fix(SPEC, { kind: 'set-value', path: '/vms/0/name', value: 'yes', title: '' });
    assert.match(out, /- name: "yes" {12}# primary/);
  });
  it('remove-key deletes the whole entry and nothing else', () => {
    const out = fix(SPEC, { kind: 'remove-key', path: '/vms/0/workloads/0/disk', title: '' });
    assert.equal(out, SPEC.replace('        disk: data\n', ''));
  });
  it('remove-key keeps the comment lines inside its value and the one above the next key; its trailing comment goes with it', () => {
    const text = SPEC.replace(
      '        size: 500GiB\n',
      `        colour: red  # a note
        shade:
          # inside the value
          x: "a # not a comment"
          y: |
            # block text
        # above size
        size: 500GiB
`,
    );
    const out = fix(text, { kind: 'remove-key', path: '/vms/0/disks/0/colour', title: '' });
    assert.equal(out, text.replace('        colour: red  # a note\n', ''));
    const out2 = fix(text, { kind: 'remove-key', path: '/vms/0/disks/0/shade', title: '' });
    assert.equal(out2, text.replace(/ {8}shade:\n[^]*# block text\n/, '          # inside the value\n'));
    for (const o of [out, out2]) assert.ok(!analyze(o).diagnostics.some((d) => d.code.startsWith('yaml-')));
  });
  it('remove-key in a multi-line flow mapping keeps the comment line above the key; its trailing comment goes with it', () => {
    const flow = `      - {name: data,
         # the fast one
         colour: red,  # a note
         # about the type
         type: pd-ssd, size: 500GiB}
`;
    const text = SPEC.replace(/ {6}- name: data.*\n.*\n {8}size: 500GiB\n/, flow);
    assert.notEqual(text, SPEC);
    const out = fix(text, { kind: 'remove-key', path: '/vms/0/disks/0/colour', title: '' });
    assert.equal(out, text.replace('         colour: red,  # a note\n', ''));
    assert.ok(!analyze(out).diagnostics.some((d) => d.code.startsWith('yaml-')));
    assert.equal(analyze(out).spec?.vms[0].disks[0].type, 'pd-ssd');
  });
  it('remove-key of the first key of a list item keeps the comment lines above the next key', () => {
    const text = SPEC.replace('      - name: oltp\n', '      - name: oltp  # the main one\n        # which disk\n');
    const out = fix(text, { kind: 'remove-key', path: '/vms/0/workloads/0/name', title: '' });
    assert.equal(out, text.replace('      - name: oltp  # the main one\n        # which disk\n', '      - # which disk\n'));
    assert.equal(analyze(out).spec?.vms[0].workloads[0].disk, 'data');
  });
  it('remove-key of the first key of a list item pulls the next key behind the dash', () => {
    const out = fix(SPEC, { kind: 'remove-key', path: '/vms/0/workloads/0/name', title: '' });
    assert.equal(out, SPEC.replace('      - name: oltp\n        disk: data\n', '      - disk: data\n'));
    assert.deepEqual(
      analyze(out).diagnostics.filter((d) => d.code === 'yaml-syntax'),
      [],
    );
  });
  it('rename-key renames the key in place', () => {
    const text = SPEC.replace('read_ratio', 'read_ration');
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'unknown-key')!;
    const out = applyEdits(text, fixEdits(text, a.parsed.tree, d.fixes![0]));
    assert.equal(out, SPEC);
  });
  it("add-key appends at the object's own indentation, after its last line", () => {
    const out = fix(SPEC, { kind: 'add-key', path: '/vms/0/disks/0', key: 'replication', value: 'regional', title: '' });
    assert.equal(out, SPEC.replace('        size: 500GiB\n', '        size: 500GiB\n        replication: regional\n'));
  });
  it('set-values applies several edits at once (type and size)', () => {
    const out = fix(SPEC, {
      kind: 'set-values',
      values: [
        { path: '/vms/0/disks/0/type', value: 'pd-balanced' },
        { path: '/vms/0/disks/0/size', value: '1TiB' },
      ],
      title: '',
    });
    assert.match(out, /type: pd-balanced {4}# SSD for random I\/O\n {8}size: 1TiB\n/);
  });
  it('removing an unknown key is offered but never preferred when it would lose what the user wrote', () => {
    const unknown = (text: string) => analyze(text).diagnostics.find((d) => d.code === 'unknown-key')!;
    const owner = unknown(SPEC.replace('  - name: db ', '  - owner: alice\n    name: db '));
    assert.deepEqual(
      owner.fixes?.map((f) => [f.kind, f.preferred]),
      [['remove-key', false]],
    );
    // a misspelt copy of a key the mapping has: removing it loses nothing only when the values agree
    const same = unknown(SPEC.replace('size: 500GiB', 'size: 500GiB\n        sise: 500GiB'));
    assert.deepEqual(
      same.fixes?.map((f) => [f.kind, f.preferred]),
      [['remove-key', true]],
    );
    const other = unknown(SPEC.replace('size: 500GiB', 'size: 500GiB\n        sise: 900GiB'));
    assert.deepEqual(
      other.fixes?.map((f) => [f.kind, f.preferred]),
      [['remove-key', false]],
    );
  });
  it('CRLF files stay CRLF', () => {
    const crlf = SPEC.replace(/\n/g, '\r\n');
    const out = fix(crlf, { kind: 'add-key', path: '/vms/0/disks/0', key: 'replication', value: 'zonal', title: '' });
    assert.ok(!/[^\r]\n/.test(out));
  });
  it('every quick fix offered for the examples applies cleanly and removes its diagnostic', () => {
    for (const text of [
      SPEC,
      SPEC.replace('n2-standard-8', 'n2-standard-7'),
      SPEC.replace('iops: 12000', 'iops: 40000'),
      SPEC.replace('500GiB', '100TiB'),
      SPEC.replace('read_ratio', 'read_ration'),
    ]) {
      const a = analyze(text);
      for (const d of a.diagnostics) {
        const preferred = d.fixes?.find((f) => f.preferred);
        if (!preferred) continue;
        const out = applyEdits(text, fixEdits(text, a.parsed.tree, preferred));
        const after = analyze(out);
        assert.ok(
          !after.diagnostics.some((x) => x.code === d.code && x.path === d.path),
          `${d.code} still there after '${preferred.title}'`,
        );
        assert.ok(!after.diagnostics.some((x) => x.code.startsWith('yaml-')), `'${preferred.title}' broke the YAML`);
      }
    }
  });
});

describe('overprovisioned', () => {
  // overprovisioned speaks only of disks that say what data they hold.
  const HOLDS = SPEC.replace('size: 500GiB', 'size: 500GiB\n        data_size: 100GiB');
  it('says which cheaper disk meets every target and how much it saves, with a fix', () => {
    const a = analyze(HOLDS);
    const d = a.diagnostics.find((x) => x.code === 'overprovisioned');
    assert.ok(d);
    assert.match(d.message, /saves \$\d+\.\d\d\/month/);
    const f = d.fixes![0];
    const out = applyEdits(HOLDS, fixEdits(HOLDS, a.parsed.tree, f));
    const after = analyze(out);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.ok(after.monthly_cost! < a.monthly_cost!);
  });
  it('is silent when a workload misses its target, and never offers a non-replicated disk for a replicated one', () => {
    assert.ok(!analyze(HOLDS.replace('iops: 12000', 'iops: 40000')).diagnostics.some((d) => d.code === 'overprovisioned'));
    const y = analyze(
      'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 8\n    disks:\n      - name: d\n        type: network-ssd\n        size: 512GiB\n        data_size: 100GiB\n    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 0.8\n        target:\n          iops: 5000\n',
    );
    const d = y.diagnostics.find((x) => x.code === 'overprovisioned');
    assert.ok(d);
    assert.doesNotMatch(d.message, /nonreplicated/);
  });
});

describe('target-unreachable fixes', () => {
  it('offers machine and size together when neither alone meets the target, and the fix meets it', () => {
    const text = SPEC.replace('iops: 12000', 'iops: 40000');
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable');
    assert.ok(d);
    assert.equal(d.fixes?.length, 1);
    const f = d.fixes[0];
    // 6,000 + 30 IOPS per GiB reaches 40,000 at 1,134 GiB; N2 allows 60,000 pd-ssd IOPS from 32 vCPUs. The title
    // now gives the whole VM's cost, machine included: n2-standard-32 in us-central1 is 32 × $0.031611 + 128 GiB ×
    // $0.004237 = $1.553888 an hour, × 730 = $1,134.34, plus 1,134 GiB × $0.17 = $192.78; before, n2-standard-8
    // ($0.388472 × 730 = $283.58) and 500 GiB × $0.17 = $85.00: +$958.54 between the totals as shown.
    assert.equal(
      f.title,
      "Change machine to n2-standard-32 and resize 'data' to 1134GiB (+$958.54/month, $1,327.12/month in all; 'oltp' then reaches 40,020 IOPS, 313 MiB/s)",
    );
    const out = applyEdits(text, fixEdits(text, a.parsed.tree, f));
    assert.match(out, /machine_type: n2-standard-32\n/);
    assert.match(out, /size: 1134GiB\n/);
    assert.match(out, /# SSD for random I\/O/);
    const after = analyze(out);
    assert.equal(after.vms[0].workloads[0].meets_target, true);
    assert.ok(!after.diagnostics.some((x) => x.code === 'target-unreachable'));
  });
  it('switches the disk type when no size or machine reaches the target, never shrinking the disk', () => {
    const text = SPEC.replace('type: pd-ssd', 'type: pd-standard').replace('iops: 12000', 'iops: 14000');
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable');
    assert.ok(d);
    assert.equal(d.fixes?.length, 1);
    // pd-balanced tops out at 3,000 + 6 × size below the N2 cap at 500 GiB (6,000); pd-ssd gives 21,000, capped
    // at 15,000; 500 GiB × ($0.17 − $0.04) = $65.00 more a month.
    // In all: n2-standard-8 ($0.388472 an hour × 730 = $283.58) plus 500 GiB × $0.17 = $85.00.
    assert.equal(
      d.fixes[0].title,
      "Switch 'data' to pd-ssd (+$65.00/month, $368.58/month in all; 'oltp' then reaches 15,000 IOPS, 117 MiB/s)",
    );
    const out = applyEdits(text, fixEdits(text, a.parsed.tree, d.fixes[0]));
    assert.match(out, /type: pd-ssd {4}# SSD for random I\/O\n {8}size: 500GiB\n/);
    assert.equal(analyze(out).vms[0].workloads[0].meets_target, true);
  });
  it('suggests no hardware when the queue depth alone is short: the deeper queue, a workload fix', () => {
    const text = SPEC.replace('read_ratio: 0.7', 'read_ratio: 0.7\n        queue_depth: 2');
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics
        .find((x) => x.code === 'target-unreachable')
        ?.fixes?.map((f) => [f.kind === 'set-value' && f.path, f.type, f.preferred]),
      [['/vms/0/workloads/0/queue_depth', 'workload', true]],
    );
    assert.equal(a.diagnostics.find((x) => x.code === 'queue-depth-too-low')?.fixes?.[0].title, 'Set queue depth to 30');
  });
  it('offers the disk size alone when that is enough', () => {
    const text = SPEC.replace('size: 500GiB', 'size: 100GiB');
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'target-unreachable');
    assert.ok(d);
    const f = d.fixes![0];
    assert.equal(f.title, "Resize 'data' to 200GiB (+$17.00/month, $317.58/month in all; 'oltp' then reaches 12,000 IOPS, 93.7 MiB/s)");
    assert.equal(analyze(applyEdits(text, fixEdits(text, a.parsed.tree, f))).vms[0].workloads[0].meets_target, true);
  });
});

describe('hover', () => {
  const at = (needle: string, delta = 0) => SPEC.indexOf(needle) + delta;
  it('on a size value explains the unit', () => {
    const h = hover(analyze(SPEC), at('500GiB', 1))!;
    assert.match(h.markdown, /`500GiB` = 500 GiB \(536\.87 GB\)/);
    assert.equal(SPEC.slice(h.span.start, h.span.end), '500GiB');
  });
  it('on the machine type lists the per-VM limits', () => {
    const h = hover(analyze(SPEC), at('n2-standard-8', 2))!;
    assert.match(h.markdown, /n2-standard-8\*\*, 8 vCPUs — per-VM limits/);
    assert.match(h.markdown, /\| pd-ssd .*15,000/);
  });
  it('on a key shows the schema documentation', () => {
    const h = hover(analyze(SPEC), at('read_ratio', 2))!;
    assert.match(h.markdown, /`read_ratio`/);
  });
  it('tables are padded so they also read as plain text', () => {
    const h = hover(analyze(SPEC), at('name: data', 7))!;
    const rows = h.markdown.split('\n').filter((l) => l.startsWith('|'));
    const widths = new Set(rows.slice(0, 6).map((r) => r.length));
    assert.equal(widths.size, 1, rows.join('\n'));
  });
});

describe('completion', () => {
  const keysAt = (text: string, offset: number) => complete(text, offset).map((c) => c.label);
  it('keys of a workload target', () => {
    const text = SPEC.replace('          iops: 12000\n', '          iops: 12000\n          \n');
    const off = text.indexOf('iops: 12000\n') + 'iops: 12000\n'.length + 10;
    const labels = keysAt(text, off);
    assert.ok(labels.includes('read_iops') && labels.includes('throughput'));
    assert.ok(!labels.includes('iops'));
  });
  it('top-level keys in an empty file start with the required ones', () => {
    const items = complete('', 0);
    assert.deepEqual(
      items
        .slice(0, 3)
        .map((c) => c.label)
        .sort(),
      ['provider', 'version', 'vms'],
    );
  });
  it('vcpus offered for the series above', () => {
    const text = 'version: 1\nprovider: gcp\nvms:\n  - name: a\n    series: c2\n    vcpus: ';
    assert.deepEqual(keysAt(text, text.length), ['4', '8', '16', '30', '60']);
  });
  it('workload disk names from the VM', () => {
    const text = SPEC.replace('disk: data', 'disk: ');
    const off = text.indexOf('disk: \n') + 6;
    assert.deepEqual(keysAt(text, off), ['data']);
  });
  it('catalog editions for the provider', () => {
    const text = 'version: 1\nprovider: yandex\ncatalog: ';
    assert.deepEqual(keysAt(text, text.length), ['yandex-2025']);
  });
});

describe('outline and inlay hints', () => {
  it('symbols nest disks and workloads under their VM', () => {
    const s = symbols(analyze(SPEC));
    assert.deepEqual(
      s.map((x) => [x.name, x.detail, x.children.map((c) => c.name)]),
      [['db', 'n2-standard-8', ['data', 'oltp']]],
    );
  });
  it("disks that come from an alias: each VM's symbols stay inside its own text, on the key that brings them in", () => {
    const text = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: a
    machine_type: n2-standard-8
    disks: &std
      - {name: data, type: pd-ssd, size: 500GiB}
  - name: b
    machine_type: n2-standard-8
    disks: *std
`;
    const [a, b] = symbols(analyze(text));
    const inside = (outer: { start: number; end: number }, inner: { start: number; end: number }) =>
      inner.start >= outer.start && inner.end <= outer.end;
    assert.ok(inside(a.span, a.children[0].span), 'the anchoring VM keeps the disk as written');
    assert.equal(text.slice(a.children[0].selection.start, a.children[0].selection.end), 'data');
    assert.deepEqual(
      b.children.map((c) => c.name),
      ['data'],
    );
    assert.ok(inside(b.span, b.children[0].span), JSON.stringify([b.span, b.children[0].span]));
    const bDisks = text.lastIndexOf('disks: *std');
    assert.deepEqual(b.children[0].selection, { start: bDisks, end: bDisks + 'disks'.length });
  });
  it('a hover on an alias (`disks: *std`) answers for this VM, whose range now spans the alias', () => {
    const text = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: a
    machine_type: n2-standard-8
    disks: &std
      - {name: data, type: pd-ssd, size: 500GiB}
  - name: b
    machine_type: n2-standard-4
    disks: *std
`;
    const a = analyze(text);
    const alias = text.indexOf('*std');
    assert.equal(a.parsed.tree.nodes.get('/vms/1')!.value.end, alias + '*std'.length);
    const h = hover(a, alias + 1)!;
    assert.match(h.markdown, /^\*\*VM b\*\* — n2-standard-4/);
    assert.match(h.markdown, /\| data /);
  });
  it('an empty or blank name: a placeholder symbol name (editors refuse empty ones), and a finding on the name', () => {
    const text = SPEC.replace('name: db ', 'name: ""')
      .replace('name: data', 'name: " "')
      .replace('disk: data', 'disk: " "')
      .replace('name: oltp', 'name:');
    const a = analyze(text);
    assert.deepEqual(
      symbols(a).map((x) => [x.name, x.children.map((c) => c.name)]),
      [['vm #1', ['disk #1', 'workload #1']]],
    );
    for (const needle of ['""', '" "', 'name:\n']) {
      const at = text.indexOf(needle) + (needle.startsWith('name') ? 'name'.length : 0);
      assert.ok(
        a.diagnostics.some((d) => d.span.start <= at && d.span.end >= at && d.path?.endsWith('/name')),
        `${needle}: ${JSON.stringify(a.diagnostics.map((d) => [d.code, d.span, d.path]))}`,
      );
    }
  });
  it('one hint per disk and workload, at the end of its name line', () => {
    const hints = inlayHints(analyze(SPEC));
    assert.equal(hints.length, 2);
    assert.equal(SPEC[hints[0].offset], '\n');
    assert.match(hints[0].label, /15,000\/15,000 IOPS · 480\/480 MiB\/s · \$85\.00\/mo/);
  });
});
