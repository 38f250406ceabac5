/**
 * fio jobs for AWS instance store, which the model gives IOPS figures only: AWS documents its random read and
 * write IOPS at 4 KiB (all volumes of the instance together) but no throughput. Its jobs are the probes of what
 * AWS documents, each predicted at AWS's figure: a fill of the region with those writes, then 4 KiB random
 * writes and reads at queue depth saturation. The spec's workloads on it get no job of their own: the probes
 * measure the figures they are judged on (the CLI says so).
 */
import { INSTANCE_STORE, instanceStoreOf, type Catalog, type InstanceStore } from '../catalog';
import type { DiskSpec } from '../document/types';
import type { VmEval } from '../model/types';
import { fmt } from '../units';
import { guidance, LOCAL_SSD_IODEPTH, type Timing } from './jobs';
import { safeName } from './syntax';
import { place, type Target } from './targets';
import type { FioJob, FioJobKind, FioOptions, FioProbe } from './types';

/**
 * The instance store a disk probes, when it is one the catalog describes with the block size of its IOPS: a
 * job's block size is never assumed (a catalog of one's own may leave it out).
 */
export function probedStore(c: Catalog, e: VmEval, d: DiskSpec): (InstanceStore & { blockKib: number }) | undefined {
  const store = d.type === INSTANCE_STORE ? instanceStoreOf(c, e.machine) : undefined;
  return store?.blockKib !== undefined ? { ...store, blockKib: store.blockKib } : undefined;
}

/** The instance store's test file or device: its size is that of all its volumes (GB as AWS writes them). */
export function instanceStoreTarget(e: VmEval, d: DiskSpec, store: InstanceStore, opts: FioOptions): Target {
  const s = store.row;
  const t: Target = {
    ...place(d, store.sizeGib, opts),
    description: `instance store, ${s.devices} × ${fmt(s.device_gb)} GB ${s.media}`,
    network: false,
  };
  if (s.devices > 1)
    t.notes = [
      ...t.notes,
      `AWS's IOPS are for the ${s.devices} volumes of ${e.machine!.name} together: the predictions hold for one file system (or RAID 0) over all of them; on one volume expect about 1/${s.devices} of them.`,
    ];
  return t;
}

/** Fill, then the write and read probes, at AWS's block size, predicted at AWS's figures. */
export function instanceStoreJobs(c: Catalog, e: VmEval, t: Target, store: InstanceStore & { blockKib: number }, timing: Timing): FioJob[] {
  const s = store.row;
  const block = store.blockKib;
  // As for local SSD (Google's recipe): 4 jobs per device at iodepth 128, at most one per vCPU.
  const numjobs = Math.max(1, Math.min(4 * s.devices, e.machine?.vcpus ?? 4 * s.devices, 64));
  const why = `AWS's instance store table: ${e.machine!.name}, ${store.documented} (${store.cited})`;
  const n = safeName(t.spec.name);
  const job = (name: string, read: boolean, kind: FioJobKind, probe?: FioProbe): FioJob => {
    const iops = read ? s.read_iops : s.write_iops;
    const mibps = (iops * block) / 1024;
    return {
      name,
      rw: read ? 'randread' : 'randwrite',
      bs_kib: block,
      iodepth: LOCAL_SSD_IODEPTH,
      numjobs,
      predicted: {
        read_iops: read ? iops : 0,
        write_iops: read ? 0 : iops,
        read_mibps: read ? mibps : 0,
        write_mibps: read ? 0 : mibps,
        limited_by: 'disk',
        why,
      },
      kind,
      probe,
      disks: [t.spec.name],
      metric: 'iops',
      expected_iops: { low: iops, high: iops },
      // A fill's time follows from the region it writes (fitRegion).
      seconds: kind === 'fill' ? 0 : timing.ramp + timing.runtime,
      context: { network: false, vcpus: e.machine?.vcpus, cpu_vcpus_needed: 0, ...guidance(c), sequential: false },
    };
  };
  return [
    job(`fill@${n}`, false, 'fill'),
    job(`write-iops@${n}`, false, 'probe', 'write-iops'),
    job(`read-iops@${n}`, true, 'probe', 'read-iops'),
  ];
}
