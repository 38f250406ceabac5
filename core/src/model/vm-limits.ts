/**
 * The machine's limits on its disks, in the order they apply: its per-VM limit for each disk type (or one limit
 * over several types, AWS's per-instance EBS limit), Google's limit across persistent disk types, local SSD on
 * too few vCPUs, then network egress on writes. One pass per question (./vm-share `LimitMode`): each disk alone,
 * with the limits several disks exceed stated once; or the disks that carry workloads, sharing them.
 * The tables' IOPS and throughput limits are on reads and writes together; the disk types' shared mix rule
 * applies that when a workload mixes them.
 */
import { describeRow, limitValue, vmLimitGroup, vmLimitRow, type Catalog, type Machine, type VmLimitRow } from '../catalog';
import type { VmSpec } from '../document/types';
import { fmt } from '../units';
import { applyLimitAcrossTypes } from './across-types';
import { applyEgress } from './egress';
import { markUnreachedDevices } from './local-ssd';
import type { DiskEval, EgressInfo } from './types';
import { capAlone, capTogether, exceeds, SHARE_METRICS, unitOf, type LimitMode } from './vm-share';

export function applyMachineLimits(c: Catalog, machine: Machine, vm: VmSpec, disks: DiskEval[], mode: LimitMode): EgressInfo | undefined {
  applyVmLimits(c, machine, disks, mode);
  applyLimitAcrossTypes(c, machine, disks, mode);
  markUnreachedDevices(c, machine, disks);
  return applyEgress(c, machine, vm, disks, mode);
}

/** Each disk type's per-VM limit (or one limit over several types): the disks of the group under it. */
function applyVmLimits(c: Catalog, machine: Machine, disks: DiskEval[], mode: LimitMode): void {
  // The groups in the order their first disk comes, as a Map kept them: two lists, not a Map and its iterator's
  // entries (a VM has disks of a few types; this runs for every candidate a search evaluates).
  const keys: string[] = [];
  const groups: DiskEval[][] = [];
  for (const d of disks) {
    if (d.type.model === 'devices') continue;
    const key = vmLimitGroup(c, machine, d.typeName);
    const at = keys.indexOf(key);
    if (at >= 0) groups[at].push(d);
    else {
      keys.push(key);
      groups.push([d]);
    }
  }
  for (let g = 0; g < keys.length; g++) {
    const typeName = keys[g];
    const group = groups[g];
    const found = vmLimitRow(c, machine, group[0].typeName);
    if (!found) continue;
    if (mode.alone) for (const d of group) d.vmLimitKnown = !found.row.upper_bound_of;
    for (const m of SHARE_METRICS) {
      const cap = limitValue(found.row[m], machine.vcpus);
      // Most caps do not bind: the sentence's parts and the list of members only for one that does.
      if (cap === undefined || !exceeds(group, m, cap)) continue;
      // The sentence's parts are made when it is read: a search evaluates many configurations and explains few.
      const unit = unitOf(m);
      const limit = () => `${limitName(machine, typeName, found.row)}: ${fmt(cap)} ${unit}`;
      const source = () => `(${c.edition}: ${found.table.table}, row ${describeRow(found.row)})`;
      if (mode.alone) {
        capAlone(mode.shared, group, m, cap, 'vm', { unit, limit: () => `${limit()} ${source()}` });
        continue;
      }
      // The disks of the group with this figure are counted when the sentence is read (a figure is replaced, never
      // removed, so the count holds).
      capTogether(group, m, cap, 'vm', (_, __, shareWhy) => {
        let n = 0;
        for (const d of group) if (d.figures[m] !== undefined) n++;
        const shared = n > 1 ? `, shared by ${n} ${typeName} disks whose workloads run at once` : '';
        return `${limit()}${shared}${shareWhy(unit)} ${source()}`;
      });
    }
  }
}

/** "n2-standard-8 limit for pd-ssd", or for a machine without a row of its own, whose row stands in as an upper bound. */
function limitName(machine: Machine, typeName: string, row: VmLimitRow): string {
  return row.upper_bound_of
    ? `${machine.name} limit for ${typeName} unknown, at most ${row.upper_bound_of}'s row: ${machine.name}'s own limit is not published`
    : `${machine.name} limit for ${typeName}`;
}
