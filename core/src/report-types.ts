/**
 * The shapes of the JSON report of `storage-perf evaluate` (the public contract, section 3; docs/report.md): what
 * ./report.ts builds from an Analysis.
 */
import type { Severity } from './diagnostics';
import type { Target } from './document/types';
import type { LimitKind, WorkloadBurst } from './model/types';

export interface ReportDiagnostic {
  severity: Severity;
  code: string;
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  /** A Terraform module's findings: the .tf file it is in, relative to the module's folder (lines are its own). */
  file?: string;
}
/** The four figures are null (with `limited_by` and `explanation`) when the VM's figures are unavailable. */
export interface DiskReport {
  name: string;
  /** From a Terraform plan: the resource's `name` (`name` is its address). */
  resource_name?: string;
  type: string;
  size_gib: number | null;
  read_iops: number | null;
  write_iops: number | null;
  read_mibps: number | null;
  write_mibps: number | null;
  limited_by: Record<'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps', LimitKind> | null;
  /** Why each figure is what it is: the limit, its table and edition. */
  explanation: Record<'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps', string> | null;
  /** The known part of the disk's monthly price; null when no part of it is priced. */
  monthly_cost: number | null;
  /** False when part of the price is missing: then `monthly_cost` is a lower bound. */
  monthly_cost_complete: boolean;
  cost_explanation: string;
  price_per_read_iops: number | null;
  /** False when the catalog has no per-VM limit for the disk's type on this machine (or the machine is unknown): the figures are the disk's own, not capped by the VM. */
  vm_limit_known: boolean;
  /** Why the figures are only upper bounds ("VM limit unknown", "needs 24 vCPUs"); null when they are what the VM delivers. */
  upper_bound: string | null;
  /** Figures above the sustained ones that hold only for a while (AWS gp2 credits, an instance's 30-minute window); absent when none. */
  burst?: Partial<
    Record<
      'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps',
      /** `seconds` null and `ends` 'on-demand': Azure's on-demand bursting, which has no time limit. */
      { value: number; seconds: number | null; ends: 'credits' | 'window' | 'on-demand' }
    >
  >;
}
/** The contract's workload object; every figure is null when the VM's figures are unavailable. */
export interface WorkloadReport {
  name: string;
  disks: string[];
  /** The targets as parsed: IOPS, and throughput in MiB/s (`mibps`, `read_mibps`, `write_mibps`), whatever unit the spec used. */
  target: Target;
  read_iops: number | null;
  write_iops: number | null;
  read_mibps: number | null;
  write_mibps: number | null;
  limited_by: LimitKind | null;
  explanation: string | null;
  meets_target: boolean | null;
  headroom: number | null;
  /** Why its figures are only upper bounds (its disks', or a limit it shares with a busy disk of unknown size); null: delivered. */
  upper_bound: string | null;
  cpu_vcpus_needed: number | null;
  queue_depth_needed: { low: number; high: number } | null;
  suggestions: {
    disk_size_gib?: number;
    disk?: string;
    /** With disk_size_gib: the disk becomes this type (and provisions these), not a resize of its own. */
    disk_type?: string;
    provisioned_iops?: number;
    provisioned_throughput_mibps?: number;
    /** A disk of another type that meets the target for less than the resize in disk_size_gib. */
    cheaper_disk?: { disk_type: string; disk_size_gib: number; provisioned_iops?: number; provisioned_throughput_mibps?: number };
    /** With disk_type the disk's own type (more provisioned): the catalog lacks part of that change's price. */
    price_unknown?: boolean;
    /** With price_unknown: the cheapest disk of another type whose price is known, which may cost more or less. */
    priced_disk?: { disk_type: string; disk_size_gib: number; provisioned_iops?: number; provisioned_throughput_mibps?: number };
    machine_type?: string;
    block_size_kib?: number;
    queue_depth?: number;
  };
  /**
   * What the workload reaches while its disks burst and for how many seconds, beside the sustained figures
   * above (which alone meet or miss the target); absent when bursting gives it nothing more.
   */
  burst?: WorkloadBurstReport;
}
export interface WorkloadBurstReport extends Omit<WorkloadBurst, 'seconds'> {
  /** How long it holds; null for Azure's on-demand bursting (`ends` 'on-demand'), which has no time limit. */
  seconds: number | null;
  /** "3,000 IOPS for 33.3 min, then 300". */
  summary: string;
}
export interface VmReport {
  name: string;
  /** From a Terraform plan: the resource's `name` (`name` is its address). */
  resource_name?: string;
  /** From a Terraform plan: the region of the VM's zone, in which it is priced (the file's `region` is the first VM's). */
  region?: string;
  machine_type: string | null;
  vcpus: number | null;
  /** Machine plus disks, per month (the known part; the whole only when `monthly_cost_complete`). */
  monthly_cost: number | null;
  /** Why this VM has no figures (its machine is unknown); null when it has them. */
  figures_unavailable: string | null;
  monthly_cost_complete: boolean;
  /** What the total lacks, e.g. "IOPS price unknown in europe-west4". */
  monthly_cost_missing: string[];
  machine_monthly_cost: number | null;
  /** The machine's price is whole (a template's: every instance its groups run is priced). */
  machine_monthly_cost_complete: boolean;
  machine_cost_explanation: string;
  /** The disks' part of `monthly_cost` (known part). */
  disks_monthly_cost: number | null;
  egress: { cap_gbps: number; other_mibps: number; disk_write_budget_mibps: number; limits_writes: boolean } | null;
  /**
   * The machine's limits several disks share, each stated once: each disk's figures are what it delivers while the
   * others are idle, and these say what they deliver together. Empty when no limit covers more than the disks' sum.
   */
  shared_limits: SharedLimitReport[];
  disks: DiskReport[];
  workloads: WorkloadReport[];
}
/** One limit several disks share ("data and wal together ≤ 15,000 IOPS"). */
export interface SharedLimitReport {
  /** The figure it limits: read_iops, write_iops, read_mibps or write_mibps. */
  metric: string;
  /** `vm` (a per-VM limit of the machine) or `egress` (network egress, which disk writes cross). */
  limited_by: 'vm' | 'egress';
  value: number;
  /** "IOPS", "MiB/s", or "MiB/s of egress" (each disk's writes counted by its write multiplier). */
  unit: string;
  disks: string[];
  /** What the workloads' stated targets ask of it together (0: none). */
  demand: number;
  /** Whether that demand is more than the limit: the targets cannot all be met at once. */
  reached: boolean;
  explanation: string;
}
/** From Terraform: a disk the configuration creates and attaches to no VM, priced apart (it has no figures). */
export interface UnattachedDiskReport {
  /** Its Terraform address. */
  name: string;
  /** The resource's `name` (AWS: its `Name` tag). */
  resource_name?: string;
  type: string;
  /** null when not known here (a size known only after apply). */
  size_gib: number | null;
  /** Where it is priced: its own zone's region, else the file's. */
  region: string;
  /** The known part of its monthly price; null when no part of it is priced. */
  monthly_cost: number | null;
  monthly_cost_complete: boolean;
  /** What its price lacks, in the words the file's `monthly_cost_missing` names it. */
  monthly_cost_missing: string[];
  cost_explanation: string;
}
export interface FileReport {
  path: string;
  catalog: string | null;
  region: string | null;
  currency: string | null;
  /**
   * Every VM's machine and disks, and the disks attached to no VM, per month (the known part; the whole only when
   * `monthly_cost_complete`).
   */
  monthly_cost: number | null;
  monthly_cost_complete: boolean;
  monthly_cost_missing: string[];
  vms: VmReport[];
  /** From Terraform: the disks the configuration attaches to no VM, each priced apart; part of `monthly_cost`. */
  unattached_disks?: UnattachedDiskReport[];
  diagnostics: ReportDiagnostic[];
  /** From a Terraform plan: its resources, and those of types not read (counted, not analysed). */
  terraform?: {
    resources: number;
    ignored_resources: number;
    ignored_types: Record<string, number>;
    /** The resources that run VMs with a `count` or `for_each` of 0: none of them is created with these values. */
    without_instances: string[];
  };
}
export interface Report {
  files: FileReport[];
}
