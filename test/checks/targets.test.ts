/** Targets and headroom (core/src/checks/targets.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { BASE, expectAt, WL } from './helpers';

describe('checks: targets', () => {
  it('target-unreachable on the target key, with resize and machine fixes', () => {
    const d = expectAt(WL('        target:\n          iops: 20000\n'), 'target-unreachable', 'target');
    assert.ok(d.fixes?.some((f) => f.kind === 'set-value' && f.value === 'n2-standard-16'));
  });
  it('queue-depth-too-low with a fix', () => {
    const d = expectAt(WL('        queue_depth: 4\n        target:\n          iops: 12000\n'), 'queue-depth-too-low', '4');
    assert.ok(d.fixes?.[0].kind === 'set-value' && Number(d.fixes[0].value) >= 15);
  });
  it('cpu-insufficient', () => {
    const text =
      BASE.replace('n2-standard-8', 'n2-standard-2') +
      '    workloads:\n      - name: w\n        block_size: 4k\n        read_ratio: 1\n        target:\n          iops: 15000\n';
    expectAt(text, 'cpu-insufficient', 'machine_type');
  });
  it('block-size-too-small', () => {
    const d = expectAt(
      WL('        target:\n          throughput: 400MiB/s\n').replace('block_size: 8KiB', 'block_size: 4k'),
      'block-size-too-small',
      '4k',
    );
    assert.match(d.message, /KiB/);
  });
  it('sequential-merge hint', () => {
    expectAt(WL('        pattern: sequential\n'), 'sequential-merge', 'sequential');
  });
});
