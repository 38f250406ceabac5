/**
 * Instance store (AWS `type: instance-store`): the volumes that come with an instance type. AWS documents their
 * random read and write IOPS (all volumes together, at one block size) and no throughput. The disk gets those
 * IOPS as its figures and no throughput: `throughputUnknown` says why, and its throughput figures are not
 * numbers anyone may read as a limit (the report gives null). A workload is evaluated on it only where the IOPS
 * AWS states are the ones it needs: on that disk alone, at blocks no larger than the table's, and without a
 * throughput target; other workloads on it are left out, with the reason.
 */
import { INSTANCE_STORE, instanceStoreOf, type Catalog, type DeviceDiskType, type Machine } from '../catalog';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import { fmt } from '../units';
import { bound, cost, type DiskEval } from './types';
import { figuresOfBounds } from './figures';
import { diskSpecsNamed } from './lookups';

/** Why a disk of this kind has no throughput figure (the report's explanation, the hover's line). */
export const NO_THROUGHPUT = 'AWS gives no throughput for instance store: unknown';

/**
 * Adds the VM's instance-store disks to `disks`, in the spec's order, each with the machine's IOPS figures; none
 * where the machine has no instance store. One by one: no lists of them when the VM has none, as most have not.
 */
export function addInstanceStoreDisks(c: Catalog, machine: Machine, vm: VmSpec, disks: Array<Pick<DiskEval, 'spec' | 'cost'>>): void {
  for (const d of vm.disks)
    if (d.type === INSTANCE_STORE && !c.disk_types[d.type]) {
      const store = instanceStoreDisk(c, machine, d);
      if (store) disks.push(store);
    }
}

/** The machine's instance store as a disk with IOPS figures; undefined when the machine has none in the edition. */
export function instanceStoreDisk(c: Catalog, machine: Machine, d: DiskSpec): DiskEval | undefined {
  const store = instanceStoreOf(c, machine);
  const table = c.instance_store;
  if (!store || !table) return undefined;
  const s = store.row;
  const at = store.blockKib ? ` at ${fmt(store.blockKib)} KiB` : '';
  const type: DeviceDiskType = {
    label: `Instance store (${s.media})`,
    model: 'devices',
    size_gib: { min: store.sizeGib, max: store.sizeGib },
    device_gib: store.sizeGib / s.devices,
    counts: [s.devices],
    // AWS states 100 % read and 100 % write IOPS only: a mix is held to both together, the cautious reading.
    mix: {
      iops: 'shared',
      throughput: 'shared',
      source: 'assumption',
      table:
        'AWS states instance store IOPS for 100 % random reads and 100 % random writes only; a mix is counted against both together (the cautious reading)',
      date: table.date,
    },
    network_writes: false,
    replicated: false,
    interfaces: {},
  };
  const where = () => `${machine.name}'s instance store, ${s.devices} × ${fmt(s.device_gb)} GB ${s.media}`;
  const iops = (v: number, dir: string) =>
    bound(v, 'devices', () => `${where()}: ${fmt(v)} random ${dir} IOPS${at}, all volumes together (${store.cited})`);
  const unknown = () => bound(Infinity, 'devices', () => NO_THROUGHPUT);
  const figures = figuresOfBounds({
    read_iops: iops(s.read_iops, 'read'),
    write_iops: iops(s.write_iops, 'write'),
    read_mibps: unknown(),
    write_mibps: unknown(),
  });
  return {
    spec: d,
    typeName: INSTANCE_STORE,
    type,
    size_gib: store.sizeGib,
    figures,
    diskOnly: figures, // the same object until a limit sets a figure (setFigure)
    cost: cost(
      0,
      false,
      () => `part of ${machine.name}'s price: its instance store, ${s.devices} × ${fmt(s.device_gb)} GB ${s.media} (${store.cited})`,
    ),
    baselineGroup: [],
    vmLimitKnown: true,
    throughputUnknown: NO_THROUGHPUT,
    // The other disks' shape (./disks): each part present, set later or never.
    demand: undefined,
    burst: undefined,
    vcpusNeeded: undefined,
    sharesLimitWith: undefined,
  };
}

/**
 * Why a workload is not evaluated on an instance store with IOPS figures, or undefined when it is: it must run on
 * that disk alone, at blocks no larger than the size AWS states the IOPS at, and want no throughput.
 */
export function instanceStoreSkip(c: Catalog, vm: VmSpec, w: WorkloadSpec): string | undefined {
  const on = w.disk === undefined ? vm.disks : diskSpecsNamed(vm, w.disk);
  if (!on.some((d) => d.type === INSTANCE_STORE)) return undefined;
  if (on.length > 1) return 'it spreads over the instance store, which has no throughput figure, and other disks';
  const block = c.instance_store?.block_kib;
  if (block === undefined) return `${c.edition} does not say at what block size the instance store IOPS hold`;
  if (w.block_kib > block + 1e-9) return `AWS states instance store IOPS at ${fmt(block)} KiB only, and it uses larger blocks`;
  const t = w.target;
  if (t.mibps !== undefined || t.read_mibps !== undefined || t.write_mibps !== undefined)
    return 'it has a throughput target, and AWS gives no throughput for instance store';
  return undefined;
}
