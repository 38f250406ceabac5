/**
 * The CLI's other commands on Azure specs (azure-2026), run as a user runs them: `fio` jobs that the real fio
 * accepts, `compare` of a short real run against the Azure figures, and `diff` of two Azure specs with the
 * performance and the cost (partial where a price is unknown: a ZRS disk, the VM sizes).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DiffRecord } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');

function cli(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function fio(args: string[], cwd: string) {
  return spawnSync('fio', args, { cwd, encoding: 'utf8', timeout: 30000 });
}

const azure = (machine: string, disk: string[], workload = ['block_size: 8KiB', 'read_ratio: 0.7', 'target:', '  iops: 6000']) =>
  [
    'version: 1',
    'provider: azure',
    'catalog: azure-2026',
    'region: eastus',
    'vms:',
    '  - name: db',
    `    machine_type: ${machine}`,
    '    disks:',
    '      - name: data',
    ...disk.map((l) => `        ${l}`),
    '      - name: log',
    '        type: premium-ssd',
    '        size: 256GiB',
    '    workloads:',
    '      - name: oltp',
    '        disk: data',
    ...workload.map((l) => `        ${l}`),
    '',
  ].join('\n');

describe('Azure specs in the CLI', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-azure-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fio: one job file per disk of the Azure example, each accepted by fio, the workload predicted through the host cache', () => {
    const r = cli(['fio', 'examples/azure-db.perf.yaml', '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['db-data.fio', 'db-log.fio', 'db-os.fio']);
    for (const f of readdirSync(dir)) {
      const p = fio(['--parse-only', join(dir, f)], dir);
      assert.equal(p.status, 0, `${f}: ${p.stderr}`);
    }
    const data = readFileSync(join(dir, 'db-data.fio'), 'utf8');
    assert.match(
      data,
      /^# storage-perf: fio jobs for VM 'db' \(Standard_D16s_v5, 16 vCPUs\), disk 'data' \(premium-ssd, 1,024 GiB\); catalog\n# {2}azure-2026\./m,
    );
    // The spec's figure for 'oltp' (evaluate's): a P40's 7,500 IOPS on the uncached path, which carries 60 % of
    // its operations at a 50 % hit ratio and 80 % reads: 12,500 IOPS.
    assert.match(
      data,
      /^# predicted: 10,000 read \+ 2,500 write IOPS, 78\.1 read \+ 19\.5 write MiB\/s at 8KiB; limited by size\.\n# why: 12,500 IOPS .*\n# {2}.*7,500 IOPS on the uncached path\n# {2}carries 60 % of the operations/m,
    );
    const log = readFileSync(join(dir, 'db-log.fio'), 'utf8');
    assert.match(log, /^# wal — the spec's workload 'wal'/m);
  });

  it('compare: a short real fio run of generated Azure jobs read back job by job against the Azure figures', () => {
    const mnt = join(dir, 'mnt');
    mkdirSync(mnt);
    const spec = join(dir, 'trial.perf.yaml');
    writeFileSync(
      spec,
      azure(
        'Standard_D4s_v5',
        ['type: premium-ssd', 'size: 128GiB', `mount_point: ${JSON.stringify(mnt)}`],
        ['block_size: 16k', 'read_ratio: 0.6', 'queue_depth: 8'],
      ),
    );
    const g = cli(['fio', spec, '--runtime', '0.1', '--size', '4m']);
    assert.equal(g.code, 0, g.stderr);
    const run = fio(
      ['--output-format=json', '--output=db-data.json', '--section=fill@data', '--section=oltp', '--section=read-iops@data', 'db-data.fio'],
      dir,
    );
    assert.equal(run.status, 0, run.stderr);
    const r = cli(['compare', spec, '--fio-result', join(dir, 'db-data.json'), '--format', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.vm, 'db');
    const ran = out.comparisons.filter((c: { verdict: string }) => c.verdict !== 'missing');
    assert.deepEqual(
      ran.map((c: { job: string }) => c.job),
      ['fill@data', 'oltp', 'read-iops@data'],
    );
    // The predictions are the P10's (500 IOPS, 100 MB/s, reads and writes together): what evaluate says of the disk.
    const report = JSON.parse(cli(['evaluate', spec, '--format', 'json']).stdout).files[0].vms[0];
    const oltp = ran.find((c: { job: string }) => c.job === 'oltp');
    const w = report.workloads[0];
    assert.ok(
      Math.abs(oltp.predicted.read_iops + oltp.predicted.write_iops - (w.read_iops + w.write_iops)) < 1,
      JSON.stringify(oltp.predicted),
    );
    assert.equal(w.read_iops + w.write_iops, 500);
    const readIops = ran.find((c: { job: string }) => c.job === 'read-iops@data');
    assert.equal(readIops.predicted.read_iops, report.disks.find((d: { name: string }) => d.name === 'data').read_iops);
    for (const c of ran) assert.ok(['within', 'below', 'above'].includes(c.verdict), c.verdict);
    assert.equal(r.code, ran.some((c: { verdict: string }) => c.verdict === 'below') ? 1 : 0);
  });

  it('diff: a size and tier change of an Azure VM, the binding limit moving, the cost partial where a ZRS price is unknown', () => {
    const base = join(dir, 'base.perf.yaml');
    const head = join(dir, 'head.perf.yaml');
    writeFileSync(base, azure('Standard_D4s_v5', ['type: premium-ssd', 'size: 1TiB']));
    writeFileSync(head, azure('Standard_D8s_v5', ['type: premium-ssd', 'size: 1TiB', 'tier: P40', 'redundancy: zrs']));
    const r = cli(['diff', base, head]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^1 VM changed: 1 target now met, .*monthly cost change unknown \(machine price unknown; premium-ssd P40 ZRS price unknown\)/,
    );
    // Standard_D4s_v5: 145 MBps (138 MiB/s) uncached holds the P30's 200 MB/s; a P40 on a D8s_v5 has its own 250 MB/s.
    assert.match(r.stdout, /disk data: read MiB\/s +138\.3 \(vm\) +238\.4 \(size\) +limit vm → size/);
    assert.match(r.stdout, /disk data: read IOPS +5,000 \(size\) +7,500 \(size\)/);
    assert.match(r.stdout, /disk data: per month +\$135\.17 +unknown +unknown/);
    // The file's totals: the P15 log disk's $38.02 is known on both sides; neither side is whole.
    assert.match(r.stdout, /total per month +at least \$173\.19 +at least \$38\.02 +unknown/);
    assert.match(r.stdout, /workload oltp: target +missed \(-16\.7%\) +met \(\+25%\) +now met/);
    const j = JSON.parse(cli(['diff', base, head, '--format', 'json']).stdout) as DiffRecord;
    assert.deepEqual(j.monthly_cost.after, {
      amount: 38.02,
      complete: false,
      missing: ['machine price unknown', 'premium-ssd P40 ZRS price unknown'],
    });
    assert.equal(j.monthly_cost.delta, null);
    assert.equal(j.counts.targets_now_met, 1);
  });
});
