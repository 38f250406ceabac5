/**
 * One limit over disks of different types (GCP persistent disks): after each type is held to its own per-VM
 * limit, the disks of the types the catalog's `limit_across_types` names together stay within the limit of the
 * fastest of those types the machine supports. A disk alone is held to it; disks whose figures exceed it together
 * have it stated once; disks whose workloads run at once share it as any per-VM limit (./vm-share).
 */
import { attaches, describeRow, limitValue, vmLimitRow, type Catalog, type Machine } from '../catalog';
import { fmt } from '../units';
import type { DiskEval } from './types';
import { capAlone, capTogether, exceeds, SHARE_METRICS, unitOf, type LimitMode } from './vm-share';

export function applyLimitAcrossTypes(c: Catalog, machine: Machine, disks: DiskEval[], mode: LimitMode): void {
  const rule = c.limit_across_types;
  if (!rule) return;
  // Most VMs have disks of fewer than two of these types: found without building the group's lists.
  let first: string | undefined;
  let several = false;
  for (const d of disks)
    if (rule.types.includes(d.typeName)) {
      first ??= d.typeName;
      if (d.typeName !== first) several = true;
    }
  if (!several) return;
  const group = disks.filter((d) => rule.types.includes(d.typeName));
  const types = [...new Set(group.map((d) => d.typeName))];
  const fastest = rule.types.find((t) => attaches(machine, t) && vmLimitRow(c, machine, t));
  if (!fastest) return;
  const found = vmLimitRow(c, machine, fastest)!;
  for (const m of SHARE_METRICS) {
    const cap = limitValue(found.row[m], machine.vcpus);
    if (cap === undefined || !exceeds(group, m, cap)) continue;
    const unit = unitOf(m);
    const limit = () =>
      `${machine.name} limit ${fmt(cap)} ${unit} across persistent disk types (${types.join(', ')}): ${fastest}'s row, the fastest type ${machine.name} supports (${c.edition}: ${found.table.table}, row ${describeRow(found.row)}; ${rule.table})`;
    if (mode.alone) {
      capAlone(mode.shared, group, m, cap, 'vm', { unit, limit });
      continue;
    }
    capTogether(group, m, cap, 'vm', (_, __, shareWhy) => `${limit()}; shared by the disks whose workloads run at once${shareWhy(unit)}`);
  }
}
