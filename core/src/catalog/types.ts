/**
 * The shape of a catalog edition: the limits and prices of one provider as one set of sources stated them.
 * Catalogs are data (catalogs/*.json, validated by schemas/catalog.schema.json); this file only types them.
 * Units throughout: sizes in GiB, throughput in MiB/s, I/O sizes in KiB, prices per month in the catalog's currency.
 */

/** Where a number comes from: a key of `Catalog.sources`, the table or passage in it, and the date it describes. */
export interface Cited {
  source: string;
  table: string;
  date: string;
}

export interface Source {
  title: string;
  url: string;
  date: string;
  note?: string;
  /** The source file where the document is published from a public repository: the repository and the path in it. */
  file?: string;
  /** The commit of that file that was read. */
  commit?: string;
}

/** A limit that is either fixed or scales with the VM's vCPU count (optionally up to a maximum). */
export type Limit = number | { per_vcpu: number; max?: number };

/** The four sustained figures every limit table states; `write_iops_16k` where the table has a 16 KiB write column. */
export interface Figures<T = number> {
  read_iops: T;
  write_iops: T;
  read_mibps: T;
  write_mibps: T;
}
export interface LimitRow extends Partial<Figures<Limit>> {
  /** Writes of 16 KiB (gcp-2020 tables); between 8 and 16 KiB this column applies. */
  write_iops_16k?: Limit;
}

export interface SizeRates {
  read_iops_per_gib: number;
  write_iops_per_gib: number;
  read_mibps_per_gib: number;
  write_mibps_per_gib: number;
  /** gcp-2024: one baseline per disk type per VM, added to the per-GiB figures of all disks of that type. */
  baseline_iops?: number;
  baseline_mibps?: number;
  /** Each disk gets at least this many IOPS / MiB/s whatever its size (AWS gp2: 100 IOPS, 25 MiB/s). */
  min_iops?: number;
  min_mibps?: number;
}

export interface ProvisionedRange {
  min: number;
  max: number;
  default?: number;
  /** Upper bound that scales with the disk size (e.g. hyperdisk-balanced 500 IOPS per GiB). */
  max_per_gib?: number;
  /** Lower bound that scales with the disk size. */
  min_per_gib?: number;
  /** The per-GiB upper bound never falls below this (AWS gp3: its included 3,000 IOPS at any size). */
  max_at_least?: number;
}

export type MixRule = 'shared' | 'independent';

export interface PriceTable extends Cited {
  /** Region → price per GiB-month. */
  per_gib_month: Record<string, number>;
  regional_per_gib_month?: Record<string, number>;
  /** Series → region → price per GiB-month where a series' devices have their own rate (Titanium SSD on C4). */
  by_series_per_gib_month?: Record<string, Record<string, number>>;
  per_iops_month?: Record<string, number>;
  /**
   * Provisioned IOPS priced in tiers (AWS io2): each tier's rate applies to the IOPS above the previous tier's
   * bound up to its own `up_to_iops`; the last tier has no bound. Takes the place of per_iops_month.
   */
  per_iops_month_tiers?: Array<{ up_to_iops?: number; per_iops_month: Record<string, number> }>;
  per_mibps_month?: Record<string, number>;
  /** Region → price per million I/O requests (AWS Magnetic): it depends on the workload, so it is a gap of the price. */
  per_million_requests?: Record<string, number>;
  /** Tier → region → price per disk-month (Azure tiers); a tier or region without one is unpriced. */
  per_tier_month?: Record<string, Record<string, number>>;
  /** Performance included in the capacity price (hyperdisk-balanced's free 3,000 IOPS / 140 MiB/s). */
  included_iops?: number;
  included_mibps?: number;
  /** The prices come from a secondary source (a third party quoting Google's SKUs), not Google's own pages. */
  uncertain?: boolean;
}

