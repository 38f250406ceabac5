/** Every diagnostic code the core produces, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, DIAGNOSTIC_CODES, type Analysis } from '../../core/src';

const BASE = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
    machine_type: n2-standard-8
    disks:
      - name: data
        type: pd-ssd
        size: 500GiB
`;

function find(a: Analysis, code: string) {
  const d = a.diagnostics.find((x) => x.code === code);
  assert.ok(d, `expected ${code}; got ${a.diagnostics.map((x) => `${x.code}: ${x.message}`).join(' | ') || 'nothing'}`);
  return d;
}
/** Asserts that `code` is reported on exactly `covered` (the text under its range). */
function expectAt(text: string, code: string, covered: string) {
  const a = analyze(text);
  const d = find(a, code);
  assert.equal(text.slice(d.span.start, d.span.end), covered, `${code} range`);
  assert.ok(DIAGNOSTIC_CODES[code], `${code} registered`);
  return d;
}

describe('diagnostics: codes and ranges', () => {
  it('a clean spec has no errors', () => {
    assert.deepEqual(analyze(BASE).diagnostics.filter((d) => d.severity === 'error'), []);
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
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const started = Date.now();
    const a = analyze(lines.join('\n') + '\n');
    assert.ok(a.diagnostics.some((d) => d.code === 'yaml-alias-limit'));
    assert.ok(Date.now() - started < 2000);
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
  it('unknown-disk-type', () => {
    expectAt(BASE.replace('type: pd-ssd', 'type: pd-turbo'), 'unknown-disk-type', 'pd-turbo');
    expectAt(BASE.replace('type: pd-ssd', 'type: network-ssd'), 'unknown-disk-type', 'network-ssd');
  });
  it('unsupported-version', () => {
    expectAt(BASE.replace('version: 1', 'version: 2'), 'unsupported-version', '2');
  });
  it('bad-quantity on a bad unit', () => {
    const d = expectAt(BASE.replace('500GiB', '500 GiBs'), 'bad-quantity', '500 GiBs');
    assert.match(d.message, /GiB/);
  });
  it('size-out-of-range: negative, zero and above the maximum', () => {
    expectAt(BASE.replace('500GiB', '-5GB'), 'bad-quantity', '-5GB');
    expectAt(BASE.replace('500GiB', '100TiB'), 'size-out-of-range', '100TiB');
    expectAt(BASE.replace('500GiB', '0'), 'size-out-of-range', '0');
  });
  it('out-of-range read_ratio', () => {
    const text = BASE + '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1.5\n';
    expectAt(text, 'out-of-range', '1.5');
  });
  it('duplicate-name', () => {
    const text = BASE + '      - name: data\n        type: pd-balanced\n        size: 100GiB\n';
    const d = expectAt(text, 'duplicate-name', 'data');
    assert.equal(d.span.start, text.lastIndexOf('data'));
  });
  it('unknown-catalog with fixes; catalog-provider-mismatch', () => {
    const d = expectAt(BASE.replace('gcp-2024', 'gcp-2019'), 'unknown-catalog', 'gcp-2019');
    assert.ok(d.fixes?.some((f) => f.kind === 'set-value' && f.value === 'gcp-2024'));
    expectAt(BASE.replace('gcp-2024', 'yandex-2025'), 'catalog-provider-mismatch', 'yandex-2025');
  });
  it('unknown-region', () => {
    expectAt(BASE.replace('catalog: gcp-2024\n', 'catalog: gcp-2024\nregion: mars-north1\n'), 'unknown-region', 'mars-north1');
  });
  it('unknown-machine-type, unknown-series, vcpus-not-offered, machine-conflict', () => {
    expectAt(BASE.replace('n2-standard-8', 'n2-standard-7'), 'unknown-machine-type', 'n2-standard-7');
    expectAt(BASE.replace('n2-standard-8', 'q9-standard-8'), 'unknown-machine-type', 'q9-standard-8');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: q9\n    vcpus: 8'), 'unknown-series', 'q9');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: n2\n    vcpus: 7'), 'vcpus-not-offered', '7');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    machine_type: n2-standard-8\n    vcpus: 16'), 'machine-conflict', '16');
  });
  it('missing-size with an add-key fix', () => {
    const d = expectAt(BASE.replace('        size: 500GiB\n', ''), 'missing-size', 'name');
    assert.equal(d.fixes?.[0].kind, 'add-key');
  });
  it('not-applicable', () => {
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        count: 2'), 'not-applicable', 'count');
    expectAt(BASE.replace('size: 500GiB', 'size: 500GiB\n        provisioned_iops: 20000'), 'not-applicable', 'provisioned_iops');
  });
  it('provisioned-out-of-range', () => {
    expectAt(BASE.replace('type: pd-ssd', 'type: pd-extreme').replace('500GiB', '1000GiB\n        provisioned_iops: 500000'), 'provisioned-out-of-range', '500000');
  });
  it('unknown-disk-ref', () => {
    const text = BASE + '    workloads:\n      - name: w\n        disk: dta\n        block_size: 4k\n        read_ratio: 1\n';
    expectAt(text, 'unknown-disk-ref', 'dta');
  });
  it('local-ssd-count and local-ssd-vcpus', () => {
    const lssd = BASE.replace('type: pd-ssd\n        size: 500GiB', 'type: local-ssd\n        count: 9');
    const d = expectAt(lssd, 'local-ssd-count', '9');
    assert.equal(d.fixes?.[0].kind === 'set-value' && d.fixes[0].value, 8);
    expectAt(BASE.replace('type: pd-ssd\n        size: 500GiB', 'type: local-ssd\n        count: 4'), 'local-ssd-vcpus', 'machine_type');
  });
  it('allocation-unit (Yandex)', () => {
    const text = 'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-ssd\n        size: 100GiB\n';
    expectAt(text, 'allocation-unit', '100GiB');
  });
  it('capped-by-vcpu on the machine type, with a machine fix', () => {
    const d = expectAt(BASE, 'capped-by-vcpu', 'machine_type');
    assert.equal(d.fixes?.[0].kind === 'set-value' && d.fixes[0].value, 'n2-standard-16');
  });
  it('capped-by-egress on other_egress', () => {
    const text = BASE.replace('machine_type: n2-standard-8', 'machine_type: n1-standard-1\n    other_egress: 2Gbps');
    expectAt(text, 'capped-by-egress', 'other_egress');
  });
  it('shared-baseline on the type', () => {
    const text = BASE + '      - name: more\n        type: pd-ssd\n        size: 100GiB\n';
    expectAt(text, 'shared-baseline', 'pd-ssd');
  });
  const WL = (extra: string) => BASE + `    workloads:\n      - name: w\n        disk: data\n        block_size: 8KiB\n        read_ratio: 0.7\n${extra}`;
  it('target-unreachable on the target key, with resize and machine fixes', () => {
    const d = expectAt(WL('        target:\n          iops: 20000\n'), 'target-unreachable', 'target');
    assert.ok(d.fixes?.some((f) => f.kind === 'set-value' && f.value === 'n2-standard-16'));
  });
  it('queue-depth-too-low with a fix', () => {
    const d = expectAt(WL('        queue_depth: 4\n        target:\n          iops: 12000\n'), 'queue-depth-too-low', '4');
    assert.ok(d.fixes?.[0].kind === 'set-value' && Number(d.fixes[0].value) >= 15);
  });
  it('cpu-insufficient', () => {
    const text = BASE.replace('n2-standard-8', 'n2-standard-2') + '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1\n        target:\n          iops: 15000\n';
    expectAt(text, 'cpu-insufficient', 'machine_type');
  });
  it('block-size-too-small', () => {
    const d = expectAt(WL('        target:\n          throughput: 400MiB/s\n').replace('block_size: 8KiB', 'block_size: 4k'), 'block-size-too-small', '4k');
    assert.match(d.message, /KiB/);
  });
  it('sequential-merge hint', () => {
    expectAt(WL('        pattern: sequential\n'), 'sequential-merge', 'sequential');
  });
  it('hdd-burst', () => {
    const text = 'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-hdd\n        size: 256GiB\n';
    expectAt(text, 'hdd-burst', 'network-hdd');
  });
  it('machine-limits-unknown for hyperdisk without per-VM tables', () => {
    const text = BASE.replace('n2-standard-8', 'c3-standard-8').replace('type: pd-ssd', 'type: hyperdisk-balanced');
    expectAt(text, 'machine-limits-unknown', 'hyperdisk-balanced');
  });
  it('every registered code has a severity and a summary', () => {
    for (const [code, info] of Object.entries(DIAGNOSTIC_CODES)) {
      assert.ok(['error', 'warning', 'information', 'hint'].includes(info.severity), code);
      assert.ok(info.summary.length > 10, code);
    }
  });
});
