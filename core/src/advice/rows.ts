/**
 * What the catalog's rows say of a machine before the VM is evaluated on it: where a disk's read figure by itself
 * is above the machine's per-VM limit for its type, the model holds that disk to the limit (../model/vm-limits),
 * and no evaluation on that machine can say otherwise. The searches over machines (./index `liftingMachine`)
 * pass over such a machine without evaluating the VM on it: only a machine the rows do not rule out is evaluated,
 * so that the answer is the one evaluating every machine in turn gives, in fewer evaluations.
 */
import { INSTANCE_STORE, limitValue, MachineMemo, vmLimitGroup, vmLimitRow, type Catalog, type DiskType, type Machine } from '../catalog';
import { allocationUnits, evaluableDisks, ownFigures } from '../model/disks';
import type { DiskSpec, VmSpec, WorkloadSpec } from '../document/types';
import { hostCached } from '../model/host-cache';
import { runsOn } from '../model/lookups';
import { METRICS, type DiskEval, type Metric, type VmEval } from '../model/types';
import { leastValue, type Condition, type Probe } from './least';
import { measuresOf, missed, opsOnType, reachOf, writeIopsOf, type Most } from './reach';

/**
 * Read figures only: network egress (../model/egress) holds writes after the per-VM limit, as a limit of its own
 * kind, so that a write figure held below the per-VM limit is no longer held by it.
 */
const READS: readonly Metric[] = ['read_iops', 'read_mibps'];

/**
 * Whether, on machine `m`, some disk of `e` (evaluated on another machine of the series) is surely held by `m`'s
 * per-VM limit below what it does by itself, as `liftingMachine` judges a disk held: its read figure set by the
 * limit ('vm') and below its own. A disk's own figures do not depend on the machine but for local SSD and the
 * instance store (devices, under no per-VM limit): the figures `e` holds are those the disk has on `m`. A disk
 * whose type the model leaves out on `m` gets no figures there, and is passed over. The per-VM limit of a group
 * of types (AWS's per-instance limit) is the row of the group's first disk, as the model reads it.
 */
export function heldOn(e: VmEval, m: Machine): boolean {
  const c = e.catalog;
  const firstOfGroup = new Map<string, string>();
  for (const d of e.disks) {
    if (!evaluatedOn(d, m)) continue;
    const group = vmLimitGroup(c, m, d.typeName);
    if (!firstOfGroup.has(group)) firstOfGroup.set(group, d.typeName);
  }
  for (const d of e.disks) {
    if (!evaluatedOn(d, m)) continue;
    const found = vmLimitRow(c, m, firstOfGroup.get(vmLimitGroup(c, m, d.typeName))!);
    if (!found) continue;
    for (const k of READS) {
      const cap = limitValue(found.row[k], m.vcpus);
      const own = d.diskOnly[k];
      // Held to the cap (above it by more than the model's own slack), and below its own by more than the
      // judgement's.
      if (cap !== undefined && own !== undefined && own > cap + 1e-9 && cap < own * (1 - 1e-9)) return true;
    }
  }
  return false;
}

/** A disk under the per-VM limits on `m` with the figures it has on the machine it was evaluated on. */
function evaluatedOn(d: DiskEval, m: Machine): boolean {
  return d.type.model !== 'devices' && !d.type.unmodelled_on?.series.includes(m.series);
}

/** The figures that must each have a per-VM limit for the rows to bound a disk (write IOPS: where the row has one). */
const BOUNDING = ['read_iops', 'read_mibps', 'write_mibps'] as const;

/**
 * Whether workload `name` of `vm` surely misses its target on machine `m`, with its disk of any of `types` (the
 * disk's type unchanged: its own; `own` also holds it to the figures it has by itself, from `e`). No figure of a
 * disk exceeds the per-VM limit of its group on `m` (a limit several disks share gives each a part of it; the host
 * cache, which lets a disk past it, is left out), and a workload on one disk shares those figures between reads and
 * writes by its type's rules (./reach `opsOnType`): where even those bounds miss a target, the evaluation misses it. With
 * `own`, a type without a row on `m` is still bounded by the disk's own figures (a provisioned Hyperdisk's IOPS on
 * a machine whose rows Google does not publish). False wherever this cannot be said (no such bound: a type without
 * a row on `m` and no `own`, local SSD, a disk host-cached, a workload over several disks).
 */
