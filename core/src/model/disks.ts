/**
 * Disk figures on a VM: what each disk delivers by itself (size, provisioning, devices, allocation units), then
 * held to the machine's limits (./vm-limits): its per-VM limit for the disk's type, a limit across types, the
 * network egress cap on writes. Each disk's figures are what it delivers while the VM's other disks are idle; a
 * limit several disks exceed together is stated once for the VM (./vm-share).
 */
import {
  limitValue,
  localSsdRefusal,
  refusedSize,
  unmodelledOn,
  type Catalog,
  type DeviceDiskType,
  type LimitRow,
  type Machine,
  type ProvisionedDiskType,
  type ScaledDiskType,
} from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { fmt } from '../units';
import { tierFigures } from './tiers';
import { diskCost } from './cost';
import { localSsdDeviceGib, ownDeviceFigures } from './local-ssd';
import { addInstanceStoreDisks } from './instance-store';
import { unitFigures } from './allocation-units';
import { provisionedValue } from './provisioned';
import { setWorkloadDemands } from './vm-share';
import { applyMachineLimits } from './vm-limits';
import {
  bound,
  ExplainedBound,
  METRICS,
  type Bound,
  type DiskEval,
  type DiskFigures,
  type EgressInfo,
  type Metric,
  type SharedLimit,
} from './types';
import { withoutInheritance } from '../own-keys';

/** Advice and the core's index import the units from here. */
export { allocationUnits } from './allocation-units';

const UNIT: Record<Metric, string> = { read_iops: 'IOPS', write_iops: 'IOPS', read_mibps: 'MiB/s', write_mibps: 'MiB/s' };
const LABEL: Record<Metric, string> = {
  read_iops: 'read IOPS',
  write_iops: 'write IOPS',
  read_mibps: 'read throughput',
  write_mibps: 'write throughput',
};

const cite = (c: Catalog, t: { table: string; source?: string }) => `${c.edition}: ${t.table}`;

export function metricLabel(m: Metric): string {
  return LABEL[m];
}
export function metricUnit(m: Metric): string {
  return UNIT[m];
}

/** The size a disk's performance comes from, or undefined when it cannot be evaluated. */
export function effectiveSize(c: Catalog, d: DiskSpec, machine?: Machine): number | undefined {
  const t = c.disk_types[d.type];
  if (!t) return undefined;
  if (t.model === 'devices') return (d.count ?? 1) * localSsdDeviceGib(t, machine);
  return d.size_gib;
}

function capRow(row: LimitRow | undefined, m: Metric | 'write_iops_16k', vcpus = 1): number | undefined {
  return row ? limitValue(row[m], vcpus) : undefined;
}

function scaledFigures(c: Catalog, t: ScaledDiskType, d: DiskSpec, size: number, groupSize: number, groupCount: number): DiskFigures {
  const r = t.rates;
  // One object for what every figure's sentence needs; each figure is then made once, as the limit that sets it.
  const x: Scaled = { c, t, d, size, share: size / groupSize, groupCount };
  const f: DiskFigures = {
    read_iops: scaledFigure(x, 'read_iops', r.read_iops_per_gib, r.baseline_iops, r.min_iops),
    write_iops: scaledFigure(x, 'write_iops', r.write_iops_per_gib, r.baseline_iops, r.min_iops),
    read_mibps: scaledFigure(x, 'read_mibps', r.read_mibps_per_gib, r.baseline_mibps, r.min_mibps),
    write_mibps: scaledFigure(x, 'write_mibps', r.write_mibps_per_gib, r.baseline_mibps, r.min_mibps),
  };
  if (t.disk_max.write_iops_16k !== undefined)
    f.write_iops_16k = scaledFigure(x, 'write_iops_16k', r.write_iops_per_gib, r.baseline_iops, r.min_iops);
  return f;
}

interface Scaled {
  c: Catalog;
  t: ScaledDiskType;
  d: DiskSpec;
  size: number;
  /** The disk's part of the type's baseline per VM. */
  share: number;
  /** Disks of the type on the VM (sharing its baseline). */
  groupCount: number;
}

/**
 * A figure of a disk sized for performance: the per-GiB rate (with the disk's share of a baseline), at least the
 * type's floor whatever the size (AWS gp2: 100 IOPS, 25 MiB/s), at most its regional or per-disk maximum.
 */
