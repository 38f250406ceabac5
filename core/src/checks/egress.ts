/**
 * Egress: disk writes leave the VM over its network, so the machine's egress cap, less other egress, can
 * bind below what the disks could write.
 */
import { egressGbps } from '../catalog';
import { firstAndMore, fmt } from '../units';
import type { EgressInfo } from '../model/types';
import type { CheckModule, VmContext } from './types';

export const egress: CheckModule = {
  id: 'egress',
  title: 'Network egress',
  about:
    "Disk writes travel over the VM's network: its egress cap, less the other egress the spec declares, and the write multiplier of zonal and regional disks.",
  codes: {
    'capped-by-egress': {
      severity: 'warning',
      summary: "The VM's network egress cap limits disk writes.",
      docs: "The message gives the cap, the other egress assumed (`other_egress`) and what is left for disk writes before the write multiplier (each disk's hover and the report's explanation give the multiplier of its replication). Not raised when every workload on the capped disks only reads.",
    },
    'other-egress-over-cap': {
      severity: 'warning',
      summary: "The other egress the spec declares is more than the machine's network egress cap.",
      docs: "Raised on `other_egress` when it exceeds the cap the edition gives the machine: the VM cannot send that much, so the figure or the machine is wrong. The figures still let disk writes keep the share of the cap the edition's egress rule gives them when traffic contends (`capped-by-egress` says what that leaves).",
    },
    'egress-unknown': {
      severity: 'information',
      summary: 'The catalog has no network egress cap for this machine, so disk writes are not checked against one.',
      docs: "Raised for series whose egress bandwidth the edition does not state (rather than assuming another series' rule); the write figures are the disks' and the machine's per-VM limits only.",
    },
  },
  vm: (ctx) => {
    const { evaluation: e, machine: m, vm } = ctx;
    if (!m) return;
    if (ctx.catalog.egress && egressGbps(ctx.catalog, m) === undefined) return egressUnknown(ctx);
    if (e.egress) otherOverCap(ctx, e.egress);
    if (!e.egress?.binds) return;
    const eg = e.egress;
    const hit = e.disks.filter((d) => d.figures.by('write_mibps') === 'egress' || d.figures.by('write_iops') === 'egress');
    // A spec that says how its disks are used is judged by that use: reads never cross the egress cap.
    const written = new Set(e.workloads.filter((w) => w.spec.read_ratio < 1).flatMap((w) => w.disks));
    const writesTo = (name: string) => written.has(name);
    if (e.workloads.length && !hit.some((d) => writesTo(d.spec.name))) return;
    const other = eg.other_mibps > 0 ? `other egress assumed ${fmt(eg.other_mibps)} MiB/s` : 'no other egress assumed';
    const otherPath = `${vm.path}/other_egress`;
    ctx.report(
      'capped-by-egress',
      `network egress caps writes to ${firstAndMore(
        hit.map((d) => `${d.spec.name} at ${fmt(d.figures.write_mibps)} MiB/s`),
        'disk',
      )}: ${m.name} has ${fmt(eg.cap_gbps)} Gbit/s (${fmt(eg.cap_mibps)} MiB/s), ${other}, leaving ${fmt(eg.budget_mibps)} MiB/s for disk writes`,
      ctx.key(otherPath) ?? ctx.machineSpan(),
      { path: ctx.has(otherPath) ? otherPath : `${vm.path}/machine_type` },
    );
  },
};

/** Other egress above the machine's cap: traffic the VM cannot send, said on the value. */
function otherOverCap(ctx: VmContext, eg: EgressInfo): void {
  const path = `${ctx.vm.path}/other_egress`;
  if (eg.other_mibps <= eg.cap_mibps + 1e-9 || !ctx.has(path)) return;
  ctx.report(
    'other-egress-over-cap',
    `other_egress is ${fmt(eg.other_mibps)} MiB/s, more than ${ctx.machine!.name}'s egress cap of ${fmt(eg.cap_gbps)} Gbit/s (${fmt(eg.cap_mibps)} MiB/s): lower it, or use a machine with a higher cap`,
    ctx.at(path),
    { path },
  );
}

function egressUnknown(ctx: VmContext): void {
  const { evaluation: e, machine: m, catalog: c } = ctx;
  if (!m || !e.disks.some((d) => d.type.network_writes)) return;
  ctx.report(
    'egress-unknown',
    `${c.edition} states no network egress cap for ${m.series} machines: disk writes are not checked against one`,
    ctx.machineSpan(),
    { path: `${ctx.vm.path}/machine_type` },
  );
}
