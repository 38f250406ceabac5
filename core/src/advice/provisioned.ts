/**
 * Disks of the types whose performance is bought apart from their size (AWS gp3, io1): the least provisioned
 * IOPS, and where asked the least provisioned throughput, on which a condition holds, and the cheapest such
 * disk over those types. Every candidate is evaluated by the model, as in ./search.
 */
import { attaches, type Catalog, type Machine, type ProvisionedDiskType } from '../catalog';
import type { DiskSpec, VmSpec } from '../document/types';
import { perGibPrice } from '../model/cost';
import { diskPriceOn, evaluateSustained } from '../model/evaluate';
import { provisionedBounds } from '../model/provisioned';
import type { VmEval } from '../model/types';
import { leastValue, probeOf, reaches, type Condition, type Probe } from './least';
import { leastByOwnFigures, shortWith, unjudgedWith } from './rows';

/** A provisioned disk that meets the condition: its type, size, what is provisioned above the defaults, and its price. */
export interface ProvisionedChoice {
  type: string;
  size_gib: number;
  /** Set only where above what the type gives without asking. */
  provisioned_iops?: number;
  provisioned_mibps?: number;
  /** Its monthly price; with `unpriced`, only the part the catalog prices (a lower bound). */
  monthly: number;
  /** Some part of its price is missing from the catalog (a provisioned IOPS rate, say). Only `ownProvisioned` gives such a choice. */
  unpriced?: boolean;
}

interface Where {
  c: Catalog;
  vm: VmSpec;
  machine: Machine;
  region: string;
  disk: DiskSpec;
  ok: Condition;
}

/**
 * The disk as a `name` disk of `sizeGib`, with the least provisioned IOPS (then, when `throughput`, the least
 * provisioned throughput) on which `ok` holds; undefined when none does, or its price is not wholly known, or when
 * no amount that can hold costs less than `below` a month.
 */
function leastProvisioned(
  w: Where,
  name: string,
  t: ProvisionedDiskType,
  sizeGib: number,
  throughput: boolean,
  unpriced = false,
  below = Infinity,
): ProvisionedChoice | undefined {
  const pr = t.provisioned;
  const size = Math.max(sizeGib, t.size_gib.min);
  if (size > t.size_gib.max || unjudgedWith(w.c, w.vm, w.machine, w.ok, w.disk, name)) return undefined;
  const iopsRange = pr.iops ? provisionedBounds(pr.iops, size) : undefined;
  const mibpsRange = throughput && pr.mibps ? provisionedBounds(pr.mibps, size) : undefined;
  const spec = (iops?: number, mibps?: number): DiskSpec => ({
    ...w.disk,
    type: name,
    size_gib: size,
    provisioned_iops: iops,
    provisioned_mibps: mibps,
  });
  // The amounts a search confirms are asked again (the IOPS found, with the most throughput, starts the throughput
  // search; the least of both is priced): each pair is evaluated once. Parts are found by name, not by spec.
  const evaluated = new Map<string, VmEval>();
  const run = (d: DiskSpec) => {
    const key = `${d.provisioned_iops}/${d.provisioned_mibps}`;
    let e = evaluated.get(key);
    if (!e)
      evaluated.set(
        key,
        (e = evaluateSustained(w.c, { ...w.vm, disks: w.vm.disks.map((x) => (x === w.disk ? d : x)) }, w.machine, w.region)),
      );
    return e;
  };
  // Throughput the search does not buy stays as the disk has it, on a type that provisions throughput at all;
  // on one that does not (io2, Hyperdisk Extreme) the choice carries none, as its edit writes none.
  const kept = pr.mibps ? w.disk.provisioned_mibps : undefined;
  // Written where above what the type gives unasked, or where the spec writes the key already (it is then changed);
  // a type that needs its IOPS written (io1) gets them written even at the least value.
  const keep = (v: number | undefined, def: number | undefined, written: boolean) =>
    v !== undefined && (def === undefined || v > def || written) ? v : undefined;
  const written = (iops?: number, mibps?: number) =>
    spec(
      keep(iops, pr.iops?.default, w.disk.provisioned_iops !== undefined),
      mibpsRange ? keep(mibps, pr.mibps?.default, w.disk.provisioned_mibps !== undefined) : kept,
    );
  // Each amount is evaluated as the choice would write it: below the type's default, the default.
  const probe = (iops?: number, mibps?: number) => probeOf(w.ok, run(written(iops, mibps)));
  // Below the least amount the disk's own figures allow (./rows), nothing meets it: IOPS with the most throughput,
  // throughput with the IOPS found. The searches start there, and none runs where that is above the most.
  const byOwn = (r: { lo: number; hi: number }, disk: (v: number) => DiskSpec) =>
    leastByOwnFigures(w.c, w.vm, w.ok, (v) => ({ spec: disk(v), size }), r.lo, r.hi);
  const iopsFrom = iopsRange ? byOwn(iopsRange, (v) => written(v, mibpsRange?.hi)) : undefined;
  if (iopsRange && iopsFrom! > iopsRange.hi) return undefined;
  // No amount below those least ones holds, and a disk costs no less with more of either: where they cost `below`
  // or more, nothing is evaluated (a dearer type than one a search found already).
  if (below < Infinity) {
    const floor = diskPriceOn(w.c, w.vm, w.machine, w.region, written(iopsFrom, mibpsRange?.lo));
    if (floor?.complete && floor.monthly !== undefined && floor.monthly >= below) return undefined;
  }
  const from = { iops: iopsFrom, mibps: (iops?: number) => byOwn(mibpsRange!, (v) => written(iops, v)) };
  // The least of each that the disk's own figures allow, first: nothing below it holds, so where it holds it is the
  // answer the search would end at, found in one evaluation (the search takes two to four).
  const own = ownLeast(iopsRange, mibpsRange, from);
  const search = (): DiskSpec | undefined => {
    // Where the figures fall short with the most of both (or are not judged there), no amount meets it. Else the
    // least of both, unless the own figures rule it out; and where this disk shares a limit with another (AWS's
    // per-instance limit, split by what each asks), the most of both can take another disk's share from its
    // workloads, and fail where the least holds.
    const most = probe(iopsRange?.hi, mibpsRange?.hi);
    if (!most.ok && !reaches(most, w.ok.need)) return undefined;
    const leastMayHold = !(iopsRange && iopsFrom! > iopsRange.lo);
    if (leastMayHold && probe(iopsRange?.lo, mibpsRange?.lo).ok) return written(iopsRange?.lo, mibpsRange?.lo);
    const found = (iopsRange || mibpsRange) && searched(iopsRange, mibpsRange, probe, from, w.ok.need);
    return found ? written(found.iops, found.mibps) : undefined;
  };
  const choice = own && probe(own.iops, own.mibps).ok ? written(own.iops, own.mibps) : search();
  return choice && pricedChoice(choice, run(choice), unpriced);
}

