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

  /** The value of the field `key` of the mapping at `parent` (a pointer). */
  private get(parent: string, key: string): unknown {
    const n = this.field(parent, key);
    return n && nodeValue(n);
  }

  /** The mappings read so far, by pointer (null: not a mapping): a disk's sixteen keys cost one lookup of the disk. */
  private readonly parents = new Map<string, YamlNode | null>();

  /** The mapping at `path` (null: something else or nothing), looked up once (./tree-nodes.ts walks the tree). */
  private mapping(path: string): YamlNode | null {
    let p = this.parents.get(path);
    if (p === undefined) {
      const n = this.tree.nodes.get(path)?.value;
      this.parents.set(path, (p = n?.kind === 'map' ? n : null));
    }
    return p;
  }

  /**
   * The field `key` of the mapping at `parent`, as `tree.nodes` has it at `${parent}/${key}`: in a parsed YAML
   * tree, found among the mapping's few entries without building the field's pointer (most lookups find nothing:
   * keys left out); the pointer is built only for a report.
   */
  private field(parent: string, key: string): YamlNode | undefined {
    if (!this.tree.mirrorsRoot) return this.tree.nodes.get(`${parent}/${key}`)?.value;
    const p = this.mapping(parent);
    if (!p || p.kind !== 'map') return undefined;
    // As the source map has them: scalar keys, the first of duplicates, merged entries after the mapping's own.
    const i = indexNamed(p, key);
    return i < 0 ? undefined : valueAt(p, i);
  }

  private str(parent: string, key: string): string | undefined {
    const v = this.get(parent, key);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  }

  private num(parent: string, key: string): number | undefined {
    const v = this.get(parent, key);
    // YAML's .nan and .inf are numbers and pass the schema's `number` type: report them rather than drop them.
    if (typeof v === 'number' && !Number.isFinite(v)) {
      this.report('out-of-range', `${key} must be a finite number`, `${parent}/${key}`);
      return undefined;
    }
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  private quantity(parent: string, key: string, parse: (v: unknown) => Parsed): number | undefined {
    const n = this.field(parent, key);
    if (!n) return undefined;
    const v = nodeValue(n);
    if (v === null || typeof v === 'object') return undefined; // structural: the schema reports it
    const r = parse(v);
    if (!r.ok) {
      // Several readings: each is a fix, none preferred (lint --fix must not pick a unit for the user).
      const path = `${parent}/${key}`;
      const one = r.meant?.length === 1;
      const fixes: FixData[] = (r.meant ?? []).map((m) => ({ kind: 'set-value', path, value: m, title: `Write ${m}`, preferred: one }));
      this.report('bad-quantity', r.message, path, false, fixes);
      return undefined;
    }
    return r.value;
  }

  /** The pointers of the items of the list `key` of `parent`; each item that is a mapping is remembered as one. */
  private items(parent: string, key: string): string[] {
    const n = this.field(parent, key);
    if (!n || n.kind !== 'seq') return [];
    const path = `${parent}/${key}`;
    return n.items.map((item, i) => {
      // Joined, not concatenated: one flat string where `+` would keep two rope nodes (2 MB in 10,000 VMs' paths).
      const at = [path, i].join('/');
      if (this.tree.mirrorsRoot) this.parents.set(at, item.kind === 'map' ? item : null);
      return at;
    });
  }

  private isMap(path: string): boolean {
    return this.tree.mirrorsRoot ? this.mapping(path) !== null : this.tree.nodes.get(path)?.value.kind === 'map';
  }

  /** Reports each name met again; `note` adds what else the duplicate does (workloads it leaves out). */
  private checkNames(paths: string[], what: string, note?: (name: string) => string): void {
    const seen = new Set<string>();
    for (const p of paths) {
      const name = this.str(p, 'name');
      if (name === undefined) continue;
      if (seen.has(name)) this.report('duplicate-name', `another ${what} is already named '${name}'${note?.(name) ?? ''}`, `${p}/name`);
      seen.add(name);
    }
  }

  /**
   * A disk name two disks share, as a workload's `disk`, names neither: those workloads are not evaluated (their
   * figures over both disks would look like one disk's), said on the duplicate name, not on each workload.
   */
  private leftOutByDuplicate(wlPaths: string[], disk: string): string {
    const names = wlPaths.filter((p) => this.str(p, 'disk') === disk).map((p) => `'${this.str(p, 'name') ?? '?'}'`);
    if (!names.length) return ': rename one';
    const which = names.length === 1 ? `workload ${names[0]}` : `workloads ${firstAndMore(names, 'workload')}`;
    return `: rename one (${which} on it ${names.length === 1 ? 'is' : 'are'} not evaluated)`;
  }

  spec(): Spec {
    const version = this.num('', 'version') ?? 1;
    const provider = this.str('', 'provider') ?? '';
    const vmPaths = this.items('', 'vms');
    this.checkNames(vmPaths, 'VM');
    return {
      version,
      provider,
      catalog: this.str('', 'catalog'),
      region: this.str('', 'region'),
      vms: vmPaths.filter((p) => this.isMap(p)).map((p, i) => this.vm(p, i)),
      min_headroom: this.quantity('/policy', 'min_headroom', parsePercent),
    };
  }

  /**
   * The disks of a top-level list outside any VM (a Terraform front end's `unattached`), read as a VM's disks are. A
   * YAML spec has no such list: its schema refuses the key, and `spec()` does not read it.
   */
  topLevelDisks(key: string): DiskSpec[] {
    return this.items('', key)
      .filter((p) => this.isMap(p))
      .map((p, i) => this.disk(p, i));
  }

  private vm(path: string, index: number): VmSpec {
    const diskPaths = this.items(path, 'disks');
    const wlPaths = this.items(path, 'workloads');
    this.checkNames(diskPaths, 'disk on this VM', (name) => this.leftOutByDuplicate(wlPaths, name));
    this.checkNames(wlPaths, 'workload on this VM');
    const disks = diskPaths.filter((p) => this.isMap(p)).map((p, i) => this.disk(p, i));
    const workloads = wlPaths.filter((p) => this.isMap(p)).map((p, i) => this.workload(p, i));
    const vcpus = this.num(path, 'vcpus');
    const vm: VmSpec = {
      path,
      name: this.str(path, 'name') ?? `vm #${index + 1}`,
      machine_type: this.str(path, 'machine_type'),
      series: this.str(path, 'series'),
      vcpus: vcpus !== undefined && Number.isInteger(vcpus) && vcpus > 0 ? vcpus : undefined,
      other_egress_mibps: this.quantity(path, 'other_egress', parseThroughput) ?? 0,
      ...(this.str(path, 'pricing') === 'spot' ? { pricing: 'spot' as const } : {}),
      ...controller(this.str(path, 'disk_controller')),
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

  private disk(path: string, index: number): DiskSpec {
    let size = this.quantity(path, 'size', parseSize);
    if (size !== undefined && size <= 0) {
      this.report('size-out-of-range', 'a disk size must be greater than zero', `${path}/size`);
      size = undefined;
    }
    const iops = this.num(path, 'provisioned_iops');
    const count = this.num(path, 'count');
    const replication = this.str(path, 'replication');
    // fio settings: a mount point is a directory outside /dev, a device is under /dev; no control characters
    // (the values are written into fio job files line by line).
    let mount = this.str(path, 'mount_point');
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
    let device = this.str(path, 'device');
    if (device !== undefined && (!/^\/dev\/[^/]/.test(device) || /[\x00-\x1f\x7f]/.test(device))) {
      this.report(
        'invalid-value',
        'device is a block device path under /dev, such as /dev/sdb or /dev/disk/by-id/google-data',
        `${path}/device`,
      );
      device = undefined;
    }
    let fioSize = this.quantity(path, 'fio_size', parseBlockSize);
    if (fioSize !== undefined && fioSize <= 0) {
      this.report('out-of-range', 'fio_size must be greater than zero', `${path}/fio_size`);
      fioSize = undefined;
    }
    return {
      path,
      name: this.str(path, 'name') ?? `disk #${index + 1}`,
      type: this.str(path, 'type') ?? '',
      size_gib: size,
      replication: replication === 'regional' ? 'regional' : 'zonal',
      provisioned_iops: iops !== undefined && iops > 0 ? iops : undefined,
      provisioned_mibps: this.quantity(path, 'provisioned_throughput', parseThroughput),
      count: count !== undefined && Number.isInteger(count) && count > 0 ? count : undefined,
      interface: this.str(path, 'interface'),
      ...azureDisk(this.str(path, 'role'), this.str(path, 'caching'), this.str(path, 'tier'), this.str(path, 'bursting')),
      ...(this.get(path, 'performance_plus') === true ? { performance_plus: true } : {}),
      ...redundancyOf(this.str(path, 'redundancy')),
      mount_point: mount,
      device,
      fio_destructive: this.get(path, 'fio_destructive') === true ? true : undefined,
      fio_size_kib: fioSize,
      data_size_gib: this.quantity(path, 'data_size', parseSize),
      growth: this.quantity(path, 'growth', parsePercent),
    };
  }

  private workload(path: string, index: number): WorkloadSpec {
    let block = this.quantity(path, 'block_size', parseBlockSize);
    if (block !== undefined && (block < 0.5 || block > 1024 * 1024)) {
      this.report('out-of-range', 'a block size lies between 512 bytes and 1 GiB', `${path}/block_size`);
      block = undefined;
    }
    const ratio = this.readRatio(path);
    const qd = this.num(path, 'queue_depth');
    const t = `${path}/target`;
    // The target's mapping is a field of the workload's: remembered by its pointer, not looked up from the root.
    if (this.tree.mirrorsRoot) {
      const n = this.field(path, 'target');
      this.parents.set(t, n?.kind === 'map' ? n : null);
    }
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
      name: this.str(path, 'name') ?? `workload #${index + 1}`,
      disk: this.str(path, 'disk'),
      pattern: this.str(path, 'pattern') === 'sequential' ? 'sequential' : 'random',
      block_kib: block ?? 4,
      read_ratio: ratio ?? 1,
      queue_depth: qd !== undefined && Number.isInteger(qd) && qd > 0 ? qd : undefined,
      ...cacheHit(this.num(path, 'cache_hit_ratio')),
      target,
    };
  }

  /**
   * A read ratio: a fraction from 0 to 1 or a percentage (70%). A whole number from 2 to 100 is a percentage
   * written without its sign: the fraction it means is the fix. Any other number above 1 and up to 100 (1.5,
   * 12.5) reads several ways, each a fix to choose from, none preferred. Undefined when absent or wrong (the
   * workload then has an error and is not evaluated).
   */
  private readRatio(path: string): number | undefined {
    const at = `${path}/read_ratio`;
    const n = this.field(path, 'read_ratio');
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

  private nonNegative(parent: string, key: string): number | undefined {
    const v = this.num(parent, key);
    return v !== undefined && v >= 0 ? v : undefined;
  }
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
