/**
 * Text → typed spec + source map + diagnostics. Structure is checked by the JSON schema (ajv); quantities,
 * names and references by hand, with messages that say what to write instead.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import specSchema from '../../../schemas/storage-perf.schema.json';
import { buildTree, escapePointer, type YamlTree, type YamlNode } from './yaml-tree';
import { parseBlockSize, parseSize, parseThroughput, type Parsed } from '../units';
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import type { DiskSpec, Spec, Target, VmSpec, WorkloadSpec } from './types';
import type { Span } from '../text';

export interface ParsedSpec {
  text: string;
  /** Undefined when the file is not a usable spec at all (syntax error, not a mapping...). */
  spec?: Spec;
  tree: YamlTree;
  diagnostics: Diagnostic[];
}

let validator: ValidateFunction | undefined;
function validate(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
    validator = ajv.compile(specSchema as object);
  }
  return validator;
}

export function parseSpec(text: string): ParsedSpec {
  const tree = buildTree(text);
  const diagnostics: Diagnostic[] = tree.problems.map((p) => diag(p.code, p.message, p.span));
  const result: ParsedSpec = { text, tree, diagnostics };
  if (tree.problems.some((p) => p.code === 'yaml-syntax' || p.code === 'yaml-alias-limit')) return result;
  const root = tree.root;
  if (!root || (root.kind === 'scalar' && root.value === null)) {
    diagnostics.push(diag('empty-spec', 'the file is empty: a spec starts with `version: 1`, `provider:` and `vms:`', { start: 0, end: text.length && text[0] !== '\r' && text[0] !== '\n' ? 1 : 0 }));
    return result;
  }
  if (root.kind !== 'map') {
    diagnostics.push(diag('wrong-type', 'a spec is a mapping with `version`, `provider` and `vms`', root));
    return result;
  }

  const conv = new Converter(tree, diagnostics);
  result.spec = conv.spec();
  const reported = conv.reported;
  for (const d of schemaDiagnostics(tree, reported)) diagnostics.push(d);
  return result;
}

/** Span helpers over the source map. */
export function valueSpan(tree: YamlTree, path: string): Span | undefined {
  return tree.nodes.get(path)?.value;
}
export function keySpan(tree: YamlTree, path: string): Span | undefined {
  const n = tree.nodes.get(path);
  return n?.key ?? n?.value;
}

class Converter {
  /** Paths that already have a diagnostic: schema errors on them would only repeat it. */
  readonly reported = new Set<string>();
  constructor(private readonly tree: YamlTree, private readonly out: Diagnostic[]) {}

  private report(code: string, message: string, path: string, onKey = false): void {
    const span = onKey ? keySpan(this.tree, path) : valueSpan(this.tree, path);
    if (!span) return;
    this.out.push(diag(code, message, span, { path }));
    this.reported.add(path);
  }

  private get(path: string): unknown {
    const n = this.tree.nodes.get(path);
    if (!n) return undefined;
    return nodeValue(n.value);
  }

  private str(path: string): string | undefined {
    const v = this.get(path);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  }

