/**
 * Specs generated from the catalogs themselves, for the invariant suite (./invariants.test.ts): every edition,
 * every machine it knows, every disk type the machine attaches, sizes and provisioned figures across their
 * allowed ranges (and, now and then, just outside them), 1–4 disks and 0–3 workloads per VM, targets reachable
 * and not, regions with and without prices, and anchors with merge keys. Each generated spec is a plain record
 * (`GenSpec`) written out as YAML the way a user would write it, so that a failure shrinks to a small spec.
 */
import fc from 'fast-check';
import {
  attaches,
  BUILTIN_CATALOGS,
  INSTANCE_STORE,
  instanceStoreOf,
  machineTypeNames,
  unstatedInstanceStoreOf,
  resolveMachine,
  vcpuChoices,
  type Catalog,
  type DiskType,
  type Machine,
} from '../../core/src';

export interface GenDisk {
  name: string;
  type: string;
  /** GiB, as the spec means it; spelled by `sizeSpelling`. */
  size?: number;
  sizeSpelling?: 'GiB' | 'bare' | 'TiB';
  replication?: 'zonal' | 'regional';
  provisioned_iops?: number;
  provisioned_throughput?: number;
  count?: number;
  interface?: string;
  /** The generator put a value outside the range the catalog allows: the product must say so. */
  outOfRange?: string;
}
export interface GenWorkload {
  name: string;
  disk?: string;
  pattern: 'random' | 'sequential';
  block_size: string;
  read_ratio: number;
  queue_depth?: number;
  target?: Record<string, number | string>;
}
export interface GenVm {
  name: string;
  machine_type?: string;
  series?: string;
  vcpus?: number;
  other_egress_mibps?: number;
  disks: GenDisk[];
  workloads: GenWorkload[];
  /** Written as a merge of the first VM's first disk (`<<: *d`) plus its own name: the same content. */
  mergedDisks?: number[];
}
export interface GenSpec {
  edition: string;
  provider: string;
  region?: string;
  min_headroom?: number;
  vms: GenVm[];
}

export const CATALOGS: readonly Catalog[] = BUILTIN_CATALOGS;

/** Every region any price table of the catalog names, and one it never names (no prices at all). */
export function regionsOf(c: Catalog): string[] {
  const out = new Set<string>([c.default_region]);
  const add = (o: object | undefined) => o && Object.keys(o).forEach((r) => out.add(r));
  for (const t of Object.values(c.disk_types)) {
    add(t.price?.per_gib_month);
    add(t.price?.per_iops_month);
    add(t.price?.per_mibps_month);
  }
  for (const s of Object.values(c.machine_prices?.series ?? {})) add(s.per_vcpu_hour);
  return [...out].sort();
}

interface MachineChoice {
  machine: Machine;
  spelled: { machine_type?: string; series?: string; vcpus?: number };
}

/** Every machine the catalog offers, as a spec would name it. */
export function machinesOf(c: Catalog): MachineChoice[] {
  const out: MachineChoice[] = [];
  const names = machineTypeNames(c);
  for (const { name } of names) {
    const r = resolveMachine(c, { machine_type: name });
    if (r.ok) out.push({ machine: r.machine, spelled: { machine_type: name } });
  }
  if (!names.length) {
    for (const [series, info] of Object.entries(c.machine_series)) {
      for (const vcpus of vcpuChoices(info)) {
        const r = resolveMachine(c, { series, vcpus });
        if (r.ok) out.push({ machine: r.machine, spelled: { series, vcpus } });
      }
    }
  }
  return out;
}

const BLOCK_SIZES = ['4k', '8KiB', '16k', '64k', '128KiB', '256k', '1m', '4MiB'];
const RATIOS = [0, 0.3, 0.5, 0.7, 0.9, 1];

/** A value in [min, max], mostly log-spread, with the ends themselves now and then. */
const inRange = (min: number, max: number): fc.Arbitrary<number> =>
  max <= min
    ? fc.constant(min)
    : fc
        .oneof(
          { weight: 1, arbitrary: fc.constantFrom(min, max) },
          {
            weight: 4,
            arbitrary: fc.double({ min: Math.log(Math.max(min, 1)), max: Math.log(max), noNaN: true }).map((x) => Math.round(Math.exp(x))),
          },
        )
        .map((v) => Math.min(max, Math.max(min, v)));

function sizeArb(t: DiskType): fc.Arbitrary<{ size: number; outOfRange?: string }> {
  const unit = t.model === 'allocation-units' && t.whole_units ? t.unit_gib : (t.size_gib.step ?? 1);
  const lo = Math.ceil(t.size_gib.min / unit);
  const hi = Math.floor(t.size_gib.max / unit);
  const ok = inRange(lo, hi).map((n) => ({ size: n * unit }));
  const outside: Array<{ size: number; outOfRange: string }> = [{ size: hi * unit + unit, outOfRange: 'size above the maximum' }];
  if (t.size_gib.min - 1 > 0) outside.push({ size: t.size_gib.min - 1, outOfRange: 'size below the minimum' });
  return fc.oneof({ weight: 19, arbitrary: ok }, { weight: 1, arbitrary: fc.constantFrom(...outside) });
}

