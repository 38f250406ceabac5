/**
 * The rows every text format of a diff lays out (protocol/src/diff-rows.ts): what a VM, disk or workload that exists
 * on one side only says on the other, and a target whose value moved.
 */
import * as assert from 'node:assert/strict';
import { analyze, diffAnalyses, EvaluationCache, type DiffRecord } from '../../core/src';
import { vmRows } from '../../cli/src/diff/rows';
import { SSD, spec, vm } from '../fixtures/diff-specs';

function diff(base: string, head: string): DiffRecord {
  const cache = new EvaluationCache();
  return diffAnalyses({ analysis: analyze(base, { cache }), path: 'base' }, { analysis: analyze(head, { cache }), path: 'head' });
}

const rowsOf = (r: DiffRecord, name: string) =>
  vmRows(
    r.vms.find((v) => v.name === name)!,
    r.currency,
  );

describe('diff rows', () => {
  // A machine the catalog does not know: the VM has no figures, and says why.
  const unknown = vm('old', 'n2-standard-999', SSD);
  const keep = vm('web', 'n2-standard-8', SSD);

  it("a removed VM's rows say it is removed, never that its figures are available", () => {
    const rows = rowsOf(diff(spec(keep + unknown), spec(keep)), 'old');
    const figures = rows.find((r) => r[0] === 'figures');
    assert.ok(figures, JSON.stringify(rows));
    assert.match(figures[1], /not 999/);
    assert.deepEqual(figures.slice(2), ['-', 'removed']);
    assert.ok(!rows.some((r) => r.includes('available')), JSON.stringify(rows));
  });

  it("an added VM's rows say it is added, never that its figures were available", () => {
    const rows = rowsOf(diff(spec(keep), spec(keep + unknown)), 'old');
    const figures = rows.find((r) => r[0] === 'figures');
    assert.ok(figures, JSON.stringify(rows));
    assert.deepEqual([figures[1], figures[3]], ['-', 'added']);
    assert.match(figures[2], /not 999/);
    assert.ok(!rows.some((r) => r.includes('available')), JSON.stringify(rows));
  });

  it("an added disk whose figures are upper bounds: its other side is empty, not 'none'", () => {
    // n4-standard-2 has no per-VM Hyperdisk row in gcp-2024: the volume's figures are upper bounds.
    const hd = 'type: hyperdisk-balanced\nsize: 1000GiB\nprovisioned_iops: 50000\nprovisioned_throughput: 1200MiB/s';
    const one = vm('db', 'n4-standard-2', hd);
    const two = one.replace(
      '    workloads:\n',
      `      - name: hd2\n${hd
        .split('\n')
        .map((l) => `        ${l}`)
        .join('\n')}\n    workloads:\n`,
    );
    assert.notEqual(two, one);
    const row = rowsOf(diff(spec(one), spec(two)), 'db').find((r) => r[0] === 'disk hd2: upper bound');
    assert.deepEqual(row, ['disk hd2: upper bound', '-', 'VM limit unknown', 'added']);
    const gone = rowsOf(diff(spec(two), spec(one)), 'db').find((r) => r[0] === 'disk hd2: upper bound');
    assert.deepEqual(gone, ['disk hd2: upper bound', 'VM limit unknown', '-', 'removed']);
  });

  it('a target that moved shows its values before and after', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD, 12000)), spec(vm('db', 'n2-standard-8', SSD, 20000)));
    const rows = rowsOf(r, 'db');
    assert.deepEqual(
      rows.find((x) => x[0] === 'workload oltp: target value'),
      ['workload oltp: target value', '12,000 IOPS', '20,000 IOPS', ''],
    );
    assert.equal(rows.find((x) => x[0] === 'workload oltp: target')?.[3], 'now missed');
    const t = (target: string) => vm('db', 'n2-standard-8', SSD).replace('          iops: 12000\n', target);
    const mixed = diff(spec(t('          read_iops: 9000\n          write_throughput: 100MiB/s\n')), spec(t('          iops: 9000\n')));
    assert.deepEqual(
      rowsOf(mixed, 'db').find((x) => x[0] === 'workload oltp: target value'),
      ['workload oltp: target value', '9,000 read IOPS, 100 write MiB/s', '9,000 IOPS', ''],
    );
  });

  it('a workload added or removed shows its target value on its side', () => {
    const none = vm('db', 'n2-standard-8', SSD).replace(/ {4}workloads:[\s\S]*/, '');
    const rows = rowsOf(diff(spec(none), spec(vm('db', 'n2-standard-8', SSD, 12000))), 'db');
    assert.deepEqual(
      rows.find((x) => x[0] === 'workload oltp: target value'),
      ['workload oltp: target value', '-', '12,000 IOPS', ''],
    );
  });
});
