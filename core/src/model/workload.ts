/**
 * What a workload reaches on its disks: at its own block size, read/write mix and queue depth.
 *
 * The total operation rate T is the largest that satisfies every constraint:
 *  - per-direction IOPS at this block size: reads up to the read limit, writes up to the write limit, and
 *    never more bytes than the throughput limits allow (Yandex: the documented harmonic formula instead);
 *  - how reads and writes share the disk: "shared" means the read and write fractions of the budget add up
 *    to at most 1 (Google's simultaneous read/write tables; Yandex's mixed formula), "independent" means
 *    each direction has its own limit;
 *  - Little's law: at most `queue_depth` × (IOPS per outstanding I/O) operations per second.
 */
import type { Catalog, MixRule } from '../catalog';
import type { WorkloadSpec } from '../document/types';
import { fmt, formatBlock } from '../units';
import { bound, type Bound, type DiskEval, type DiskFigures, type LimitKind, type Targets, type WorkloadEval } from './types';

interface Constraint {
  total: number;
  by: LimitKind;
  why: () => string;
  kind: 'iops' | 'bytes' | 'queue';
}

/** Sums the figures of several disks (a workload spread over all of a VM's disks). */
export function sumFigures(disks: DiskEval[]): DiskFigures {
  const out = {} as DiskFigures;
  for (const m of ['read_iops', 'write_iops', 'read_mibps', 'write_mibps', 'write_iops_16k'] as const) {
    const parts = disks
      .map((d) => d.figures[m] ?? (m === 'write_iops_16k' ? d.figures.write_iops : undefined))
      .filter((b): b is Bound => !!b);
    if (!parts.length) continue;
    if (m === 'write_iops_16k' && disks.every((d) => !d.figures.write_iops_16k)) continue;
    const top = parts.reduce((a, b) => (b.value > a.value ? b : a));
    out[m] =
      parts.length === 1
        ? top
        : bound(
            parts.reduce((s, b) => s + b.value, 0),
            top.by,
            () => `sum over ${parts.length} disks; the largest share: ${top.why}`,
          );
  }
  return out;
}

export function mixRule(disks: DiskEval[], what: 'iops' | 'throughput'): MixRule {
  return disks.some((d) => d.type.mix[what] === 'shared') ? 'shared' : 'independent';
}

export function evaluateWorkload(c: Catalog, w: WorkloadSpec, disks: DiskEval[]): WorkloadEval {
  const B = w.block_kib;
  const rho = w.read_ratio;
  const blk = formatBlock(B);
  const networkDisks = disks.some((d) => d.type.model !== 'devices');
  const binding = constraintsOf(c, w, disks, networkDisks).reduce((a, b) => (b.total < a.total ? b : a));
  const T = Math.max(0, binding.total);
  const read_iops = rho * T;
  const write_iops = (1 - rho) * T;
  const read_mibps = (read_iops * B) / 1024;
  const write_mibps = (write_iops * B) / 1024;

  const targets = w.target as Targets;
  const achieved = { iops: T, read_iops, write_iops, mibps: read_mibps + write_mibps, read_mibps, write_mibps };
  const judged = judgeTargets(targets, achieved);
  const { shortfalls } = judged;
  let { headroom } = judged;
  // Figures the machine's vCPUs do not reach (local SSD): a target missed even at them is missed; one met only at
  // them is not judged (the provider gives no figure for fewer vCPUs, so neither met nor missed can be said).
  const unreached = disks.find((d) => d.vcpusNeeded)?.vcpusNeeded;
  let meets = judged.headroom !== undefined ? shortfalls.length === 0 : undefined;
  if (unreached && headroom !== undefined) {
    if (meets) meets = undefined;
    else shortfalls.push(`its local SSD figures only with ${unreached.need} vCPUs (the machine has ${unreached.vcpus})`);
    headroom = undefined;
  }
  let limited_by = binding.by;
  let explain = () => `${fmt(T)} IOPS at ${blk} (${fmt(rho * 100)}% reads): ${binding.why()}`;
  // Small blocks: the IOPS limit binds long before the throughput limit, so a throughput target is out of reach.
  const wantsBytes = targets.mibps !== undefined || targets.read_mibps !== undefined || targets.write_mibps !== undefined;
  if (wantsBytes && shortfalls.length && binding.kind === 'iops' && B < c.io.throughput_min_kib) {
    limited_by = 'block_size';
    const base = explain;
    explain = () =>
      `${base()}; at ${blk} per I/O the IOPS limit caps throughput at ${fmt(achieved.mibps)} MiB/s (full throughput needs ${formatBlock(c.io.throughput_min_kib)} or larger I/O)`;
  }

  const demand = demandIops(targets, rho, B) ?? T;
  let whyText: string | undefined;
  return {
    spec: w,
    disks: disks.map((d) => d.spec.name),
    read_iops,
    write_iops,
    read_mibps,
    write_mibps,
    limited_by,
    get why() {
      return (whyText ??= explain());
    },
    meets_target: meets,
    headroom,
    shortfalls,
    demand_iops: demand,
    cpu_vcpus_needed: networkDisks ? (rho * demand) / c.cpu.read_iops_per_vcpu + ((1 - rho) * demand) / c.cpu.write_iops_per_vcpu : 0,
    queue_depth_needed: {
      low: Math.max(1, Math.ceil(demand / c.queue.iops_per_outstanding_io.high)),
      high: Math.max(1, Math.ceil(demand / c.queue.iops_per_outstanding_io.low)),
    },
  };
}

