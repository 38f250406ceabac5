/**
 * One limit over disks of different types (GCP persistent disks): after each type is held to its own per-VM
 * limit, the disks of the types the catalog's `limit_across_types` names together stay within the limit of the
 * fastest of those types the machine supports; over it, each disk gets its proportional share.
 */
import { attaches, describeRow, limitValue, vmLimitRow, type Catalog, type Machine } from '../catalog';
import { fmt } from '../units';
import { bound, METRICS, type DiskEval } from './types';

export function applyLimitAcrossTypes(c: Catalog, machine: Machine, disks: DiskEval[]): void {
  const rule = c.limit_across_types;
  if (!rule) return;
  const group = disks.filter((d) => rule.types.includes(d.typeName));
  const types = [...new Set(group.map((d) => d.typeName))];
  if (types.length < 2) return;
  const fastest = rule.types.find((t) => attaches(machine, t) && vmLimitRow(c, machine, t));
  if (!fastest) return;
  const found = vmLimitRow(c, machine, fastest)!;
  for (const m of [...METRICS, 'write_iops_16k'] as const) {
    const cap = limitValue(found.row[m], machine.vcpus);
    if (cap === undefined) continue;
    const total = group.reduce((s, d) => s + (d.figures[m]?.value ?? 0), 0);
    if (total <= cap + 1e-9) continue;
    const unit = m.endsWith('iops') || m === 'write_iops_16k' ? 'IOPS' : 'MiB/s';
    for (const d of group) {
      const cur = d.figures[m];
      if (!cur) continue;
      d.figures[m] = bound(
        cur.value * (cap / total),
        'vm',
        () =>
          `${machine.name} limit ${fmt(cap)} ${unit}, shared by the disks of different types (${types.join(', ')}): ${fastest}'s row, the fastest type ${machine.name} supports (${c.edition}: ${found.table.table}, row ${describeRow(found.row)}; ${rule.table})`,
      );
    }
  }
}
