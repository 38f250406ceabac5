/**
 * Searches over configurations: the smallest disk size, the smallest larger machine of the series, the
 * cheapest disk type and size for which a condition on the evaluated VM holds. Each candidate is evaluated
 * by the model (../model) exactly as the user's own configuration is, so a suggestion's figures are the
 * figures the user would get.
 */
import {
  attaches,
  largerMachines,
  resolveMachine,
  rowFor,
  sizeRange,
  type Catalog,
  type DiskType,
  type Machine,
  type TieredDiskType,
} from '../catalog';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import { vmContent } from '../document/vm-content';
import { perGibPrice } from '../model/cost';
import { withController } from '../model/disk-controller';
import { allocationUnits } from '../model/disks';
import { runsOn } from '../model/lookups';
import { diskPriceOn, evaluateOn, evaluateSustained } from '../model/evaluate';
import type { DiskEval, VmEval } from '../model/types';
import { cheapestProvisionedMeeting, type ProvisionedChoice } from './provisioned';
import { recall } from './recall';
import { leastByOwnFigures, shortWith, unjudgedWith } from './rows';
import { condition, leastValue, probeOf, targetRatio, type Condition } from './least';

export function withDisk(vm: VmSpec, disk: DiskSpec, change: Partial<DiskSpec>): VmSpec {
  return { ...vm, disks: vm.disks.map((d) => (d === disk ? { ...d, ...change } : d)) };
}

/** The VM with workload `w` (this very object of its list) changed: `withDisk`'s twin for a workload. */
export function withWorkload(vm: VmSpec, w: WorkloadSpec, change: Partial<WorkloadSpec>): VmSpec {
  return { ...vm, workloads: vm.workloads.map((x) => (x === w ? { ...x, ...change } : x)) };
}

export { condition, type Condition } from './least';

/**
 * The smallest step of a disk's size on which a keyed condition holds, over the type's whole range (null: none),
 * by catalog, then by region, machine, condition and the VM with that disk's size left out. The answer does not
 * depend on the disk's current size, so a fleet whose VMs differ only in their disk sizes is searched once per
 * machine, type and target. Bounded like the advice memo (least recently used out). Not for a condition whose
 * `memo` is false: its key costs a copy of the VM as text, and no other VM will ask (../analyze.ts says which).
 */
const SIZE_MEMO_LIMIT = 4096;
const sizeMemo = new WeakMap<Catalog, Map<string, LeastSize | null>>();

function sizeMemoOf(c: Catalog): Map<string, LeastSize | null> {
  let memo = sizeMemo.get(c);
  if (!memo) sizeMemo.set(c, (memo = new Map()));
  return memo;
}

/** How many size searches the memo holds for a catalog (for tests: which runs memoise them). */
export function sizeSearchesMemoised(c: Catalog): number {
  return sizeMemo.get(c)?.size ?? 0;
}

/** The least step over a type's range at which a condition holds, and whether it holds at the range's top too. */
interface LeastSize {
  least: number;
  toTop: boolean;
}

/** The VM as a size search sees it: its content (../document/vm-content) without this disk's size. */
function sizeSearchKey(vm: VmSpec, disk: DiskSpec, machine: Machine, region: string, key: string): string {
  const content = vmContent(withDisk(vm, disk, { size_gib: undefined }));
  return `${region}\u0000${machine.name}\u0000${key}\u0000${disk.name}\u0000${content}`;
}

