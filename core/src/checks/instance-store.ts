/**
 * Instance store (AWS `type: instance-store`): the volumes that come with an instance type. AWS documents their
 * random read and write IOPS (all volumes together) but not their throughput, so such a disk has those IOPS as
 * its figures and no throughput (../model/instance-store): its finding says what AWS documents, and which
 * workloads on it are not evaluated and why. An instance type without instance store in the catalog cannot have one.
 */
import { INSTANCE_STORE, instanceStoreOf, unstatedInstanceStoreOf } from '../catalog';
import { instanceStoreSkip } from '../model/instance-store';
import { fmt } from '../units';
import type { CheckModule, VmContext } from './types';

export { INSTANCE_STORE };

export const instanceStore: CheckModule = {
  id: 'instance-store',
  title: 'Instance store',
  about:
    "The volumes that come with an instance type (AWS instance store): how many, their size, and the random IOPS AWS documents for them, from the catalog's instance store table. Those IOPS are the disk's figures; AWS gives no throughput for them, so it has none.",
  codes: {
    'instance-store-unmodelled': {
      severity: 'information',
      summary: 'Instance store has IOPS figures only: AWS documents its IOPS but not its throughput.',
      docs: "The message gives the random read and write IOPS AWS states for the instance type's instance store (all volumes together; the hover gives its volumes, the block size of the catalog's table and the source): they are the disk's read and write IOPS, and its throughput is unknown (null in the JSON report, with the reason), never guessed. A workload on it is evaluated, and its IOPS target judged, where those IOPS are the ones it needs: on that disk alone, at blocks no larger than the table's (4 KiB), without a throughput target; the message names another workload and why it is not evaluated, or counts several. Measure it on the instance with fio: `storage-perf fio` writes a file for it that probes the IOPS AWS documents (4 KiB random writes and reads, predicted at AWS's figures), and says which workloads get no job.",
    },
    'instance-store-unstated': {
      severity: 'information',
      summary: 'The instance type has instance store, but AWS states no IOPS for it: the disk has no figures.',
      docs: "AWS's instance types guide lists the instance store of some types (HDD volumes of D2, D3, D3en and H1; SSD volumes of X1, X1e and F1) without their IOPS. Such a disk is listed with its volumes and no figures (part of the instance's price), workloads on it are not evaluated, and nothing is guessed. Measure it on the instance with fio.",
    },
    'no-instance-store': {
      severity: 'error',
      summary: 'The instance type has no instance store.',
      docs: "Raised when the machine is not in the catalog's instance store table (an EBS-only type such as m6i). The message names the first families that have instance store and counts the others.",
    },
  },
  vm: (ctx) => {
    const table = ctx.catalog.instance_store;
    const m = ctx.machine;
    if (!table || !m) return;
    for (const d of ctx.vm.disks) {
      if (d.type !== INSTANCE_STORE) continue;
      const path = `${d.path}/type`;
      const store = instanceStoreOf(ctx.catalog, m);
      const unstated = !store && unstatedInstanceStoreOf(ctx.catalog, m);
      if (unstated) {
        const r = unstated.row;
        ctx.report(
          'instance-store-unstated',
          `${m.name}'s instance store (${r.devices} × ${fmt(r.device_gb)} GB ${r.media}): AWS states no IOPS for it, so it has no figures${notEvaluated(ctx, d.name)}; measure it with fio`,
          ctx.at(path),
          { path },
        );
        continue;
      }
      if (!store) {
        const series = [...new Set([...Object.keys(table.types), ...Object.keys(table.unstated ?? {})].map((t) => t.split('.')[0]))];
        ctx.report(
          'no-instance-store',
          `${m.name} has no instance store in ${ctx.catalog.edition}; instance types with it: ${series
            .slice(0, 6)
            .map((x) => `${x}.*`)
            .join(', ')}${series.length > 6 ? ` and ${series.length - 6} more families` : ''}`,
          ctx.at(path),
          { path },
        );
        continue;
      }
      ctx.report(
        'instance-store-unmodelled',
        `${m.name}'s instance store: AWS gives ${fmt(store.row.read_iops)} read and ${fmt(store.row.write_iops)} write IOPS, no throughput${leftOut(ctx, d.name)}; measure it with fio`,
        ctx.at(path),
        { path },
      );
    }
  },
};

/** "; workload 'scan' is not evaluated (it has a throughput target, ...)": the workloads on an instance store left out, and why. */
function leftOut(ctx: VmContext, disk: string): string {
  const out: Array<{ name: string; why: string }> = [];
  for (const w of ctx.vm.workloads) {
    if (w.disk !== undefined && w.disk !== disk) continue;
    const why = instanceStoreSkip(ctx.catalog, ctx.vm, w);
    if (why) out.push({ name: w.name, why });
  }
  // One is named with why; several are counted, so that the message stays short whatever their names.
  if (out.length === 1) return `; workload '${out[0].name}' is not evaluated (${out[0].why})`;
  return out.length ? `; ${out.length} workloads on it are not evaluated (the report's explanations say why)` : '';
}

/**
 * " and workload 'oltp' is not evaluated": the workloads that run on a disk without figures (named on it, or on
 * every disk of the VM), which the model leaves out; empty when there are none.
 */
export function notEvaluated(ctx: VmContext, disk: string): string {
  const on = ctx.vm.workloads.filter((w) => w.disk === undefined || w.disk === disk).map((w) => `'${w.name}'`);
  if (!on.length) return '';
  // Several are counted, not named: the message stays short whatever the names (the report lists them).
  return ` and ${on.length === 1 ? `workload ${on[0]} is` : `${on.length} workloads on it are`} not evaluated`;
}
