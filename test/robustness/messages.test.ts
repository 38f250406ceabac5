/**
 * Messages are a fact plus what to do, at most 240 characters: the formula behind a figure belongs to the hover
 * and the report's explanations. Checked over every shipped example, every corpus spec and specs made to list
 * much (many disks over every limit, several mistakes at once).
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze } from '../../core/src';
import { BASE as BASE_DATA } from '../checks/helpers';

const ROOT = resolve(__dirname, '../../..');
const MAX = 240;

const disk = (name: string, type: string, size: string) => `      - name: ${name}\n        type: ${type}\n        size: ${size}\n`;
const MANY_DISKS =
  'version: 1\nprovider: gcp\nvms:\n  - name: database-primary\n    machine_type: n1-standard-1\n    other_egress: 1Gbps\n    disks:\n' +
  disk('data-primary-volume', 'pd-ssd', '2000GiB') +
  disk('data-secondary-volume', 'pd-ssd', '2000GiB') +
  disk('logs-and-write-ahead-log', 'pd-balanced', '2000GiB') +
  disk('scratch-space-for-sorting', 'pd-balanced', '2000GiB') +
  disk('archive', 'pd-standard', '4000GiB') +
  '    workloads:\n      - name: oltp-with-a-long-name\n        block_size: 8k\n        read_ratio: 0.7\n        queue_depth: 1\n' +
  '        target:\n          iops: 300000\n          throughput: 5000MiB/s\n';

// Names as long as a name may be (63 characters): what a message lists must not grow with them.
const LONG = (n: number) => `${'name-as-long-as-a-name-may-be-'.repeat(3)}${n}`.slice(0, 63);
const LONG_NAMES =
  'version: 1\nprovider: gcp\nvms:\n  - name: database-primary\n    machine_type: n2-standard-2\n    disks:\n' +
  disk(LONG(1), 'pd-ssd', '2000GiB') +
  disk(LONG(2), 'pd-ssd', '2000GiB') +
  disk(LONG(3), 'pd-balanced', '2000GiB');
const wl = (name: string) => `      - name: ${name}\n        disk: scratch\n        block_size: 4k\n        read_ratio: 0.7\n`;
const INSTANCE_STORE =
  'version: 1\nprovider: aws\nvms:\n  - name: db\n    machine_type: i4i.16xlarge\n    disks:\n      - name: scratch\n        type: instance-store\n' +
  `    workloads:\n${wl(LONG(1))}${wl(LONG(2))}${wl(LONG(3))}`;

const specs: Array<[string, string]> = [
  ...readdirSync(join(ROOT, 'examples'))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f): [string, string] => [`examples/${f}`, readFileSync(join(ROOT, 'examples', f), 'utf8')]),
  ...readdirSync(join(ROOT, 'test/fuzz-corpus'))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f): [string, string] => [`corpus/${f}`, readFileSync(join(ROOT, 'test/fuzz-corpus', f), 'utf8')]),
  ['many disks over every limit', MANY_DISKS],
  ['every limit on a small machine', MANY_DISKS.replace('n1-standard-1', 'n2-standard-2')],
  ['disks with the longest names, capped together', LONG_NAMES],
  ['instance store with workloads of the longest names', INSTANCE_STORE],
];

describe('messages', () => {
  for (const [name, text] of specs) {
    it(`${name}: every message is at most ${MAX} characters`, () => {
      const long = analyze(text)
        .diagnostics.filter((d) => d.message.length > MAX)
        .map((d) => `${d.code} (${d.message.length}): ${d.message}`);
      assert.deepEqual(long, []);
    });
  }
  it('sizes in messages are spaced and have at most one decimal (1,611.8 GiB, not 1611.76GiB)', () => {
    // 1730 GB of data is 1,611.18 GiB; with 10 % growth, 1,772.3 GiB on a 1,000 GB disk (931.3 GiB).
    const text = BASE_DATA.replace('size: 500GiB', 'size: 1000GB\n        data_size: 1730GB\n        growth: 10%');
    const sizes = [...specs.map(([, t]) => t), text].flatMap((t) =>
      analyze(t).diagnostics.flatMap((d) => d.message.match(/\d(?:GiB|TiB)|\d\.\d{2,} ?(?:GiB|TiB)/g) ?? []),
    );
    assert.deepEqual(sizes, []);
    assert.match(
      analyze(text).diagnostics.find((d) => d.code === 'capacity-short')!.message,
      /holds 931\.3 GiB; its data needs 1,773 GiB \(1,611\.2 GiB \+ 10% growth\)/,
    );
  });
  it('the stress spec raises the findings that list the most', () => {
    const codes = new Set(analyze(MANY_DISKS).diagnostics.map((d) => d.code));
    for (const c of ['capped-by-vcpu', 'capped-by-egress', 'shared-baseline', 'target-unreachable']) assert.ok(codes.has(c), c);
    assert.ok(analyze(LONG_NAMES).diagnostics.some((d) => d.code === 'capped-by-vcpu'));
    assert.ok(analyze(INSTANCE_STORE).diagnostics.some((d) => d.code === 'instance-store-unmodelled'));
  });
});