/** The smallest size (whole GiB, or whole allocation units) of this disk for which `ok` holds of the VM. */
export function smallestSizeMeeting(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  disk: DiskSpec,
  ok: Condition,
  maxSize = Infinity,
  minSize = 0,
): number | undefined {
  const t = c.disk_types[disk.type];
  // No size of the type meets it where the machine's rows hold a workload it asks for short, or leave its target
  // unjudged (./rows).
  if (shortWith(c, vm, machine, ok, disk, disk.type) || unjudgedWith(c, vm, machine, ok, disk, disk.type)) return undefined;
  if (t?.model === 'tiers') return smallestTier(c, vm, machine, region, disk, ok, t, { maxSize, minSize });
  if (!t || (t.model !== 'scaled' && t.model !== 'allocation-units')) return undefined;
  const step = t.model === 'allocation-units' ? t.unit_gib : 1;
  const meets = (units: number) => probeOf(ok, evaluateSustained(c, withDisk(vm, disk, { size_gib: units * step }), machine, region));
  const lo = Math.ceil(Math.max(sizeRange(t, disk.replication).advised, minSize) / step);
  const hi = Math.floor(Math.min(t.size_gib.max, maxSize) / step);
  if (hi < lo) return undefined;
  // No size below the least the disk's own figures allow meets it (./rows): the search starts there.
  const top = Math.floor(t.size_gib.max / step);
  const least = Math.ceil(t.size_gib.min / step);
  const byOwn = leastByOwnFigures(c, vm, ok, (u) => ({ spec: disk, size: u * step }), least, top);
  if (byOwn > hi) return undefined;
  let units: number | undefined;
  if (ok.key === undefined) units = leastValue(Math.max(lo, byOwn), hi, meets, ok.need);
  else {
    // Performance never decreases with size: the least step over the whole range, raised to `lo`, is the
    // least step in [lo, hi] when it is not above hi. Where the condition fails at the range's top (a larger disk
    // takes a limit shared with another disk from that disk's workloads), it may fail again above the least:
    // then `lo` is evaluated, and the range above it searched where it fails there.
    const search = () => {
      // Whether it holds at the top, where the search evaluated it: a search that ends at its least does not.
      let toTop = false;
      const found = leastValue(
        byOwn,
        top,
        (u) => {
          const p = meets(u);
          if (u === top) toTop = p.ok;
          return p;
        },
        ok.need,
      );
      return found === undefined ? null : { least: found, toTop };
    };
    const found =
      ok.memo === false ? search() : recall(sizeMemoOf(c), sizeSearchKey(vm, disk, machine, region, ok.key), SIZE_MEMO_LIMIT, search);
    units = found === null || found.least > hi ? undefined : Math.max(found.least, lo);
    if (units !== undefined && units > found!.least && !found!.toTop && !meets(units).ok) units = leastValue(units + 1, hi, meets, ok.need);
  }
  if (units === undefined) return undefined;
  const size = units * step;
  if (t.model === 'allocation-units') return allocationUnits(t, size) * t.unit_gib;
  return size;
}

/**
 * A disk sold in tiers (Azure Premium SSD, Standard SSD, Standard HDD): the size of the smallest tier, between the
 * bounds, for which `ok` holds. A size is billed and performs as its tier, so only the tiers' own sizes are tried,
 * in order (a few, each evaluated); the disk's performance tier, where it sets one, stays as it is.
 */
function smallestTier(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  disk: DiskSpec,
  ok: Condition,
  t: TieredDiskType,
  bounds: { maxSize: number; minSize: number },
): number | undefined {
  for (const r of t.tiers.rows) {
    if (r.size_gib > bounds.maxSize + 1e-9) return undefined;
    if (r.size_gib < Math.max(bounds.minSize, t.size_gib.min) - 1e-9) continue;
    if (ok(evaluateSustained(c, withDisk(vm, disk, { size_gib: r.size_gib }), machine, region))) return r.size_gib;
  }
  return undefined;
}

/**
 * The least a disk of the type costs per GiB a month in the region: its per-GiB price, or for a type sold in tiers
 * the least of its priced tiers' prices per GiB (a bound from below; a tier without a price is never offered).
 */
function leastPerGib(t: DiskType, replication: DiskSpec['replication'], region: string): number | undefined {
  if (t.model !== 'tiers') return perGibPrice(t, replication, region).perGib;
  let least: number | undefined;
  for (const r of t.tiers.rows) {
    const price = t.price?.per_tier_month?.[r.name]?.[region];
    if (price !== undefined && (least === undefined || price / r.size_gib < least)) least = price / r.size_gib;
  }
  return least;
}

/**
 * The smallest larger machine of the same series (and family) for which `ok` holds; a machine for which `fails`
 * says it surely does not (./rows) is passed over unevaluated.
 */
export function smallestMachineMeeting(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  ok: Condition,
  fails?: (m: Machine) => boolean,
): Machine | undefined {
  for (const m of largerMachines(machine)) {
    if (fails?.(m)) continue;
    if (ok(onMachine(c, vm, m, region))) return m;
  }
  return undefined;
}

/**
 * The sizes that may replace `machine`, smallest first: the larger ones of its own kind (Standard_D4s_v5 → D8s_v5),
 * then the other sizes of its series with at least its vCPUs (Azure's isolated E104is_v5 after E96s_v5, Bsv2's
 * B4s_v2 after B2ts_v2), each with the disk controller the spec asks for. Only sizes that carry the VM's disks as
 * well as it does: every type it attaches (premium storage), as many data disks, the controller asked for. A
 * size with local SSD of its own is not offered for one without, nor the other way round (other hardware).
 */
