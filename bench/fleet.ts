/**
 * Fleets of distinct VMs, the benchmarks' default input: what users run, not replicas. Each VM is drawn, with a
 * seeded generator, from the newest edition of a provider (gcp-2024, aws-2025, yandex-2025): a machine of any
 * series (each series as likely as another), 2–4 disks of the types that machine attaches (provisioned types
 * with and without their amounts written, local SSD and instance store where the machine takes them) and 1–3
 * workloads. No two VMs of a fleet have the same content (their text but the name). About half the VMs have a
 * workload whose target the VM cannot meet: its target is set above what the model says the VM reaches without
 * one; every other target is set below it.
 */
import {
  attaches,
  BUILTIN_CATALOGS,
  EvaluationCache,
  evaluateVm,
  INSTANCE_STORE,
  instanceStoreOf,
  localSsdRefusal,
  machineTypeNames,
  parseSpec,
  resolveMachine,
  vcpuChoices,
  type Catalog,
  type DiskType,
  type Machine,
  type WorkloadEval,
} from '../core/src';

export const FLEET_EDITIONS = ['gcp-2024', 'aws-2025', 'yandex-2025'] as const;
export type FleetEdition = (typeof FLEET_EDITIONS)[number];

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same fleet on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const between = (r: Rand, lo: number, hi: number) => lo + (hi - lo) * r();
/** Log-uniform in [lo, hi]. */
const logBetween = (r: Rand, lo: number, hi: number) => Math.exp(between(r, Math.log(Math.max(lo, 1)), Math.log(Math.max(hi, 1))));

interface Choice {
  machine: Machine;
  lines: string[];
}

/** The edition's machines as a spec names them, grouped by series. */
function machinesBySeries(c: Catalog): Choice[][] {
  const by = new Map<string, Choice[]>();
  const add = (r: ReturnType<typeof resolveMachine>, lines: string[]) => {
    if (!r.ok) return;
    const list = by.get(r.machine.series) ?? [];
    list.push({ machine: r.machine, lines });
    by.set(r.machine.series, list);
  };
  const names = machineTypeNames(c);
  for (const { name } of names) add(resolveMachine(c, { machine_type: name }), [`    machine_type: ${name}`]);
  if (!names.length)
    for (const [series, info] of Object.entries(c.machine_series))
      for (const vcpus of vcpuChoices(info)) add(resolveMachine(c, { series, vcpus }), [`    series: ${series}`, `    vcpus: ${vcpus}`]);
  return [...by.values()];
}

/** A size of the type in its range, log-spread between its minimum (at least 10 GiB) and 16 TiB, on its step. */
function sizeOf(r: Rand, t: DiskType): number {
  // Allocation units: sizes of whole units mostly (the provider's figures step by unit), now and then not.
  const units = t.model === 'allocation-units' && (t.whole_units || r() < 0.8);
  const unit = units ? t.unit_gib : (t.size_gib.step ?? 1);
  const lo = Math.ceil(Math.max(t.size_gib.min, 10) / unit);
  const hi = Math.floor(Math.min(t.size_gib.max, 16384) / unit);
  return Math.max(lo, Math.min(hi, Math.round(logBetween(r, lo, hi)))) * unit;
}

/** One disk's lines (after `- name: …`), or undefined when the type cannot be attached as drawn. */
function diskLines(r: Rand, c: Catalog, m: Machine, type: string): string[] | undefined {
  if (type === INSTANCE_STORE) return [`        type: ${INSTANCE_STORE}`];
  const t = c.disk_types[type];
  if (t.model === 'devices') {
    const counts = (t.counts.length ? t.counts : [1]).filter((n) => !localSsdRefusal(c, m, t, n));
    const fixed = m.local_ssd?.count;
    const n = fixed ?? (counts.length ? pick(r, counts) : undefined);
    if (n === undefined) return undefined;
    return [`        type: ${type}`, `        count: ${n}`, `        interface: ${pick(r, Object.keys(t.interfaces))}`];
  }
  const size = sizeOf(r, t);
  const out = [`        type: ${type}`, `        size: ${size}GiB`];
  if (t.replication?.includes('regional') && r() < 0.15) out.push('        replication: regional');
  // Provisioned amounts written 60 % of the time, IOPS always where the type has no default (io1, io2).
  const required = t.model === 'provisioned' && t.provisioned.iops !== undefined && t.provisioned.iops.default === undefined;
  if (t.model === 'provisioned' && (required || r() < 0.6)) {
    const amount = (p: { min: number; max: number; max_per_gib?: number; max_at_least?: number; min_per_gib?: number } | undefined) => {
      if (!p) return undefined;
      const hi = Math.max(p.min, Math.min(p.max, p.max_per_gib ? Math.max(p.max_per_gib * size, p.max_at_least ?? 0) : p.max));
      const lo = Math.min(hi, Math.max(p.min, p.min_per_gib ? p.min_per_gib * size : p.min));
      return Math.round(logBetween(r, lo, hi));
    };
    const iops = amount(t.provisioned.iops);
    const mibps = r() < 0.5 ? amount(t.provisioned.mibps) : undefined;
    if (iops !== undefined) out.push(`        provisioned_iops: ${iops}`);
    if (mibps !== undefined) out.push(`        provisioned_throughput: ${mibps}MiB/s`);
  }
  return out;
}