export function shortOn(vm: VmSpec, m: Machine, name: string, c: Catalog, types: readonly string[], own?: VmEval): boolean {
  const w = vm.workloads.find((x) => x.name === name);
  const bounds = w && types.length ? typeBounds(vm, m, w, c, own) : undefined;
  if (!bounds) return false;
  // Short with every type, or not short: a type whose bound does not miss (or that has none) answers at once, and
  // the rest are not bounded (a search asks of up to eight types). Missed with each is missed with the most of
  // them: the measures grow with the operations.
  for (const t of types) {
    const most = measuresOf(w!, bounds(t) ?? Infinity);
    if (!most || !missed(w!, most, 1)) return false;
  }
  return true;
}

/**
 * The most operations a second a workload `w` reaches on machine `m` with its disk of type `type`, by the per-VM
 * limits and the disk's figures: the bound `shortOn` holds each type to; undefined where they do not bound it.
 */
export function opsBoundOn(vm: VmSpec, m: Machine, w: WorkloadSpec, c: Catalog, type: string, own?: VmEval): number | undefined {
  return typeBounds(vm, m, w, c, own)?.(type);
}

/**
 * `opsBoundOn` for each type, one at a time (what does not depend on the type looked up once); undefined where no type
 * can be bounded (a workload over several disks, or none; a host-cached disk).
 */
function typeBounds(vm: VmSpec, m: Machine, w: WorkloadSpec, c: Catalog, own?: VmEval): ((t: string) => number | undefined) | undefined {
  if (w.invalid !== undefined || vm.disks.some(hostCached)) return undefined;
  const on = w.disk === undefined ? vm.disks : vm.disks.filter((d) => d.name === w.disk);
  if (on.length !== 1) return undefined;
  const disk = on[0];
  const evaluated = own?.disks.find((x) => x.spec.name === disk.name);
  return (t) => {
    // The disk's own figures bound it as a disk of the type it has, and only so.
    const d = evaluated?.typeName === t ? evaluated : undefined;
    // Without a row on `m`, the disk's own figures still bound it (they do not depend on the machine but for devices).
    const caps = capsOf(c, vm, m, disk, t, w) ?? (d && onNetwork(c, t) ? unbounded() : undefined);
    if (!caps) return undefined;
    if (d) {
      const figures = writeIopsOf(c, w, d.diskOnly);
      for (const k of METRICS) caps[k] = Math.min(caps[k], figures[k]);
    }
    return opsOnType(c, c.disk_types[t], w, caps);
  };
}

/** Whether a disk of type `type` has figures of its own, whatever the machine: not local SSD, not an instance store. */
function onNetwork(c: Catalog, type: string): boolean {
  const t = c.disk_types[type];
  return !!t && t.model !== 'devices' && type !== INSTANCE_STORE;
}

function unbounded(): Most {
  return { read_iops: Infinity, write_iops: Infinity, read_mibps: Infinity, write_mibps: Infinity };
}

/**
 * The per-VM limits on `m` that can hold `disk` as a disk of type `type`: its group's row (the model reads the row
 * of the group's first disk, of any type of the VM in it), the most of each figure. Undefined where a figure has
 * none (a type the model evaluates without a row, local SSD): nothing bounds it. Write IOPS are unbounded where no
 * row gives them, or where `w` writes blocks the small-write column counts (rows and types that have one).
 */
function capsOf(c: Catalog, vm: VmSpec, m: Machine, disk: DiskSpec, type: string, w: WorkloadSpec): Most | undefined {
  if (!onNetwork(c, type)) return undefined;
  const on = rowCapsMemo.on(c, m);
  const own = rowCapsOf(c, m, on, type)!;
  if (!own.caps) return undefined;
  const caps = { ...own.caps };
  // The type's own row, then those of the VM's other disks in its group (a loop: this runs for every type a search
  // considers on every machine).
  for (const d of vm.disks) {
    if (d === disk || d.type === type) continue;
    const other = rowCapsOf(c, m, on, d.type);
    if (!other || other.group !== own.group) continue;
    if (!other.caps) return undefined;
    for (const k of METRICS) caps[k] = Math.max(caps[k], other.caps[k]);
  }
  const most = mostOfType(c.disk_types[type]);
  for (const k of METRICS) caps[k] = Math.min(caps[k], most[k]);
  if (w.block_kib > c.io.write_iops_max_kib) caps.write_iops = Infinity;
  return caps;
}