/** One series' on-demand prices (per hour) and memory sizes: how a machine's price is composed. */
export interface SeriesPrice {
  /** Region → price per vCPU-hour. */
  per_vcpu_hour?: Record<string, number>;
  /** Region → price per GiB-hour of memory. */
  per_gib_hour?: Record<string, number>;
  /** Machine type → region → price per hour, for types priced as a whole (shared-core, GPU types). */
  per_type_hour?: Record<string, Record<string, number>>;
  /** Family → GiB of memory per vCPU. */
  memory_gib_per_vcpu?: Record<string, number>;
  /** Machine type → GiB of memory, where it differs from its family's ratio. */
  memory_gib?: Record<string, number>;
}

/** Machine prices, kept apart from machine_series: what is known of a machine's price lives here. */
export interface MachinePrices extends Cited {
  hours_per_month: number;
  series: Record<string, SeriesPrice>;
  /** The prices come from a secondary source (a copy of the provider's price list), not its own pages. */
  uncertain?: boolean;
}

/**
 * Instance families on which an edition does not model a disk type, and why: in aws-2023, io2 volumes on the
 * families that ran them on EBS Block Express, whose limits the edition's io2 (the one other instances ran) does
 * not describe. A disk of the type on such a machine gets no figures and a finding, never the other figures.
 */
export interface UnmodelledOn extends Cited {
  series: string[];
  /** A phrase: "io2 volumes on these instances run on EBS Block Express (up to 256,000 IOPS and 64 TiB)". */
  why: string;
}

interface DiskTypeBase {
  label: string;
  /** Machine series on which this edition has no figures for the type. */
  unmodelled_on?: UnmodelledOn;
  /**
   * Sizes it is created in, GiB: `min` what the provider accepts, `documented_min` the smallest its pages document
   * (advice proposes no less), `regional_min` where a regional disk starts larger (Google: 200 GB standard).
   */
  size_gib: {
    min: number;
    max: number;
    default?: number;
    step?: number;
    documented_min?: number;
    regional_min?: number;
    note?: string;
  } & Partial<Cited>;
  /** Replication modes the type can be created with (GCP persistent disks). */
  replication?: Array<'zonal' | 'regional'>;
  /** How simultaneous reads and writes share the disk's IOPS and throughput. */
  mix: { iops: MixRule; throughput: MixRule } & Cited;
  /** Whether writes to this type go over the VM's network and count against its egress cap. */
  network_writes: boolean;
  /** False when the disk keeps no redundant copy (local SSD, non-replicated network disks). Omitted: replicated. */
  replicated?: boolean;
  price?: PriceTable;
  /** Extra notes shown in explanations (e.g. HDD burst credits). */
  notes?: string[];
  /** The type needs a machine with premium storage (Azure: an s in the size's name). */
  premium_storage?: boolean;
  /** The type cannot be an OS disk (Azure Premium SSD v2, Ultra Disk). */
  not_os_disk?: Cited;
  /** Host caching is offered on disks of this type smaller than `below_gib`; absent: never. */
  host_caching?: { below_gib: number } & Cited;
}

/** Performance grows with size: per-GiB rates, capped per disk and per VM (GCP PD). */
export interface ScaledDiskType extends DiskTypeBase {
  model: 'scaled';
  /**
   * A burst bucket (AWS gp2): up to `iops` while credits last; one credit per I/O above the baseline, an I/O of up
   * to `io_kib` counting as one. With `io_kib`, throughput bursts to `iops` × `io_kib`, at most the first
   * `burst_mibps_max` row whose `up_to_gib` holds the size (and the type's maximum).
   */
  credits?: { iops: number; bucket: number; io_kib?: number; burst_mibps_max?: Array<{ up_to_gib: number; mibps: number }> } & Cited;
  /**
   * A throughput bucket (AWS st1, sc1): up to `burst_mibps_per_gib` × size (at most `burst_max_mibps`) while credits
   * last, `bucket_mib_per_gib` × size MiB of them; every I/O of up to `io_kib` counts as `io_kib` (sequential ones merged).
   */
  throughput_credits?: { burst_mibps_per_gib: number; burst_max_mibps: number; bucket_mib_per_gib: number; io_kib: number } & Cited;
  rates: SizeRates & Cited;
  disk_max: LimitRow & Cited;
  regional_max?: LimitRow & Cited;
  /**
   * Per-volume figures the provider gives only as ranges (AWS Magnetic: 40 - 200 IOPS, 40 - 90 MiB/s): the rates
   * and maxima are the top of each range, so the figures are upper bounds, shown with `words`; `low` is the bottom.
   */
  figure_range?: { low: { iops: number; mibps: number }; words: string } & Cited;
}