function scaledFigure(x: Scaled, m: Metric | 'write_iops_16k', rate: number, base: number | undefined, min: number | undefined): Bound {
  const b = base ?? 0;
  const value = rate * x.size + b * x.share;
  const floored = min !== undefined && value < min;
  const cur = floored ? min : value;
  const regional = x.d.replication === 'regional' ? capRow(x.t.regional_max, m) : undefined;
  if (regional !== undefined && regional < cur) return new ScaledBound(regional, 'disk', x, m, 'regional', rate, b);
  const cap = capRow(x.t.disk_max, m);
  if (cap !== undefined && cap < cur) return new ScaledBound(cap, 'disk', x, m, 'max', rate, b);
  return new ScaledBound(cur, 'size', x, m, floored ? 'floor' : 'rate', rate, b);
}

/** A scaled disk's figure, explained on read by the limit that sets it. */
class ScaledBound extends ExplainedBound {
  constructor(
    value: number,
    by: Bound['by'],
    private readonly x: Scaled,
    private readonly m: Metric | 'write_iops_16k',
    private readonly kind: 'rate' | 'floor' | 'regional' | 'max',
    private readonly rate: number,
    private readonly base: number,
  ) {
    super(value, by);
  }
  protected explain(): string {
    const { c, t, size, share, groupCount } = this.x;
    const unit = UNIT[this.m === 'write_iops_16k' ? 'write_iops' : this.m];
    const b = this.base;
    switch (this.kind) {
      case 'regional':
        return `regional ${t.label} maximum ${fmt(this.value)} ${unit} (${cite(c, t.regional_max!)})`;
      case 'max':
        return `${t.label} maximum ${fmt(this.value)} ${unit} (${cite(c, t.disk_max)})`;
      case 'floor':
        // A type given only as ranges: its floor is the top of the range, an upper bound.
        if (t.figure_range)
          return `${t.label}: at most ${fmt(this.value)} ${unit}, the top of its ${t.figure_range.words} (${cite(c, t.figure_range)})`;
        return `${t.label} minimum ${fmt(this.value)} ${unit} (at ${fmt(size)} GiB, under the per-GiB rate) (${cite(c, t.rates)})`;
      case 'rate': {
        const basePart = b
          ? groupCount > 1
            ? ` + ${fmt(b * share)} (its ${fmt(share * 100)}% share of the ${fmt(b)} ${unit} baseline per VM)`
            : ` + ${fmt(b)} ${unit} baseline`
          : '';
        return `${this.rate} ${unit} per GiB × ${fmt(size)} GiB${basePart} = ${fmt(this.value)} ${unit} (${cite(c, t.rates)})`;
      }
    }
  }
}

function provisionedFigures(c: Catalog, t: ProvisionedDiskType, d: DiskSpec, size: number): DiskFigures {
  const p = t.provisioned;
  let iops: Bound | undefined;
  let mibps: Bound | undefined;
  if (p.iops) {
    const v = provisionedValue(p.iops, d.provisioned_iops, size);
    iops = bound(
      v,
      'provisioned',
      () => `${d.provisioned_iops !== undefined ? 'provisioned' : 'default provisioned'} ${fmt(v)} IOPS (${cite(c, p)})`,
    );
  }
  if (p.mibps) {
    const v = provisionedValue(p.mibps, d.provisioned_mibps, size);
    mibps = bound(
      v,
      'provisioned',
      () => `${d.provisioned_mibps !== undefined ? 'provisioned' : 'default provisioned'} ${fmt(v)} MiB/s (${cite(c, p)})`,
    );
  }
  if (!mibps && iops && p.mibps_per_iops) {
    const v = iops.value * p.mibps_per_iops;
    const from = iops;
    mibps = bound(
      v,
      'provisioned',
      () => `${p.mibps_per_iops} MiB/s per provisioned IOPS × ${fmt(from.value)} = ${fmt(v)} MiB/s (${cite(c, p)})`,
    );
  }
  if (!iops && mibps && p.iops_per_mibps) {
    const v = mibps.value * p.iops_per_mibps;
    const from = mibps;
    iops = bound(
      v,
      'provisioned',
      () => `${p.iops_per_mibps} IOPS per provisioned MiB/s × ${fmt(from.value)} = ${fmt(v)} IOPS (${cite(c, p)})`,
    );
  }
  mibps = throughputByIops(c, t, iops, mibps);
  return {
    read_iops: atMost(c, t, 'read_iops', iops),
    write_iops: atMost(c, t, 'write_iops', iops),
    read_mibps: atMost(c, t, 'read_mibps', mibps),
    write_mibps: atMost(c, t, 'write_mibps', mibps),
  };
}