export function diskArb(c: Catalog, m: Machine, name: string): fc.Arbitrary<GenDisk> {
  const types = Object.keys(c.disk_types).filter((t) => attaches(m, t));
  // An instance store with IOPS figures, or one the provider lists without them (a disk with no figures).
  if (instanceStoreOf(c, m) || unstatedInstanceStoreOf(c, m)) types.push(INSTANCE_STORE);
  return fc.constantFrom(...types).chain((type): fc.Arbitrary<GenDisk> => {
    if (type === INSTANCE_STORE) return fc.constant({ name, type });
    const t = c.disk_types[type];
    if (t.model === 'devices') {
      const counts = t.counts.length ? t.counts : [1];
      return fc.record({
        name: fc.constant(name),
        type: fc.constant(type),
        count: fc.constantFrom(...counts),
        interface: fc.constantFrom(...Object.keys(t.interfaces)),
      });
    }
    return fc
      .record({
        sized: sizeArb(t),
        spelling: fc.constantFrom<'GiB' | 'bare' | 'TiB'>('GiB', 'GiB', 'bare', 'TiB'),
        replication: t.replication?.length ? fc.option(fc.constantFrom(...t.replication), { nil: undefined }) : fc.constant(undefined),
        iops: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        mibps: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      })
      .map(({ sized, spelling, replication, iops, mibps }) => {
        const d: GenDisk = { name, type, size: sized.size, outOfRange: sized.outOfRange };
        d.sizeSpelling = spelling === 'TiB' && sized.size % 1024 !== 0 ? 'GiB' : spelling;
        if (replication) d.replication = replication;
        if (t.model === 'provisioned') {
          const p = t.provisioned;
          const pick = (r: typeof p.iops, u: number | undefined) => {
            if (!r || u === undefined) return undefined;
            const max = Math.max(r.min, Math.min(r.max, r.max_per_gib ? Math.max(r.max_per_gib * sized.size, r.max_at_least ?? 0) : r.max));
            const min = Math.min(max, Math.max(r.min, r.min_per_gib ? r.min_per_gib * sized.size : r.min));
            return Math.round(min + (max - min) * u * u);
          };
          d.provisioned_iops = pick(p.iops, iops);
          d.provisioned_throughput = pick(p.mibps, mibps);
        }
        return d;
      });
  });
}

function targetArb(): fc.Arbitrary<Record<string, number | string> | undefined> {
  const iops = fc.double({ min: Math.log(50), max: Math.log(2e6), noNaN: true }).map((x) => Math.round(Math.exp(x)));
  const mibps = fc.double({ min: Math.log(5), max: Math.log(20000), noNaN: true }).map((x) => Math.round(Math.exp(x)));
  return fc.oneof(
    fc.constant(undefined),
    iops.map((v) => ({ iops: v })),
    mibps.map((v) => ({ throughput: `${v}MiB/s` })),
    fc.tuple(iops, iops).map(([r, w]) => ({ read_iops: r, write_iops: w })),
    mibps.map((v) => ({ write_throughput: `${v}MiB/s` })),
  );
}

function workloadArb(name: string, disks: string[]): fc.Arbitrary<GenWorkload> {
  return fc.record(
    {
      name: fc.constant(name),
      disk: fc.option(fc.constantFrom(...disks), { nil: undefined }),
      pattern: fc.constantFrom<'random' | 'sequential'>('random', 'sequential'),
      block_size: fc.constantFrom(...BLOCK_SIZES),
      read_ratio: fc.constantFrom(...RATIOS),
      queue_depth: fc.option(fc.constantFrom(1, 4, 16, 32, 64, 256), { nil: undefined }),
      target: targetArb(),
    },
    { requiredKeys: ['name', 'pattern', 'block_size', 'read_ratio'] },
  );
}

function vmArb(c: Catalog, machines: MachineChoice[], name: string): fc.Arbitrary<GenVm> {
  return fc
    .constantFrom(...machines)
    .chain(({ machine, spelled }) =>
      fc.integer({ min: 1, max: 4 }).chain((nDisks) => {
        const names = Array.from({ length: nDisks }, (_, i) => `d${i}`);
        return fc.record({
          name: fc.constant(name),
          spelled: fc.constant(spelled),
          other: fc.option(fc.constantFrom(0, 50, 300, 1200), { nil: undefined }),
          disks: fc.tuple(...names.map((n) => diskArb(c, machine, n))),
          workloads: fc
            .integer({ min: 0, max: 3 })
            .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => workloadArb(`w${i}`, names)))),
        });
      }),
    )
    .map((r) => ({ name: r.name, ...r.spelled, other_egress_mibps: r.other, disks: r.disks, workloads: r.workloads }));
}

