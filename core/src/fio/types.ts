/** What the fio generator produces: jobs with their predictions, files, and the options that shape them. */

export interface FioPrediction {
  read_iops: number;
  write_iops: number;
  read_mibps: number;
  write_mibps: number;
  /** The limit that binds (the report's `limited_by` vocabulary). */
  limited_by: string;
  /** The model's sentence for it, naming the catalog table. */
  why: string;
}

export type FioJobKind = 'fill' | 'workload' | 'probe';
export type FioProbe = 'write-bw' | 'write-iops' | 'write-lat' | 'read-bw' | 'read-iops' | 'read-lat';

/** What `compare` needs to explain a gap between a measurement and the prediction. */
export interface FioJobContext {
  /** Network disks (the queue and CPU guidance applies); false for local SSD. */
  network: boolean;
  vcpus?: number;
  /** Free vCPUs the model wants for the predicted IOPS (network disks). */
  cpu_vcpus_needed: number;
  cpu_guidance: string;
  /** IOPS one outstanding I/O carries at the guidance's slow and fast end (Little's law). */
  iops_per_io: { low: number; high: number };
  queue_guidance: string;
  sequential: boolean;
  /**
   * Set on a workload's job when the workload's figure in the spec is its share of a limit the VM's other
   * workloads use at once: the job runs alone (stonewall) and is predicted alone, and this says what the share is.
   */
  vm_share?: string;
  /** That share, in IOPS (both directions). */
  shared_iops?: number;
  /** Set when the disk type can burst above its sustained figures. */
  burst?: string;
}

export interface FioJob {
  /** The job's section name, and its `jobname` in fio's JSON output. */
  name: string;
  rw: string;
  bs_kib: number;
  iodepth: number;
  numjobs: number;
  predicted: FioPrediction;
  kind: FioJobKind;
  probe?: FioProbe;
  /** The spec workload this job reproduces. */
  workload?: string;
  /** Disks the job works on. */
  disks: string[];
  /** Percentage of reads for mixed jobs (fio's rwmixread). */
  rwmixread?: number;
  /** Which figure to read the result by: operations for small blocks, bytes for large ones. */
  metric: 'iops' | 'mibps';
  /**
   * Total IOPS the job is expected to land between. Usually a point (the prediction); for a job whose queue
   * depth binds, the range Little's law gives at the guidance's 2.5 ms and 1.25 ms per I/O.
   */
  expected_iops: { low: number; high: number };
  /** Seconds the job is expected to take, ramp included. */
  seconds: number;
  context: FioJobContext;
}

export interface FioFile {
  vm: string;
  /** The disk the file tests; absent for a file of workloads that spread over all the VM's disks. */
  disk?: string;
  fileName: string;
  text: string;
  jobs: FioJob[];
  /** True when some job writes to a raw block device. */
  destructive: boolean;
  expectedSeconds: number;
}

export interface FioOptions {
  /** Only this VM. */
  vm?: string;
  /** Allow writing to every disk's `device` (as `fio_destructive: true` on each disk would). */
  destructive?: boolean;
  /** Seconds each timed job runs (fractions allowed); default 60, as in Google's benchmarking guide. */
  runtimeSeconds?: number;
  /** How the spec is referred to in the files' "compare" hint. */
  specName?: string;
  /** Size of every disk's test file or device region, KiB, in place of the spec's `fio_size` (short trials). */
  sizeKib?: number;
  /** Leave the test file on the disk after the run (by default the last job deletes it: fio's unlink=1). */
  keepTestFile?: boolean;
}
