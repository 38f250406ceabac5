/**
 * Readings a new user got wrong answers or poor messages for, each once: one diagnostic per mistake, with a
 * did-you-mean from the spec's own provider and a fix only where the answer is clear.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, type Analysis, type Diagnostic } from '../../core/src';
import { BASE, WL } from '../checks/helpers';

const errors = (a: Analysis) => a.diagnostics.filter((d) => d.severity === 'error');
const only = (text: string) => {
  const a = analyze(text);
  const e = errors(a);
  assert.equal(e.length, 1, e.map((d) => `${d.code}: ${d.message}`).join(' | '));
  return { d: e[0], covered: text.slice(e[0].span.start, e[0].span.end) };
};
const preferred = (d: Diagnostic) => (d.fixes ?? []).filter((f) => f.preferred);

describe("a new user's mistakes", () => {
  it('a target of 400MBps is 400 megabytes per second, so 200 MiB/s of throughput does not meet it', () => {
    // 1 MiB sequential reads on a 500 GiB pd-ssd of an n2-standard-8: 480 MiB/s (gcp-2024: 0.48 MiB/s per GiB
    // plus the baseline, under the machine's limit). 600 MB/s is 572.2 MiB/s; 600 Mbit/s is 71.5 MiB/s.
    const w = (target: string) =>
      analyze(
        WL(`        pattern: sequential\n        target:\n          throughput: ${target}\n`)
          .replace('block_size: 8KiB', 'block_size: 1MiB')
          .replace('read_ratio: 0.7', 'read_ratio: 1'),
      ).vms[0].workloads[0];
    assert.equal(w('600MBps').meets_target, false, '600 MB/s is not met');
    assert.equal(w('600Mbps').meets_target, true, '600 Mbit/s is met');
  });

  it('a throughput unit whose case leaves the meaning open is refused, with both readings as fixes and none preferred', () => {
    for (const unit of ['mbps', 'mb/s', 'MBPS']) {
      const { d, covered } = only(WL(`        target:\n          throughput: 400${unit}\n`));
      assert.equal(d.code, 'bad-quantity');
      assert.equal(covered, `400${unit}`);
      assert.match(d.message, /no single meaning .* write 400MB\/s or 400Mbps/);
      assert.deepEqual(
        (d.fixes ?? []).map((f) => f.kind === 'set-value' && f.value),
        ['400MB/s', '400Mbps'],
      );
      assert.deepEqual(preferred(d), []);
    }
  });

  it("type: pd-sdd is one error naming pd-ssd, not a list of every provider's types", () => {
    const { d, covered } = only(BASE.replace('type: pd-ssd', 'type: pd-sdd'));
    assert.equal(d.code, 'unknown-disk-type');
    assert.equal(covered, 'pd-sdd');
    assert.match(d.message, /did you mean pd-ssd\?/);
    assert.doesNotMatch(d.message, /network-ssd/);
    assert.deepEqual(
      preferred(d).map((f) => f.kind === 'set-value' && f.value),
      ['pd-ssd'],
    );
  });

  it('read_ratio: 70 is a percentage: did you mean 0.7?', () => {
    const { d, covered } = only(WL('').replace('read_ratio: 0.7', 'read_ratio: 70'));
    assert.deepEqual([d.code, covered], ['out-of-range', '70']);
    assert.match(d.message, /did you mean 0\.7\?/);
    assert.deepEqual(
      preferred(d).map((f) => f.kind === 'set-value' && f.value),
      [0.7],
    );
    // Past 100 it cannot be a percentage either: no guess.
    const over = only(WL('').replace('read_ratio: 0.7', 'read_ratio: 170')).d;
    assert.deepEqual(preferred(over), []);
  });

  it('read_ratio: 70% is 0.7, as growth and min_headroom take percentages', () => {
    const pct = analyze(WL('        target:\n          iops: 12000\n').replace('read_ratio: 0.7', 'read_ratio: 70%'));
    assert.deepEqual(
      pct.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.equal(pct.spec?.vms[0].workloads[0].read_ratio, 0.7);
    const { d, covered } = only(WL('').replace('read_ratio: 0.7', 'read_ratio: 170%'));
    assert.deepEqual([d.code, covered], ['out-of-range', '170%']);
  });

  it('a workload with an error is not evaluated: null figures with the reason, its target never met', () => {
    // 4 KiB reads (a block_size left out) would meet 12,000 IOPS; so would a read_ratio read as 1.
    for (const [from, to] of [
      ['read_ratio: 0.7', 'read_ratio: seventy'],
      ['read_ratio: 0.7', 'read_ratio: -1'],
      ['block_size: 8KiB', 'block_size: 8 KiBs'],
      ['block_size: 8KiB', 'bs: 8KiB'],
      ['        read_ratio: 0.7\n', ''],
    ]) {
      const a = analyze(WL('        target:\n          iops: 12000\n').replace(from, to));
      assert.ok(
        a.diagnostics.some((x) => x.severity === 'error'),
        to,
      );
      assert.deepEqual(a.vms[0].workloads, [], `${to}: not evaluated`);
      const w = fileReport('s.perf.yaml', a).vms[0].workloads[0];
      assert.deepEqual([w.name, w.read_iops, w.meets_target, w.headroom], ['w', null, null, null], to);
      assert.match(w.explanation ?? '', /workload 'w' has an error in its spec/, to);
    }
  });

  it('a name outside ASCII is refused saying names are ASCII', () => {
    const { d, covered } = only(BASE.replace('name: db', 'name: база'));
    assert.deepEqual([d.code, covered], ['invalid-value', 'база']);
    assert.match(d.message, /not a valid name: 1 to 63 ASCII letters, digits/);
  });

  it('version: "1" is the right version as text: remove the quotes', () => {
    const { d, covered } = only(BASE.replace('version: 1', 'version: "1"'));
    assert.deepEqual([d.code, covered], ['unsupported-version', '"1"']);
    assert.match(d.message, /the number 1, not the text/);
    assert.deepEqual(
      preferred(d).map((f) => f.kind === 'set-value' && f.value),
      [1],
    );
  });

  it("a key named after a unit or another tool's option is renamed to ours (mibps → throughput, bs → block_size)", () => {
    const text = WL(`        target:\n          mibps: 400MiB/s\n`);
    const { d, covered } = only(text);
    assert.deepEqual([d.code, covered], ['unknown-key', 'mibps']);
    assert.match(d.message, /did you mean 'throughput'\?/);
    const bs = only(WL('').replace('block_size: 8KiB', 'bs: 8KiB')).d;
    assert.match(bs.message, /did you mean 'block_size'\?/);
  });
});