/** Every limit on the workload's total operation rate; the smallest binds. */
function constraintsOf(c: Catalog, w: WorkloadSpec, disks: DiskEval[], networkDisks: boolean): Constraint[] {
  const f = sumFigures(disks);
  const B = w.block_kib;
  const rho = w.read_ratio;
  // Writes above the small-write size have their own IOPS column where the tables give one (gcp-2020: 16 KiB).
  const writeIopsLimit = B > c.io.write_iops_max_kib && f.write_iops_16k ? f.write_iops_16k : f.write_iops;
  const constraints: Constraint[] = [];
  if (c.io.iops_formula === 'harmonic') {
    // Yandex: the per-direction formula already folds in bandwidth; reads and writes share one resource.
    const readOps = harmonicIops(f.read_iops, f.read_mibps, B, 'read');
    const writeOps = harmonicIops(writeIopsLimit, f.write_mibps, B, 'write');
    constraints.push(
      shared(
        rho,
        readOps,
        writeOps,
        'iops',
        () => `reads and writes share the disk: 1 / (${fmt(rho)}/${fmt(readOps.value)} + ${fmt(1 - rho)}/${fmt(writeOps.value)})`,
      ),
    );
  } else {
    const table = disks[0].type.mix.table;
    if (mixRule(disks, 'iops') === 'shared')
      constraints.push(
        shared(rho, f.read_iops, writeIopsLimit, 'iops', () => `reads and writes share the IOPS limit (${c.edition}: ${table})`),
      );
    else constraints.push(...independent(rho, f.read_iops, writeIopsLimit, 'iops'));
    const rb = bytesAsOps(f.read_mibps, B);
    const wb = bytesAsOps(f.write_mibps, B);
    if (mixRule(disks, 'throughput') === 'shared')
      constraints.push(shared(rho, rb, wb, 'bytes', () => `reads and writes share the throughput limit (${c.edition}: ${table})`));
    else constraints.push(...independent(rho, rb, wb, 'bytes'));
  }
  // The queue and CPU guidance is for network disks (milliseconds of latency); local SSDs answer far faster.
  if (w.queue_depth !== undefined && networkDisks) {
    const per = c.queue.iops_per_outstanding_io.high;
    const qd = w.queue_depth;
    constraints.push({
      total: qd * per,
      by: 'queue_depth',
      kind: 'queue',
      why: () =>
        `queue depth ${qd} × at most ${per} IOPS per outstanding I/O = ${fmt(qd * per)} IOPS (Little's law; ${c.edition}: ${c.queue.table})`,
    });
  }
  return constraints;
}