/**
 * What a type's per-VM row on a machine gives `capsOf`: the type's group, and the row's figures as numbers (none where
 * the row or one of its figures is missing: then nothing bounds the disk; write IOPS unbounded where the row has none).
 * Null for a type no row holds (unknown, local SSD).
 */
interface RowCaps {
  group: string;
  caps?: Most;
}

/**
 * Each type's `RowCaps` on a machine, made on first use: `capsOf` runs for every type a search considers on every
 * machine, for each disk of the VM, and read the group, the row and its limits for the machine's vCPUs anew each time.
 */
const rowCapsMemo = new MachineMemo<RowCaps | null>();

function rowCapsOf(c: Catalog, m: Machine, on: Map<string, RowCaps | null>, x: string): RowCaps | null {
  let found = on.get(x);
  if (found === undefined) on.set(x, (found = readRowCaps(c, m, x)));
  return found;
}

function readRowCaps(c: Catalog, m: Machine, x: string): RowCaps | null {
  const t = c.disk_types[x];
  if (!t || t.model === 'devices') return null;
  const group = vmLimitGroup(c, m, x);
  const found = vmLimitRow(c, m, x);
  if (!found) return { group };
  const caps: Most = { read_iops: 0, write_iops: 0, read_mibps: 0, write_mibps: 0 };
  for (const k of BOUNDING) {
    const cap = limitValue(found.row[k], m.vcpus);
    if (cap === undefined) return { group };
    caps[k] = cap;
  }
  caps.write_iops = limitValue(found.row.write_iops, m.vcpus) ?? Infinity;
  return { group, caps };
}

/**
 * The most a disk of the type gives of figure `k` at any size the searches try (up to the type's largest), as
 * ../model/disks computes it: the per-GiB rate with the whole baseline (at least the floor), at most the per-disk
 * maximum (a regional disk is held to the regional one instead); the units' figure, at most the per-disk maximum.
 * Unbounded for the other models (tiers, provisioned amounts).
 */
function typeMost(t: DiskType, k: Metric): number {
  if (t.model === 'allocation-units') return Math.min(t.disk_max[k], t.per_unit[k] * allocationUnits(t, t.size_gib.max));
  if (t.model !== 'scaled') return Infinity;
  const r = t.rates;
  const iops = k === 'read_iops' || k === 'write_iops';
  const rate = r[`${k}_per_gib`];
  const grown = rate * t.size_gib.max + ((iops ? r.baseline_iops : r.baseline_mibps) ?? 0);
  const most = Math.max((iops ? r.min_iops : r.min_mibps) ?? 0, grown);
  const max = t.regional_max ? undefined : limitValue(t.disk_max[k], 1);
  return max === undefined ? most : Math.min(most, max);
}

/** `typeMost` of every figure, kept with the type. */
function mostOfType(t: DiskType): Most {
  // Asked for every type a bound considers on every machine, of a type that never changes: made once for each.
  let most = typeMosts.get(t);
  if (!most) {
    most = { read_iops: 0, write_iops: 0, read_mibps: 0, write_mibps: 0 };
    for (const k of METRICS) most[k] = typeMost(t, k);
    typeMosts.set(t, most);
  }
  return most;
}
const typeMosts = new WeakMap<DiskType, Most>();

/**
 * Whether a workload `ok` asks to be met, on disk `disk`, is surely short with that disk of type `type` on machine
 * `m` (`shortOn`).
 */
export function shortWith(c: Catalog, vm: VmSpec, m: Machine, ok: Condition, disk: DiskSpec, type: string): boolean {
  return askedOn(vm, ok, disk).some((w) => shortOn(vm, m, w.name, c, [type]));
}