/** Performance is bought separately from capacity (pd-extreme, hyperdisk). */
export interface ProvisionedDiskType extends DiskTypeBase {
  model: 'provisioned';
  /** The provider caps this type per instance (Hyperdisk): a machine without a row has an unknown cap, not none. */
  vm_limits_documented?: boolean;
  provisioned: {
    iops?: ProvisionedRange;
    mibps?: ProvisionedRange;
    /** Throughput that follows from the provisioned IOPS (hyperdisk-extreme: 0.25 MiB/s per IOPS). */
    mibps_per_iops?: number;
    /** IOPS that follow from the provisioned throughput (hyperdisk-throughput: 4 IOPS per MiB/s). */
    iops_per_mibps?: number;
    /** Provisioned throughput may not exceed this many MiB/s per provisioned IOPS (gp3: 0.25), nor fall below its minimum. */
    mibps_max_per_iops?: number;
    /** Throughput that follows from the provisioned IOPS in tiers (io1): the first tier holding the IOPS applies. */
    mibps_per_iops_tiers?: Array<{ up_to_iops: number; mibps_per_iops: number; max_mibps: number }>;
  } & Cited;
  disk_max: LimitRow & Cited;
}

/** Local SSD: fixed-size devices; limits by interface and device count. */
export interface DeviceDiskType extends DiskTypeBase {
  model: 'devices';
  device_gib: number;
  counts: number[];
  /** vCPUs per device the provider recommends for full performance. */
  vcpus_per_device?: { min: number; max: number } & Cited;
  /** The fewest vCPUs with which the table's figures are reached, by series (N2: 24); other series need `vcpus_per_device.min` per device. */
  full_performance_vcpus?: { rows: Array<{ series: string[]; min_vcpus: number }> } & Cited;
  interfaces: Record<
    string,
    {
      /** Either per-GiB rates capped by `max`, or explicit rows by device count (the first row with count >= n applies). */
      rates?: SizeRates;
      by_count?: Array<{ count: number } & Figures>;
      max?: Figures;
    } & Cited
  >;
}

/** Yandex-style allocation units: per-unit figures times the number of units, capped per disk. */
export interface AllocationUnitDiskType extends DiskTypeBase {
  model: 'allocation-units';
  unit_gib: number;
  /** Sizes must be a whole number of units (network-ssd-nonreplicated, io-m3). */
  whole_units: boolean;
  per_unit: Figures & Cited;
  disk_max: Figures & Cited;
  /** Small disks may burst to the level of a larger one for a while (Yandex network-hdd). */
  burst?: { to_gib: number; minutes_per_day: number } & Cited;
}

/** One tier of a type sold in fixed sizes: its size and figures (throughput in MiB/s). */
export interface TierRow {
  name: string;
  size_gib: number;
  iops: number;
  mibps: number;
  burst_iops?: number;
  burst_mibps?: number;
  plus_iops?: number;
  plus_mibps?: number;
}

/** Fixed-size tiers (Azure P, E and S disks): a size is rounded up to the next tier and gets its figures. */
export interface TieredDiskType extends DiskTypeBase {
  model: 'tiers';
  tiers: { rows: TierRow[] } & Cited;
  tier_billing: Cited;
  /** The largest tier's figures (without performance plus). */
  disk_max: LimitRow & Cited;
  /** An I/O larger than this counts as several against the IOPS figure (Azure: 256 KiB). */
  io_unit_kib?: number;
  io_unit?: Cited;
  /** Tiers up to this size burst on credits: their burst figures for `seconds` from a full bucket. */
  credit_burst?: { up_to_gib: number; seconds: number } & Cited;
  /** Disks of `min_gib` and more may enable on-demand bursting, up to these figures. */
  on_demand_burst?: { min_gib: number; iops: number; mibps: number } & Cited;
  /** Disks of `min_gib` and more may enable performance plus: the tiers' plus figures. */
  performance_plus?: { min_gib: number } & Cited;
  /** Performance tiers a disk can be set to above its size's own. */
  tier_upgrades?: { rows: Array<{ from: string[]; up_to: string }> } & Cited;
}

