/**
 * The typed spec from its values: a converter over the source map that reads every field in internal units and
 * checks by hand what the schema cannot say (quantities, finite numbers, unique names, a workload's disk that
 * exists), with messages that say what to write instead. Each path it reports on is remembered, so that the
 * schema's error on the same value is left out.
 */
import { diag } from '../checks/registry';
import type { Diagnostic, FixData } from '../diagnostics';
import { firstAndMore, parseBlockSize, parsePercent, parseSize, parseThroughput, type Parsed } from '../units';
import { indexNamed } from './map-index';
import { valueAt } from './yaml-nodes';
import type { DiskSpec, Spec, Target, VmSpec, WorkloadSpec } from './types';
import { keySpan, valueSpan, type YamlNode, type YamlTree } from './yaml-tree';

/** One spec's conversion: `spec()` reads it all, adding to `out` what it finds wrong. */
export class Converter {
  /** Paths that already have a diagnostic: schema errors on them would only repeat it. */
  readonly reported = new Set<string>();
  constructor(
    private readonly tree: YamlTree,
    private readonly out: Diagnostic[],
  ) {}

  private report(code: string, message: string, path: string, onKey = false, fixes: FixData[] = []): void {
    const span = onKey ? keySpan(this.tree, path) : valueSpan(this.tree, path);
    if (!span) return;
    this.out.push(diag(code, message, span, { path, fixes }));
    this.reported.add(path);
  }

  /** The value of the field `key` of the mapping at `parent`. */
  private get(parent: At, key: string): unknown {
    const n = this.field(parent, key);
    return n && nodeValue(n);
  }

  /** A place by its pointer alone: its mapping is looked up on the first read of a field (./tree-nodes.ts walks the tree). */
  private at(path: string): At {
    return { path, map: undefined };
  }

  /** The mapping at `at` (null: something else or nothing), looked up once and kept with the place. */
  private mapping(at: At): YamlNode | null {
    if (at.map === undefined) {
      const n = this.tree.nodes.get(at.path)?.value;
      at.map = n?.kind === 'map' ? n : null;
    }
    return at.map;
  }

  /**
   * The field `key` of the mapping at `parent`, as `tree.nodes` has it at `${parent}/${key}`: in a parsed YAML
   * tree, found among the mapping's few entries without building the field's pointer (most lookups find nothing:
   * keys left out); the pointer is built only for a report.
   */
  private field(parent: At, key: string): YamlNode | undefined {
    if (!this.tree.mirrorsRoot) return this.tree.nodes.get(`${parent.path}/${key}`)?.value;
    const p = this.mapping(parent);
    if (!p || p.kind !== 'map') return undefined;
    // As the source map has them: scalar keys, the first of duplicates, merged entries after the mapping's own.
    const i = indexNamed(p, key);
    return i < 0 ? undefined : valueAt(p, i);
  }

  private str(parent: At, key: string): string | undefined {
    const v = this.get(parent, key);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  }

