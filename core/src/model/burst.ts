/**
 * Figures that hold only for a while: a disk's burst bucket (AWS gp2: 3,000 IOPS while I/O credits last) and
 * a machine's burst window (AWS: an instance's EBS maximum for 30 minutes a day). The sustained figures stay
 * what they are; a burst is kept beside them, with how long it lasts at full use. Targets are judged on the
 * sustained figures only.
 */
import { limitValue, vmLimitGroup, vmLimitRow, type Catalog, type Machine } from '../catalog';
import { fmt } from '../units';
import { ioUnits, tierOwnBurst } from './tiers';
import { metricLabel, metricUnit } from './disks';
import { shareCap } from './vm-share';
import { bound, METRICS, type Burst, type DiskBursts, type DiskEval, type Metric, type WorkloadBurst, type WorkloadEval } from './types';

interface OwnBurst {
  value: number;
  /** Credits in the bucket (I/Os, or MiB), and the sustained rate that earns them, in the same unit. */
  bucket: number;
  base: number;
  /** What the disk spends of its bucket each second at `value` of this figure. */
  spend: number;
  /** Azure's on-demand bursting: no bucket, no time limit (`bucket` is Infinity). */
  onDemand?: boolean;
}

/**
 * The disk alone: a credit bucket lifts its IOPS to the burst level while it lasts (gp2 under 1 TiB), and its
 * throughput to what those IOPS carry at the largest I/O that counts as one (gp2: 256 KiB; at most 128 MiB/s up to
 * 170 GiB); or a throughput bucket lifts its throughput, and with it the IOPS of its 1 MiB I/Os (st1, sc1). The
 * bucket is in I/Os or in MiB.
 */
function ownBurst(d: DiskEval, m: Metric): OwnBurst | undefined {
  const t = d.type;
  if (t.model === 'tiers') return tierOwnBurst(d, m);
  if (t.model !== 'scaled') return undefined;
  const cap = t.disk_max[m];
  const max = typeof cap === 'number' ? cap : Infinity;
  const base = d.diskOnly[m];
  const iopsMetric = m === 'read_iops' || m === 'write_iops';
  // The burst's record is made only when the disk bursts (asked for every figure of every candidate's disks).
  if (t.credits && (iopsMetric || t.credits.io_kib)) {
    const cr = t.credits;
    const perIo = iopsMetric ? 1 : cr.io_kib! / 1024;
    let sizeCap = Infinity;
    for (const r of cr.burst_mibps_max ?? [])
      if (d.size_gib <= r.up_to_gib) {
        sizeCap = r.mibps;
        break;
      }
    const value = iopsMetric ? Math.min(cr.iops, max) : Math.min(cr.iops * perIo, sizeCap, max);
    if (!(value > base + 1e-9)) return undefined;
    // Credits are I/Os: the baseline that earns them is the volume's IOPS; a MiB/s burst spends I/Os of io_kib.
    const baseIops = d.diskOnly[m.endsWith('iops') ? m : m === 'read_mibps' ? 'read_iops' : 'write_iops'];
    return { value, bucket: cr.bucket, base: baseIops, spend: value / perIo };
  }
  if (t.throughput_credits) {
    const tc = t.throughput_credits;
    const value = Math.min(tc.burst_mibps_per_gib * d.size_gib, tc.burst_max_mibps, max);
    if (!(value > base + 1e-9)) return undefined;
    // st1 and sc1 count every I/O as io_kib (1 MiB): their IOPS and MiB/s figures are the same number of MiB.
    const perIo = iopsMetric ? tc.io_kib / 1024 : 1;
    return { value, bucket: tc.bucket_mib_per_gib * d.size_gib, base: base * perIo, spend: value * perIo };
  }
  return undefined;
}

/**
 * What a workload spends of a disk's bucket each second: I/Os, an I/O larger than the type's counts as several
 * (gp2), or MiB where each I/O of up to the type's I/O size counts as a whole one (st1, sc1).
 */
