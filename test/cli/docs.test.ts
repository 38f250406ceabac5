/**
 * What the README and docs/ show is what the commands print: every output block marked in them is checked
 * against a run (scripts/write-doc-outputs.mjs), and the worked example's figures, stated in prose, against the
 * analysis of the example itself.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze, fileReport } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');

describe('the docs show what the commands print', function () {
  this.timeout(120000);

  it('every output and file block of README.md and docs/*.md is current', () => {
    const r = spawnSync(process.execPath, ['scripts/write-doc-outputs.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    for (const shown of ['npx storage-perf lint examples/', 'npx storage-perf evaluate examples/storage.perf.yaml'])
      assert.ok(readme.includes(`<!-- output of: ${shown} -->`), `the README shows the output of ${shown}`);
  });

  it("the README's worked example states the figures the example gets", () => {
    const path = 'examples/storage.perf.yaml';
    const r = fileReport(path, analyze(readFileSync(resolve(ROOT, path), 'utf8')));
    const data = r.vms[0].disks.find((d) => d.name === 'data')!;
    const oltp = r.vms[0].workloads.find((w) => w.name === 'oltp')!;
    // The prose as one line: its line breaks fall anywhere.
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const fmt = (n: number) => n.toLocaleString('en-US');
    assert.match(
      readme,
      new RegExp(
        `${fmt(data.read_iops!)} read and write IOPS, ${data.read_mibps} MiB/s each way, \\$${data.monthly_cost!.toFixed(2)} a month`,
      ),
    );
    assert.deepEqual([data.limited_by!.read_iops, data.limited_by!.read_mibps], ['vm', 'size']);
    assert.ok(readme.includes(`reaches ${fmt(oltp.read_iops!)} reads + ${fmt(oltp.write_iops!)} writes per second`));
    assert.ok(readme.includes(`with ${+(oltp.headroom! * 100).toFixed(1)} % headroom`));
  });
});
