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
  type ScaledDiskType,
} from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { fmt } from '../units';
import { tierFigures } from './tiers';
import { diskCost } from './cost';
import { localSsdDeviceGib, ownDeviceFigures } from './local-ssd';
import { addInstanceStoreDisks } from './instance-store';
import { unitFigures } from './allocation-units';
import { provisionedFigures } from './provisioned';
import { applyMachineLimits } from './vm-limits';
import { bound, METRICS, type DiskEval, type EgressInfo, type Metric, type SharedLimit, type SourcedBound } from './types';
import { DiskFigures, figuresOfBounds, type FigureKey, type FigureSource } from './figures';
import { setWorkloadDemands, unitOf } from './vm-share';
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

function capRow(row: LimitRow | undefined, m: FigureKey, vcpus = 1): number | undefined {
  return row ? limitValue(row[m], vcpus) : undefined;
}

function scaledFigures(c: Catalog, t: ScaledDiskType, d: DiskSpec, size: number, groupSize: number, groupCount: number): DiskFigures {
  // One source for every figure's sentence; each figure is then set once, by the limit that sets it.
  const x = new ScaledSource(c, t, d, size, size / groupSize, groupCount);
  const f = new DiskFigures(x);
  for (const m of METRICS) x.rule(m, f);
  if (t.disk_max.write_iops_16k !== undefined) x.rule('write_iops_16k', f);
  return f;
}

/** Which rule sets a scaled disk's figure: its per-GiB rate (with its baseline share), the floor, or a maximum. */
const RATE = 0;
const FLOOR = 1;
const REGIONAL = 2;
const MAX = 3;

/** What a scaled disk's figures come from, and each one's sentence, made on read from the same data. */
class ScaledSource implements FigureSource {
  constructor(
    private readonly c: Catalog,
    private readonly t: ScaledDiskType,
    private readonly d: DiskSpec,
    private readonly size: number,
    /** The disk's part of the type's baseline per VM. */
    private readonly share: number,
    /** Disks of the type on the VM (sharing its baseline). */
    private readonly groupCount: number,
  ) {}
  private rate(m: FigureKey): number {
    const r = this.t.rates;
    return m === 'read_iops'
      ? r.read_iops_per_gib
      : m === 'read_mibps'
        ? r.read_mibps_per_gib
        : m === 'write_mibps'
          ? r.write_mibps_per_gib
          : r.write_iops_per_gib;
  }
  private base(m: FigureKey): number {
    const r = this.t.rates;
    return (m === 'read_mibps' || m === 'write_mibps' ? r.baseline_mibps : r.baseline_iops) ?? 0;
  }
  /**
   * The rule that sets figure `m`: the per-GiB rate (with the disk's share of a baseline), at least the type's floor
   * whatever the size (AWS gp2: 100 IOPS, 25 MiB/s), at most its regional or per-disk maximum. With `f`, the figure
   * is set on it too: one decision for the figure and for its sentence.
   */
  rule(m: FigureKey, f?: DiskFigures): number {
    const r = this.t.rates;
    const value = this.rate(m) * this.size + this.base(m) * this.share;
    const min = m === 'read_mibps' || m === 'write_mibps' ? r.min_mibps : r.min_iops;
    const floored = min !== undefined && value < min;
    const cur = floored ? min : value;
    const regional = this.d.replication === 'regional' ? capRow(this.t.regional_max, m) : undefined;
    if (regional !== undefined && regional < cur) {
      f?.set(m, regional, 'disk');
      return REGIONAL;
    }
    const cap = capRow(this.t.disk_max, m);
    if (cap !== undefined && cap < cur) {
      f?.set(m, cap, 'disk');
      return MAX;
    }
    f?.set(m, cur, 'size');
    return floored ? FLOOR : RATE;
  }
  explainFigure(m: FigureKey, value: number): string {
    const { c, t, size, share, groupCount } = this;
    const unit = unitOf(m);
    switch (this.rule(m)) {
      case REGIONAL:
        return `regional ${t.label} maximum ${fmt(value)} ${unit} (${cite(c, t.regional_max!)})`;
      case MAX:
        return `${t.label} maximum ${fmt(value)} ${unit} (${cite(c, t.disk_max)})`;
      case FLOOR:
        // A type given only as ranges: its floor is the top of the range, an upper bound.
        if (t.figure_range)
          return `${t.label}: at most ${fmt(value)} ${unit}, the top of its ${t.figure_range.words} (${cite(c, t.figure_range)})`;
        return `${t.label} minimum ${fmt(value)} ${unit} (at ${fmt(size)} GiB, under the per-GiB rate) (${cite(c, t.rates)})`;
      default: {
        const b = this.base(m);
        const basePart = b
          ? groupCount > 1
            ? ` + ${fmt(b * share)} (its ${fmt(share * 100)}% share of the ${fmt(b)} ${unit} baseline per VM)`
            : ` + ${fmt(b)} ${unit} baseline`
          : '';
        return `${this.rate(m)} ${unit} per GiB × ${fmt(size)} GiB${basePart} = ${fmt(value)} ${unit} (${cite(c, t.rates)})`;
      }
    }
  }
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
  const out = {} as Record<Metric, SourcedBound>;
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
    return figuresOfBounds(out);
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
  return figuresOfBounds(out);
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