function spendRate(d: DiskEval, iops: number, blockKib: number): number {
  if (d.type.model === 'tiers') return iops * ioUnits(d, blockKib);
  if (d.type.model !== 'scaled') return iops;
  const tc = d.type.throughput_credits;
  if (tc) return (iops * Math.max(blockKib, tc.io_kib)) / 1024;
  const io = d.type.credits?.io_kib;
  return io ? iops * Math.max(1, Math.ceil(blockKib / io - 1e-9)) : iops;
}

const HAS_BURSTS = new WeakMap<Catalog, boolean>();
/** Whether an edition has any credit bucket or burst window at all. */
export function catalogBursts(c: Catalog): boolean {
  let v = HAS_BURSTS.get(c);
  if (v === undefined) {
    v =
      Object.values(c.disk_types).some(
        (t) => (t.model === 'scaled' && (!!t.credits || !!t.throughput_credits)) || (t.model === 'tiers' && !!t.credit_burst),
      ) || c.vm_limits.some((t) => t.burst_seconds !== undefined);
    HAS_BURSTS.set(c, v);
  }
  return v;
}

/** How long a bucket lasts when the disk runs at `rate`: credits / (rate − baseline) (AWS's formula). */
export function bucketSeconds(bucket: number, rate: number, base: number): number {
  return rate > base + 1e-9 ? bucket / (rate - base) : Infinity;
}

/**
 * Each disk's bursts on this machine, among the disks given. Disks that share a per-VM limit share its burst
 * level too, as they share the sustained one (the targets' demand first, the rest in proportion to what each reaches alone at its best); a burst ends with the first of the disk's bucket and the window.
 */
