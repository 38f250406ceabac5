/**
 * A machine, as a VM runs on it, and one object for each (./machines `resolveMachine`, ./larger-machines): the per-VM
 * limit rows and the larger machines are kept with a machine object (./index `vmLimitRow`, `largerMachines`).
 */
import type { Catalog, FixedLocalSsd, MachineSeries } from './types';

export interface Machine {
  series: string;
  family?: string;
  vcpus: number;
  /** The machine type's name, or `<series> with N vCPUs` for series+vcpus specs. */
  name: string;
  info: MachineSeries;
  /** The suffix the type carries ('lssd', 'metal'), without its dash. */
  suffix?: string;
  /** Local SSDs that come with the machine type (c3-standard-8-lssd: 2 × 375 GiB); absent when none do. */
  local_ssd?: FixedLocalSsd;
  /** The predefined type whose per-VM limit rows apply, where that is not `name` (e2-custom-medium-4096: e2-medium). */
  limits_as?: string;
  /** A custom machine's memory and whether it uses extended memory. */
  custom?: { memory_mib: number; extended: boolean };
  controller?: 'scsi' | 'nvme'; // the disk controller whose limits apply (Azure Ebsv5: they differ)
}

/** The most machines each memo keeps (an editor sees a new name at every keystroke); then it starts again. */
export const MACHINE_MEMO_LIMIT = 4096;

/**
 * One object for each machine, resolved by its name or found as a larger one from any other: the limits rows and the
 * larger machines are kept with a machine object (./index `vmLimitRow`, `largerMachines`), and a search asks them of
 * the larger machines of every machine it starts from. Made anew each time, an AWS series' largest size was up to
 * eleven objects, and `evaluate` of 10,000 AWS VMs looked each row up 3.7 times (21,692 lookups of 5,897 rows).
 * Machines are never changed once made, so sharing them is safe.
 */
export function shared(m: Machine): Machine {
  let made = sharedMachines.get(m.info);
  if (!made) sharedMachines.set(m.info, (made = new Map()));
  // Every field a larger machine is made with but `info` (the map's key) and `local_ssd` (which `info` and the name give).
  const key = [m.series, m.family, m.vcpus, m.name, m.suffix, m.limits_as, m.custom?.memory_mib, m.custom?.extended, m.controller].join(
    '\u0000',
  );
  const found = made.get(key);
  if (found) return found;
  if (made.size >= MACHINE_MEMO_LIMIT) made.clear();
  made.set(key, m);
  return m;
}
const sharedMachines = new WeakMap<MachineSeries, Map<string, Machine>>();

/**
 * Values kept with a machine of a catalog, by a key of the caller's: what is asked of the same machine again and again
 * (its per-VM limit rows, its price by region, the rows' bounds a search reads). A machine is one object for each
 * (`shared`), so the values live as long as it does; by catalog too, as a user's catalog may reuse a machine's rows.
 */
export class MachineMemo<V> {
  private readonly byCatalog = new WeakMap<Catalog, WeakMap<Machine, Map<string, V>>>();

  /** The values kept for machine `m` of catalog `c`: an empty map on first use. */
  on(c: Catalog, m: Machine): Map<string, V> {
    let byMachine = this.byCatalog.get(c);
    if (!byMachine) this.byCatalog.set(c, (byMachine = new WeakMap()));
    let kept = byMachine.get(m);
    if (!kept) byMachine.set(m, (kept = new Map()));
    return kept;
  }
}
