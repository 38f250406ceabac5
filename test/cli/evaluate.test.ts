/** `storage-perf evaluate`, run as a user runs it: the real executable in a child process. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyze, fileReport } from '../../core/src';
import { SPEC_HEAD, vmLines } from '../../bench/specs';
import { distinctFleet } from '../../bench/fleet';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('storage-perf evaluate', () => {
  it('prints the contract JSON report', () => {
    const r = cli(['evaluate', 'examples/storage.perf.yaml', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    const f = report.files[0];
    assert.equal(f.path, 'examples/storage.perf.yaml');
    assert.equal(f.catalog, 'gcp-2024');
    assert.equal(f.currency, 'USD');
    const vm = f.vms[0];
    assert.equal(vm.name, 'db');
    assert.equal(vm.machine_type, 'n2-standard-8');
    assert.equal(vm.vcpus, 8);
    const data = vm.disks.find((d: { name: string }) => d.name === 'data');
    assert.deepEqual(
      {
        type: data.type,
        size_gib: data.size_gib,
        read_iops: data.read_iops,
        write_iops: data.write_iops,
        read_mibps: data.read_mibps,
        write_mibps: data.write_mibps,
        limited_by: data.limited_by,
        monthly_cost: data.monthly_cost,
      },
      {
        type: 'pd-ssd',
        size_gib: 500,
        // The pd-ssd alone (the WAL idle): 21,000 of its own, held to n2-standard-8's 15,000 for pd-ssd.
        read_iops: 15000,
        write_iops: 15000,
        read_mibps: 480,
        write_mibps: 480,
        limited_by: { read_iops: 'vm', write_iops: 'vm', read_mibps: 'size', write_mibps: 'size' },
        monthly_cost: 85,
      },
    );
    assert.match(data.explanation.read_iops, /^n2-standard-8 limit for pd-ssd: 15,000 IOPS \(gcp-2024: .*row 8-15 vCPUs\)$/);
    // The limit across persistent disk types, stated once: data and wal together.
    const across = vm.shared_limits.find(
      (l: { metric: string; explanation: string }) => l.metric === 'read_iops' && /across/.test(l.explanation),
    );
    assert.deepEqual(
      [across.value, across.unit, across.disks, across.demand, across.reached, across.limited_by],
      [15000, 'IOPS', ['data', 'wal'], 12400, false, 'vm'],
    );
    assert.match(across.explanation, /pd-ssd's row, .*\(gcp-2024: .*row 8-15 vCPUs; Multiple disks attached/);
    // oltp and wal-writes run at once and share the 15,000: their 12,000 and 400 first, the 2,600 left by what each
    // could add; oltp's share is 13,258.
    const oltp = vm.workloads.find((w: { name: string }) => w.name === 'oltp');
    assert.deepEqual(
      [oltp.read_iops, oltp.write_iops, oltp.read_mibps, oltp.write_mibps, oltp.limited_by, oltp.meets_target],
      [9281, 3977, 72.5, 31.1, 'vm', true],
    );
    assert.deepEqual(oltp.target, { iops: 12000 });
    assert.equal(vm.monthly_cost, f.monthly_cost);
    const d = f.diagnostics.find((x: { code: string }) => x.code === 'capped-by-vcpu');
    assert.deepEqual([d.severity, d.line, d.column, d.end_line, d.end_column], ['warning', 10, 5, 10, 17]);
  });

  it('VMs written alike share their report but for the name, and the JSON is byte for byte that of each VM reported alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-evaluate-'));
    try {
      // 60 VMs of 20 kinds (vmLines repeats its machine, type, size and target with its counter), named apart.
      const lines = [...SPEC_HEAD];
      for (let i = 0; i < 60; i++) lines.push(...vmLines(i % 7 ? `vm${i}` : `replica_${i}.db`, i % 20));
      const text = lines.join('\n') + '\n';
      const file = join(dir, 'fleet.perf.yaml');
      writeFileSync(file, text);
      const r = cli(['evaluate', file, '--format', 'json']);
      assert.equal(r.code, 1, r.stderr); // some targets are unreachable: findings at error level
      // Without an evaluation cache nothing is shared: every VM's report is made on its own.
      assert.equal(r.stdout, JSON.stringify({ files: [fileReport(file, analyze(text))] }, null, 2) + '\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a report of distinct VMs longer than its write buffer byte for byte as JSON.stringify does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-evaluate-'));
    try {
      // Each VM of its own kind, its JSON written where it is made: 2 MB and more, past the 1 MiB buffer it is encoded in.
      const { text } = distinctFleet('aws-2025', 300);
      const file = join(dir, 'distinct.perf.yaml');
      writeFileSync(file, text);
      const r = cli(['evaluate', file, '--format', 'json']);
      assert.ok(Buffer.byteLength(r.stdout) > 2 << 20, `${Buffer.byteLength(r.stdout)} bytes`);
      assert.ok(/[^\x00-\x7f]/.test(r.stdout));
      assert.equal(r.stdout, JSON.stringify({ files: [fileReport(file, analyze(text))] }, null, 2) + '\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('evaluates every example without errors', () => {
    const r = cli([
      'evaluate',
      'examples/storage.perf.yaml',
      'examples/local-ssd-raid0.perf.yaml',
      'examples/yandex-app.perf.yaml',
      '--format',
      'json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.files.length, 3);
    for (const f of report.files) {
      assert.deepEqual(
        f.diagnostics.filter((d: { severity: string }) => d.severity === 'error'),
        [],
        f.path,
      );
      assert.ok(f.vms.length > 0 && f.monthly_cost > 0, f.path);
    }
  });

  it('marks figures that are only upper bounds in the table: a Hyperdisk volume whose VM limit is unknown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-evaluate-'));
    try {
      const file = join(dir, 'hd.perf.yaml');
      writeFileSync(
        file,
        'version: 1\nprovider: gcp\ncatalog: gcp-2024\nvms:\n  - name: vm\n    machine_type: n4-standard-2\n    disks:\n' +
          '      - name: hd\n        type: hyperdisk-balanced\n        size: 1000GiB\n        provisioned_iops: 50000\n        provisioned_throughput: 1200MiB/s\n' +
          '    workloads:\n      - name: w\n        disk: hd\n        block_size: 4KiB\n        read_ratio: 1\n        target:\n          iops: 40000\n',
      );
      const r = cli(['evaluate', file]);
      assert.match(r.stdout, /^hd\s+hyperdisk-balanced\s+1,000\s+≤ 50,000\s+≤ 50,000\s+≤ 1,200\s+≤ 1,200\s+.*VM limit unknown/m);
      // The workload's figures rest on the disk's: marked too, and the target they reach is not judged.
      assert.match(r.stdout, /^w\s+≤ 50,000\s+0\s+≤ 195\.3\s+0\s+provisioned \(VM limit unknown\)\s+40,000 IOPS: not judged$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a target missed by 1 IOPS reads as missed, with a shortfall below zero in the table and the report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-evaluate-'));
    try {
      const file = join(dir, 'by-one.perf.yaml');
      // n2-standard-8 holds the pd-ssd to 15,000 IOPS; the target asks for one more.
      writeFileSync(
        file,
        'version: 1\nprovider: gcp\ncatalog: gcp-2024\nvms:\n  - name: db\n    machine_type: n2-standard-8\n    disks:\n' +
          '      - name: data\n        type: pd-ssd\n        size: 500GiB\n' +
          '    workloads:\n      - name: oltp\n        disk: data\n        block_size: 4KiB\n        read_ratio: 1\n        target:\n          iops: 15001\n',
      );
      assert.match(cli(['evaluate', file]).stdout, /^oltp\s.*\s15,001 IOPS: missed \(-0\.01%\)$/m);
      const w = JSON.parse(cli(['evaluate', file, '--format', 'json']).stdout).files[0].vms[0].workloads[0];
      assert.equal(w.meets_target, false);
      assert.equal(w.headroom, -0.000067);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints readable tables by default', () => {
    const r = cli(['evaluate', 'examples/storage.perf.yaml']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /VM db: n2-standard-8, 8 vCPUs/);
    assert.match(r.stdout, /data\s+pd-ssd\s+500\s+15,000\s+15,000\s+480\s+480/);
    assert.match(r.stdout, /^shared: data and wal together ≤ 15,000 read and write IOPS; their targets ask 12,400$/m);
    // The targets as parsed stand beside the figures: wal-writes asks for 100MiB/s of writes.
    assert.match(r.stdout, /^oltp\s.*\s12,000 IOPS: met \(\+10\.5%\)$/m);
    assert.match(r.stdout, /^wal-writes\s.*\s100 write MiB\/s: met/m);
    assert.match(r.stdout, /warning capped-by-vcpu/);
  });

  it('exits 2 when a file cannot be read, still reporting the others', () => {
    const r = cli(['evaluate', 'examples/storage.perf.yaml', 'no/such/file.perf.yaml', '--format', 'json']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read no\/such\/file\.perf\.yaml/);
    assert.equal(JSON.parse(r.stdout).files.length, 1);
  });

  it('exits 1 when a finding is at error level, and still prints the whole report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-'));
    try {
      const spec = (machine: string) =>
        `version: 1\nprovider: gcp\nvms:\n  - name: db\n    machine_type: ${machine}\n    disks:\n      - name: d\n        type: pd-ssd\n        size: 500GiB\n`;
      writeFileSync(join(dir, 'unknown-machine.perf.yaml'), spec('n2-standard-7'));
      writeFileSync(join(dir, 'yaml-error.perf.yaml'), 'version: 1\nprovider: [gcp\n');
      writeFileSync(join(dir, 'fine.perf.yaml'), spec('n2-standard-8'));
      for (const f of ['unknown-machine.perf.yaml', 'yaml-error.perf.yaml']) {
        const r = spawnSync(process.execPath, [BIN, 'evaluate', f, 'fine.perf.yaml', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
        assert.equal(r.status, 1, f);
        const files = JSON.parse(r.stdout).files;
        assert.deepEqual(
          files.map((x: { path: string }) => x.path),
          [f, 'fine.perf.yaml'],
        );
        assert.ok(files[0].diagnostics.some((d: { severity: string }) => d.severity === 'error'));
      }
      const table = spawnSync(process.execPath, [BIN, 'evaluate', 'unknown-machine.perf.yaml'], { cwd: dir, encoding: 'utf8' });
      assert.equal(table.status, 1);
      assert.match(table.stdout, /no figures: n2-standard comes with .* not 7/);
      const fine = spawnSync(process.execPath, [BIN, 'evaluate', 'fine.perf.yaml'], { cwd: dir, encoding: 'utf8' });
      assert.equal(fine.status, 0, fine.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--version prints the package version; an unknown option names the one meant', () => {
    const v = cli(['--version']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.deepEqual([v.code, v.stdout], [0, `storage-perf ${pkg.version}\n`]);
    const cases: Array<[string[], string]> = [
      [['evaluate', '--formt', 'json', 'x'], "unknown option '--formt'; did you mean --format?"],
      [['lint', '--fial-on', 'warning', 'x'], "unknown option '--fial-on'; did you mean --fail-on?"],
      [['fio', '--destrctive', 'x'], "unknown option '--destrctive'; did you mean --destructive?"],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.ok(r.stderr.includes(message), r.stderr);
    }
  });

  it('--set: what if the machine, a size or the region were other, before and after', () => {
    const r = cli(['evaluate', 'examples/storage.perf.yaml', '--set', 'vms.db.machine_type=n2-standard-16']);
    assert.equal(r.code, 0, r.stderr);
    // n2-standard-16 lifts the 15,000 IOPS n2-standard-8 holds the 500 GiB pd-ssd to (21,000 of its own); the WAL's
    // pd-balanced alone was under every limit already.
    assert.match(r.stdout, /^what if: vms\.db\.machine_type=n2-standard-16$/m);
    assert.match(r.stdout, /^db: machine\s+n2-standard-8\s+n2-standard-16\s+changed$/m);
    assert.match(r.stdout, /^db\/data: read \/ write IOPS\s+15,000 \/ 15,000\s+21,000 \/ 21,000\s+changed$/m);
    assert.match(r.stdout, /^db\/wal: read \/ write IOPS\s+3,600 \/ 3,600\s+3,600 \/ 3,600$/m);

    const j = cli([
      'evaluate',
      'examples/storage.perf.yaml',
      '--format',
      'json',
      '--set',
      'vms.db.disks.data.size=1TiB',
      '--set',
      'region=europe-west4',
    ]);
    assert.equal(j.code, 0, j.stderr);
    const f = JSON.parse(j.stdout).files[0];
    assert.equal(f.region, 'europe-west4');
    assert.equal(f.vms[0].disks[0].size_gib, 1024);
    assert.equal(f.what_if.before.region, 'us-central1');
    assert.equal(f.what_if.before.vms[0].disks[0].size_gib, 500);
    assert.deepEqual(f.what_if.set, ['vms.db.disks.data.size=1TiB', 'region=europe-west4']);

    const bad = cli(['evaluate', 'examples/storage.perf.yaml', '--set', 'vms.dbb.machine_type=n2-standard-16']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no VM 'dbb'; did you mean 'db'\?/);
    // The original file is never written.
    assert.match(readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8'), /machine_type: n2-standard-8/);
  });

  it('--set of a size that cannot be read keeps the disk, without figures, and marks the totals partial', () => {
    const r = cli(['evaluate', 'examples/storage.perf.yaml', '--set', 'vms.db.disks.data.size=-5']);
    assert.equal(r.code, 1, r.stderr);
    // Not a cheaper VM: the total after is the known part only, and says so.
    assert.match(r.stdout, /^db: monthly cost\s+\$378\.58\s+≥ \$293\.58\s+changed$/m);
    assert.match(r.stdout, /^db\/data: read \/ write IOPS\s+[\d,]+ \/ [\d,]+\s+- \/ -\s+changed$/m);
    // wal alone is what it was; its workload runs beside oltp on data, whose size is unknown: the workload's figures
    // are upper bounds, said so, and its target is not judged.
    assert.match(r.stdout, /^wal\s+pd-balanced\s+100\s+3,600\s+3,600\s+168\s+168\s+size\/size, size\/size/m);
    assert.match(r.stdout, /^wal-writes\s+0\s+≤ 672\s+0\s+≤ 168\s+size \(VM limit shared with 'data'\)\s+100 write MiB\/s: not judged$/m);
    assert.match(r.stdout, /^VM db: .* at least \$293\.58\/month \(disk 'data' has no valid size\)/m);
    assert.match(r.stdout, /^data\s+pd-ssd\s+-\s+-/m);
    assert.match(r.stdout, /error bad-quantity: size must not be negative/);
  });

  it("every command's --help lists its options with examples", () => {
    for (const command of ['evaluate', 'lint', 'fio', 'compare']) {
      const h = cli([command, '--help']);
      assert.equal(h.code, 0, command);
      assert.match(h.stdout, new RegExp(`^usage: storage-perf ${command}`), command);
      assert.match(h.stdout, new RegExp(`^examples:\\n  storage-perf ${command} `, 'm'), command);
      assert.match(h.stdout, /^exit status: 0 /m, command);
    }
  });

  it('exits 2 on usage errors', () => {
    assert.equal(cli(['evaluate']).code, 2);
    assert.equal(cli(['evaluate', 'x', '--format', 'xml']).code, 2);
    assert.equal(cli(['frobnicate']).code, 2);
    // no command: usage on stderr, nothing on stdout; asked for help: usage on stdout, exit 0
    const none = cli([]);
    assert.deepEqual([none.code, none.stdout], [2, '']);
    assert.match(none.stderr, /^usage: storage-perf/);
    const help = cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: storage-perf/);
  });

  it('a reader that closes the pipe early does not change the exit code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-'));
    try {
      // Far more than a pipe buffer of output, and a reader that takes one byte and leaves.
      const vms = Array.from(
        { length: 400 },
        (_, i) =>
          `  - name: vm${i}\n    machine_type: n2-standard-8\n    disks:\n      - name: d\n        type: pd-ssd\n        size: 500GiB\n`,
      ).join('');
      writeFileSync(join(dir, 'big.perf.yaml'), `version: 1\nprovider: gcp\nvms:\n${vms}`);
      const r = spawnSync(
        'bash',
        ['-c', `"$0" "$1" evaluate big.perf.yaml | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`, process.execPath, BIN],
        { cwd: dir, encoding: 'utf8' },
      );
      assert.equal(r.stdout.trim(), '0', r.stderr);
      assert.doesNotMatch(r.stderr, /EPIPE|Error/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads a user catalog and refuses a malformed one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-'));
    try {
      const base = JSON.parse(readFileSync(join(ROOT, 'catalogs/gcp-2024.json'), 'utf8'));
      base.edition = 'my-gcp';
      base.disk_types['pd-ssd'].rates.read_iops_per_gib = 50;
      writeFileSync(join(dir, 'mine.json'), JSON.stringify(base));
      const spec = join(dir, 's.perf.yaml');
      writeFileSync(
        spec,
        'version: 1\nprovider: gcp\ncatalog: my-gcp\nvms:\n  - name: a\n    machine_type: n2-standard-32\n    disks:\n      - name: d\n        type: pd-ssd\n        size: 100\n',
      );
      const r = cli(['evaluate', spec, '--format', 'json', '--catalog-file', join(dir, 'mine.json')]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).files[0].vms[0].disks[0].read_iops, 6000 + 50 * 100);
      base.disk_types['pd-ssd'].rates.read_iops_per_gib = -5;
      writeFileSync(join(dir, 'bad.json'), JSON.stringify(base));
      const bad = cli(['evaluate', spec, '--catalog-file', join(dir, 'bad.json')]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /read_iops_per_gib/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
