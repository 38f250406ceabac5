/** Document and schema (core/src/checks/document.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, fixEdits, hover } from '../../core/src';
import { applyFix, BASE, expectAt } from './helpers';

describe('checks: document', () => {
  it('a clean spec has no errors', () => {
    assert.deepEqual(
      analyze(BASE).diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
  });
  it('yaml-syntax: one diagnostic at the error position', () => {
    const a = analyze('version: 1\nvms: [a, b\nprovider: gcp\n');
    assert.equal(a.diagnostics.length, 1);
    assert.equal(a.diagnostics[0].code, 'yaml-syntax');
    assert.ok(a.diagnostics[0].span.start > 10);
  });
  it('yaml-duplicate-key on the second key', () => {
    const text = BASE.replace('        size: 500GiB\n', '        size: 500GiB\n        size: 600GiB\n');
    const d = expectAt(text, 'yaml-duplicate-key', 'size');
    assert.equal(d.span.start, text.lastIndexOf('size:'));
  });
  it('yaml-alias-limit: a billion-laughs document is refused quickly', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const started = Date.now();
    const a = analyze(lines.join('\n') + '\n');
    assert.ok(a.diagnostics.some((d) => d.code === 'yaml-alias-limit'));
    assert.ok(Date.now() - started < 2000);
  });
  it('merge keys (YAML 1.1): `<<: *base` and `<<: [*a, *b]`, explicit keys winning, spans in the merged text', () => {
    const text = `${BASE}      - &logs {name: logs, type: pd-balanced, size: 10GiB}
  - name: replica
    machine_type: n2-standard-8
    disks:
      - <<: *logs
        size: 20GiB
      - <<: [{name: wal, size: 30GiB}, *logs]
`;
    const a = analyze(text);
    assert.ok(!a.diagnostics.some((d) => d.severity === 'error' || d.code === 'unknown-key'), JSON.stringify(a.diagnostics));
    assert.deepEqual(
      a.spec?.vms[1].disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['logs', 'pd-balanced', 20],
        ['wal', 'pd-balanced', 30],
      ],
    );
    // A merged value's range is the text it comes from; an explicit one's is its own.
    const span = (p: string) => a.parsed.tree.nodes.get(p)!.value;
    assert.equal(span('/vms/1/disks/0/type').start, text.indexOf('pd-balanced'));
    assert.equal(span('/vms/1/disks/0/size').start, text.indexOf('20GiB'));
    assert.equal(span('/vms/1/disks/1/size').start, text.indexOf('30GiB'));
  });
  it('merge keys: a value that is not a mapping is wrong-type on it; a quoted "<<" is an ordinary (unknown) key', () => {
    const text = BASE.replace('        size: 500GiB\n', '        size: 500GiB\n        <<: [1]\n');
    const d = expectAt(text, 'wrong-type', '[1]');
    assert.match(d.message, /merges a mapping or a list of mappings/);
    expectAt(BASE.replace('        size: 500GiB\n', '        size: 500GiB\n        "<<": 1\n'), 'unknown-key', '"<<"');
  });
  it('merge keys: `<<` of its own mapping or of an unknown anchor is one yaml-syntax finding, not also wrong-type', () => {
    for (const [what, text, at] of [
      ['its own mapping', BASE.replace('  - name: ', '  - &self\n    <<: *self\n    name: '), '*self'],
      ['an unknown anchor', BASE.replace('        size: 500GiB\n', '        size: 500GiB\n        <<: *nowhere\n'), '*nowhere'],
    ] as const) {
      const a = analyze(text);
      const here = a.diagnostics.filter((d) => d.span.start === text.indexOf(at));
      assert.deepEqual(
        here.map((d) => d.code),
        ['yaml-syntax'],
        what,
      );
    }
  });
  it('merge keys: no fix removes or adds keys where a merge would edit the merged text', () => {
    const text = `${BASE}      - &logs {name: logs, type: pd-balanced, size: 10GiB, colour: red}
      - <<: *logs
        name: logs2
`;
    const a = analyze(text);
    const merged = a.diagnostics.filter((d) => d.code === 'unknown-key' && d.path === '/vms/0/disks/2/colour');
    assert.equal(merged.length, 1, JSON.stringify(a.diagnostics));
    for (const f of merged[0].fixes ?? [])
      if (f.kind === 'remove-key' || f.kind === 'rename-key') assert.deepEqual(fixEdits(text, a.parsed.tree, f), [], f.title);
  });
  it('yaml-complex-key on the key that is a list', () => {
    expectAt(`${BASE}? [a]\n: 1\n`, 'yaml-complex-key', '[a]');
  });
  it('encoding: NUL characters are an error, replaced bytes a warning, each on the first such character', () => {
    assert.equal(expectAt(BASE.replace('db', 'd\u0000b'), 'encoding', '\u0000').severity, 'error');
    const bad = expectAt(BASE.replace('db', 'd\uFFFDb'), 'encoding', '\uFFFD');
    assert.equal(bad.severity, 'warning');
  });
  it('encoding: a UTF-16 file, either byte order, with a byte order mark or none, is one error and nothing else', () => {
    // As a UTF-8 reader gives the bytes: a byte order mark FF FE or FE FF as two U+FFFD, a NUL beside each ASCII character.
    const le = [...BASE].map((c) => c + '\u0000').join('');
    const be = [...BASE].map((c) => '\u0000' + c).join('');
    for (const [what, text] of [
      ['little-endian with a BOM', '\uFFFD\uFFFD' + le],
      ['big-endian with a BOM', '\uFFFD\uFFFD' + be],
      ['little-endian', le],
      ['big-endian', be],
    ]) {
      const a = analyze(text);
      assert.deepEqual(
        a.diagnostics.map((d) => [d.code, d.severity, d.message, d.span.start]),
        [['encoding', 'error', 'this file is UTF-16 text: save it as UTF-8', text.indexOf('\u0000')]],
        what,
      );
    }
    // A NUL in a UTF-8 file: binary, and YAML's refusal of it is not said again.
    assert.deepEqual(
      analyze(BASE.replace('db', 'd\u0000b')).diagnostics.map((d) => d.code),
      ['encoding'],
    );
  });
  it('yaml-multiple-documents', () => {
    expectAt(BASE + '---\nversion: 1\n', 'yaml-multiple-documents', 'v');
  });
  it('empty-spec', () => {
    assert.equal(analyze('').diagnostics[0].code, 'empty-spec');
    assert.equal(analyze('# just a comment\n').diagnostics[0].code, 'empty-spec');
  });
  it('unknown-key on the key, with a rename fix for a near miss', () => {
    const d = expectAt(BASE.replace('        size: 500GiB', '        sise: 500GiB'), 'unknown-key', 'sise');
    assert.equal(d.fixes?.[0].kind, 'rename-key');
    const e = expectAt(BASE + '    colour: blue\n', 'unknown-key', 'colour');
    assert.equal(e.fixes?.[0].kind, 'remove-key');
  });
  it('missing-key on the key of the object that lacks it', () => {
    expectAt(BASE.replace('        type: pd-ssd\n', ''), 'missing-key', 'name');
  });
  it('missing-machine', () => {
    expectAt(BASE.replace('    machine_type: n2-standard-8\n', ''), 'missing-machine', 'name');
  });
  it('wrong-type', () => {
    expectAt(BASE.replace('name: db', 'name: [db]'), 'wrong-type', '[db]');
  });
  it('invalid-value for an enum', () => {
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        replication: everywhere'), 'invalid-value', 'everywhere');
  });
  it("a top-level key that starts with x- is an extension field (docker-compose's convention): anchors for the spec", () => {
    const text = BASE.replace('vms:\n', 'x-disk: &ssd {type: pd-balanced, size: 200GiB}\nx-notes: [anything, {at: all}]\nvms:\n').replace(
      '      - name: data\n        type: pd-ssd\n        size: 500GiB\n',
      '      - <<: *ssd\n        name: data\n',
    );
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error' || d.code === 'unknown-key'),
      [],
    );
    assert.deepEqual(
      a.spec?.vms[0].disks.map((d) => [d.name, d.type, d.size_gib]),
      [['data', 'pd-balanced', 200]],
    );
    assert.match(hover(a, text.indexOf('x-disk') + 1)?.markdown ?? '', /^`x-disk` — An extension field/);
    // Only at the top level, and only with the x- prefix.
    expectAt(text.replace('x-notes', 'notes'), 'unknown-key', 'notes');
    expectAt(BASE.replace('    machine_type:', '    x-owner: me\n    machine_type:'), 'unknown-key', 'x-owner');
  });
  it('unsupported-version', () => {
    expectAt(BASE.replace('version: 1', 'version: 2'), 'unsupported-version', '2');
  });
  it('bad-quantity on a bad unit', () => {
    const d = expectAt(BASE.replace('500GiB', '500 GiBs'), 'bad-quantity', '500 GiBs');
    assert.match(d.message, /GiB/);
  });
  it('a size or throughput written from its decimal point (.5TiB, .5GiB/s) is read as written, without an error', () => {
    const text = BASE.replace('size: 500GiB', 'size: .5TiB').replace(
      'machine_type: n2-standard-8',
      'machine_type: n2-standard-8\n    other_egress: .5GiB/s',
    );
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`),
      [],
    );
    assert.equal(fileReport('spec.perf.yaml', a).vms[0].disks[0].size_gib, 512);
    assert.equal(a.vms[0].spec.other_egress_mibps, 512);
    assert.equal(a.monthly_cost_complete, true);
  });
  it('a value reported as an error is not also used: the disk is listed without figures or price, and totals are partial', () => {
    // Each an error the schema reports on a value the units parser or the converter would still read.
    for (const [what, text] of [
      ['a size with a space before it', BASE.replace('size: 500GiB', 'size: " 500GiB"')],
      ['a replication that is not one', BASE.replace('size: 500GiB', 'size: 500GiB\n        replication: everywhere')],
    ]) {
      const a = analyze(text);
      assert.ok(
        a.diagnostics.some((d) => d.severity === 'error' && d.path?.startsWith('/vms/0/disks/0/')),
        `${what}: an error`,
      );
      const r = fileReport('spec.perf.yaml', a);
      const disk = r.vms[0].disks[0];
      assert.deepEqual([disk.read_iops, disk.size_gib, disk.monthly_cost], [null, null, null], what);
      assert.match(disk.cost_explanation, /^disk 'data' has an error in its spec \((size|replication)\)/, what);
      assert.equal(r.monthly_cost_complete, false, what);
      assert.ok(
        r.monthly_cost_missing.some((m) => /disk 'data' has an error in its spec/.test(m)),
        what,
      );
    }
  });
  it('out-of-range read_ratio', () => {
    const text = BASE + '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1.5\n';
    expectAt(text, 'out-of-range', '1.5');
  });
  it('out-of-range read_ratio: a whole percentage has one fix, preferred; a number that reads several ways has choices, none preferred', () => {
    const wl = (ratio: string) => BASE + `    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: ${ratio}\n`;
    const ratioAfter = (text: string) => {
      const a = analyze(text);
      assert.deepEqual(
        a.diagnostics.filter((d) => d.code === 'out-of-range').map((d) => d.message),
        [],
        text,
      );
      return a.spec!.vms[0].workloads[0].read_ratio;
    };
    // 70 can only be a percentage: 0.7, applied by lint --fix.
    const clear = expectAt(wl('70'), 'out-of-range', '70');
    assert.equal(clear.fixes?.length, 1);
    assert.equal(clear.fixes![0].preferred, true);
    assert.equal(ratioAfter(applyFix(wl('70'), clear.fixes![0])), 0.7);
    // 1.5 may be 1.5% or 1.5 reads per write, or a ratio above its top: each is offered, none is picked.
    const unclear = expectAt(wl('1.5'), 'out-of-range', '1.5');
    assert.doesNotMatch(unclear.message, /did you mean/);
    assert.ok((unclear.fixes?.length ?? 0) >= 2, JSON.stringify(unclear.fixes));
    assert.deepEqual(
      unclear.fixes!.filter((f) => f.preferred),
      [],
    );
    const values = unclear.fixes!.map((f) => ratioAfter(applyFix(wl('1.5'), f)));
    assert.deepEqual(values, [0.015, 0.6, 1]);
    // Each title says the value it writes.
    unclear.fixes!.forEach((f, i) => assert.match(f.title, new RegExp(`read_ratio: ${values[i]}\\b`)));
    // A fraction of a percent past 1 is no whole percentage either.
    assert.deepEqual(
      expectAt(wl('12.5'), 'out-of-range', '12.5').fixes!.filter((f) => f.preferred),
      [],
    );
  });
  it('duplicate-name', () => {
    const text = BASE + '      - name: data\n        type: pd-balanced\n        size: 100GiB\n';
    const d = expectAt(text, 'duplicate-name', 'data');
    assert.equal(d.span.start, text.lastIndexOf('data'));
  });
  it('duplicate-name on a disk a workload names: the workload is left out, not run on both disks, said once', () => {
    // Two 500 GiB pd-ssd named 'data' summed (36,000 IOPS) would meet the target; neither is the workload's disk.
    const text =
      BASE.replace('n2-standard-8', 'n2-standard-32') +
      '      - name: data\n        type: pd-ssd\n        size: 500GiB\n' +
      '    workloads:\n      - name: oltp\n        disk: data\n        block_size: 4k\n        read_ratio: 1\n        target: {iops: 30000}\n';
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, text.slice(d.span.start, d.span.end), d.span.start]),
      [['duplicate-name', 'data', text.lastIndexOf('- name: data') + 8]],
    );
    assert.deepEqual(a.vms[0].workloads, []);
    assert.equal(
      a.diagnostics[0].message,
      "another disk on this VM is already named 'data': rename one (workload 'oltp' on it is not evaluated)",
    );
    const w = fileReport('x.perf.yaml', a).vms[0].workloads[0];
    assert.deepEqual(
      [w.name, w.read_iops, w.meets_target, w.explanation],
      ['oltp', null, null, "not evaluated: 2 disks of this VM are named 'data'"],
    );
  });
  it('unknown-disk-ref', () => {
    const text = BASE + '    workloads:\n      - name: w\n        disk: dta\n        block_size: 4k\n        read_ratio: 1\n';
    expectAt(text, 'unknown-disk-ref', 'dta');
  });
});