/**
 * The disk a search found (`choice`, a disk of the VM evaluated as `e`), with its price; undefined where the catalog
 * lacks part of the price, unless `unpriced` lets the known part stand.
 */
function pricedChoice(choice: DiskSpec, e: VmEval, unpriced: boolean): ProvisionedChoice | undefined {
  const cost = e.disks.find((d) => d.spec.name === choice.name)?.cost;
  const priced = !!cost?.complete && cost.monthly !== undefined;
  if (!priced && !unpriced) return undefined;
  return {
    type: choice.type,
    size_gib: choice.size_gib!,
    provisioned_iops: choice.provisioned_iops,
    provisioned_mibps: choice.provisioned_mibps,
    monthly: cost?.monthly ?? 0,
    ...(priced ? {} : { unpriced: true }),
  };
}

type Range = { lo: number; hi: number } | undefined;

/**
 * The amounts `searched` ends at where the least the disk's own figures allow holds: those IOPS (`from.iops`), then
 * the least throughput the own figures allow with them, each as its search gives it (the range's own least where
 * that is all they ask, else a whole value). Undefined where nothing is provisioned, or the own figures ask more
 * throughput than the type gives.
 */
function ownLeast(
  iopsRange: Range,
  mibpsRange: Range,
  from: { iops?: number; mibps: (iops?: number) => number },
): { iops?: number; mibps?: number } | undefined {
  if (!iopsRange && !mibpsRange) return undefined;
  const iops = iopsRange ? (from.iops! <= iopsRange.lo ? iopsRange.lo : Math.ceil(from.iops!)) : undefined;
  if (!mibpsRange) return { iops };
  const lo = from.mibps(iops);
  if (lo > mibpsRange.hi) return undefined;
  return { iops, mibps: lo <= mibpsRange.lo ? mibpsRange.lo : Math.ceil(lo) };
}

/**
 * The least IOPS with the most throughput, then the least throughput with those IOPS: a disk's performance never
 * decreases as either amount grows. Where the most throughput fails (it takes a limit shared with another disk
 * from that disk's workloads), the least IOPS with the least throughput; where that fails too, with the least
 * throughput the disk's own figures allow with each. Undefined where none holds.
 */
