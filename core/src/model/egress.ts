/**
 * Network egress on disk writes: writes to network disks leave the VM over its network, multiplied by their
 * replication; the machine's egress cap, less other egress, caps them together.
 */
import { egressGbps, type Catalog, type Machine } from '../catalog';
import type { VmSpec } from '../document/types';
import { fmt, gbpsToMibps } from '../units';
import type { DiskEval, EgressInfo } from './types';
import { capTogether, exceeds } from './vm-share';

/** A type that exists only replicated (Hyperdisk Balanced High Availability) writes to two zones whatever the spec says. */
function replicationOf(d: DiskEval): 'zonal' | 'regional' {
  return d.type.replication?.length === 1 ? d.type.replication[0] : d.spec.replication;
}

/**
 * Disk writes leave the VM over its network: replicas and overhead multiply them, and other egress
 * competes, though disk writes keep their guaranteed share of the cap. The writers share it as they share a
 * per-VM limit: what their workloads' targets ask first (./vm-share), counted in network MiB/s.
 */
export function applyEgress(c: Catalog, machine: Machine, vm: VmSpec, disks: DiskEval[]): EgressInfo | undefined {
  const gbps = egressGbps(c, machine);
  if (!c.egress || gbps === undefined) return undefined;
  const e = c.egress;
  const capMibps = gbpsToMibps(gbps);
  const other = vm.other_egress_mibps;
  const budget = capMibps - Math.min(other, (1 - e.disk_share_when_contended) * capMibps);
  const info: EgressInfo = {
    cap_gbps: gbps,
    cap_mibps: capMibps,
    other_mibps: other,
    budget_mibps: budget,
    multiplier: e.multiplier,
    binds: false,
  };
  const seriesEgress = machine.info.egress_gbps?.table;
  const writers = disks.filter((d) => d.type.network_writes);
  if (!writers.length) return info;
  const mult = (d: DiskEval) => e.multiplier[replicationOf(d)];
  const otherPart =
    other > 0
      ? `, less ${fmt(Math.min(other, (1 - e.disk_share_when_contended) * capMibps))} MiB/s of other egress (disk writes keep at least ${fmt(e.disk_share_when_contended * 100)}%)`
      : '';
  const explain = (d: DiskEval, what: string) =>
    `network egress: ${fmt(gbps)} Gbit/s = ${fmt(capMibps)} MiB/s${otherPart}, ÷ ${mult(d)} write multiplier (${replicationOf(d)}) → ${what} (${c.edition}: ${seriesEgress ? `${seriesEgress}; ` : ''}${e.table})`;

  const scale = (m: 'write_mibps' | 'write_iops' | 'write_iops_16k', bytesKib: number) => {
    // Network MiB/s that one unit of the figure sends.
    const per = (d: DiskEval) => (m === 'write_mibps' ? 1 : bytesKib / 1024) * mult(d);
    if (!exceeds(writers, m, budget, per)) return; // most caps do not bind: no sentence's parts for them
    const members = writers.filter((d) => d.figures[m]);
    const what = (v: number) => (m === 'write_mibps' ? `${fmt(v)} MiB/s of writes` : `${fmt(v)} write IOPS at ${bytesKib} KiB`);
    const shared = (shareWhy: (unit: string) => string) =>
      members.length > 1 ? `, shared by ${members.length} disks${shareWhy('MiB/s of egress')}` : '';
    if (capTogether(members, m, budget, 'egress', (d, v, shareWhy) => explain(d, what(v)) + shared(shareWhy), per)) info.binds = true;
  };
  scale('write_mibps', 0);
  scale('write_iops', c.io.write_iops_max_kib);
  scale('write_iops_16k', 16);
  return info;
}