/** The workloads `ok` asks to be met (`Condition.met`, each by the first workload of its name) that run on `disk`. */
function askedOn(vm: VmSpec, ok: Condition, disk: DiskSpec): WorkloadSpec[] {
  const out: WorkloadSpec[] = [];
  for (const name of ok.met ?? []) {
    const w = vm.workloads.find((x) => x.name === name);
    if (w && runsOn(vm, w, disk.name)) out.push(w);
  }
  return out;
}

/**
 * Whether a workload `ok` asks to be met, on `disk` alone, is never judged with that disk of type `type` on machine
 * `m`: the per-VM limit the model holds it to there is unknown (no row for the first disk of its group, or a row
 * that stands in as an upper bound: ../model/vm-limits), so its figures are upper bounds, and its target is neither
 * met nor its headroom known (../model/workload). No size or amount of the type holds, and none is evaluated.
 */
export function unjudgedWith(c: Catalog, vm: VmSpec, m: Machine, ok: Condition, disk: DiskSpec, type: string): boolean {
  if (!c.disk_types[type] || c.disk_types[type].model === 'devices' || !askedOn(vm, ok, disk).length) return false;
  // The group's first disk as the model takes them: in order, those it evaluates on `m`, this one as of `type`.
  const group = vmLimitGroup(c, m, type);
  // Which disks the model evaluates is asked only of a disk before this one in its group (most VMs have none).
  let evaluable: DiskSpec[] | undefined;
  let first = type;
  for (const d of vm.disks) {
    if (d === disk) break;
    const t = c.disk_types[d.type];
    if (t && t.model !== 'devices' && vmLimitGroup(c, m, d.type) === group && (evaluable ??= evaluableDisks(c, vm, m)).includes(d)) {
      first = d.type;
      break;
    }
  }
  const found = vmLimitRow(c, m, first);
  return !found || !!found.row.upper_bound_of;
}

/**
 * The least value, from `lo` to `hi` (`hi + 1`: none), at which no workload `ok` asks to be met on disk `disk` is
 * surely short by the figures `disk(v)` has by itself (../model/disks `ownFigures`: no machine's limit, the whole
 * of its type's baseline), figures no VM lets it pass, shared between reads and writes by the type's rules
 * (./reach `opsOnType`). Below it the condition fails at every value,
 * so a size or provisioning search need evaluate nothing there (./search, ./provisioned). `lo` where this cannot
 * be said: no such workload, or a host-cached disk (the cache lets a disk past its own figures).
 */
export function leastByOwnFigures(
  c: Catalog,
  vm: VmSpec,
  ok: Condition,
  disk: (v: number) => { spec: DiskSpec; size: number },
  lo: number,
  hi: number,
): number {
  const name = disk(lo).spec.name;
  const asked = vm.workloads.filter((w) => w.invalid === undefined && ok.met?.includes(w.name) && runsOn(vm, w, name));
  if (!asked.length || hi < lo || vm.disks.some(hostCached)) return lo;
  const need = Math.max(1, ok.need ?? 1);
  // Holds where no asked workload is short; aimed by how near the nearest comes (the figures are piecewise linear
  // in the value: ./least finds the least in a few probes, where halving the range took 13–16).
  const probe = (v: number): Probe => {
    const { spec, size } = disk(v);
    const f = ownFigures(c, spec, size);
    if (!f) return { ok: true };
    const t = c.disk_types[spec.type];
    let reach = Infinity;
    let short = false;
    for (const w of asked) {
      const ops = opsOnType(c, t, w, writeIopsOf(c, w, f));
      const most = ops === undefined ? undefined : measuresOf(w, ops);
      if (!most) continue;
      short ||= missed(w, most, need);
      reach = Math.min(reach, reachOf(w, most, need));
    }
    return { ok: !short, ratio: reach };
  };
  // A disk's own figures never fall as it grows or buys more: short at the top, short throughout. The range's ends
  // need not be whole (Azure's 125 MB/s is 119.2 MiB/s): each is tried as it is, the whole values between searched.
  const top = probe(hi);
  if (!top.ok) return hi + 1;
  const least = probe(lo);
  if (least.ok) return lo;
  return leastValue(lo, hi, (v) => (v === hi ? top : v === lo ? least : probe(v))) ?? hi;
}
