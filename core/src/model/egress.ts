/**
 * Network egress on disk writes: writes to network disks leave the VM over its network, multiplied by their
 * replication; the machine's egress cap, less other egress, caps them together.
 */
import { egressGbps, type Catalog, type Machine } from '../catalog';
import type { VmSpec } from '../document/types';
import { fmt, gbpsToMibps } from '../units';
import type { DiskEval, EgressInfo } from './types';
import { capAlone, capTogether, exceeds, type LimitMode } from './vm-share';

/** A type that exists only replicated (Hyperdisk Balanced High Availability) writes to two zones whatever the spec says. */
function replicationOf(d: DiskEval): 'zonal' | 'regional' {
  return d.type.replication?.length === 1 ? d.type.replication[0] : d.spec.replication;
}

/**
 * Disk writes leave the VM over its network: replicas and overhead multiply them, and other egress
 * competes, though disk writes keep their guaranteed share of the cap. Each disk alone is held to it; writers
 * whose workloads run at once share it as they share a per-VM limit (./vm-share), counted in network MiB/s.
 */
export function applyEgress(c: Catalog, machine: Machine, vm: VmSpec, disks: DiskEval[], mode: LimitMode): EgressInfo | undefined {
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
    const members = writers.filter((d) => d.figures[m] !== undefined);
    const what = (v: number) => (m === 'write_mibps' ? `${fmt(v)} MiB/s of writes` : `${fmt(v)} write IOPS at ${bytesKib} KiB`);
    if (mode.alone) {
      const limit = () =>
        `network egress: ${fmt(gbps)} Gbit/s = ${fmt(capMibps)} MiB/s${otherPart}: ${fmt(budget)} MiB/s for disk writes together, each counted × its write multiplier (${c.edition}: ${seriesEgress ? `${seriesEgress}; ` : ''}${e.table})`;
      // Stated once, in MiB/s of egress: the write IOPS caps are the same budget at other block sizes.
      const shared = m === 'write_mibps' ? mode.shared : [];
      const text = { unit: 'MiB/s of egress', limit, alone: (d: DiskEval, v: number) => explain(d, what(v)) };
      if (capAlone(shared, members, m, budget, 'egress', text, per)) info.binds = true;
      return;
    }
    const sharedText = (shareWhy: (unit: string) => string) =>
      members.length > 1 ? `, shared by ${members.length} disks whose workloads run at once${shareWhy('MiB/s of egress')}` : '';
    if (capTogether(members, m, budget, 'egress', (d, v, shareWhy) => explain(d, what(v)) + sharedText(shareWhy), per)) info.binds = true;
  };
  scale('write_mibps', 0);
  scale('write_iops', c.io.write_iops_max_kib);
  scale('write_iops_16k', 16);
  return info;
}