/** The shortfalls against each target and the smallest headroom (undefined without targets). */
export function judgeTargets(targets: Targets, achieved: Record<keyof Targets, number>): { shortfalls: string[]; headroom?: number } {
  // Shortfalls that read alike (read and write each 1,590 of 2,000,000 IOPS) are said once, for both.
  const alike = new Map<string, string[]>();
  let headroom: number | undefined;
  for (const k of Object.keys(targets) as Array<keyof Targets>) {
    const want = targets[k];
    if (want === undefined) continue;
    const got = achieved[k];
    const ratio = want > 0 ? got / want - 1 : Infinity;
    if (headroom === undefined || ratio < headroom) headroom = ratio;
    if (got + 1e-6 >= want) continue;
    const unit = k.endsWith('iops') ? 'IOPS' : 'MiB/s';
    // Short of the target by less than the rounding shows: more digits, never "322 of 322".
    const shown = fmt(got) === fmt(want) ? fmt(got, 2) : fmt(got);
    const figure = `${shown} of ${fmt(want)} ${unit}`;
    alike.set(figure, [...(alike.get(figure) ?? []), TARGET_LABEL[k].replace(` ${unit === 'IOPS' ? 'IOPS' : 'throughput'}`, '')]);
  }
  const shortfalls = [...alike].map(([figure, labels]) => {
    const what = figure.endsWith('IOPS') ? 'IOPS' : 'throughput';
    return labels.length === 1 ? `${labels[0]} ${what} ${figure}` : `${labels.join(' and ')} ${what} ${figure} each`;
  });
  return { shortfalls, headroom };
}

const TARGET_LABEL: Record<keyof Targets, string> = {
  iops: 'total IOPS',
  read_iops: 'read IOPS',
  write_iops: 'write IOPS',
  mibps: 'total throughput',
  read_mibps: 'read throughput',
  write_mibps: 'write throughput',
};

/** The total IOPS a workload's targets ask for, at its mix and block size. */
export function demandIops(t: Targets, rho: number, blockKib: number): number | undefined {
  const asks: number[] = [];
  if (t.iops !== undefined) asks.push(t.iops);
  if (t.read_iops !== undefined && rho > 0) asks.push(t.read_iops / rho);
  if (t.write_iops !== undefined && rho < 1) asks.push(t.write_iops / (1 - rho));
  const opsFor = (mibps: number) => (mibps * 1024) / blockKib;
  if (t.mibps !== undefined) asks.push(opsFor(t.mibps));
  if (t.read_mibps !== undefined && rho > 0) asks.push(opsFor(t.read_mibps) / rho);
  if (t.write_mibps !== undefined && rho < 1) asks.push(opsFor(t.write_mibps) / (1 - rho));
  return asks.length ? Math.max(...asks) : undefined;
}

function bytesAsOps(b: Bound, blockKib: number): Bound {
  const v = (b.value * 1024) / blockKib;
  return bound(v, b.by, () => `${fmt(b.value)} MiB/s ÷ ${formatBlock(blockKib)} = ${fmt(v)} IOPS; ${b.why}`);
}

/** Yandex's documented actual-IOPS formula for one request size: 1 / (1/MaxIOPS + size/MaxBandwidth). */
export function harmonicIops(iops: Bound, mibps: Bound, blockKib: number, dir: string): Bound {
  const iopsTerm = 1 / iops.value;
  const bytesTerm = blockKib / 1024 / mibps.value;
  const v = 1 / (iopsTerm + bytesTerm);
  const by = iopsTerm >= bytesTerm ? iops.by : mibps.by;
  return bound(
    v,
    by,
    () =>
      `${dir} IOPS at ${formatBlock(blockKib)}: 1 / (1/${fmt(iops.value)} + ${formatBlock(blockKib)} ÷ ${fmt(mibps.value)} MiB/s) = ${fmt(v)}; ${(iopsTerm >= bytesTerm ? iops : mibps).why}`,
  );
}

function shared(rho: number, r: Bound, w: Bound, kind: 'iops' | 'bytes', rule: () => string): Constraint {
  // A direction the workload does not use costs nothing, even where its figure is 0 (a share with nothing left).
  const rTerm = rho > 0 ? rho / r.value : 0;
  const wTerm = rho < 1 ? (1 - rho) / w.value : 0;
  const total = 1 / (rTerm + wTerm);
  const dominant = rTerm >= wTerm ? r : w;
  const pure = rho === 1 || rho === 0;
  return { total, by: dominant.by, kind, why: () => (pure ? dominant.why : `${rule()}; the larger part: ${dominant.why}`) };
}

function independent(rho: number, r: Bound, w: Bound, kind: 'iops' | 'bytes'): Constraint[] {
  const out: Constraint[] = [];
  if (rho > 0) out.push({ total: r.value / rho, by: r.by, kind, why: () => r.why });
  if (rho < 1) out.push({ total: w.value / (1 - rho), by: w.by, kind, why: () => w.why });
  return out;
}
