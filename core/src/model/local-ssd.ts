/**
 * Local SSD on a machine with fewer vCPUs than the provider documents for its figures: the table's figures stay
 * (they are the provider's), but they are marked as not reached on this machine, say why in their sentence, and a
 * target on them is not met.
 */
import { ownLocalSsdFigures, type Catalog, type DeviceDiskType, type Machine } from '../catalog';
import type { DiskSpec } from '../document/types';
import { fmt } from '../units';
import { bound, METRICS, setFigure, type DiskEval, type DiskFigures, type Metric, type SourcedBound } from './types';
import { figuresOfBounds } from './figures';

/** GiB of one local SSD device on this machine: the machine type's own (Titanium SSD: 3,000 GiB on Z3), else the type's. */
export function localSsdDeviceGib(t: DeviceDiskType, m: Machine | undefined): number {
  return m?.local_ssd?.device_gib ?? t.device_gib;
}

/**
 * The figures of a machine type's own local SSD devices where the provider gives them per machine type (Titanium
 * SSD), in place of the disk type's device table; undefined where it does not (../catalog/machine-rows.ts).
 */
export function ownDeviceFigures(c: Catalog, m: Machine | undefined, d: DiskSpec): DiskFigures | undefined {
  const n = d.count ?? 1;
  const own = ownLocalSsdFigures(m, n);
  if (!own) return undefined;
  const { row, table, performance } = own;
  const out = {} as Record<Metric, SourcedBound>;
  for (const k of METRICS) {
    const unit = k.endsWith('iops') ? 'IOPS' : 'MiB/s';
    const disks = `${n} ${performance.media ?? 'local SSD'} disk${n === 1 ? '' : 's'} of ${fmt(table.device_gib)} GiB`;
    out[k] = bound(row[k], 'devices', () => `${disks} on ${m!.name}: ${fmt(row[k])} ${unit} (${c.edition}: ${performance.table})`);
  }
  return figuresOfBounds(out);
}

/**
 * The vCPUs the provider documents for the figures of n devices: its fewest for the series where it gives one
 * (N2: 24, whatever the count), else the vCPUs per device its benchmarks used; undefined when it says neither.
 */
export function localSsdVcpusNeeded(
  c: Catalog,
  t: DeviceDiskType,
  m: Machine,
  n: number,
): { need: number; why: string; source: string } | undefined {
  const per = t.vcpus_per_device;
  const full = t.full_performance_vcpus;
  const row = full?.rows.find((r) => r.series.includes(m.series));
  const byDevice = per ? per.min * n : Infinity;
  // `why` for the figure's sentence (the whole table); `source` for a finding, which names the table only.
  if (row && row.min_vcpus <= byDevice)
    return {
      need: row.min_vcpus,
      why: `${m.series.toUpperCase()} reaches them with at least ${row.min_vcpus} vCPUs (${c.edition}: ${full!.table})`,
      source: `${c.edition}: ${full!.table.split(':')[0]}`,
    };
  if (per)
    return {
      need: byDevice,
      why: `they were measured with ${per.min}–${per.max} vCPUs per device (${c.edition}: ${per.table})`,
      source: `measured with ${per.min}–${per.max} per device, ${c.edition}: ${per.table.split(':')[0]}`,
    };
  return undefined;
}

/** Marks the local SSD disks whose figures the machine's vCPUs do not reach. */
export function markUnreachedDevices(c: Catalog, machine: Machine, disks: DiskEval[]): void {
  for (const d of disks) {
    if (d.type.model !== 'devices') continue;
    // Figures the provider gives for this very machine type (Titanium SSD) are reached on it.
    if (ownLocalSsdFigures(machine, d.spec.count ?? 1)) continue;
    const needed = localSsdVcpusNeeded(c, d.type, machine, d.spec.count ?? 1);
    if (!needed || machine.vcpus >= needed.need) continue;
    d.vcpusNeeded = { ...needed, machine: machine.name, vcpus: machine.vcpus };
    for (const m of METRICS) {
      const cur = d.figures.bound(m);
      setFigure(
        d,
        m,
        bound(cur.value, cur.by, () => `${cur.why}; not reached on ${machine.name}, which has ${machine.vcpus} vCPUs: ${needed.why}`),
      );
    }
  }
}