/** A provisioned figure held to the type's maximum (the maximum itself where nothing is provisioned). */
function atMost(c: Catalog, t: ProvisionedDiskType, m: Metric, b: Bound | undefined): Bound {
  const cap = capRow(t.disk_max, m)!;
  if (b && !(cap !== undefined && cap < b.value)) return b;
  return bound(cap, 'disk', () => `${t.label} maximum ${fmt(cap)} ${UNIT[m]} (${cite(c, t.disk_max)})`);
}

/**
 * Throughput that IOPS set or cap (AWS): io1's tiers (0.25 MiB/s per IOPS up to 500 MiB/s, then 16 KiB per
 * IOPS), and gp3's ceiling of 0.25 MiB/s per provisioned IOPS on provisioned throughput (never under its minimum).
 */
function throughputByIops(c: Catalog, t: ProvisionedDiskType, iops: Bound | undefined, mibps: Bound | undefined): Bound | undefined {
  const p = t.provisioned;
  if (!iops) return mibps;
  const tiers = p.mibps_per_iops_tiers;
  if (!mibps && tiers?.length) {
    const tier = tiers.find((x) => iops.value <= x.up_to_iops) ?? tiers[tiers.length - 1];
    const v = Math.min(iops.value * tier.mibps_per_iops, tier.max_mibps);
    return bound(
      v,
      'provisioned',
      () =>
        `${tier.mibps_per_iops} MiB/s per provisioned IOPS × ${fmt(iops.value)}, at most ${fmt(tier.max_mibps)} MiB/s up to ${fmt(tier.up_to_iops)} IOPS = ${fmt(v)} MiB/s (${cite(c, p)})`,
    );
  }
  const ratio = p.mibps_max_per_iops;
  if (mibps && ratio !== undefined) {
    const cap = Math.max(iops.value * ratio, p.mibps?.min ?? 0);
    if (cap < mibps.value)
      return bound(
        cap,
        'provisioned',
        () => `at most ${ratio} MiB/s per provisioned IOPS × ${fmt(iops.value)} = ${fmt(cap)} MiB/s (${cite(c, p)})`,
      );
  }
  return mibps;
}

const IFACE_LABEL: Record<string, string> = withoutInheritance({ nvme: 'NVMe', scsi: 'SCSI' });

/** A device table's rows by device count, sorted once per table (they are catalog data, never changed). */
function byCount<R extends { count: number }>(rows: R[]): R[] {
  let sorted = sortedRows.get(rows) as R[] | undefined;
  if (!sorted) sortedRows.set(rows, (sorted = [...rows].sort((a, b) => a.count - b.count)));
  return sorted;
}
const sortedRows = new WeakMap<object[], object[]>();

function deviceFigures(c: Catalog, t: DeviceDiskType, d: DiskSpec): DiskFigures {
  const n = d.count ?? 1;
  const ifaceName = d.interface ?? 'nvme';
  const iface = t.interfaces[ifaceName] ?? Object.values(t.interfaces)[0];
  const out = {} as DiskFigures;
  if (iface.by_count?.length) {
    const rows = byCount(iface.by_count);
    const row = rows.find((r) => r.count >= n) ?? rows[rows.length - 1];
    // More devices than the table's largest row: held to that row, and said so (never "up to" a smaller count).
    const which =
      row.count < n
        ? `held to the row for ${row.count} devices, the largest the table gives`
        : `row for ${row.count === n ? '' : 'up to '}${row.count} device${row.count === 1 ? '' : 's'}`;
    for (const m of METRICS) {
      out[m] = bound(
        row[m],
        'devices',
        () =>
          `${n} ${IFACE_LABEL[ifaceName] ?? ifaceName} device${n === 1 ? '' : 's'} of ${t.device_gib} GiB: ${which}, ${fmt(row[m])} ${UNIT[m]} (${cite(c, iface)})`,
      );
    }
    return out;
  }
  const gib = n * t.device_gib;
  for (const m of METRICS) {
    const rate = iface.rates![`${m}_per_gib` as keyof typeof iface.rates] as number;
    const v = rate * gib;
    const cap = iface.max?.[m];
    out[m] =
      cap !== undefined && cap < v
        ? bound(cap, 'devices', () => `local SSD ${ifaceName.toUpperCase()} maximum ${fmt(cap ?? 0)} ${UNIT[m]} (${cite(c, iface)})`)
        : bound(
            v,
            'devices',
            () =>
              `${n} ${ifaceName.toUpperCase()} device${n === 1 ? '' : 's'} × ${t.device_gib} GiB × ${rate} ${UNIT[m]} per GiB = ${fmt(v)} ${UNIT[m]} (${cite(c, iface)})`,
          );
  }
  return out;
}