  private num(parent: At, key: string): number | undefined {
    const v = this.get(parent, key);
    // YAML's .nan and .inf are numbers and pass the schema's `number` type: report them rather than drop them.
    if (typeof v === 'number' && !Number.isFinite(v)) {
      this.report('out-of-range', `${key} must be a finite number`, `${parent.path}/${key}`);
      return undefined;
    }
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  private quantity(parent: At, key: string, parse: (v: unknown) => Parsed): number | undefined {
    const n = this.field(parent, key);
    if (!n) return undefined;
    const v = nodeValue(n);
    if (v === null || typeof v === 'object') return undefined; // structural: the schema reports it
    const r = parse(v);
    if (!r.ok) {
      // Several readings: each is a fix, none preferred (lint --fix must not pick a unit for the user).
      const path = `${parent.path}/${key}`;
      const one = r.meant?.length === 1;
      const fixes: FixData[] = (r.meant ?? []).map((m) => ({ kind: 'set-value', path, value: m, title: `Write ${m}`, preferred: one }));
      this.report('bad-quantity', r.message, path, false, fixes);
      return undefined;
    }
    return r.value;
  }

  /**
   * The items of the list `key` of `parent`, each with its pointer and, in a parsed YAML tree, its node: an item's
   * fields are read from its node, never looked up by its pointer (a map of every item's pointer cost more than
   * reading them all).
   */
  private items(parent: At, key: string): At[] {
    const n = this.field(parent, key);
    if (!n || n.kind !== 'seq') return [];
    const path = `${parent.path}/${key}`;
    const mirrors = this.tree.mirrorsRoot === true;
    return n.items.map((item, i) => ({
      // Joined, not concatenated: one flat string where `+` would keep two rope nodes (2 MB in 10,000 VMs' paths).
      path: [path, i].join('/'),
      map: mirrors ? (item.kind === 'map' ? item : null) : undefined,
    }));
  }

  private isMap(at: At): boolean {
    return this.tree.mirrorsRoot ? this.mapping(at) !== null : this.tree.nodes.get(at.path)?.value.kind === 'map';
  }

  /** Reports each name met again; `note` adds what else the duplicate does (workloads it leaves out). */
  private checkNames(places: At[], what: string, note?: (name: string) => string): void {
    const seen = new Set<string>();
    for (const p of places) {
      const name = this.str(p, 'name');
      if (name === undefined) continue;
      if (seen.has(name))
        this.report('duplicate-name', `another ${what} is already named '${name}'${note?.(name) ?? ''}`, `${p.path}/name`);
      seen.add(name);
    }
  }

  /**
   * A disk name two disks share, as a workload's `disk`, names neither: those workloads are not evaluated (their
   * figures over both disks would look like one disk's), said on the duplicate name, not on each workload.
   */
  private leftOutByDuplicate(wlPaths: At[], disk: string): string {
    const names = wlPaths.filter((p) => this.str(p, 'disk') === disk).map((p) => `'${this.str(p, 'name') ?? '?'}'`);
    if (!names.length) return ': rename one';
    const which = names.length === 1 ? `workload ${names[0]}` : `workloads ${firstAndMore(names, 'workload')}`;
    return `: rename one (${which} on it ${names.length === 1 ? 'is' : 'are'} not evaluated)`;
  }

  spec(): Spec {
    const root = this.at('');
    const version = this.num(root, 'version') ?? 1;
    const provider = this.str(root, 'provider') ?? '';
    const vmPaths = this.items(root, 'vms');
    this.checkNames(vmPaths, 'VM');
    return {
      version,
      provider,
      catalog: this.str(root, 'catalog'),
      region: this.str(root, 'region'),
      vms: vmPaths.filter((p) => this.isMap(p)).map((p, i) => this.vm(p, i)),
      min_headroom: this.quantity(this.at('/policy'), 'min_headroom', parsePercent),
    };
  }

  /**
   * The disks of a top-level list outside any VM (a Terraform front end's `unattached`), read as a VM's disks are. A
   * YAML spec has no such list: its schema refuses the key, and `spec()` does not read it.
   */
  topLevelDisks(key: string): DiskSpec[] {
    return this.items(this.at(''), key)
      .filter((p) => this.isMap(p))
      .map((p, i) => this.disk(p, i));
  }

  private vm(at: At, index: number): VmSpec {
    const diskPaths = this.items(at, 'disks');
    const wlPaths = this.items(at, 'workloads');
    this.checkNames(diskPaths, 'disk on this VM', (name) => this.leftOutByDuplicate(wlPaths, name));
    this.checkNames(wlPaths, 'workload on this VM');
    const disks = diskPaths.filter((p) => this.isMap(p)).map((p, i) => this.disk(p, i));
    const workloads = wlPaths.filter((p) => this.isMap(p)).map((p, i) => this.workload(p, i));
    const vcpus = this.num(at, 'vcpus');
    const vm: VmSpec = {
      path: at.path,
      name: this.str(at, 'name') ?? `vm #${index + 1}`,
      machine_type: this.str(at, 'machine_type'),
      series: this.str(at, 'series'),
      vcpus: vcpus !== undefined && Number.isInteger(vcpus) && vcpus > 0 ? vcpus : undefined,
      other_egress_mibps: this.quantity(at, 'other_egress', parseThroughput) ?? 0,
      ...(this.str(at, 'pricing') === 'spot' ? { pricing: 'spot' as const } : {}),
      ...controller(this.str(at, 'disk_controller')),
      disks,
      workloads,
    };
    const names = new Set(disks.map((d) => d.name));
    for (const w of workloads) {
      if (w.disk !== undefined && !names.has(w.disk)) {
        const known = [...names].map((n) => `'${n}'`).join(', ') || 'none';
        this.report('unknown-disk-ref', `this VM has no disk named '${w.disk}' (its disks: ${known})`, `${w.path}/disk`);
      }
    }
    return vm;
  }

  private disk(at: At, index: number): DiskSpec {
    const path = at.path;
    let size = this.quantity(at, 'size', parseSize);
    if (size !== undefined && size <= 0) {
      this.report('size-out-of-range', 'a disk size must be greater than zero', `${path}/size`);
      size = undefined;
    }
    const iops = this.num(at, 'provisioned_iops');
    const count = this.num(at, 'count');
    const replication = this.str(at, 'replication');
    // fio settings: a mount point is a directory outside /dev, a device is under /dev; no control characters
    // (the values are written into fio job files line by line).
    let mount = this.str(at, 'mount_point');
    // '$' and '..' too: fio expands ${VAR} in values, and a job file must not write outside the mount point.
    if (
      mount !== undefined &&
      (!mount.startsWith('/') || /[\x00-\x1f\x7f$]/.test(mount) || /^\/+dev(\/|$)/.test(mount) || /(^|\/)\.\.(\/|$)/.test(mount))
    ) {
      this.report(
        'invalid-value',
        "mount_point is the absolute path of the disk's mount directory: outside /dev, without '$' or '..' (for a block device use `device`)",
        `${path}/mount_point`,
      );
      mount = undefined;
    }
    let device = this.str(at, 'device');
    if (device !== undefined && (!/^\/dev\/[^/]/.test(device) || /[\x00-\x1f\x7f]/.test(device))) {
      this.report(
        'invalid-value',
        'device is a block device path under /dev, such as /dev/sdb or /dev/disk/by-id/google-data',
        `${path}/device`,
      );
      device = undefined;
    }
    let fioSize = this.quantity(at, 'fio_size', parseBlockSize);
    if (fioSize !== undefined && fioSize <= 0) {
      this.report('out-of-range', 'fio_size must be greater than zero', `${path}/fio_size`);
      fioSize = undefined;
    }
    return {
      path,
      name: this.str(at, 'name') ?? `disk #${index + 1}`,
      type: this.str(at, 'type') ?? '',
      size_gib: size,
      replication: replication === 'regional' ? 'regional' : 'zonal',
      provisioned_iops: iops !== undefined && iops > 0 ? iops : undefined,
      provisioned_mibps: this.quantity(at, 'provisioned_throughput', parseThroughput),
      count: count !== undefined && Number.isInteger(count) && count > 0 ? count : undefined,
      interface: this.str(at, 'interface'),
      ...azureDisk(this.str(at, 'role'), this.str(at, 'caching'), this.str(at, 'tier'), this.str(at, 'bursting')),
      ...(this.get(at, 'performance_plus') === true ? { performance_plus: true } : {}),
      ...redundancyOf(this.str(at, 'redundancy')),
      mount_point: mount,
      device,
      fio_destructive: this.get(at, 'fio_destructive') === true ? true : undefined,
      fio_size_kib: fioSize,
      data_size_gib: this.quantity(at, 'data_size', parseSize),
      growth: this.quantity(at, 'growth', parsePercent),
    };
  }

  private workload(at: At, index: number): WorkloadSpec {
    const path = at.path;
    let block = this.quantity(at, 'block_size', parseBlockSize);
    if (block !== undefined && (block < 0.5 || block > 1024 * 1024)) {
      this.report('out-of-range', 'a block size lies between 512 bytes and 1 GiB', `${path}/block_size`);
      block = undefined;
    }
    const ratio = this.readRatio(at);
    const qd = this.num(at, 'queue_depth');
    // The target's mapping is a field of the workload's: read from it, not looked up from the root.
    const n = this.tree.mirrorsRoot ? this.field(at, 'target') : undefined;
    const t: At = { path: `${path}/target`, map: this.tree.mirrorsRoot ? (n?.kind === 'map' ? n : null) : undefined };
    // Only the figures the spec gives, in this order (the report writes them so); added, never deleted after
    // (an object that loses properties is slower to read and to write as JSON).
    const target: Target = {};
    const put = <K extends keyof Target>(k: K, v: Target[K]) => {
      if (v !== undefined) target[k] = v;
    };
    put('iops', this.nonNegative(t, 'iops'));
    put('read_iops', this.nonNegative(t, 'read_iops'));
    put('write_iops', this.nonNegative(t, 'write_iops'));
    put('mibps', this.quantity(t, 'throughput', parseThroughput));
    put('read_mibps', this.quantity(t, 'read_throughput', parseThroughput));
    put('write_mibps', this.quantity(t, 'write_throughput', parseThroughput));
    return {
      path,
      name: this.str(at, 'name') ?? `workload #${index + 1}`,
      disk: this.str(at, 'disk'),
      pattern: this.str(at, 'pattern') === 'sequential' ? 'sequential' : 'random',
      block_kib: block ?? 4,
      read_ratio: ratio ?? 1,
      queue_depth: qd !== undefined && Number.isInteger(qd) && qd > 0 ? qd : undefined,
      ...cacheHit(this.num(at, 'cache_hit_ratio')),
      target,
    };
  }

  /**
   * A read ratio: a fraction from 0 to 1 or a percentage (70%). A whole number from 2 to 100 is a percentage
   * written without its sign: the fraction it means is the fix. Any other number above 1 and up to 100 (1.5,
   * 12.5) reads several ways, each a fix to choose from, none preferred. Undefined when absent or wrong (the
   * workload then has an error and is not evaluated).
   */
  private readRatio(place: At): number | undefined {
    const at = `${place.path}/read_ratio`;
    const n = this.field(place, 'read_ratio');
    const v = n && nodeValue(n);
    if (v === undefined || v === null || typeof v === 'object' || typeof v === 'boolean') return undefined; // the schema says it
    if (typeof v === 'number' && Number.isFinite(v) && v > 1 && v <= 100) {
      this.percentLike(at, v);
      return undefined;
    }
    const r = parsePercent(v);
    if (r.ok && r.value <= 1) return r.value;
    if (r.ok || typeof v === 'number') {
      this.report('out-of-range', 'read_ratio is a fraction from 0 to 1 or a percentage from 0% to 100%', at);
      return undefined;
    }
    this.report('bad-quantity', `'${String(v)}' is not a read ratio; write it like 0.7 or 70%`, at);
    return undefined;
  }

  /** A read ratio above 1 and up to 100: a whole percentage has one fix; any other number, the readings it may have. */
  private percentLike(at: string, v: number): void {
    const fraction = Math.round(v * 100) / 10000;
    if (Number.isInteger(v)) {
      this.report('out-of-range', `read_ratio is a fraction from 0 to 1, not a percentage: did you mean ${fraction}?`, at, false, [
        { kind: 'set-value', path: at, value: fraction, title: `Write read_ratio: ${fraction}`, preferred: true },
      ]);
      return;
    }
    const perWrite = Math.round((v / (1 + v)) * 10000) / 10000;
    this.report(
      'out-of-range',
      `read_ratio is a fraction from 0 to 1; ${v} may mean ${v}% reads (${fraction}) or ${v} reads per write (${perWrite})`,
      at,
      false,
      [
        { kind: 'set-value', path: at, value: fraction, title: `Write read_ratio: ${fraction} (${v}% reads)`, preferred: false },
        { kind: 'set-value', path: at, value: perWrite, title: `Write read_ratio: ${perWrite} (${v} reads per write)`, preferred: false },
        { kind: 'set-value', path: at, value: 1, title: 'Write read_ratio: 1 (reads only)', preferred: false },
      ],
    );
  }

  private nonNegative(parent: At, key: string): number | undefined {
    const v = this.num(parent, key);
    return v !== undefined && v >= 0 ? v : undefined;
  }
}

/**
 * A mapping's place: its pointer and, in a parsed YAML tree, its node once known (null: the place holds no mapping;
 * undefined: not looked up yet, or a tree of another front end, read by pointer).
 */
interface At {
  readonly path: string;
  map: YamlNode | null | undefined;
}

function nodeValue(n: YamlNode): unknown {
  return n.kind === 'scalar' ? n.value : n.kind === 'map' ? {} : [];
}

/** Azure's disk keys, kept only when the schema's values (a wrong one is the schema's finding). */
function azureDisk(role?: string, caching?: string, tier?: string, bursting?: string): Partial<DiskSpec> {
  const out: Partial<DiskSpec> = {};
  if (role === 'os' || role === 'data') out.role = role;
  if (caching === 'none' || caching === 'read-only' || caching === 'read-write') out.caching = caching;
  if (tier !== undefined && /^[PES]\d+$/.test(tier)) out.tier = tier;
  if (bursting === 'on-demand' || bursting === 'credit') out.bursting = bursting;
  return out;
}

/** Azure's redundancy, kept only when the schema's value. */
function redundancyOf(r?: string): Partial<DiskSpec> {
  return r === 'lrs' || r === 'zrs' ? { redundancy: r } : {};
}

function cacheHit(v: number | undefined): { cache_hit_ratio?: number } {
  return v !== undefined && v >= 0 && v <= 1 ? { cache_hit_ratio: v } : {};
}

function controller(v?: string): { disk_controller?: 'scsi' | 'nvme' } {
  return v === 'scsi' || v === 'nvme' ? { disk_controller: v } : {};
}