  private num(path: string): number | undefined {
    const v = this.get(path);
    // YAML's .nan and .inf are numbers and pass the schema's `number` type: report them rather than drop them.
    if (typeof v === 'number' && !Number.isFinite(v)) {
      this.report('out-of-range', `${path.slice(path.lastIndexOf('/') + 1)} must be a finite number`, path);
      return undefined;
    }
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  private quantity(path: string, parse: (v: unknown) => Parsed): number | undefined {
    if (!this.tree.nodes.has(path)) return undefined;
    const v = this.get(path);
    if (v === null || typeof v === 'object') return undefined; // structural: the schema reports it
    const r = parse(v);
    if (!r.ok) { this.report('bad-quantity', r.message, path); return undefined; }
    return r.value;
  }

  private items(path: string): string[] {
    const n = this.tree.nodes.get(path)?.value;
    if (!n || n.kind !== 'seq') return [];
    return n.items.map((_, i) => `${path}/${i}`);
  }

  private checkNames(paths: string[], what: string): void {
    const seen = new Set<string>();
    for (const p of paths) {
      const name = this.str(`${p}/name`);
      if (name === undefined) continue;
      if (seen.has(name)) this.report('duplicate-name', `another ${what} is already named '${name}'`, `${p}/name`);
      seen.add(name);
    }
  }

  spec(): Spec {
    const version = this.num('/version') ?? 1;
    const provider = this.str('/provider') ?? '';
    const vmPaths = this.items('/vms');
    this.checkNames(vmPaths, 'VM');
    return {
      version,
      provider,
      catalog: this.str('/catalog'),
      region: this.str('/region'),
      vms: vmPaths.filter((p) => this.tree.nodes.get(p)?.value.kind === 'map').map((p, i) => this.vm(p, i)),
    };
  }

  private vm(path: string, index: number): VmSpec {
    const diskPaths = this.items(`${path}/disks`);
    const wlPaths = this.items(`${path}/workloads`);
    this.checkNames(diskPaths, 'disk on this VM');
    this.checkNames(wlPaths, 'workload on this VM');
    const disks = diskPaths.filter((p) => this.tree.nodes.get(p)?.value.kind === 'map').map((p, i) => this.disk(p, i));
    const workloads = wlPaths.filter((p) => this.tree.nodes.get(p)?.value.kind === 'map').map((p, i) => this.workload(p, i));
    const vcpus = this.num(`${path}/vcpus`);
    const vm: VmSpec = {
      path,
      name: this.str(`${path}/name`) ?? `vm #${index + 1}`,
      machine_type: this.str(`${path}/machine_type`),
      series: this.str(`${path}/series`),
      vcpus: vcpus !== undefined && Number.isInteger(vcpus) && vcpus > 0 ? vcpus : undefined,
      other_egress_mibps: this.quantity(`${path}/other_egress`, parseThroughput) ?? 0,
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
    let size = this.quantity(`${path}/size`, parseSize);
    if (size !== undefined && size <= 0) { this.report('size-out-of-range', 'a disk size must be greater than zero', `${path}/size`); size = undefined; }
    const iops = this.num(`${path}/provisioned_iops`);
    const count = this.num(`${path}/count`);
    const replication = this.str(`${path}/replication`);
    // fio settings: a mount point is a directory outside /dev, a device is under /dev; no control characters
    // (the values are written into fio job files line by line).
    let mount = this.str(`${path}/mount_point`);
    if (mount !== undefined && (!mount.startsWith('/') || /[\x00-\x1f\x7f]/.test(mount) || /^\/+dev(\/|$)/.test(mount))) {
      this.report('invalid-value', 'mount_point is the absolute path of a directory where the disk is mounted, outside /dev (for a block device use `device`)', `${path}/mount_point`);
      mount = undefined;
    }
    let device = this.str(`${path}/device`);
    if (device !== undefined && (!/^\/dev\/[^/]/.test(device) || /[\x00-\x1f\x7f]/.test(device))) {
      this.report('invalid-value', 'device is a block device path under /dev, such as /dev/sdb or /dev/disk/by-id/google-data', `${path}/device`);
      device = undefined;
    }
    let fioSize = this.quantity(`${path}/fio_size`, parseBlockSize);
    if (fioSize !== undefined && fioSize <= 0) { this.report('out-of-range', 'fio_size must be greater than zero', `${path}/fio_size`); fioSize = undefined; }
    return {
      path,
      name: this.str(`${path}/name`) ?? `disk #${index + 1}`,
      type: this.str(`${path}/type`) ?? '',
      size_gib: size,
      replication: replication === 'regional' ? 'regional' : 'zonal',
      provisioned_iops: iops !== undefined && iops > 0 ? iops : undefined,
      provisioned_mibps: this.quantity(`${path}/provisioned_throughput`, parseThroughput),
      count: count !== undefined && Number.isInteger(count) && count > 0 ? count : undefined,
      interface: this.str(`${path}/interface`),
      mount_point: mount,
      device,
      fio_destructive: this.get(`${path}/fio_destructive`) === true ? true : undefined,
      fio_size_kib: fioSize,
    };
  }

  private workload(path: string, index: number): WorkloadSpec {
    let block = this.quantity(`${path}/block_size`, parseBlockSize);
    if (block !== undefined && (block < 0.5 || block > 1024 * 1024)) {
      this.report('out-of-range', 'a block size lies between 512 bytes and 1 GiB', `${path}/block_size`);
      block = undefined;
    }
    const ratio = this.num(`${path}/read_ratio`);
    const qd = this.num(`${path}/queue_depth`);
    const t = `${path}/target`;
    const target: Target = {
      iops: this.nonNegative(`${t}/iops`),
      read_iops: this.nonNegative(`${t}/read_iops`),
      write_iops: this.nonNegative(`${t}/write_iops`),
      mibps: this.quantity(`${t}/throughput`, parseThroughput),
      read_mibps: this.quantity(`${t}/read_throughput`, parseThroughput),
      write_mibps: this.quantity(`${t}/write_throughput`, parseThroughput),
    };
    for (const k of Object.keys(target) as Array<keyof Target>) if (target[k] === undefined) delete target[k];
    return {
      path,
      name: this.str(`${path}/name`) ?? `workload #${index + 1}`,
      disk: this.str(`${path}/disk`),
      pattern: this.str(`${path}/pattern`) === 'sequential' ? 'sequential' : 'random',
      block_kib: block ?? 4,
      read_ratio: ratio !== undefined && ratio >= 0 && ratio <= 1 ? ratio : 1,
      queue_depth: qd !== undefined && Number.isInteger(qd) && qd > 0 ? qd : undefined,
      target,
    };
  }

  private nonNegative(path: string): number | undefined {
    const v = this.num(path);
    return v !== undefined && v >= 0 ? v : undefined;
  }
}

function nodeValue(n: YamlNode): unknown {
  return n.kind === 'scalar' ? n.value : n.kind === 'map' ? {} : [];
}

// ---- schema errors → diagnostics -------------------------------------------------------------------

const KEYWORD_RANK: Record<string, number> = {
  additionalProperties: 0, required: 1, const: 2, enum: 3, type: 4, pattern: 5,
  minimum: 6, maximum: 6, exclusiveMinimum: 6, exclusiveMaximum: 6, minItems: 7, minProperties: 7,
  anyOf: 9, oneOf: 9,
};

function schemaDiagnostics(tree: YamlTree, reported: Set<string>): Diagnostic[] {
  const v = validate();
  if (v(tree.value)) return [];
  const errors = (v.errors ?? []) as ErrorObject[];
  const out: Diagnostic[] = [];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    // additionalProperties / required are about a child key: give each its own path.
    let path = e.instancePath;
    if (e.keyword === 'additionalProperties') path += '/' + escapePointer(String(e.params.additionalProperty));
    if (e.keyword === 'required') path += '#' + String(e.params.missingProperty);
    const list = byPath.get(path) ?? [];
    list.push(e);
    byPath.set(path, list);
  }
  // A composite (anyOf/oneOf) failure also fails its branches; prefer a simple keyword at the same path.
  for (const [path, list] of byPath) {
    const basePath = path.split('#')[0];
    if (reported.has(basePath)) continue;
    if ([...reported].some((r) => basePath.startsWith(r + '/'))) continue;
    list.sort((a, b) => (KEYWORD_RANK[a.keyword] ?? 8) - (KEYWORD_RANK[b.keyword] ?? 8));
    let e = list[0];
    // For "number or quantity string" values, the pattern error says more than "must be number".
    const pattern = list.find((x) => x.keyword === 'pattern');
    if (e.keyword === 'type' && pattern) e = pattern;
    const d = errorToDiagnostic(tree, e, path);
    if (d) out.push(d);
  }
  return out;
}

function errorToDiagnostic(tree: YamlTree, e: ErrorObject, path: string): Diagnostic | undefined {
  const where = e.instancePath;
  const label = where.split('/').pop() || 'spec';
  switch (e.keyword) {
    case 'additionalProperties': {
      const span = keySpan(tree, path);
      if (!span) return undefined;
      const key = String(e.params.additionalProperty);
      const allowed = allowedKeys(e);
      const hint = suggest(key, allowed);
      // Renaming onto a key the mapping already has would only make a duplicate key. Removing a key is what a
      // user may choose, never what `lint --fix` does on its own (it would lose what they wrote), unless the
      // key only repeats, misspelt, the value the mapping already has under the right name.
      const existing = hint ? tree.nodes.get(`${path.slice(0, path.lastIndexOf('/'))}/${hint}`)?.value : undefined;
      const rename = hint && !existing;
      const own = tree.nodes.get(path)?.value;
      const repeats = existing?.kind === 'scalar' && own?.kind === 'scalar' && existing.text === own.text;
      return diag('unknown-key', `unknown key '${key}'${hint ? ` — did you mean '${hint}'?` : ''}`, span, {
        path,
        fixes: [
          ...(rename ? [{ kind: 'rename-key' as const, path, key: hint, title: `Rename '${key}' to '${hint}'`, preferred: true }] : []),
          { kind: 'remove-key' as const, path, title: `Remove unknown key '${key}'`, preferred: repeats },
        ],
      });
    }
    case 'required': {
      const missing = String(e.params.missingProperty);
      if (missing === 'machine_type' || missing === 'series' || missing === 'vcpus') return undefined; // the anyOf error says it better
      const span = keySpan(tree, where) ?? { start: 0, end: 0 };
      return diag('missing-key', `missing required key '${missing}' in ${describe(where)}`, firstLine(tree, where, span), { path: where });
    }
    case 'anyOf': {
      if (/\/vms\/\d+$/.test(where)) {
        return diag('missing-machine', 'a VM needs `machine_type`, or both `series` and `vcpus`', firstLine(tree, where, keySpan(tree, where) ?? { start: 0, end: 0 }), { path: where });
      }
      break;
    }
    case 'const':
      if (where === '/version') return diag('unsupported-version', 'only `version: 1` is supported', valueSpan(tree, where)!, { path: where });
      break;
    case 'enum': {
      const allowed = (e.params.allowedValues as unknown[]).map(String);
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      const code = label === 'type' ? 'unknown-disk-type' : 'invalid-value';
      return diag(code, `'${String(nodeAt(tree, where))}' is not a valid ${label}; use one of: ${allowed.join(', ')}`, span, { path: where });
    }
    case 'type': {
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      return diag('wrong-type', `${label} must be ${article(String(e.params.type))}`, span, { path: where });
    }
    case 'pattern': {
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      if (label === 'name' || label === 'disk') return diag('invalid-value', `'${String(nodeAt(tree, where))}' is not a valid name: letters, digits, '_', '.', '-', starting with a letter or digit`, span, { path: where });
      return diag('bad-quantity', `'${String(nodeAt(tree, where))}' is not a valid ${label.replace(/_/g, ' ')}`, span, { path: where });
    }
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': {
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      return diag('out-of-range', `${label} ${e.message ?? 'is out of range'}`, span, { path: where });
    }
    case 'minItems': case 'minProperties': {
      const span = keySpan(tree, where) ?? valueSpan(tree, where);
      if (!span) return undefined;
      return diag('missing-key', `${label} must not be empty`, span, { path: where });
    }
  }
  const span = valueSpan(tree, where) ?? { start: 0, end: 0 };
  return diag('invalid-value', `${label}: ${e.message ?? 'invalid'}`, span, { path: where });
}

function nodeAt(tree: YamlTree, path: string): unknown {
  const n = tree.nodes.get(path)?.value;
  return n && n.kind === 'scalar' ? n.text : '';
}

function firstLine(tree: YamlTree, path: string, fallback: Span): Span {
  // For a missing key, point at the key that holds the object, or at the object's first key (a list item).
  const n = tree.nodes.get(path);
  if (n?.key) return n.key;
  if (n?.value.kind === 'map' && n.value.entries.length) return n.value.entries[0].key;
  return fallback;
}

function describe(path: string): string {
  if (path === '') return 'the spec';
  const m = /^\/vms\/(\d+)(?:\/(disks|workloads)\/(\d+))?(?:\/target)?$/.exec(path);
  if (!m) return path;
  if (path.endsWith('/target')) return 'the target';
  if (m[2] === 'disks') return 'this disk';
  if (m[2] === 'workloads') return 'this workload';
  return 'this VM';
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

function allowedKeys(e: ErrorObject): string[] {
  const props = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

/** The allowed key closest to a misspelt one (edit distance ≤ 2), if any. */
export function suggest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) { bestD = d; best = c; }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagPrev = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diagPrev + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagPrev = tmp;
    }
  }
  return prev[b.length];
}