interface DrawnWorkload {
  lines: string[];
  /** The target's key and how to read what the VM reaches for it. */
  key: 'iops' | 'read_iops' | 'write_iops' | 'throughput' | 'write_throughput';
}

function workloadLines(r: Rand, name: string, disk: string, onInstanceStore: boolean): DrawnWorkload {
  const sequential = !onInstanceStore && r() < 0.4;
  const block = sequential ? pick(r, ['256KiB', '1MiB', '4MiB']) : onInstanceStore ? '4KiB' : pick(r, ['4KiB', '8KiB', '16KiB', '64KiB']);
  const ratio = pick(r, [0, 0.3, 0.5, 0.7, 0.9, 1]);
  const lines = [`      - name: ${name}`, `        disk: ${disk}`, `        pattern: ${sequential ? 'sequential' : 'random'}`];
  lines.push(`        block_size: ${block}`, `        read_ratio: ${ratio}`);
  if (r() < 0.7) lines.push(`        queue_depth: ${pick(r, [4, 8, 16, 32, 64, 128, 256])}`);
  const key: DrawnWorkload['key'] = sequential
    ? ratio === 0
      ? 'write_throughput'
      : 'throughput'
    : ratio === 1
      ? 'read_iops'
      : ratio === 0
        ? 'write_iops'
        : 'iops';
  return { lines, key };
}

function reached(w: WorkloadEval | undefined, key: DrawnWorkload['key']): number {
  if (!w) return 0;
  if (key === 'read_iops') return w.read_iops;
  if (key === 'write_iops') return w.write_iops;
  if (key === 'throughput') return w.read_mibps + w.write_mibps;
  if (key === 'write_throughput') return w.write_mibps;
  return w.read_iops + w.write_iops;
}

interface DrawnVm {
  head: string[];
  disks: string[];
  workloads: DrawnWorkload[];
}

/** A VM without targets: machine, 2–4 disks, 1–3 workloads each on one of its disks. */
function drawVm(r: Rand, c: Catalog, series: Choice[][]): DrawnVm {
  for (;;) {
    const { machine, lines } = pick(r, pick(r, series));
    const types = Object.keys(c.disk_types).filter(
      (t) => attaches(machine, t) && !c.disk_types[t].unmodelled_on?.series.includes(machine.series),
    );
    if (instanceStoreOf(c, machine)) types.push(INSTANCE_STORE);
    if (!types.length) continue;
    const disks: string[] = [];
    const names: string[] = [];
    const store = new Set<string>();
    const n = 2 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) {
      let type = pick(r, types);
      // One local SSD set and one instance store per VM: a machine has one of each.
      if ((type === INSTANCE_STORE || c.disk_types[type]?.model === 'devices') && disks.some((l) => l === `        type: ${type}`))
        type = pick(r, types.filter((t) => t !== INSTANCE_STORE && c.disk_types[t]?.model !== 'devices').concat(type));
      if ((type === INSTANCE_STORE || c.disk_types[type]?.model === 'devices') && disks.some((l) => l === `        type: ${type}`))
        continue;
      const d = diskLines(r, c, machine, type);
      if (!d) continue;
      const name = `d${names.length}`;
      if (type === INSTANCE_STORE) store.add(name);
      names.push(name);
      disks.push(`      - name: ${name}`, ...d);
    }
    if (!names.length) continue;
    const nw = 1 + Math.floor(r() * 3);
    const workloads = Array.from({ length: nw }, (_, i) => {
      const disk = pick(r, names);
      return workloadLines(r, `w${i}`, disk, store.has(disk));
    });
    return { head: lines, disks, workloads };
  }
}

function vmText(name: string, vm: DrawnVm, targets: Array<number | undefined>): string[] {
  const out = [`  - name: ${name}`, ...vm.head, '    disks:', ...vm.disks, '    workloads:'];
  vm.workloads.forEach((w, i) => {
    out.push(...w.lines);
    const t = targets[i];
    if (t === undefined) return;
    const unit = w.key.endsWith('throughput') ? 'MiB/s' : '';
    out.push('        target:', `          ${w.key}: ${t}${unit}`);
  });
  return out;
}

