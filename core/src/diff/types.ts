/** The record of `storage-perf diff`: what a change of a spec does to delivered figures, targets, cost and findings. */
import type { Severity } from '../diagnostics';
import type { Target } from '../document/types';
import type { LimitKind } from '../model/types';

/** A price as one side states it: the known part, whether it is the whole, and what it lacks. */
export interface Money {
  /** The known part, in the catalog's currency (kept in cents); null when no part is priced. */
  amount: number | null;
  complete: boolean;
  /** What the price lacks ("IOPS price unknown in europe-west4"), each phrase once. */
  missing: string[];
}

/** A price before and after; a side is null where the thing does not exist (an added or removed VM or disk). */
export interface MoneyChange {
  before: Money | null;
  after: Money | null;
  /** After − before, in cents; null when a side that exists is not wholly priced: unknown, never 0. */
  delta: number | null;
}

/** One value before and after (null where that side has none). */
export interface Change<T> {
  before: T | null;
  after: T | null;
}

export type DiskFigure = 'read_iops' | 'write_iops' | 'read_mibps' | 'write_mibps';

/** A delivered figure before and after, with the limit that binds it on each side. */
export interface FigureChange extends Change<number> {
  limited_by: Change<LimitKind>;
  /** Both sides have the figure and a different limit binds it. */
  limit_changed: boolean;
}

export type ItemChange = 'added' | 'removed' | 'changed';

export interface DiskDiff {
  name: string;
  change: ItemChange;
  type: Change<string>;
  size_gib: Change<number>;
  figures: Record<DiskFigure, FigureChange>;
  /** Why the figures are only upper bounds on that side ("VM limit unknown"), null where they are not. */
  upper_bound: Change<string>;
  monthly_cost: MoneyChange;
}

/** A disk attached to no VM (from Terraform), as the reports' `unattached_disks` state it on each side. */
export interface UnattachedDiskDiff {
  name: string;
  change: ItemChange;
  /** Only in the head, of a module call the base could not read (`DiffSide.unread_modules`): which, and why. */
  base_unread?: string;
  type: Change<string>;
  size_gib: Change<number>;
  monthly_cost: MoneyChange;
}

/** Where a workload stands against its target: null where the workload does not exist on that side. */
export type TargetStatus = 'met' | 'missed' | 'not judged' | 'no target';

export interface WorkloadDiff {
  name: string;
  change: ItemChange;
  target: Change<TargetStatus>;
  /** The targets as the spec states them (IOPS; MiB/s as `mibps`, `read_mibps`, `write_mibps`); `{}` for none. */
  target_values: Change<Target>;
  /** achieved ÷ target − 1 for the tightest target (negative: short of it by that share). */
  headroom: Change<number>;
  /** `now missed`: missed after and not before (a new workload that misses counts); `now met`: the reverse. */
  verdict: 'now missed' | 'now met' | 'still missed' | 'still met' | 'other';
  /** Read + write IOPS and MiB/s the workload reaches, and what binds it. */
  iops: Change<number>;
  mibps: Change<number>;
  limited_by: Change<LimitKind>;
}

/** A finding, placed by its VM and disk (matched across the sides by code, VM, disk and message, not by place). */
export interface DiffFinding {
  severity: Severity;
  code: string;
  message: string;
  vm: string | null;
  disk: string | null;
  /** Where it is in that side's text: 1-based. */
  line: number;
  column: number;
  /** A Terraform module's .tf file it is in, relative to the module's folder. */
  file?: string;
}

export interface FindingsDiff {
  appeared: DiffFinding[];
  gone: DiffFinding[];
}

export interface VmDiff {
  name: string;
  change: ItemChange;
  /**
   * Only in the head, of a module call the base could not read (`DiffSide.unread_modules`): which, and why. Such a
   * VM is not known to be added: it is counted in `vms_base_unread`, not `vms_added`.
   */
  base_unread?: string;
  machine_type: Change<string>;
  vcpus: Change<number>;
  /** Why that side has no figures (an unknown machine), null where it has them. */
  figures_unavailable: Change<string>;
  monthly_cost: { machine: MoneyChange; disks: MoneyChange; total: MoneyChange };
  /** The disks and workloads that changed, were added or removed (unchanged ones are left out). */
  disks: DiskDiff[];
  workloads: WorkloadDiff[];
  findings: FindingsDiff;
}

export interface DiffSide {
  path: string;
  /** `--base-ref`: the git revision the side was read from. */
  ref?: string;
  /** False where the file is not on that side (the change adds or deletes it): it has no VM and costs nothing. */
  exists: boolean;
  catalog: string | null;
  region: string | null;
  currency: string | null;
  vms: number;
  monthly_cost: Money;
  /**
   * `--base-ref` of a Terraform module: the module calls the base could not read, though the head does or could
   * (a registry or git module downloaded by `terraform init` for the head's source or version, not the base's).
   */
  unread_modules?: UnreadModule[];
}

/** A module call one side could not read: its configuration address (`module.web.module.db`) and why. */
export interface UnreadModule {
  module: string;
  why: string;
}

export interface DiffCounts {
  vms_changed: number;
  vms_added: number;
  /** Only in the head, of a module call the base could not read: not known to be added (`VmDiff.base_unread`). */
  vms_base_unread: number;
  vms_removed: number;
  vms_unchanged: number;
  targets_now_missed: number;
  targets_now_met: number;
  findings_appeared: number;
  findings_gone: number;
  /** Findings at error level that appeared. */
  errors_appeared: number;
  /** Disks attached to no VM (from Terraform) that changed, were added or removed. */
  unattached_disks_changed: number;
}

export interface DiffRecord {
  /** "2 VMs changed, 1 added: 1 target now missed, +$312.40/month; 97 VMs unchanged" (the VMs counted as `counts`). */
  summary: string;
  base: DiffSide;
  head: DiffSide;
  /** The head's currency (the base's when the head has none). */
  currency: string | null;
  counts: DiffCounts;
  monthly_cost: MoneyChange;
  /** VMs that changed, were added (in the head's order) or removed (after them, in the base's order). */
  vms: VmDiff[];
  /** From Terraform: the disks attached to no VM that changed, were added or removed; they are in `monthly_cost`. */
  unattached_disks: UnattachedDiskDiff[];
  /** Findings on no VM (the file's, the catalog's, a Terraform plan's). */
  findings: FindingsDiff;
}
