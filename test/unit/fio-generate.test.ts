/** fio job files from specs: fio itself must accept every file, and no job may touch a device unasked. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import fc from 'fast-check';
import { analyze, fmt, generateFioJobs, type Analysis, type FioFile, type FioOptions } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');

// ---- a spec writer: every string JSON-quoted, which YAML reads as a double-quoted scalar --------------------

interface Disk {
  name: string;
  type: string;
  size?: string;
  count?: number;
  interface?: string;
  provisioned_iops?: number;
  provisioned_throughput?: string;
  mount_point?: string;
  device?: string;
  fio_destructive?: boolean;
  fio_size?: string;
}
interface Workload {
  name: string;
  disk?: string;
  pattern?: string;
  block_size: string;
  read_ratio: number;
  queue_depth?: number;
}
interface Vm {
  name: string;
  machine_type?: string;
  series?: string;
  vcpus?: number;
  disks: Disk[];
  workloads?: Workload[];
}

function yaml(provider: string, catalog: string, vms: Vm[]): string {
  const q = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
  const L = ['version: 1', `provider: ${provider}`, `catalog: ${catalog}`, 'vms:'];
  for (const vm of vms) {
    L.push(`  - name: ${q(vm.name)}`);
    for (const k of ['machine_type', 'series', 'vcpus'] as const) if (vm[k] !== undefined) L.push(`    ${k}: ${q(vm[k])}`);
    L.push('    disks:');
    for (const d of vm.disks) {
      L.push(`      - name: ${q(d.name)}`);
      for (const [k, v] of Object.entries(d)) if (k !== 'name' && v !== undefined) L.push(`        ${k}: ${q(v)}`);
    }
    if (vm.workloads?.length) {
      L.push('    workloads:');
      for (const w of vm.workloads) {
        L.push(`      - name: ${q(w.name)}`);
        for (const [k, v] of Object.entries(w)) if (k !== 'name' && v !== undefined) L.push(`        ${k}: ${q(v)}`);
      }
    }
  }
  return L.join('\n') + '\n';
}

function evaluated(text: string): Analysis {
  const a = analyze(text);
  const errors = a.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => `${d.code}: ${d.message}`),
    [],
    text,
  );
  assert.ok(a.vms.length > 0);
  return a;
}

// ---- reading job files back the way fio does ----------------------------------------------------------------

interface Section {
  name: string;
  options: Map<string, string>;
}

/** fio's job-file grammar as far as the generator uses it: `[section]`, `key=value`, bare flags, `#`/`;` comments. */
function sections(text: string): Section[] {
  const out: Section[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const s = /^\[(.+)\]$/.exec(line);
    if (s) {
      out.push({ name: s[1], options: new Map() });
      continue;
    }
    assert.ok(out.length, `option before any section: ${line}`);
    const eq = line.indexOf('=');
    out[out.length - 1].options.set(eq < 0 ? line : line.slice(0, eq).trim(), eq < 0 ? '' : line.slice(eq + 1).trim());
  }
  return out;
}

/** Each job's options with the global section's underneath. */
function jobsOf(text: string): Section[] {
  const all = sections(text);
  const global = all.find((s) => s.name === 'global');
  return all
    .filter((s) => s.name !== 'global')
    .map((s) => ({ name: s.name, options: new Map([...(global?.options ?? []), ...s.options]) }));
}

/** The paths a job opens: `filename` split at unescaped ':' (fio's list separator), under `directory`. */
function pathsOf(job: Section): string[] {
  const names = (job.options.get('filename') ?? '')
    .split(/(?<!\\):/)
    .map((p) => p.replace(/\\:/g, ':').replace(/\\\\/g, '\\'))
    .filter(Boolean);
  const dir = job.options.get('directory')?.replace(/\\:/g, ':');
  return names.map((n) => posix.normalize(n.startsWith('/') || !dir ? n : posix.join(dir, n)));
}

const num = (job: Section, key: string) => Number(job.options.get(key) ?? 1);

/** fio's size spellings in KiB (the generator writes k, m, g). */
function kib(v: string | undefined): number {
  const m = /^(\d+)([kmg]?)$/.exec(v ?? '');
  assert.ok(m, `size ${v}`);
  return Number(m[1]) * ({ '': 1 / 1024, k: 1, m: 1024, g: 1024 * 1024 } as Record<string, number>)[m[2]];
}