/** A spec of one edition: 1–3 VMs, sometimes a region, a headroom policy, and disks written as merges of another. */
export function specArb(c: Catalog): fc.Arbitrary<GenSpec> {
  const machines = machinesOf(c);
  const regions = regionsOf(c);
  return fc.integer({ min: 1, max: 3 }).chain((nVms) =>
    fc
      .record({
        region: fc.option(fc.constantFrom(...regions), { nil: undefined }),
        min_headroom: fc.option(fc.constantFrom(0.1, 0.2, 0.5), { nil: undefined }),
        vms: fc.tuple(...Array.from({ length: nVms }, (_, i) => vmArb(c, machines, `vm${i}`))),
        merge: fc.boolean(),
      })
      .map(({ region, min_headroom, vms, merge }) => {
        const spec: GenSpec = { edition: c.edition, provider: c.provider, region, min_headroom, vms };
        if (merge) withMerges(c, spec);
        return spec;
      }),
  );
}

/**
 * Disks of later VMs that are the first VM's first disk again (same type, size, settings) are written as a
 * merge of its anchor: real specs share disk definitions this way. Only where the later VM attaches the type.
 */
function withMerges(c: Catalog, spec: GenSpec): void {
  const base = spec.vms[0].disks[0];
  if (base.type === INSTANCE_STORE) return;
  for (const vm of spec.vms.slice(1)) {
    const r = resolveMachine(c, vm);
    if (!r.ok || !attaches(r.machine, base.type)) continue;
    vm.disks[0] = { ...base, name: vm.disks[0].name };
    vm.mergedDisks = [0];
  }
}

const quote = (v: number | string) => (typeof v === 'number' ? String(v) : v);

function sizeText(d: GenDisk): string {
  if (d.sizeSpelling === 'bare') return String(d.size);
  if (d.sizeSpelling === 'TiB') return `${d.size! / 1024}TiB`;
  return `${d.size}GiB`;
}

function diskLines(d: GenDisk, indent: string, withName = true): string[] {
  const out: string[] = [];
  if (withName) out.push(`name: ${d.name}`);
  out.push(`type: ${d.type}`);
  if (d.size !== undefined) out.push(`size: ${sizeText(d)}`);
  if (d.replication) out.push(`replication: ${d.replication}`);
  if (d.provisioned_iops !== undefined) out.push(`provisioned_iops: ${d.provisioned_iops}`);
  if (d.provisioned_throughput !== undefined) out.push(`provisioned_throughput: ${d.provisioned_throughput}MiB/s`);
  if (d.count !== undefined) out.push(`count: ${d.count}`);
  if (d.interface !== undefined) out.push(`interface: ${d.interface}`);
  return out.map((l) => indent + l);
}

/** The spec as a user would write it. */
export function toYaml(s: GenSpec): string {
  const l: string[] = ['version: 1', `provider: ${s.provider}`, `catalog: ${s.edition}`];
  if (s.region) l.push(`region: ${s.region}`);
  if (s.min_headroom !== undefined) l.push('policy:', `  min_headroom: ${s.min_headroom * 100}%`);
  l.push('vms:');
  const anchored = s.vms.some((v) => v.mergedDisks?.length);
  s.vms.forEach((vm, vi) => {
    l.push(`  - name: ${vm.name}`);
    if (vm.machine_type) l.push(`    machine_type: ${vm.machine_type}`);
    if (vm.series) l.push(`    series: ${vm.series}`, `    vcpus: ${vm.vcpus}`);
    if (vm.other_egress_mibps !== undefined) l.push(`    other_egress: ${vm.other_egress_mibps}MiB/s`);
    l.push('    disks:');
    vm.disks.forEach((d, di) => {
      if (vi === 0 && di === 0 && anchored) {
        l.push(`      - &d0`);
        l.push(...diskLines(d, '        '));
      } else if (vm.mergedDisks?.includes(di)) {
        l.push(`      - <<: *d0`, `        name: ${d.name}`);
      } else {
        const lines = diskLines(d, '        ');
        l.push(`      - ${lines[0].trimStart()}`, ...lines.slice(1));
      }
    });
    if (vm.workloads.length) {
      l.push('    workloads:');
      for (const w of vm.workloads) {
        l.push(`      - name: ${w.name}`);
        if (w.disk) l.push(`        disk: ${w.disk}`);
        l.push(`        pattern: ${w.pattern}`, `        block_size: ${w.block_size}`, `        read_ratio: ${w.read_ratio}`);
        if (w.queue_depth !== undefined) l.push(`        queue_depth: ${w.queue_depth}`);
        if (w.target) {
          l.push('        target:');
          for (const [k, v] of Object.entries(w.target)) l.push(`          ${k}: ${quote(v)}`);
        }
      }
    }
  });
  return l.join('\n') + '\n';
}

/** Whether the generator meant the spec to be outside what the catalog allows somewhere. */
export function hasOutOfRange(s: GenSpec): boolean {
  return s.vms.some((v) => v.disks.some((d) => d.outOfRange));
}