export type DiskType = ScaledDiskType | ProvisionedDiskType | DeviceDiskType | AllocationUnitDiskType | TieredDiskType;

export interface VmLimitRow extends LimitRow {
  /** What the machine reaches above the row for the table's `burst_seconds` (AWS: 30 minutes a day). */
  burst?: Partial<Figures>;
  /** Inclusive vCPU range; `max` omitted means "and more". */
  vcpus?: { min: number; max?: number };
  /** Or exact machine types (M-series rows are per machine type). */
  machine_types?: string[];
  /**
   * The provider gives no row for these machine types (e2-micro, e2-small): the figures are the row of the machine
   * named here, an upper bound, and the machine's own limit counts as unknown.
   */
  upper_bound_of?: string;
}

export interface VmLimitTable extends Cited {
  series: string[];
  /**
   * Disk types whose volumes one limit caps together (AWS: one EBS limit per instance); the table then has a
   * single key in `disk_types`, the group's name.
   */
  shared_by?: string[];
  /** How long the rows' burst figures hold, in seconds. */
  burst_seconds?: number;
  /** How messages name the burst window ("burst window, up to 30 minutes at a time"); omitted: AWS's EBS window. */
  burst_window?: string;
  /** The disk controller the limits are for (Azure Ebsv5); omitted: any. */
  controller?: 'scsi' | 'nvme';
  /** Disk type (or a group key listed in `applies_to`) → rows. */
  disk_types: Record<string, VmLimitRow[]>;
}

/** Local SSD disks that come with a machine type: how many, and each one's size. */
export interface FixedLocalSsd {
  count: number;
  device_gib: number;
}

/**
 * A suffix that some predefined types of a series carry (c3-standard-8-lssd, c4-standard-288-metal,
 * z3-highmem-8-highlssd): the family vCPU counts that have it, which may differ from the plain family's.
 */
export interface MachineSuffix extends Cited {
  families: Record<string, number[]>;
  /** Disk types the suffixed types can attach, where they differ from the series' (bare metal: Hyperdisk only). */
  disk_types?: string[];
}

/** Local SSDs that come with machine types, by type name: one group per device size and source. */
export interface FixedLocalSsdTable extends Cited {
  device_gib: number;
  /** Machine type name → number of disks it comes with. */
  counts: Record<string, number>;
  /**
   * The figures the provider publishes for these machine types' own devices (Google's Titanium SSD), totals per VM
   * by number of disks (a row is for exactly its count): on these machine types they replace the disk type's device
   * table. Without it, devices of another size than the type's have no figures (../model: not modelled).
   */
  performance?: { media?: string; by_count: Array<{ count: number } & Figures> } & Cited;
}

/** A run of vCPU counts: min, min + step, ... up to max. */
export interface VcpuRun {
  min: number;
  max: number;
  step: number;
}

/**
 * Google's rules for custom machine types of one series: `<prefix>-<vCPUs>-<MiB>[-ext]`, or for shared-core
 * sizes `<prefix>-<size>-<MiB>` (e2-custom-medium-6144).
 */
export interface CustomMachineRule extends Cited {
  /** The name's start: 'custom' (N1), 'n2-custom', 'e2-custom'... */
  prefix: string;
  vcpus: VcpuRun[];
  memory_mib_per_vcpu: { min: number; max: number };
  /** Memory must be a multiple of this many MiB. */
  memory_step_mib: number;
  /** With `-ext`, memory per vCPU may exceed the maximum up to this total; omitted: no extended memory. */
  extended_max_mib?: number;
  /** Shared-core sizes: the predefined shape whose vCPU share and per-VM limits they have, and their memory range. */
  shared_core?: Record<string, { as: string; memory_mib: { min: number; max: number } }>;
}

