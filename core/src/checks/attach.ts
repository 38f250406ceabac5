/**
 * Attachability: whether the machine can take the disks the spec gives it — the disk types its series
 * attaches, and for local SSD the device counts the provider allows and the vCPUs they want.
 */
import { vmCostChange } from '../advice/fixes';
import { largerMachines, type DeviceDiskType } from '../catalog';
import type { DiskSpec } from '../document/types';
import { plural } from '../units';
import type { CheckModule, VmContext } from './types';

export const attach: CheckModule = {
  id: 'attach',
  title: 'Attachability',
  about:
    'Whether the machine can take the disks it is given: the disk types its series attaches, local SSD device counts, and the vCPUs local SSD devices want.',
  codes: {
    'disk-type-not-on-series': {
      severity: 'error',
      summary: 'The machine series cannot attach this disk type.',
      docs: "The message lists the types the series takes (from the catalog's machine series table).",
    },
    'local-ssd-count': {
      severity: 'error',
      summary: 'The number of local SSD devices is not one the provider allows.',
      docs: 'The fix sets the nearest allowed count.',
    },
    'local-ssd-vcpus': {
      severity: 'warning',
      summary: 'Fewer vCPUs per local SSD device than the provider recommends.',
      docs: 'The fix changes the machine to the smallest of its series with enough vCPUs.',
    },
  },
  vm: (ctx) => {
    for (const d of ctx.vm.disks) {
      const t = ctx.catalog.disk_types[d.type];
      if (!t) continue;
      const m = ctx.machine;
      if (m?.info.disk_types && !m.info.disk_types.includes(d.type)) {
        ctx.report(
          'disk-type-not-on-series',
          `${m.series} machines cannot attach ${d.type}; they take ${m.info.disk_types.join(', ')}`,
          ctx.at(`${d.path}/type`),
          { path: `${d.path}/type` },
        );
      }
      if (t.model === 'devices') localSsd(ctx, d, t);
    }
  },
};

function localSsd(ctx: VmContext, d: DiskSpec, t: DeviceDiskType): void {
  const p = d.path;
  const n = d.count ?? 1;
  if (!t.counts.includes(n) && ctx.has(`${p}/count`)) {
    const nearest = t.counts.reduce((a, b) =>
      Math.abs(b - n) < Math.abs(a - n) || (Math.abs(b - n) === Math.abs(a - n) && b > a) ? b : a,
    );
    ctx.report(
      'local-ssd-count',
      `${plural(n, 'local SSD device')} is not allowed; allowed counts: ${t.counts.join(', ')}`,
      ctx.at(`${p}/count`),
      {
        path: `${p}/count`,
        fixes: [{ kind: 'set-value', path: `${p}/count`, value: nearest, title: `Use ${plural(nearest, 'device')}`, preferred: true }],
      },
    );
  }
  const machine = ctx.machine;
  if (!machine || !t.vcpus_per_device || machine.vcpus >= t.vcpus_per_device.min * n) return;
  const need = t.vcpus_per_device.min * n;
  const bigger = [machine, ...largerMachines(machine)].find((m) => m.vcpus >= need);
  ctx.report(
    'local-ssd-vcpus',
    `${n} local SSD device${n === 1 ? '' : 's'} want ${need}–${t.vcpus_per_device.max * n} vCPUs (${t.vcpus_per_device.min}–${t.vcpus_per_device.max} per device); ${machine.name} has ${machine.vcpus} (${ctx.catalog.edition}: ${t.vcpus_per_device.table})`,
    ctx.machineSpan(),
    {
      path: `${ctx.vm.path}/machine_type`,
      fixes:
        bigger && bigger !== machine
          ? [
              ctx.setMachine(
                bigger,
                `Change machine to ${bigger.name} (${vmCostChange(ctx.catalog, ctx.evaluation, ctx.advice.onMachine(bigger))})`,
              ),
            ]
          : [],
    },
  );
}