let dir: string;

/** Writes the files and has fio parse them; returns fio's own list of job names per file (from --showcmd). */
function fioAccepts(files: FioFile[], label: string): void {
  for (const f of files) {
    const path = join(dir, f.fileName);
    writeFileSync(path, f.text);
    const r = spawnSync('fio', ['--parse-only', path], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${label}: fio --parse-only ${f.fileName} failed:\n${r.stderr}\n${r.stdout}\n${f.text}`);
    assert.doesNotMatch(r.stderr, /error|bad option|invalid/i, `${label}: ${f.fileName}: ${r.stderr}`);
    // fio's reading of the file, job by job: the same jobs, in order, as the generator meant.
    const show = spawnSync('fio', ['--showcmd', path], { encoding: 'utf8' });
    assert.equal(show.status, 0, show.stderr);
    const names = [...show.stdout.matchAll(/--name=(\S+)/g)].map((m) => m[1]);
    assert.deepEqual(
      names,
      f.jobs.map((j) => j.name),
      `${label}: ${f.fileName}`,
    );
  }
}

// ---- the specs ------------------------------------------------------------------------------------------------

const SPECS: Array<{ label: string; text: string; opts?: FioOptions }> = [
  {
    label: 'gcp-2020 pd-ssd and pd-standard on n1',
    text: yaml('gcp', 'gcp-2020', [
      {
        name: 'db',
        series: 'n1',
        vcpus: 16,
        disks: [
          { name: 'data', type: 'pd-ssd', size: '1000GB', mount_point: '/mnt/disks/data' },
          { name: 'logs', type: 'pd-standard', size: '2TiB' },
        ],
        workloads: [
          { name: 'oltp', disk: 'data', block_size: '8k', read_ratio: 0.7, queue_depth: 32 },
          { name: 'archive', disk: 'logs', pattern: 'sequential', block_size: '1m', read_ratio: 0 },
        ],
      },
    ]),
  },
  {
    // M3 is a series that attaches both (N2 takes Hyperdisk Balanced only through Google's account team).
    label: 'gcp-2024 hyperdisk-balanced and pd-extreme',
    text: yaml('gcp', 'gcp-2024', [
      {
        name: 'analytics',
        machine_type: 'm3-ultramem-32',
        disks: [
          {
            name: 'hot',
            type: 'hyperdisk-balanced',
            size: '1TiB',
            provisioned_iops: 20000,
            provisioned_throughput: '600MiB/s',
            mount_point: '/data/hot',
          },
          { name: 'xt', type: 'pd-extreme', size: '1TiB', provisioned_iops: 50000, mount_point: '/data/xt' },
        ],
        workloads: [
          { name: 'scan', disk: 'hot', pattern: 'sequential', block_size: '256k', read_ratio: 1 },
          { name: 'point', disk: 'xt', block_size: '4k', read_ratio: 0.9 },
        ],
      },
    ]),
  },
  {
    label: 'gcp-2024 local SSD over SCSI, a workload without queue depth',
    text: yaml('gcp', 'gcp-2024', [
      {
        name: 'cache',
        machine_type: 'n2-standard-8',
        disks: [{ name: 'ssd', type: 'local-ssd', count: 2, interface: 'scsi', mount_point: '/mnt/disks/ssd' }],
        workloads: [{ name: 'lookups', block_size: '4k', read_ratio: 1 }],
      },
    ]),
  },
  {
    label: 'yandex network-ssd-nonreplicated and a small network-hdd (bursting)',
    text: yaml('yandex', 'yandex-2025', [
      {
        name: 'app',
        series: 'standard-v3',
        vcpus: 4,
        disks: [
          { name: 'fast', type: 'network-ssd-nonreplicated', size: '186GiB', mount_point: '/srv/fast' },
          { name: 'slow', type: 'network-hdd', size: '64GiB', mount_point: '/srv/slow' },
        ],
        workloads: [{ name: 'writes', disk: 'fast', block_size: '16k', read_ratio: 0.2, queue_depth: 8 }],
      },
    ]),
  },
  {
    label: 'a workload spread over two disks (one file for it, list of test files)',
    text: yaml('gcp', 'gcp-2024', [
      {
        name: 'web',
        machine_type: 'e2-standard-4',
        disks: [
          { name: 'a', type: 'pd-balanced', size: '200GiB', mount_point: '/mnt/a' },
          { name: 'b', type: 'pd-balanced', size: '300GiB', mount_point: '/mnt/with space:colon' },
        ],
        workloads: [{ name: 'both', block_size: '64k', read_ratio: 0.5, queue_depth: 16 }],
      },
    ]),
  },
  {
    label: 'destructive: raw devices allowed on the disk',
    text: yaml('gcp', 'gcp-2024', [
      {
        name: 'bench',
        machine_type: 'n2-standard-16',
        disks: [
          { name: 'data', type: 'pd-ssd', size: '2500GiB', device: '/dev/disk/by-id/google-data', fio_destructive: true },
          { name: 'raid', type: 'local-ssd', count: 4, device: '/dev/md0', fio_destructive: true, fio_size: '100g' },
        ],
        workloads: [{ name: 'oltp', disk: 'data', block_size: '8k', read_ratio: 0.7, queue_depth: 64 }],
      },
    ]),
  },
  {
    label: 'destructive by option, a short runtime',
    text: yaml('gcp', 'gcp-2024', [
      { name: 'vm', machine_type: 'n2-standard-4', disks: [{ name: 'd', type: 'pd-balanced', size: '100GiB', device: '/dev/sdb' }] },
    ]),
    opts: { destructive: true, runtimeSeconds: 0.5, sizeKib: 64 * 1024 },
  },
];

describe('fio job files', function () {
  this.timeout(60000);
  before(() => {
    // The tests run the real fio: `npm test` installs it (scripts/test-setup.sh).
    const v = spawnSync('fio', ['--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0, 'fio is not installed: run sh scripts/test-setup.sh');
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-fio-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fio accepts every file generated for the examples and a range of specs', () => {
    const examples = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.perf.yaml'));
    assert.ok(examples.length >= 3);
    for (const e of examples) {
      const files = generateFioJobs(evaluated(readFileSync(join(ROOT, 'examples', e), 'utf8')), { specName: e });
      assert.ok(files.length > 0, e);
      fioAccepts(files, e);
    }
    for (const s of SPECS) {
      const files = generateFioJobs(evaluated(s.text), s.opts);
      assert.ok(files.length > 0, s.label);
      fioAccepts(files, s.label);
    }
  });

  it("one file per disk: a fill job, the spec's workloads, and the bandwidth, IOPS and latency probes", () => {
    const a = evaluated(readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8'));
    const files = generateFioJobs(a);
    const vm = a.vms[0];
    assert.deepEqual(
      files.map((f) => f.disk),
      vm.disks.map((d) => d.spec.name),
    );
    for (const f of files) {
      const d = f.disk!;
      const mine = vm.workloads.filter((w) => w.disks.length === 1 && w.disks[0] === d).map((w) => w.spec.name);
      assert.deepEqual(
        f.jobs.map((j) => j.name),
        [`fill@${d}`, ...mine, ...['write-bw', 'write-iops', 'write-lat', 'read-bw', 'read-iops', 'read-lat'].map((p) => `${p}@${d}`)],
      );
      const text = jobsOf(f.text);
      for (const w of vm.workloads.filter((x) => mine.includes(x.spec.name))) {
        const job = text.find((j) => j.name === w.spec.name)!;
        // The spec's own workload: its block size, mix, pattern and queue depth.
        assert.equal(kib(job.options.get('bs')), w.spec.block_kib);
        assert.equal(
          job.options.get('rw'),
          { random: { r: 'randread', w: 'randwrite', m: 'randrw' }, sequential: { r: 'read', w: 'write', m: 'rw' } }[
            w.spec.pattern ?? 'random'
          ]![w.spec.read_ratio >= 1 ? 'r' : w.spec.read_ratio <= 0 ? 'w' : 'm'],
        );
        if (w.spec.read_ratio > 0 && w.spec.read_ratio < 1)
          assert.equal(Number(job.options.get('rwmixread')), Math.round(w.spec.read_ratio * 100));
        if (w.spec.queue_depth !== undefined) assert.equal(num(job, 'iodepth') * num(job, 'numjobs'), w.spec.queue_depth);
      }
    }
  });

  it('queue depth follows the model: enough in flight for the predicted IOPS, latency probes below the limit', () => {
    for (const s of [
      ...SPECS.filter((x) => !/local SSD/.test(x.label)),
      { label: 'example', text: readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8'), opts: undefined },
    ]) {
      const a = evaluated(s.text);
      const per = a.catalog!.queue.iops_per_outstanding_io;
      for (const f of generateFioJobs(a, s.opts)) {
        const text = jobsOf(f.text);
        for (const j of f.jobs.filter((x) => x.kind === 'probe' && x.context.network)) {
          const job = text.find((x) => x.name === j.name)!;
          const inFlight = num(job, 'iodepth') * num(job, 'numjobs');
          const predicted = j.predicted.read_iops + j.predicted.write_iops;
          if (/iops/.test(j.probe!)) {
            // Little's law at the guidance's slow end (one I/O in flight per `low` IOPS) carries the prediction…
            assert.ok(inFlight * per.low >= predicted, `${s.label} ${j.name}: ${inFlight} in flight for ${predicted} IOPS`);
            // …without piling up more than one job's worth beyond it.
            assert.ok(inFlight <= Math.ceil(predicted / per.low) + a.catalog!.queue.max_useful_depth, `${s.label} ${j.name}: ${inFlight}`);
          }
          if (/lat/.test(j.probe!)) {
            assert.ok(inFlight <= 4, `${s.label} ${j.name}: latency at queue depth ${inFlight}`);
            // Below saturation even at the guidance's fast end, unless one I/O already reaches the limit.
            const open = f.jobs.find((x) => x.probe === j.probe!.replace('lat', 'iops'))!;
            assert.ok(
              inFlight === 1 || inFlight * per.high <= open.predicted.read_iops + open.predicted.write_iops,
              `${s.label} ${j.name}`,
            );
          }
          if (/bw/.test(j.probe!)) {
            // Google's bandwidth recipe: several streams, iodepth 64, each stream in its own slice.
            assert.ok(num(job, 'numjobs') >= 4 && num(job, 'iodepth') >= 64, `${s.label} ${j.name}`);
            assert.equal(job.options.get('offset_increment'), job.options.get('size'));
            // The region: the test file's size, or the whole device when the file takes it all.
            const region = job.options.has('filesize')
              ? kib(job.options.get('filesize'))
              : a.vms[0].disks.find((d) => d.spec.name === f.disk)!.size_gib * 1024 * 1024;
            assert.ok(
              kib(job.options.get('offset_increment')) * num(job, 'numjobs') <= region,
              `${s.label} ${j.name}: the slices overrun the region`,
            );
          }
        }
      }
    }
  });

  it('the fill job writes the whole region: no runtime cut it short, whatever --runtime says', () => {
    // fio ends a job at `runtime` even with time_based=0 ("whichever occurs first"), so a fill that inherits the
    // global runtime stops part-way on a large or slow disk and leaves blocks unwritten for the read probes.
    for (const s of [
      ...SPECS,
      { label: 'example', text: readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8'), opts: { runtimeSeconds: 5 } },
    ]) {
      for (const f of generateFioJobs(evaluated(s.text), s.opts)) {
        for (const job of jobsOf(f.text).filter((j) => j.name.startsWith('fill@'))) {
          assert.equal(job.options.get('time_based'), '0', `${s.label} ${job.name}`);
          assert.match(
            job.options.get('runtime') ?? '0',
            /^0[a-z]*$/,
            `${s.label} ${job.name}: runtime ${job.options.get('runtime')} would stop the fill`,
          );
          assert.ok(kib(job.options.get('size')) > 0, `${s.label} ${job.name}`);
        }
      }
    }
  });

  it('the suggested compare command quotes names the shell would split or expand', () => {
    const text = yaml('gcp', 'gcp-2024', [
      { name: "db one's $(reboot)", machine_type: 'n2-standard-4', disks: [{ name: 'd', type: 'pd-balanced', size: '100GiB' }] },
    ]);
    // The parser reports such a VM name, but the jobs are still generated for it; a spec's file name may hold anything.
    const [f] = generateFioJobs(analyze(text), { specName: 'my spec.perf.yaml' });
    const line = f.text.split('\n').find((l) => l.startsWith('#   storage-perf compare '))!;
    assert.equal(
      line,
      `#   storage-perf compare 'my spec.perf.yaml' --fio-result ${f.fileName.replace(/\.fio$/, '.json')} --vm 'db one'\\''s $(reboot)'`,
    );
    // and what sh makes of it: exactly the two names, unexpanded
    const words = spawnSync('sh', ['-c', `set -- ${line.slice('#   storage-perf compare '.length)}; printf '%s\\n' "$@"`], {
      encoding: 'utf8',
    }).stdout.split('\n');
    assert.equal(words[0], 'my spec.perf.yaml');
    assert.equal(words[4], "db one's $(reboot)");
  });

  it("local SSD follows Google's local SSD recipe: 4 KiB at iodepth 128, four jobs per device", () => {
    const a = evaluated(readFileSync(join(ROOT, 'examples/local-ssd-raid0.perf.yaml'), 'utf8'));
    const [f] = generateFioJobs(a);
    const count = a.vms[0].disks[0].spec.count!;
    for (const p of ['read-iops', 'write-iops']) {
      const job = jobsOf(f.text).find((j) => j.name.startsWith(`${p}@`))!;
      assert.equal(num(job, 'iodepth'), 128);
      assert.equal(num(job, 'numjobs'), Math.min(4 * count, a.vms[0].machine!.vcpus));
    }
    // No latency probe: the model has no latency figure for local SSD.
    assert.ok(!f.jobs.some((j) => j.probe?.endsWith('lat')));
  });

  it("bandwidth probes use the provider's large block: 1 MiB for Google, 4 MB for Yandex", () => {
    const yandex = SPECS.find((x) => x.label.startsWith('yandex'))!;
    const google = SPECS.find((x) => x.label.startsWith('gcp-2024 hyperdisk'))!;
    for (const [spec, bs] of [
      [yandex, '4m'],
      [google, '1m'],
    ] as const) {
      for (const f of generateFioJobs(evaluated(spec.text))) {
        for (const job of jobsOf(f.text).filter((j) => /-bw@/.test(j.name)))
          assert.equal(job.options.get('bs'), bs, `${spec.label} ${job.name}`);
      }
    }
  });

  it('every job carries its prediction and binding limit; the file its expected runtime', () => {
    for (const s of SPECS) {
      const a = evaluated(s.text);
      for (const f of generateFioJobs(a, s.opts)) {
        const lines = f.text.split('\n');
        for (const j of f.jobs) {
          const at = lines.indexOf(`[${j.name}]`);
          assert.ok(at > 0, j.name);
          // The comment block right above the section.
          let top = at;
          while (top > 0 && lines[top - 1].startsWith('#')) top--;
          const comment = lines
            .slice(top, at)
            .join('\n')
            .replace(/\n#\s+/g, ' ');
          const iops = j.predicted.read_iops + j.predicted.write_iops;
          assert.match(comment, new RegExp(`^# ${j.name.replace(/[.@-]/g, '\\$&')} — `), `${s.label}: ${j.name}`);
          assert.match(comment, /predicted: .*IOPS, .*MiB\/s at /, comment);
          assert.ok(comment.includes(`limited by ${j.predicted.limited_by}`), comment);
          if (iops > 0 && j.predicted.read_iops > 0 && j.predicted.write_iops === 0)
            assert.ok(
              comment.includes(`predicted: ${fmt(j.predicted.read_iops)} read IOPS, ${fmt(j.predicted.read_mibps, 1)} read MiB/s`),
              comment,
            );
          assert.match(comment, / takes: (about )?[\d.]+ (s|min)/);
        }
        const timed = f.jobs.filter((j) => j.kind !== 'fill').length;
        const runtime = s.opts?.runtimeSeconds ?? 60;
        assert.ok(f.expectedSeconds >= timed * runtime, `${s.label}: ${f.expectedSeconds} s for ${timed} jobs of ${runtime} s`);
        assert.match(f.text.replace(/\n#\s+/g, ' '), /# Expected runtime: about .*\d+ timed jobs? × /);
      }
    }
  });

  it('safe by default: a device in the spec is not used without fio_destructive or the destructive option', () => {
    const text = yaml('gcp', 'gcp-2024', [
      {
        name: 'vm',
        machine_type: 'n2-standard-8',
        disks: [{ name: 'data', type: 'pd-ssd', size: '500GiB', device: '/dev/sdb', mount_point: '/mnt/data' }],
      },
    ]);
    const a = evaluated(text);
    const [safe] = generateFioJobs(a);
    assert.equal(safe.destructive, false);
    assert.ok(!safe.text.split('\n').some((l) => !l.startsWith('#') && l.includes('/dev/')), safe.text);
    for (const job of jobsOf(safe.text)) assert.deepEqual(pathsOf(job), ['/mnt/data/storage-perf.fio-test']);
    assert.match(safe.text, /device \/dev\/sdb is not used: writing to it would destroy its data/);
    assert.doesNotMatch(safe.text, /DESTROYS THE DATA/);

    const [raw] = generateFioJobs(a, { destructive: true });
    assert.equal(raw.destructive, true);
    for (const job of jobsOf(raw.text)) assert.deepEqual(pathsOf(job), ['/dev/sdb']);
    // The seed's warning, at the top and above every job that writes.
    assert.match(raw.text, /DESTROYS THE DATA/);
    assert.match(
      raw.text.replace(/\n#\s*/g, ' '),
      /Running this command causes data loss on the second device\. We strongly recommend using a throwaway VM and disk\./,
    );
    const lines = raw.text.split('\n');
    for (const j of raw.jobs) {
      const at = lines.indexOf(`[${j.name}]`);
      const warned = lines[at - 1].startsWith('# WARNING: this job writes to /dev/sdb');
      assert.equal(warned, !/^(rand)?read$/.test(j.rw), `${j.name} (${j.rw})`);
    }
    // The same through the spec's own key.
    const [keyed] = generateFioJobs(evaluated(text.replace('device: "/dev/sdb"', 'device: "/dev/sdb"\n        fio_destructive: true')));
    assert.equal(keyed.destructive, true);
    assert.match(keyed.text, /^filename=\/dev\/sdb$/m);
  });

  it('the parser checks the fio keys where they are written', () => {
    const base = { name: 'vm', machine_type: 'n2-standard-4' };
    const diag = (d: Partial<Disk>) =>
      analyze(yaml('gcp', 'gcp-2024', [{ ...base, disks: [{ name: 'd', type: 'pd-ssd', size: '100GiB', ...d }] }]))
        .diagnostics.filter((x) => x.severity === 'error')
        .map((x) => x.message);
    assert.deepEqual(diag({ mount_point: '/mnt/d', device: '/dev/sdb', fio_destructive: true, fio_size: '1g' }), []);
    assert.ok(
      diag({ mount_point: '/dev/sdb' }).some((m) =>
        /mount_point is the absolute path of the disk's mount directory: outside \/dev/.test(m),
      ),
    );
    // fio expands ${VAR} in values, and '..' would put the test file outside the mount: errors, not a fall-back.
    assert.ok(diag({ mount_point: '/mnt/${HOME}' }).some((m) => /without '\$' or '\.\.'/.test(m)));
    assert.ok(diag({ mount_point: '/mnt/d/../../etc' }).some((m) => /without '\$' or '\.\.'/.test(m)));
    assert.ok(diag({ mount_point: 'data' }).some((m) => /mount_point is the absolute path/.test(m)));
    assert.ok(diag({ device: '/mnt/sdb' }).some((m) => /device is a block device path under \/dev/.test(m)));
    assert.ok(diag({ fio_size: '0' }).some((m) => /fio_size must be greater than zero/.test(m)));
  });

  it('property: no job opens a /dev/ path unless the disk or the caller allowed it; spec text never becomes a line of its own', () => {
    const nameArb = fc.oneof(
      fc.constantFrom('data', 'logs', 'global', 'a b', 'x]\n[evil]\nfilename=/dev/sda', '#; =', 'ünï', '..'),
      fc.string({ minLength: 1, maxLength: 12 }),
    );
    const mountArb = fc.option(
      fc.constantFrom(
        '/mnt/disks/data',
        '/data',
        'relative/dir',
        '/dev',
        '/dev/shm',
        '//dev//sdb',
        '/mnt/../dev/sdb',
        '/srv/a:b',
        '/srv/$HOME',
        '/srv/x\n[job]\nfilename=/dev/sda',
        '/mnt/./x/',
      ),
      { nil: undefined },
    );
    const deviceArb = fc.option(
      fc.constantFrom('/dev/sdb', '/dev/nvme0n1', '/dev/disk/by-id/google-data', '/dev/md0', 'sdb', '/tmp/not-a-device', '/dev/sd\nb'),
      { nil: undefined },
    );
    const typeArb = fc.constantFrom(
      { type: 'pd-ssd', size: '500GiB' },
      { type: 'pd-balanced', size: '100GiB' },
      { type: 'pd-standard', size: '1TiB' },
      { type: 'local-ssd', count: 2 },
      { type: 'hyperdisk-balanced', size: '200GiB', provisioned_iops: 6000, provisioned_throughput: '300MiB/s' },
    );
    const diskArb = fc.record({
      name: nameArb,
      t: typeArb,
      mount_point: mountArb,
      device: deviceArb,
      fio_destructive: fc.option(fc.boolean(), { nil: undefined }),
      fio_size: fc.option(fc.constantFrom('4m', '1g', '3000g'), { nil: undefined }),
    });
    const workloadArb = fc.record({
      name: nameArb,
      pattern: fc.constantFrom('random', 'sequential'),
      block_size: fc.constantFrom('4k', '8k', '64k', '1m', '1536'),
      read_ratio: fc.constantFrom(0, 0.3, 1),
      queue_depth: fc.option(fc.integer({ min: 1, max: 512 }), { nil: undefined }),
      onDisk: fc.boolean(),
    });
    let checked = 0;
    let raw = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(diskArb, { minLength: 1, maxLength: 3, selector: (d) => d.name }),
        fc.uniqueArray(workloadArb, { maxLength: 3, selector: (w) => w.name }),
        fc.boolean(),
        nameArb,
        (disks, workloads, destructiveOpt, vmName) => {
          const text = yaml('gcp', 'gcp-2024', [
            {
              name: vmName,
              machine_type: 'n2-standard-16',
              disks: disks.map((d) => ({
                name: d.name,
                ...d.t,
                mount_point: d.mount_point,
                device: d.device,
                fio_destructive: d.fio_destructive,
                fio_size: d.fio_size,
              })),
              workloads: workloads.map((w) => ({
                name: w.name,
                disk: w.onDisk ? disks[0].name : undefined,
                pattern: w.pattern,
                block_size: w.block_size,
                read_ratio: w.read_ratio,
                queue_depth: w.queue_depth,
              })),
            },
          ]);
          const a = analyze(text);
          const files = generateFioJobs(a, { destructive: destructiveOpt });
          for (const f of files) {
            const jobs = jobsOf(f.text);
            // Spec text (names, paths) stays inside comments: the sections are exactly the generated jobs.
            assert.deepEqual(
              jobs.map((j) => j.name),
              f.jobs.map((j) => j.name),
            );
            for (const job of jobs) {
              for (const p of pathsOf(job)) {
                if (!p.startsWith('/dev/') && p !== '/dev') continue;
                // The device of one of the disks the job tests, and that disk allowed it (or the caller did).
                const on = f.jobs.find((j) => j.name === job.name)!.disks;
                const disks = a.spec!.vms[0].disks.filter((d) => on.includes(d.name) && d.device === p);
                assert.ok(disks.length, `${job.name} opens ${p}, which is not the device of the disks it tests (${on.join(', ')})`);
                assert.ok(
                  destructiveOpt || disks.some((d) => d.fio_destructive === true),
                  `${job.name} opens ${p} without fio_destructive or the option`,
                );
                assert.ok(f.destructive && f.text.includes('DESTROYS THE DATA'), `${f.fileName} writes to ${p} without the warning`);
              }
            }
            if (f.destructive) raw++;
            else if (/device \/dev\/\S+ is not used/.test(f.text)) refused++;
            if (!f.destructive) assert.ok(!f.text.split('\n').some((l) => !l.startsWith('#') && /\/dev(\/|$)/.test(l)), f.text);
            checked++;
          }
        },
      ),
      { numRuns: 300 },
    );
    // Not vacuous: both sides of the rule were exercised.
    assert.ok(checked > 100 && raw > 10 && refused > 10, `${checked} files checked, ${raw} destructive, ${refused} with a device refused`);
  });
});