export interface LocalSsdRow {
  vcpus?: { min: number; max?: number };
  machine_types?: string[];
  counts: number[];
}

export interface LocalSsdRule extends Cited {
  /** The first row naming the machine applies, else the first whose vCPU range holds it; none: no local SSD. */
  rows?: LocalSsdRow[];
  bundled_only?: boolean;
}

export interface DiskCountRow {
  vcpus?: { min: number; max?: number };
  machine_types?: string[];
  total?: number;
  /** Volumes of the types whose per-instance limits the provider documents (Hyperdisk), together. */
  hyperdisk?: number;
  per_type?: Record<string, number>;
}

/** A size's limit on host-cached I/O (hits; misses and writes count here and on the uncached limit too). */
export interface CachedLimitRow {
  machine_types: string[];
  iops: number;
  mibps: number;
  cache_gib?: number;
  burst?: { iops: number; mibps: number };
}

export interface MachineSeries {
  label?: string;
  /** Machine families (n2-standard, n2-highmem...), with the vCPU counts each offers. */
  families?: Record<string, number[]>;
  /** Named shapes that do not follow <series>-<family>-<vcpus> (e2-medium). */
  shapes?: Record<string, number>;
  /** Suffixes predefined types may carry, by suffix without its dash ('lssd', 'metal', 'lssd-metal'). */
  suffixes?: Record<string, MachineSuffix>;
  /** Machine types that come with local SSDs. */
  fixed_local_ssd?: FixedLocalSsdTable[];
  custom?: CustomMachineRule;
  /** Where the families, shapes and labels come from. */
  types_source?: Cited;
  /** Why the edition has no per-VM limits for the series (AWS T2: not EBS-optimized), said by machine-limits-unknown. */
  vm_limits_note?: { why: string } & Cited;
  /** vCPU counts for series addressed by series+vcpus only (Yandex platforms). */
  vcpus?: number[];
  /** Disk types the series can attach; omitted = all scaled and device types. */
  disk_types?: string[];
  /** Types the series attaches only through the provider's account team: refused by default. */
  disk_types_by_request?: string[];
  disk_types_source?: Cited;
  /** Further conditions on attachable types: fewest vCPUs, or the only machine types that take it. */
  disk_type_conditions?: Record<string, { min_vcpus?: number; machine_types?: string[] } & Cited>;
  /** Local SSD counts allowed by machine type or vCPU count, or local SSD only with the -lssd machine types. */
  local_ssd?: LocalSsdRule;
  /** How many volumes the machines attach, in all, of Hyperdisk types together and per type (local SSD not counted). */
  disk_count_limits?: { rows: DiskCountRow[] } & Cited;
  /** Disk controllers the sizes offer, and the one a VM has when its spec names none (Azure). */
  controllers?: { default: 'scsi' | 'nvme'; offered: Array<'scsi' | 'nvme'>; nvme_only?: string[] } & Cited;
  /**
   * For sizes without premium storage, the size of the same shape that has it (Azure: Standard_F2 and
   * Standard_F2s): a machine fix where a disk type the series does not take is asked for.
   */
  premium_sizes?: { sizes: Record<string, string> } & Cited;
  /** Whether the sizes offer host caching on their disks (Azure: Premium Storage caching). */
  host_caching?: { supported: boolean } & Cited;
  /** The sizes' limits on host-cached I/O. */
  cached_limits?: { rows: CachedLimitRow[] } & Cited;
  /** Network egress cap: per vCPU, up to a maximum, or explicit rows. */
  egress_gbps?: {
    per_vcpu?: number;
    max?: number;
    /** A row naming the machine type (shared-core types) applies first, then the first whose vCPU range holds it. */
    rows?: Array<{ vcpus?: { min: number; max?: number }; machine_types?: string[]; gbps: number }>;
  } & Partial<Cited>;
}

