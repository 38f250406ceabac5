/** `storage-perf fio` and `storage-perf compare`, run as a user runs them, with the real fio. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');
const FIXTURES = join(ROOT, 'test/fixtures/fio');

function cli(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function fio(args: string[], cwd: string) {
  return spawnSync('fio', args, { cwd, encoding: 'utf8', timeout: 30000 });
}

describe('storage-perf fio', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-fio-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one file per disk that fio accepts, and says what it wrote', () => {
    const r = cli(['fio', 'examples/storage.perf.yaml', '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['db-data.fio', 'db-wal.fio']);
    assert.match(r.stdout, /db-data\.fio: VM db, disk data, 8 jobs, about \d+ min/);
    assert.equal(r.stderr, '');
    for (const f of readdirSync(dir)) {
      const p = fio(['--parse-only', join(dir, f)], dir);
      assert.equal(p.status, 0, p.stderr);
      const text = readFileSync(join(dir, f), 'utf8');
      assert.match(text, /^# {3}storage-perf compare storage\.perf\.yaml --fio-result db-(data|wal)\.json --vm db$/m);
    }
  });

  it('a disk the edition does not model gets no jobs; instance store gets the probes of the IOPS AWS documents; both said', () => {
    const spec = join(dir, 'aws.perf.yaml');
    writeFileSync(
      spec,
      `version: 1
provider: aws
catalog: aws-2023
vms:
  - name: db
    machine_type: m7g.2xlarge
    disks:
      - name: root
        type: gp3
        size: 50GiB
      - name: data
        type: io2
        size: 500GiB
        provisioned_iops: 100000
  - name: cache
    machine_type: i3.xlarge
    disks:
      - name: root
        type: gp3
        size: 50GiB
      - name: scratch
        type: instance-store
    workloads:
      - name: spill
        disk: scratch
        block_size: 64KiB
        read_ratio: 0.5
`,
    );
    const r = cli(['fio', spec, '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['aws.perf.yaml', 'cache-root.fio', 'cache-scratch.fio', 'db-root.fio']);
    assert.equal(
      r.stderr,
      'storage-perf fio: VM db, disk data: no jobs, since the model has no figures for it to compare with (io2 on m7g.2xlarge is not modelled in aws-2023)\n' +
        "storage-perf fio: VM cache, workload spill: no jobs, since the model has no figures for it to compare with (it runs on instance store, whose throughput AWS does not give; the instance store's own file probes the IOPS AWS does)\n",
    );
    const text = readFileSync(join(dir, 'cache-scratch.fio'), 'utf8');
    assert.equal(fio(['--parse-only', join(dir, 'cache-scratch.fio')], dir).status, 0);
    // AWS's instance store table: i3.xlarge, 1 x 950 GB NVMe SSD, 206,250 random read / 70,000 random write IOPS
    // at 4 KiB. A fill with those writes (4 writers, each its own slice), then the write and the read probe.
    assert.deepEqual(
      [...text.matchAll(/^\[(.+)\]$/gm)].map((m) => m[1]),
      ['global', 'fill@scratch', 'write-iops@scratch', 'read-iops@scratch'],
    );
    assert.match(text, /disk 'scratch' \(instance store, 1 × 950 GB NVMe/);
    assert.match(text, /^# predicted: 70,000 write IOPS, 273\.4 write MiB\/s at 4KiB; limited by disk\.$/m);
    assert.match(text, /^# predicted: 206,250 read IOPS, 805\.7 read MiB\/s at 4KiB; limited by disk\.$/m);
    assert.match(
      text,
      /^# why: AWS's instance store table: i3\.xlarge, 1 × 950 GB NVMe SSD, 206,250 random read and 70,000 random write\n# {2}IOPS at 4 KiB, all volumes together \(aws-2023: Instance store specifications, 2024\)$/m,
    );
    assert.match(
      text,
      /\[fill@scratch\]\nrw=randwrite\nbs=4k\niodepth=128\nnumjobs=4\ntime_based=0\nruntime=0\nramp_time=0\nthread\nsize=2560m\noffset_increment=2560m/,
    );
  });

  it('--vm, --stdout, --runtime and --size', () => {
    const r = cli(['fio', 'examples/yandex-app.perf.yaml', '--vm', 'app', '--stdout', '--runtime', '1.5', '--size', '64m']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^runtime=1500ms$/m);
    assert.match(r.stdout, /^filesize=64m$/m);
    assert.equal((r.stdout.match(/^\[global\]$/gm) ?? []).length, 2, 'one file per disk');
  });

  it('usage errors exit 2 with a clear message', () => {
    const cases: Array<[string[], RegExp]> = [
      [['fio'], /no FILE given/],
      [['fio', 'examples/storage.perf.yaml', '--vm', 'nope'], /has no VM 'nope' \(its VMs: 'db'\)/],
      [['fio', 'missing.perf.yaml'], /cannot read missing\.perf\.yaml: ENOENT/],
      [['fio', 'examples/storage.perf.yaml', '--runtime', 'soon'], /--runtime 'soon' is not a positive number of seconds/],
      [['fio', 'examples/storage.perf.yaml', '--size', '1'], /--size '1' is too small/],
      [['fio', 'examples/storage.perf.yaml', '--bogus'], /unknown option '--bogus' \(see --help\)/],
    ];
    for (const [args, msg] of cases) {
      const r = cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, msg, args.join(' '));
    }
  });

  it('a write that fails leaves the old job files whole (half a job file could name half a device path), exit 2', () => {
    const first = cli(['fio', 'examples/storage.perf.yaml', '--out', dir]);
    assert.equal(first.code, 0, first.stderr);
    const before = readFileSync(join(dir, 'db-data.fio'), 'utf8');
    // A file-size limit below a job file's size makes every write fail part-way (EFBIG).
    const r = spawnSync(
      '/bin/sh',
      ['-c', 'ulimit -f 4 && exec "$0" "$@"', process.execPath, BIN, 'fio', 'examples/storage.perf.yaml', '--out', dir, '--runtime', '30'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /cannot write to .*: EFBIG/);
    assert.equal(readFileSync(join(dir, 'db-data.fio'), 'utf8'), before);
    assert.deepEqual(readdirSync(dir).sort(), ['db-data.fio', 'db-wal.fio'], 'no temporary file left behind');
  });

  it('a link at a job file’s name is replaced, never written through; a read-only job file only with --force', () => {
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'alias ls=ls\n');
    symlinkSync(target, join(dir, 'db-data.fio'));
    const r = cli(['fio', 'examples/storage.perf.yaml', '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(target, 'utf8'), 'alias ls=ls\n');
    assert.ok(lstatSync(join(dir, 'db-data.fio')).isFile());
    chmodSync(join(dir, 'db-wal.fio'), 0o444);
    const before = readFileSync(join(dir, 'db-data.fio'), 'utf8');
    const refused = cli(['fio', 'examples/storage.perf.yaml', '--out', dir, '--runtime', '30']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /db-wal\.fio is read-only; not written \(--force replaces it\)/);
    assert.equal(readFileSync(join(dir, 'db-data.fio'), 'utf8'), before, 'nothing written: no new job file beside a stale one');
    const forced = cli(['fio', 'examples/storage.perf.yaml', '--out', dir, '--runtime', '30', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(readFileSync(join(dir, 'db-wal.fio'), 'utf8'), /runtime=30/);
  });

  it('a VM with errors gets no job files: exit 1, the errors listed (an unknown machine, a rejected mount point)', () => {
    const spec = (vm: string, extra = '') =>
      `  - name: ${vm}\n    machine_type: n2-standard-8\n    disks:\n      - name: d\n        type: pd-ssd\n        size: 100GiB\n${extra}`;
    const file = join(dir, 'bad.perf.yaml');
    writeFileSync(
      file,
      `version: 1\nprovider: gcp\nvms:\n${spec('good')}${spec('typo').replace('n2-standard-8', 'n2-standrd-8')}${spec('mnt', '        mount_point: /mnt/${HOME}\n')}`,
    );
    const out = join(dir, 'jobs');
    for (const vm of ['typo', 'mnt']) {
      const r = cli(['fio', file, '--vm', vm, '--out', out]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`errors for VM '${vm}'; no job files written`));
      assert.match(r.stderr, vm === 'typo' ? /unknown-machine-type/ : /invalid-value: mount_point/);
      assert.ok(!existsSync(out), 'nothing is written');
    }
    // Without --vm each VM with such errors gets nothing, the others their files, and the exit status says one
    // was left out (it used to write nothing at all: one VM's error stopped every other VM's jobs).
    const all = cli(['fio', file, '--out', out]);
    assert.equal(all.code, 1, all.stderr);
    assert.deepEqual(readdirSync(out), ['good-d.fio']);
    assert.match(all.stderr, /errors for VM 'typo'; no job files written for it/);
    assert.match(all.stderr, /errors for VM 'mnt'; no job files written for it/);
    rmSync(out, { recursive: true });
    // The VM without errors is generated.
    const good = cli(['fio', file, '--vm', 'good', '--out', out]);
    assert.equal(good.code, 0, good.stderr);
    assert.ok(readdirSync(out).length > 0);
  });

  it('a missed target never stops the jobs: they are written, exit 0, and --help says so', () => {
    const file = join(dir, 'short.perf.yaml');
    writeFileSync(
      file,
      `version: 1\nprovider: gcp\nvms:\n  - name: db\n    machine_type: n2-standard-8\n    disks:\n      - name: d\n        type: pd-ssd\n        size: 100GiB\n        data_size: 200GiB\n    workloads:\n      - name: w\n        disk: d\n        block_size: 8KiB\n        read_ratio: 0.7\n        target:\n          iops: 500000\n`,
    );
    const r = cli(['fio', file, '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(dir, 'db-d.fio')));
    assert.match(readFileSync(join(dir, 'db-d.fio'), 'utf8'), /^\[w\]$/m);
    const help = cli(['fio', '--help']);
    assert.match(help.stdout, /misses its target still gets its jobs/);
    assert.match(help.stdout, /1 a VM has errors that stop its jobs/);
  });

  it('a raw device only with --destructive or fio_destructive, and never silently', () => {
    const spec = join(dir, 'raw.perf.yaml');
    writeFileSync(
      spec,
      readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8').replace(
        '        size: 500GiB\n',
        '        size: 500GiB\n        device: /dev/sdb\n',
      ),
    );
    const safe = cli(['fio', spec, '--stdout']);
    assert.equal(safe.code, 0, safe.stderr);
    assert.doesNotMatch(safe.stdout, /^filename=\/dev\//m);
    assert.equal(safe.stderr, '');
    const raw = cli(['fio', spec, '--out', dir, '--destructive']);
    assert.equal(raw.code, 0, raw.stderr);
    assert.match(raw.stdout, /db-data\.fio: .*WRITES TO RAW DEVICES/);
    assert.match(raw.stderr, /WARNING: db-data\.fio writes to raw block devices and destroys their data/);
    assert.doesNotMatch(raw.stderr, /db-wal/, 'the wal disk names no device');
    const text = readFileSync(join(dir, 'db-data.fio'), 'utf8');
    assert.match(text, /^filename=\/dev\/sdb$/m);
    assert.match(text, /DESTROYS THE DATA/);
    assert.equal(fio(['--parse-only', join(dir, 'db-data.fio')], dir).status, 0);
  });
});

describe('storage-perf compare', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-compare-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a short real fio run of generated jobs: compare reads it back, job by job', () => {
    const mnt = join(dir, 'mnt');
    mkdirSync(mnt);
    const spec = join(dir, 'trial.perf.yaml');
    writeFileSync(
      spec,
      [
        'version: 1',
        'provider: gcp',
        'catalog: gcp-2024',
        'vms:',
        '  - name: vm',
        '    machine_type: n2-standard-4',
        '    disks:',
        '      - name: data',
        '        type: pd-balanced',
        '        size: 100GiB',
        `        mount_point: ${JSON.stringify(mnt)}`,
        '    workloads:',
        '      - name: app',
        '        disk: data',
        '        block_size: 16k',
        '        read_ratio: 0.6',
        '        queue_depth: 8',
        '',
      ].join('\n'),
    );
    // A few MiB and a tenth of a second per job; three of the jobs (fio --section), to stay within a second or two.
    const g = cli(['fio', spec, '--runtime', '0.1', '--size', '4m']);
    assert.equal(g.code, 0, g.stderr);
    const run = fio(
      ['--output-format=json', '--output=vm-data.json', '--section=fill@data', '--section=app', '--section=read-iops@data', 'vm-data.fio'],
      dir,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.ok(existsSync(join(mnt, 'storage-perf.fio-test')), 'the jobs worked on the test file under the mount point');

    const r = cli(['compare', spec, '--fio-result', join(dir, 'vm-data.json'), '--format', 'json', '--svg', join(dir, 'vm-data.svg')]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.vm, 'vm');
    const ran = out.comparisons.filter((c: { verdict: string }) => c.verdict !== 'missing');
    assert.deepEqual(
      ran.map((c: { job: string }) => c.job),
      ['fill@data', 'app', 'read-iops@data'],
    );
    const raw = JSON.parse(readFileSync(join(dir, 'vm-data.json'), 'utf8'));
    for (const c of ran) {
      const j = raw.jobs.find((x: { jobname: string }) => x.jobname === c.job);
      assert.equal(c.measured.error, 0);
      assert.ok(Math.abs(c.measured.read_iops - j.read.iops) < 1e-6 && Math.abs(c.measured.write_iops - j.write.iops) < 1e-6, c.job);
      assert.ok(['within', 'below', 'above'].includes(c.verdict), c.verdict);
      assert.equal(c.verdict !== 'within', c.causes.length > 0);
    }
    assert.equal(out.counts.missing, out.comparisons.length - 3);
    assert.equal(r.code, ran.some((c: { verdict: string }) => c.verdict === 'below') ? 1 : 0);
    const svg = readFileSync(join(dir, 'vm-data.svg'), 'utf8');
    for (const c of ran) assert.ok(svg.includes(`>${c.job}</text>`), c.job);

    const table = cli(['compare', spec, '--fio-result', join(dir, 'vm-data.json')]);
    assert.match(table.stdout, /^job\s+metric\s+measured\s+p99 ms\s+predicted\s+ratio\s+limited by\s+verdict$/m);
    // measured, p99 latency (fio reports percentiles by default), predicted, ratio
    assert.match(table.stdout, /^app\s+IOPS\s+[\d,]+\s+[\d.,]+\s+[\d,]+\s+[\d.]+x\s+\S+\s+(within expectation|BELOW|ABOVE)$/m);
  });

  it("instance store: a short real run of the probes of AWS's IOPS, compared job by job with its figures", () => {
    const mnt = join(dir, 'nvme');
    mkdirSync(mnt);
    const spec = join(dir, 'store.perf.yaml');
    writeFileSync(
      spec,
      [
        'version: 1',
        'provider: aws',
        'vms:',
        '  - name: cache',
        '    machine_type: i4i.xlarge',
        '    disks:',
        '      - name: scratch',
        '        type: instance-store',
        `        mount_point: ${JSON.stringify(mnt)}`,
        '',
      ].join('\n'),
    );
    const g = cli(['fio', spec, '--runtime', '0.1', '--size', '4m']);
    assert.equal(g.code, 0, g.stderr);
    const run = fio(['--output-format=json', '--output=cache-scratch.json', 'cache-scratch.fio'], dir);
    assert.equal(run.status, 0, run.stderr);
    // The jobs worked on the test file under the disk's mount point (deleted by the last job).
    assert.equal(JSON.parse(readFileSync(join(dir, 'cache-scratch.json'), 'utf8'))['global options'].directory, mnt);
    const r = cli(['compare', spec, '--fio-result', join(dir, 'cache-scratch.json'), '--format', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.comparisons.map((c: { job: string; predicted: { read_iops: number; write_iops: number } }) => [
        c.job,
        c.predicted.read_iops,
        c.predicted.write_iops,
      ]),
      // AWS: i4i.xlarge, 100,000 random read and 55,000 random write IOPS at 4 KiB.
      [
        ['fill@scratch', 0, 55000],
        ['write-iops@scratch', 0, 55000],
        ['read-iops@scratch', 100000, 0],
      ],
    );
    for (const c of out.comparisons) assert.ok(['within', 'below', 'above'].includes(c.verdict), `${c.job}: ${c.verdict}`);
  });

  it('a failed job in a fixture: exit 1, the errno explained', () => {
    const r = cli(['compare', 'examples/storage.perf.yaml', '--fio-result', join(FIXTURES, 'failed-job.json')]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^oltp\s+IOPS\s+.*FAILED$/m);
    assert.match(r.stdout, /oltp: fio reported error 22 \(EINVAL\)/);
  });

  it('a result no generated job matches: exit 1, not a pass', () => {
    const other = join(dir, 'other.json');
    const fixture = JSON.parse(readFileSync(join(FIXTURES, 'mixed-randrw.json'), 'utf8'));
    for (const j of fixture.jobs) j.jobname = `not-ours-${j.jobname}`;
    writeFileSync(other, JSON.stringify(fixture));
    const r = cli(['compare', 'examples/storage.perf.yaml', '--fio-result', other]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /no job of .*other\.json matches a job generated for storage\.perf\.yaml/);
  });

  it('usage errors exit 2', () => {
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'fio: failed to parse job file\n');
    const cases: Array<[string[], RegExp]> = [
      [['compare', 'examples/storage.perf.yaml'], /no --fio-result given/],
      [['compare', 'examples/storage.perf.yaml', '--fio-result', join(dir, 'nope.json')], /cannot read .*nope\.json: ENOENT/],
      [['compare', 'examples/storage.perf.yaml', '--fio-result', notJson], /not fio JSON output/],
      [
        ['compare', 'examples/storage.perf.yaml', '--fio-result', join(FIXTURES, 'mixed-randrw.json'), '--format', 'xml'],
        /unknown format 'xml'/,
      ],
      [['compare', 'examples/storage.perf.yaml', '--fio-result', join(FIXTURES, 'mixed-randrw.json'), '--vm', 'nope'], /has no VM 'nope'/],
    ];
    for (const [args, msg] of cases) {
      const r = cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, msg, args.join(' '));
    }
  });
});
