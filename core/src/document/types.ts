/** The typed spec, in internal units (GiB, MiB/s, KiB). Every element keeps the JSON pointer of its source node. */

export interface Target {
  iops?: number;
  read_iops?: number;
  write_iops?: number;
  /** MiB/s */
  mibps?: number;
  read_mibps?: number;
  write_mibps?: number;
}

export interface DiskSpec {
  path: string;
  name: string;
  /** From Terraform: the resource's `name` (the spec's name is its address). */
  resource_name?: string;
  type: string;
  size_gib?: number;
  replication: 'zonal' | 'regional';
  provisioned_iops?: number;
  provisioned_mibps?: number;
  count?: number;
  interface?: string;
  /** Where the disk's file system is mounted: generated fio jobs write their test file there. */
  mount_point?: string;
  /** The disk's block device (/dev/sdb): fio jobs use it only when `fio_destructive` allows. */
  device?: string;
  /** Allows fio jobs to write to `device`, destroying its data. */
  fio_destructive?: boolean;
  /** Size of the test file or device region fio works on, KiB. */
  fio_size_kib?: number;
  /** Azure: the OS disk (it counts toward the VM's limits, not toward its data disks). */
  role?: 'os' | 'data';
  /** Azure host caching; none when absent. */
  caching?: 'none' | 'read-only' | 'read-write';
  /** Azure: a performance tier above the size's own (P50). */
  tier?: string;
  /** Azure: on-demand bursting (Premium SSD P30 and up). */
  bursting?: 'on-demand' | 'credit';
  /** Azure: performance plus (513 GiB and up). */
  performance_plus?: boolean;
  /** Azure: zone-redundant storage (`_ZRS` types); figures as locally redundant, price its own. */
  redundancy?: 'lrs' | 'zrs';
  /** What the disk must hold today, GiB, and its growth before a resize (0.2 = 20 %). */
  data_size_gib?: number;
  growth?: number;
  /**
   * Why the disk is not evaluated although it may have a type and size: an error on a value its figures or price
   * depend on ("disk 'data' has an error in its spec (replication)"), or, from Terraform, a value known only after
   * apply. It is listed with this reason, without figures or price, and every total it is part of is partial.
   */
  invalid?: string;
}

export interface WorkloadSpec {
  path: string;
  name: string;
  disk?: string;
  pattern: 'random' | 'sequential';
  block_kib: number;
  read_ratio: number;
  queue_depth?: number;
  /** Share of reads a host cache serves, 0..1 (Azure caching read-only or read-write); 0 when absent. */
  cache_hit_ratio?: number;
  target: Target;
  /** Why the workload is not evaluated: an error in its spec ("workload 'oltp' has an error in its spec (read_ratio)"). */
  invalid?: string;
}

/** A managed instance group that runs a template: how many instances, when the configuration says it. */
export interface TemplateRun {
  /** The group's address. */
  group: string;
  /** The instances it runs from the template: its target size (or its version's share of it), when known. */
  instances?: number;
  /** Why the number is not known, when it is not ("target_size is known only after apply"). */
  unknown?: string;
  /** An autoscaler that sets the group's size: its address and range, said rather than guessed. */
  autoscaler?: { address: string; min?: number; max?: number };
}

export interface VmSpec {
  path: string;
  name: string;
  /** From Terraform: the resource's `name` (the spec's name is its address). */
  resource_name?: string;
  /** From Terraform: the region of the VM's own zone, whose prices it is evaluated with (not the spec's). */
  region?: string;
  /** From Terraform: the region is not known (said by the front end); `region` is then one no edition prices. */
  region_unknown?: boolean;
  machine_type?: string;
  series?: string;
  vcpus?: number;
  other_egress_mibps: number;
  /** Azure: the disk controller (scsi | nvme), where the size offers both. */
  disk_controller?: 'scsi' | 'nvme';
  /**
   * From Terraform: an instance template, which runs nothing by itself. Its VM has one instance's figures and is
   * priced as the instances the groups of the configuration run from it (nothing when none does).
   */
  template?: { runs: TemplateRun[] };
  /** How the machine is bought: Spot (and preemptible) prices are not modelled, so its price is left out. */
  pricing?: 'on-demand' | 'spot';
  disks: DiskSpec[];
  workloads: WorkloadSpec[];
}

/** From Terraform: a disk the configuration creates and attaches to no VM it reads, priced apart. */
export interface UnattachedDiskSpec extends DiskSpec {
  /** The region of the disk's own zone (or region), where it is priced; the spec's region when it gives none. */
  region?: string;
}

export interface Spec {
  version: number;
  provider: string;
  catalog?: string;
  region?: string;
  vms: VmSpec[];
  /**
   * From Terraform: the disks the configuration creates and attaches to no VM (`terraform-unattached-disk`). They
   * have no figures, and are priced apart: part of the file's total, never of a VM's.
   */
  unattached?: UnattachedDiskSpec[];
  /** The least headroom a workload must keep above its target (0.2 = 20 %). */
  min_headroom?: number;
}