/** Machine series built on a platform, and the disk types that need it above a level of provisioned IOPS. */
export interface PlatformTable extends Cited {
  platform: string;
  series: Record<string, boolean>;
  /** Machine types where a series is not all one way (AWS I3: only i3.metal); they take precedence over the series. */
  machine_types?: Record<string, boolean>;
  requirements: Array<{ disk_type: string; iops_above: number; size_gib_above?: number } & Cited>;
}

export interface Catalog {
  edition: string;
  provider: string;
  title: string;
  /** The date the edition describes (the newest of its tables). */
  as_of: string;
  currency: string;
  default_region: string;
  regions: string[];
  sources: Record<string, Source>;
  units: { throughput: 'MiB/s'; note: string } & Partial<Cited>;
  /** I/O sizes at which the tables' figures hold. */
  io: {
    read_iops_max_kib: number;
    write_iops_max_kib: number;
    throughput_min_kib: number;
    /** Yandex's actual-IOPS formula: 'harmonic' 1/(1/MaxIOPS + size/MaxBW) as documented, or 'min'. */
    iops_formula: 'min' | 'harmonic';
  } & Cited;
  /** Little's law guidance: one outstanding I/O per this many IOPS (low and high end), deepest useful queue. */
  queue: { iops_per_outstanding_io: { low: number; high: number }; max_useful_depth: number } & Cited;
  /** Free CPU needed to drive I/O. */
  /** Free vCPUs to drive I/O; `borrowed_from`: the provider whose rule it is, where the edition's own states none. */
  cpu: { read_iops_per_vcpu: number; write_iops_per_vcpu: number; borrowed_from?: string } & Cited;
  /** Disk writes that cross the VM's network. */
  egress?: {
    multiplier: { zonal: number; regional: number };
    /** Share of the egress cap guaranteed to disk writes when other traffic competes. */
    disk_share_when_contended: number;
    /**
     * The egress rule the source states for a list of series (omitted: every series without its own). A
     * series outside it with no `egress_gbps` has no known cap: never this default.
     */
    default_gbps: { per_vcpu: number; max?: number; series?: string[] };
  } & Cited;
  disk_types: Record<string, DiskType>;
  vm_limits: VmLimitTable[];
  /**
   * Disks of different types on one VM together stay within the per-VM limit of the fastest of `types` (listed
   * fastest first) the machine supports (GCP persistent disks); without it, each type has only its own limit.
   */
  limit_across_types?: { types: string[] } & Cited;
  machine_series: Record<string, MachineSeries>;
  /** How host-cached I/O counts against a machine's cached and uncached limits (Azure). */
  host_cache?: { hit: 'cached'; miss: 'both'; write: 'both' } & Cited;
  /** Which series are built on a platform some disk types need (AWS: the Nitro System); a series not named is unknown. */
  platform?: PlatformTable;
  /** On-demand machine prices; an edition without them prices disks only (and says so). */
  machine_prices?: MachinePrices;
  /** The instance store volumes that come with an instance type (AWS). */
  instance_store?: InstanceStoreTable;
  /** Series (instance families) the provider sells that the edition does not model: named so in findings. */
  other_series?: { series: string[] } & Cited;
  /** Regions the provider offers that the edition does not price (a configuration there is correct, only unpriced). */
  other_regions?: { regions: string[] } & Cited;
  /** Disk types the provider sells that the edition does not model, each with what it is: named so in findings. */
  other_disk_types?: { types: Record<string, string> } & Cited;
}

/** Instance store by instance type: what comes with the machine, and the IOPS the provider documents for it. */
export interface InstanceStoreTable extends Cited {
  /** Block size in KiB the IOPS are stated at. */
  block_kib?: number;
  types: Record<string, { devices: number; device_gb: number; media: string; read_iops: number; write_iops: number }>;
  /** Instance types whose instance store the provider lists with no IOPS: such a disk has no figures. */
  unstated?: Record<string, { devices: number; device_gb: number; media: string }>;
}
