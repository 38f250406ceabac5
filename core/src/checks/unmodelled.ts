/**
 * Disks of a type the catalog edition does not model on the VM's machine (the type's `unmodelled_on`: in
 * aws-2023, io2 on the instance families that ran it on EBS Block Express). The model gives such a disk no
 * figures and evaluates no workload on it, rather than the figures of the type as other instances run it; this
 * check says so, and why, on the disk's type.
 */
import { unmodelledOn } from '../catalog';
import { notEvaluated } from './instance-store';
import type { CheckModule } from './types';

export const unmodelled: CheckModule = {
  id: 'unmodelled',
  title: 'Disk types not modelled on the machine',
  about:
    "Disks whose type the catalog edition does not model on the VM's machine family, as the edition's `unmodelled_on` table says: they get a price but no figures, and the workloads on them are not evaluated.",
  codes: {
    'disk-unmodelled': {
      severity: 'warning',
      summary: 'The edition does not model this disk type on this machine: the disk has no figures.',
      docs: "Raised on the disk's `type`. In aws-2023, io2 volumes attached to the instance families that ran them on EBS Block Express (C7g, M7g and R5b among the modelled ones) had limits the edition's io2 does not describe (up to 256,000 IOPS and 64 TiB, where other instances had 64,000 IOPS and 16 TiB). The disk is priced, but it has no figures, its size and provisioned IOPS are not checked against the type's bounds, and workloads on it are not evaluated: use an edition that models it (aws-2025: every io2 volume is Block Express), or measure it on the instance with fio (`storage-perf fio` writes jobs only for disks with figures, and says which it left out).",
    },
  },
  vm: (ctx) => {
    const m = ctx.machine;
    if (!m) return;
    for (const d of ctx.vm.disks) {
      const why = unmodelledOn(ctx.catalog.disk_types[d.type], m);
      if (!why) continue;
      const path = `${d.path}/type`;
      ctx.report(
        'disk-unmodelled',
        `${d.type} on ${m.name} in ${ctx.catalog.edition}: ${why.why}; disk '${d.name}' has no figures${notEvaluated(ctx, d.name)}`,
        ctx.at(path),
        { path },
      );
    }
  },
};