function searched(
  iopsRange: Range,
  mibpsRange: Range,
  probe: (iops?: number, mibps?: number) => Probe,
  from: { iops?: number; mibps: (iops?: number) => number },
  need?: number,
): { iops?: number; mibps?: number } | undefined {
  let iops: number | undefined;
  if (iopsRange) {
    const lo = Math.max(iopsRange.lo, from.iops ?? iopsRange.lo);
    iops = leastValue(lo, iopsRange.hi, (v) => probe(v, mibpsRange?.hi), need);
    if (iops === undefined && mibpsRange) iops = leastValue(lo, iopsRange.hi, (v) => probe(v, mibpsRange.lo), need);
    // Neither end: the most throughput takes another disk's share of a limit they share (AWS's per-instance limit,
    // split by what each disk asks) from its workloads, the least is short of this one's. With each value the least
    // throughput the disk's own figures allow with it, asking no more of the shared limit than it must.
    if (iops === undefined && mibpsRange) {
      const least = (v: number) => Math.min(mibpsRange.hi, Math.max(mibpsRange.lo, Math.ceil(from.mibps(v))));
      iops = leastValue(lo, iopsRange.hi, (v) => probe(v, least(v)), need);
    }
    if (iops === undefined) return undefined;
  }
  if (!mibpsRange) return { iops };
  const lo = from.mibps(iops);
  if (lo > mibpsRange.hi) return undefined;
  // The range's least first: it need not be whole (Azure's 125 MB/s is 119.2 MiB/s), and the search is over whole values.
  const mibps =
    lo <= mibpsRange.lo && probe(iops, mibpsRange.lo).ok ? mibpsRange.lo : leastValue(lo, mibpsRange.hi, (v) => probe(iops, v), need);
  return mibps === undefined ? undefined : { iops, mibps };
}

/**
 * The disk's own type with the least provisioned IOPS and throughput on which `ok` holds: at its size, or at the
 * size at which all of the type's IOPS can be provisioned. A missing price does not rule it out, as it rules out
 * a type in the search for the cheapest: the disk's own change is offered with its price unknown (`unpriced`),
 * never hidden behind a dearer type whose price is known.
 */
export function ownProvisioned(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  disk: DiskSpec,
  ok: Condition,
): ProvisionedChoice | undefined {
  const t = c.disk_types[disk.type];
  if (!t || t.model !== 'provisioned') return undefined;
  const where = { c, vm, machine, region, disk, ok };
  const size = disk.size_gib ?? t.size_gib.default ?? t.size_gib.min;
  const full = t.provisioned.iops?.max_per_gib ? Math.ceil(t.provisioned.iops.max / t.provisioned.iops.max_per_gib) : 0;
  return (
    leastProvisioned(where, disk.type, t, size, true, true) ??
    (full > size ? leastProvisioned(where, disk.type, t, full, true, true) : undefined)
  );
}

/**
 * The cheapest disk of a provisioned type the machine attaches (redundant where the disk is) on which `ok`
 * holds, at `sizeGib`: the type's own least IOPS and, when `throughput`, its least throughput.
 */
export function cheapestProvisionedMeeting(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  disk: DiskSpec,
  ok: Condition,
  opts: { sizeGib: number; throughput: boolean; redundant: boolean; below?: number; others?: boolean },
): ProvisionedChoice | undefined {
  let best: ProvisionedChoice | undefined;
  for (const [name, t] of Object.entries(c.disk_types)) {
    if (t.model !== 'provisioned' || !attaches(machine, name) || (opts.redundant && t.replicated === false)) continue;
    if (opts.others && name === disk.type) continue;
    if (disk.replication === 'regional' && !(t.replication ?? []).includes('regional')) continue;
    // No amount of the type meets it where the machine's rows hold a workload it asks for short (./rows).
    if (shortWith(c, vm, machine, ok, disk, name)) continue;
    // Its capacity alone costs at least this: a type that cannot beat the best so far is not searched.
    const perGib = perGibPrice(t, disk.replication, region, machine.series).perGib;
    const floor = perGib === undefined ? Infinity : perGib * Math.max(opts.sizeGib, t.size_gib.min);
    if (floor >= Math.min(best?.monthly ?? Infinity, opts.below ?? Infinity)) continue;
    const where = { c, vm, machine, region, disk, ok };
    // A small disk caps what it can provision (gp3: 500 IOPS per GiB): then the size at which all of it can be.
    const full = t.provisioned.iops?.max_per_gib ? Math.ceil(t.provisioned.iops.max / t.provisioned.iops.max_per_gib) : 0;
    const bound = Math.min(best?.monthly ?? Infinity, opts.below ?? Infinity);
    const got =
      leastProvisioned(where, name, t, opts.sizeGib, opts.throughput, false, bound) ??
      (full > opts.sizeGib ? leastProvisioned(where, name, t, full, opts.throughput, false, bound) : undefined);
    if (got && got.monthly < bound) best = got;
  }
  return best;
}