export interface Fleet {
  edition: FleetEdition;
  /** The spec's text. */
  text: string;
  vms: number;
  /** VMs with a workload whose target the model says it misses (with every target in place). */
  unmet: number;
}

/** The first lines of a spec of the edition. */
export function fleetHead(edition: FleetEdition): string[] {
  return ['version: 1', `provider: ${edition.split('-')[0]}`, `catalog: ${edition}`, 'vms:'];
}

/**
 * `n` distinct VMs of `edition` as a spec, seeded; the VMs are named `${prefix}N`. About half of them get a target
 * they miss (a workload's target 1.3–4× what it reaches without one); the others' targets are 0.3–0.9× of it.
 */
export function distinctFleet(edition: FleetEdition, n: number, seed = 1, prefix = 'vm'): Fleet {
  const c = BUILTIN_CATALOGS.find((x) => x.edition === edition)!;
  const r = seeded(seed * 7919 + FLEET_EDITIONS.indexOf(edition));
  const series = machinesBySeries(c);
  const seen = new Set<string>();
  const drawn: DrawnVm[] = [];
  while (drawn.length < n) {
    const vm = drawVm(r, c, series);
    const content = vmText('', vm, []).join('\n');
    if (seen.has(content)) continue;
    seen.add(content);
    drawn.push(vm);
  }
  // What each workload reaches without a target, from the model; then the targets around it.
  const untargeted = parseSpec([...fleetHead(edition), ...drawn.flatMap((v, i) => vmText(`${prefix}${i}`, v, []))].join('\n') + '\n');
  const specVms = untargeted.spec!.vms;
  const lines = [...fleetHead(edition)];
  drawn.forEach((vm, i) => {
    const e = evaluateVm(c, specVms[i], c.default_region);
    const miss = r() < 0.5 ? Math.floor(r() * vm.workloads.length) : -1;
    const targets = vm.workloads.map((w, k) => {
      const reach = reached(e.workloads[k], w.key);
      const factor = k === miss ? between(r, 1.3, 4) : between(r, 0.3, 0.9);
      return Math.max(1, Math.round((reach > 0 ? reach : logBetween(r, 100, 50000)) * factor));
    });
    lines.push(...vmText(`${prefix}${i}`, vm, targets));
  });
  const text = lines.join('\n') + '\n';
  const parsed = parseSpec(text).spec!;
  const unmet = parsed.vms.filter((v) => evaluateVm(c, v, c.default_region).workloads.some((w) => w.meets_target === false)).length;
  return { edition, text, vms: n, unmet };
}

/**
 * The evaluation cache's hit rate on these specs, as `evaluate` (one cache for its run: `shared`) or the language
 * server (one cache per document) has it: the same cache, keyed and filled the same way, with the evaluations
 * alone (a hit or miss does not depend on the checks).
 */
export function evaluationHitRate(texts: string[], shared: boolean): number {
  let cache = new EvaluationCache();
  let hits = 0,
    asked = 0;
  for (const text of texts) {
    if (!shared) cache = new EvaluationCache();
    const spec = parseSpec(text).spec!;
    const c = BUILTIN_CATALOGS.find((x) => x.edition === spec.catalog)!;
    const region = spec.region ?? c.default_region;
    const before = cache.hits + cache.misses,
      hitsBefore = cache.hits;
    for (const vm of spec.vms) cache.evaluation(cache.key(c, vm.region ?? region, vm), vm, () => evaluateVm(c, vm, vm.region ?? region));
    hits += cache.hits - hitsBefore;
    asked += cache.hits + cache.misses - before;
  }
  return asked ? hits / asked : 0;
}

/** A hit rate as the benchmarks print it. */
export const percent = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The editions' fleets of `n` VMs each, one after another: `n` is per edition. */
export function distinctFleets(n: number, seed = 1): Fleet[] {
  return FLEET_EDITIONS.map((e) => distinctFleet(e, n, seed));
}

/**
 * Distinct VMs of gcp-2024 up to the first VM boundary at `lines` lines (the editor benchmarks' spec); with
 * `comments`, a comment line before each VM, as real specs have them.
 */
export function distinctSpecOfLines(lines: number, comments = false): { text: string; vms: number } {
  const all = distinctFleet('gcp-2024', Math.ceil(lines / 20) + 1).text.split('\n');
  const out: string[] = [];
  let vms = 0;
  for (const line of all) {
    if (line.startsWith('  - name: ')) {
      if (out.length >= lines) break;
      if (comments) out.push(`  # vm${vms}: owned by team-${vms % 13}, sized in OPS-${1000 + vms}`);
      vms++;
    }
    if (line) out.push(line);
  }
  return { text: out.join('\n') + '\n', vms };
}