export function largerSizes(c: Catalog, vm: VmSpec, machine: Machine): Machine[] {
  const own = largerMachines(machine);
  const names = new Set([machine.name, ...own.map((m) => m.name)]);
  const shapes = machine.info.shapes ?? {};
  const others: Machine[] = [];
  for (const name of Object.keys(shapes)) {
    if (names.has(name) || shapes[name] < machine.vcpus) continue;
    const r = resolveMachine(c, { machine_type: name });
    if (!r.ok || r.machine.series !== machine.series || !r.machine.local_ssd !== !machine.local_ssd) continue;
    // A smaller size of its own kind (t3.micro before t3.small, both of 2 vCPUs) is not another kind.
    if (!largerMachines(r.machine).some((m) => m.name === machine.name)) others.push(r.machine);
  }
  others.sort((a, b) => a.vcpus - b.vcpus);
  const asked = vm.disk_controller;
  return [...own, ...others.map((m) => withController(m, asked))].filter((m) => carries(vm, machine, m));
}

/** Whether machine `to` carries the VM's disks as well as `from` does: types it attaches, data disks, the controller. */
function carries(vm: VmSpec, from: Machine, to: Machine): boolean {
  if (vm.disks.some((d) => attaches(from, d.type) && !attaches(to, d.type))) return false;
  const data = vm.disks.filter((d) => d.role !== 'os' && d.type !== 'local-ssd' && d.type !== 'instance-store').length;
  const most = (m: Machine) => {
    const rule = m.info.disk_count_limits;
    return (rule && rowFor(rule.rows, m)?.total) ?? Infinity;
  };
  if (data > most(to) && data <= most(from)) return false;
  const asked = vm.disk_controller;
  return !asked || to.controller === undefined || to.controller === asked || from.controller !== asked;
}

/**
 * The VM's figures on another machine. The checks of one VM ask the same question of the same machines (a
 * machine that lifts its caps, one on which each workload meets its target, the gain a machine brings): the
 * evaluations of the last VM asked about are kept, and only those, so that memory stays that of one VM.
 */
let lastOnMachines: { c: Catalog; vm: VmSpec; region: string; byName: Map<string, VmEval> } | undefined;

export function onMachine(c: Catalog, vm: VmSpec, m: Machine, region: string): VmEval {
  const last = lastOnMachines;
  const memo = last && last.vm === vm && last.c === c && last.region === region ? last.byName : new Map<string, VmEval>();
  if (memo !== last?.byName) lastOnMachines = { c, vm, region, byName: memo };
  let e = memo.get(m.name);
  if (!e) memo.set(m.name, (e = evaluateOn(c, vm, m, region)));
  return e;
}

/**
 * Paying for performance no workload uses: the cheapest disk (same type smaller, or another type) on which
 * every workload of this disk still meets its target. Only for disks whose workloads all have targets.
 */
export interface CheaperDisk extends ProvisionedChoice {
  saving: number;
}

export function cheaperDisk(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  current: DiskEval,
  minHeadroom = 0,
  memoSizes = true,
): CheaperDisk | undefined {
  const disk = current.spec;
  const mine = vm.workloads.filter((w) => runsOn(vm, w, disk.name));
  // A partial price is a lower bound: no saving can be computed from it.
  if (!mine.length || !current.cost.complete || current.cost.monthly === undefined) return undefined;
  const now = current.cost.monthly;
  // With the spec's headroom: a smaller disk that meets a target with less room than the policy asks is not one.
  const names = mine.map((w) => w.name);
  const allMet = condition(
    `every workload of disk ${disk.name} meets its target with ${minHeadroom} to spare`,
    (e) => mine.every((w) => meetsWithHeadroom(e, w.name, minHeadroom)),
    { ratio: (e) => targetRatio(e, names), need: 1 + Math.max(0, minHeadroom) },
    memoSizes,
    names,
  );
  // Never smaller than the data it must hold (data_size plus growth, when the spec says).
  const best = cheapestDiskMeeting(c, vm, machine, region, disk, allMet, { below: now, minSize: capacityNeed(disk) ?? 0 });
  return best && now - best.monthly > 0.005 ? { ...best, saving: now - best.monthly } : undefined;
}

/**
 * Whether the named workload meets its target with at least `minHeadroom` to spare (the spec's policy,
 * min_headroom; 0: just meets it), as the headroom-below-policy check reads it.
 */