/**
 * A disk's own figures at a size, before any machine's limit, with the whole of its type's baseline (as if no other
 * disk of the type shared it): figures no VM lets it pass but through the host cache (../advice/rows bounds the
 * searches with them). Undefined for local SSD and the instance store, whose figures depend on the machine.
 */
export function ownFigures(c: Catalog, d: DiskSpec, size: number): DiskFigures | undefined {
  const t = c.disk_types[d.type];
  switch (t?.model) {
    case 'scaled':
      return scaledFigures(c, t, d, size, size, 1);
    case 'provisioned':
      return provisionedFigures(c, t, d, size);
    case 'allocation-units':
      return unitFigures(c, t, size);
    case 'tiers':
      return tierFigures(c, t, d, size);
    default:
      return undefined;
  }
}

/** Disks that can be evaluated: known type, modelled on this machine, and a size (or a device count). */
export function evaluableDisks(c: Catalog, vm: VmSpec, machine?: Machine): DiskSpec[] {
  return vm.disks.filter((d) => {
    if (d.invalid !== undefined) return false;
    const t = c.disk_types[d.type];
    const size = effectiveSize(c, d, machine);
    // A size (or a local SSD count) the provider refuses makes a disk that cannot exist: no figures for it.
    if (t?.model === 'devices' && machine && localSsdRefusal(c, machine, t, d.count ?? 1)) return false;
    return t && !unmodelledOn(t, machine) && size !== undefined && size > 0 && !refusedSize(t, size, d.replication);
  });
}

/** The baseline group of a disk without a baseline (one empty list for them all). */
const NO_GROUP: readonly string[] = [];

export function evaluateDisks(
  c: Catalog,
  vm: VmSpec,
  machine: Machine | undefined,
  region: string,
): { disks: DiskEval[]; egress?: EgressInfo; sharedLimits?: SharedLimit[] } {
  const specs = evaluableDisks(c, vm, machine);
  // One baseline per disk type per VM (gcp-2024): sizes of a type are pooled.
  const groups = new Map<string, { size: number; members: string[] }>();
  for (const d of specs) {
    const group = groups.get(d.type);
    if (group) {
      group.size += effectiveSize(c, d, machine)!;
      group.members.push(d.name);
    } else groups.set(d.type, { size: effectiveSize(c, d, machine)!, members: [d.name] });
  }
  const disks: DiskEval[] = specs.map((d) => {
    const t = c.disk_types[d.type];
    const size = effectiveSize(c, d, machine)!;
    let figures: DiskFigures;
    switch (t.model) {
      case 'scaled':
        figures = scaledFigures(c, t, d, size, groups.get(d.type)!.size, groups.get(d.type)!.members.length);
        break;
      case 'provisioned':
        figures = provisionedFigures(c, t, d, size);
        break;
      case 'devices':
        figures = ownDeviceFigures(c, machine, d) ?? deviceFigures(c, t, d);
        break;
      case 'allocation-units':
        figures = unitFigures(c, t, size);
        break;
      case 'tiers':
        figures = tierFigures(c, t, d, size);
        break;
    }
    const baselined = t.model === 'scaled' && (t.rates.baseline_iops || t.rates.baseline_mibps);
    return {
      spec: d,
      typeName: d.type,
      type: t,
      size_gib: size,
      figures,
      // The same object until a limit sets a figure (setFigure): most disks keep their own figures.
      diskOnly: figures,
      cost: diskCost(c, t, d, size, region, machine?.series),
      baselineGroup: baselined ? groups.get(d.type)!.members : NO_GROUP,
      vmLimitKnown: t.model === 'devices',
      // Present from the start, set later or never: every disk has one shape, whichever parts it gets.
      throughputUnknown: undefined,
      demand: undefined,
      burst: undefined,
      vcpusNeeded: undefined,
      sharesLimitWith: undefined,
    };
  });

  // The machine's instance store: AWS's IOPS for it, no throughput (./instance-store).
  if (machine) addInstanceStoreDisks(c, machine, vm, disks);
  setWorkloadDemands(c, vm, disks, machine);
  if (!machine) return { disks };
  // Each disk alone under the machine's limits; the limits several disks exceed together, stated once.
  const sharedLimits: SharedLimit[] = [];
  const egress = applyMachineLimits(c, machine, vm, disks, { alone: true, shared: sharedLimits });
  return { disks, egress, sharedLimits: sharedLimits.length ? sharedLimits : undefined };
}