export function diskBursts(c: Catalog, machine: Machine | undefined, disks: DiskEval[]): Map<DiskEval, DiskBursts> {
  const out = new Map<DiskEval, DiskBursts>();
  const groups = new Map<string, DiskEval[]>();
  for (const d of disks) {
    const key = machine && d.type.model !== 'devices' ? vmLimitGroup(c, machine, d.typeName) : `:${d.spec.name}`;
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  for (const group of groups.values()) {
    const found = machine && group[0].type.model !== 'devices' ? vmLimitRow(c, machine, group[0].typeName) : undefined;
    for (const m of METRICS) {
      // The machine's sustained limit, and the level it reaches for its window (none: the same).
      const sustained = (found && machine && limitValue(found.row[m], machine.vcpus)) ?? Infinity;
      const lifted = found?.row.burst?.[m] ?? sustained;
      const windowSeconds = found?.table.burst_seconds;
      // What each disk reaches alone at its best, and whether any has a bucket: without one, or a window above
      // the sustained limit, nothing here bursts (no burst lasts for ever), as for most figures of most VMs.
      const best = new Array<number>(group.length); // of its final length: a push onto [] reserves room for 17
      let total = 0;
      let bucket = false;
      for (let i = 0; i < group.length; i++) {
        const own = ownBurst(group[i], m);
        if (own) bucket = true;
        best[i] = own?.value ?? group[i].diskOnly[m];
        total += best[i];
      }
      if (!bucket && (windowSeconds === undefined || lifted === sustained)) continue;
      const atLifted = shareAt(lifted, group, m, best, total);
      const atSustained = lifted === sustained ? atLifted : shareAt(sustained, group, m, best, total);
      for (let i = 0; i < group.length; i++) {
        const d = group[i];
        const value = atLifted[i];
        if (value <= d.figures[m] * 1.001) continue;
        const own = ownBurst(d, m);
        if (own?.onDemand && atSustained[i] > d.figures[m] * 1.001) {
          // No time limit: what the machine sustains of the burst figure, for as long as it runs. The machine's
          // own burst window above that is not added.
          setBurst(out, d, m, { value: atSustained[i], seconds: Infinity, ends: 'on-demand' });
          continue;
        }
        const credits = own ? bucketSeconds(own.bucket, (own.spend * value) / own.value, own.base) : Infinity;
        const aboveMachine = value > atSustained[i] * 1.001;
        const window = aboveMachine && windowSeconds !== undefined ? windowSeconds : Infinity;
        const seconds = Math.min(credits, window);
        if (!Number.isFinite(seconds)) continue;
        const burst: Burst = { value, seconds, ends: credits <= window ? 'credits' : 'window' };
        if (Number.isFinite(window)) burst.window = { above: atSustained[i], seconds: window };
        setBurst(out, d, m, burst);
      }
    }
  }
  return out;
}

function setBurst(out: Map<DiskEval, DiskBursts>, d: DiskEval, m: Metric, burst: Burst): void {
  const bursts = out.get(d);
  if (bursts) bursts[m] = burst;
  else out.set(d, { [m]: burst });
}

/** Each disk's bursts while the VM's other disks are idle (the disk's figures are its figures alone). */
export function aloneBursts(c: Catalog, machine: Machine | undefined, disks: DiskEval[]): Map<DiskEval, DiskBursts> {
  const out = new Map<DiskEval, DiskBursts>();
  for (const d of disks) for (const [x, b] of diskBursts(c, machine, [d])) out.set(x, b);
  return out;
}

/** A cap shared like the sustained limit (./vm-share): the targets' demand first, then the rest; under it, `best`. */
function shareAt(cap: number, group: DiskEval[], m: Metric, best: number[], total: number): number[] {
  if (!(total > cap)) return best;
  return shareCap(
    cap,
    best,
    group.map((d) => d.demand?.[m] ?? 0),
  ).values;
}

/** "3,000 IOPS for 31 min, then 300". */
export function burstText(value: number, seconds: number, sustained: number, unit: string): string {
  if (!Number.isFinite(seconds)) return `${fmt(value)} ${unit} with no time limit, ${fmt(sustained)} sustained`;
  const dur = seconds >= 120 ? `${fmt(seconds / 60)} min` : `${fmt(seconds)} s`;
  return `${fmt(value)} ${unit} for ${dur}, then ${fmt(sustained)}`;
}

/**
 * A workload's burst in one phrase ("3,000 IOPS for 33.3 min, then 300"), in the unit of its target; without
 * one, MiB/s for large blocks. Undefined when it has no burst. The JSON report and the hover both say this.
 */
export function workloadBurstText(w: WorkloadEval): string | undefined {
  const b = w.burst;
  if (!b) return undefined;
  const t = w.spec.target;
  const bytes =
    t.mibps !== undefined ||
    t.read_mibps !== undefined ||
    t.write_mibps !== undefined ||
    (t.iops === undefined && t.read_iops === undefined && t.write_iops === undefined && w.spec.block_kib >= 128);
  return !bytes
    ? burstText(b.read_iops + b.write_iops, b.seconds, w.read_iops + w.write_iops, 'IOPS')
    : burstText(b.read_mibps + b.write_mibps, b.seconds, w.read_mibps + w.write_mibps, 'MiB/s');
}

/** The workload again on its disks' burst figures; undefined when bursting gives it nothing more. */
export function workloadBurst(
  w: WorkloadEval,
  disks: readonly DiskEval[],
  bursts: Map<DiskEval, DiskBursts>,
  evaluate: (on: DiskEval[]) => WorkloadEval,
): WorkloadBurst | undefined {
  const on = disks.filter((d) => w.disks.includes(d.spec.name));
  if (!on.some((d) => bursts.has(d))) return undefined;
  const lifted = on.map((d) => {
    const b = bursts.get(d);
    if (!b) return d;
    const figures = d.figures.copy();
    for (const m of METRICS) {
      const x = b[m];
      if (!x) continue;
      // The sustained figure's sentence, read only if this one's is (this evaluation's sentences seldom are).
      const f = d.figures.bound(m);
      figures.setTo(
        m,
        bound(x.value, f.by, () => f.why),
      );
    }
    figures.dropWriteIops16k();
    return { ...d, figures };
  });
  const r = evaluate(lifted);
  const total = (x: { read_iops: number; write_iops: number }) => x.read_iops + x.write_iops;
  if (total(r) <= total(w) * 1.001) return undefined;
  let seconds = Infinity;
  let ends: WorkloadBurst['ends'] | undefined;
  for (let i = 0; i < on.length; i++) {
    const d = on[i];
    for (const m of METRICS) {
      const b = bursts.get(d)?.[m];
      if (!b) continue;
      // What the workload uses of this figure while bursting: a figure it uses no more of than the sustained one
      // (throughput at small blocks), or no more than the machine sustains, does not end its burst.
      const use = usage(r, lifted, i, m);
      if (use <= d.figures[m] * 1.001) continue;
      const own = ownBurst(d, m);
      // At the workload's own rate a bucket drains more slowly than at the full burst level; reads and writes
      // spend the same credits.
      const credits =
        own && use > d.diskOnly[m] * 1.001
          ? bucketSeconds(own.bucket, on.length === 1 ? spendRate(d, total(r), w.spec.block_kib) : (own.spend * use) / own.value, own.base)
          : Infinity;
      const window = b.window && use > b.window.above * 1.001 ? b.window.seconds : Infinity;
      const s = Math.min(credits, window);
      if (s < seconds) {
        seconds = s;
        ends = credits <= window ? 'credits' : 'window';
      } else if (!Number.isFinite(s) && b.ends === 'on-demand') ends ??= 'on-demand';
    }
  }
  if (!Number.isFinite(seconds) && ends !== 'on-demand') return undefined;
  if (!ends) return undefined;
  return { read_iops: r.read_iops, write_iops: r.write_iops, read_mibps: r.read_mibps, write_mibps: r.write_mibps, seconds, ends };
}

/**
 * What a workload at `r` uses of disk `i`'s figure `m`: reads and writes together where the type shares the
 * resource between them, one direction where each has its own; over several disks, in proportion to their figures.
 */
function usage(r: WorkloadEval, on: DiskEval[], i: number, m: Metric): number {
  const d = on[i];
  const bytes = m.endsWith('mibps');
  const shared = d.type.mix[bytes ? 'throughput' : 'iops'] === 'shared';
  const read = bytes ? r.read_mibps : r.read_iops;
  const write = bytes ? r.write_mibps : r.write_iops;
  const all = shared ? read + write : m.startsWith('read') ? read : write;
  const sum = on.reduce((s, x) => s + x.figures[m], 0);
  return on.length === 1 || sum <= 0 ? all : (all * d.figures[m]) / sum;
}

/**
 * A disk's own bursts, one phrase per figure ("read and write IOPS: 3,000 IOPS for 33.3 min, then 300 (burst
 * credits)"); reads and writes said once where they burst alike. Empty when the disk has no burst.
 */
export function diskBurstTexts(d: DiskEval): string[] {
  const b = d.burst;
  if (!b) return [];
  const ends = (x: Burst) => burstEndText(x.ends, 'its');
  const one = (m: Metric, x: Burst) => `${burstText(x.value, x.seconds, d.figures[m], metricUnit(m))} (${ends(x)})`;
  const out: string[] = [];
  for (const [r, w, what] of [
    ['read_iops', 'write_iops', 'IOPS'],
    ['read_mibps', 'write_mibps', 'throughput'],
  ] as const) {
    const br = b[r];
    const bw = b[w];
    if (br && bw && one(r, br) === one(w, bw)) out.push(`read and write ${what}: ${one(r, br)}`);
    else {
      if (br) out.push(`${metricLabel(r)}: ${one(r, br)}`);
      if (bw) out.push(`${metricLabel(w)}: ${one(w, bw)}`);
    }
  }
  return out;
}

/** What ends a burst, as the texts say it: "until its burst credits run out". */
export function burstEndText(ends: Burst['ends'], whose: 'its' | 'the'): string {
  if (ends === 'credits') return `until ${whose} burst credits run out`;
  if (ends === 'on-demand') return 'on-demand bursting, billed per burst transaction';
  return "within the instance's burst window";
}