export function meetsWithHeadroom(e: VmEval, name: string, minHeadroom: number): boolean {
  const w = e.workloads.find((x) => x.spec.name === name);
  return w?.meets_target === true && (minHeadroom <= 0 || (w.headroom ?? Infinity) >= minHeadroom - 1e-9);
}

/**
 * Whether every workload that meets its target in `before` meets it in `after` too: met, not merely not missed (on a
 * machine without a per-VM row, or with an instance store a workload over all the disks cannot be evaluated on, a
 * target met today is not judged). A change offered for something else must keep them.
 */
export function targetsKept(before: VmEval, after: VmEval): boolean {
  return before.workloads.every(
    (w) => w.meets_target !== true || after.workloads.find((x) => x.spec.name === w.spec.name)?.meets_target === true,
  );
}

/** GiB the disk must hold: data_size plus its growth; undefined when the spec declares no data size. */
export function capacityNeed(d: DiskSpec): number | undefined {
  return d.data_size_gib === undefined ? undefined : d.data_size_gib * (1 + (d.growth ?? 0));
}

/** What a search for the cheapest disk takes besides the disk and the condition. */
export interface DiskSearch {
  /** Only a disk that costs less than this a month (none: any). */
  below?: number;
  /** Never smaller than this, in GiB: the data on it has to fit. */
  minSize?: number;
  /** Of another type than the disk's own. */
  others?: boolean;
}

/**
 * The cheapest disk of a type the machine can attach (and, for a redundant disk, a redundant type) that makes
 * `ok` hold (`DiskSearch` says of what price, size and type); the disk keeps its name, so its workloads stay on it.
 */
export function cheapestDiskMeeting(
  c: Catalog,
  vm: VmSpec,
  machine: Machine,
  region: string,
  disk: DiskSpec,
  ok: Condition,
  { below = Infinity, minSize = 0, others = false }: DiskSearch = {},
): DiskChoice | undefined {
  const replicated = c.disk_types[disk.type]?.replicated;
  let best: DiskChoice | undefined;
  // Never trade away redundancy, and only offer types the machine can attach.
  const candidates = Object.entries(c.disk_types).filter(
    ([name, t]) =>
      (t.model === 'scaled' || t.model === 'allocation-units' || t.model === 'tiers') &&
      !(others && name === disk.type) &&
      (replicated === false || t.replicated !== false) &&
      (name === disk.type || !machine || attaches(machine, name)) &&
      (disk.replication !== 'regional' || (t.replication ?? []).includes('regional')),
  );
  // A disk costs at least its size times the per-GiB price: sizes above the one that costs what the best disk
  // so far costs cannot do better, so each search stops there. Cheapest per GiB first, so that the bound
  // tightens early and dearer types are mostly ruled out by a single evaluation.
  const priced = candidates
    .map(([name, t]) => ({ name, perGib: leastPerGib(t, disk.replication, region) }))
    .filter((x): x is { name: string; perGib: number } => !!x.perGib)
    .sort((a, b) => a.perGib - b.perGib);
  for (const { name, perGib } of priced) {
    const spec = { ...disk, type: name };
    const variant = { ...vm, disks: vm.disks.map((d) => (d === disk ? spec : d)) };
    const size = smallestSizeMeeting(c, variant, machine, region, spec, ok, (best?.monthly ?? below) / perGib, minSize);
    if (size === undefined) continue;
    // The search evaluated the disk at that size and found the condition met: its price is all that is left to know.
    const got = diskPriceOn(c, vm, machine, region, { ...spec, size_gib: size });
    const monthly = got?.complete ? got.monthly : undefined;
    if (monthly === undefined || monthly >= below) continue;
    if (!best || monthly < best.monthly) best = { type: name, size_gib: size, monthly };
  }
  // Types whose IOPS and throughput are bought apart from their size: the least of each that does (gp3 with
  // more throughput can cost far less than an st1 large enough to give it).
  const redundant = replicated !== false;
  const bought = cheapestProvisionedMeeting(c, vm, machine, region, disk, ok, {
    sizeGib: minSize,
    throughput: true,
    redundant,
    below: Math.min(below, best?.monthly ?? Infinity),
    others,
  });
  if (bought) best = bought;
  return best;
}

/** A disk a search found: its type and size, what it provisions above the type's defaults, and its monthly price. */
export type DiskChoice = ProvisionedChoice;
