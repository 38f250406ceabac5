/**
 * The analysis of one spec text: parse, check against the catalog, evaluate, and say what is wrong and how
 * to fix it. Pure: no file system, no protocol. The language server and the CLI both call `analyze`.
 */
import { builtinRegistry, largerMachines, resolveMachine, vmLimitRow, type Catalog, type CatalogRegistry, type Machine } from './catalog';
import { diag, type Diagnostic, type FixData } from './diagnostics';
import { metricLabel, provisionedBounds } from './model/disks';
import { cheaperDisk, evaluateOnMachine, evaluateVm, smallestMachineMeeting, type CheaperDisk } from './model/evaluate';
import { METRICS, type DiskEval, type Metric, type VmEval } from './model/types';
import { keySpan, parseSpec, valueSpan, type ParsedSpec } from './document/parse';
import type { DiskSpec, Spec, VmSpec } from './document/types';
import { fmt, fmtMoney, formatBlock, formatSize } from './units';
import { applySuppressions } from './suppress';

/**
 * Memo of per-VM results across analyses of the same document: an edit usually touches one VM, and a VM's
 * evaluation depends only on its own spec, the catalog and the region. Keys include all three.
 */
interface CachedVm { e: VmEval; lift?: { machine?: Machine; gain: string }; cheaper?: Map<string, CheaperDisk | undefined> }

export class EvaluationCache {
  private readonly vms = new Map<string, CachedVm>();
  constructor(private readonly limit = 20000) {}
  get(key: string): CachedVm | undefined { return this.vms.get(key); }
  set(key: string, value: CachedVm): void {
    if (this.vms.size >= this.limit) this.vms.clear();
    this.vms.set(key, value);
  }
}

export interface AnalyzeOptions {
  /** Reuse VM evaluations from earlier analyses (the language server keeps one). */
  cache?: EvaluationCache;
  registry?: CatalogRegistry;
  /** Edition to use when the spec names none (editor setting); otherwise the provider's newest. */
  defaultCatalog?: string;
  /** Region to price in when the spec names none. */
  defaultRegion?: string;
  /**
   * Evaluate at most this many VMs; the rest are parsed and checked but not evaluated, and a `too-many-vms`
   * warning says so. The language server sets it: it analyses on every keystroke on one thread.
   */
  maxVms?: number;
}

export interface Analysis {
  parsed: ParsedSpec;
  spec?: Spec;
  catalog?: Catalog;
  region?: string;
  vms: VmEval[];
  diagnostics: Diagnostic[];
  monthly_cost?: number;
}

export function analyze(text: string, opts: AnalyzeOptions = {}): Analysis {
  const out = analyzeUnsuppressed(text, opts);
  out.diagnostics = applySuppressions(text, out.diagnostics);
  return out;
}

/**
 * Text that did not decode as UTF-8: NUL characters mean binary or UTF-16/32 (YAML refuses them anyway, with a
 * message that does not say why); U+FFFD means a decoder replaced bytes that were not UTF-8.
 */
function encodingDiagnostics(text: string): Diagnostic[] {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    const utf16 = /^(?:\uFFFD\uFFFD|\uFEFF)?[^\u0000]\u0000[^\u0000]\u0000|^\u0000[^\u0000]\u0000[^\u0000]/.test(text);
    return [diag('encoding', utf16
      ? 'this file looks like UTF-16 text; a spec must be saved as UTF-8'
      : 'this file holds NUL characters: it is binary, not a UTF-8 text spec', { start: nul, end: nul + 1 })];
  }
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) {
    return [diag('encoding', 'this file is not valid UTF-8: bytes that are not UTF-8 were replaced by U+FFFD; save it as UTF-8', { start: bad, end: bad + 1 }, { severity: 'warning' })];
  }
  return [];
}

function analyzeUnsuppressed(text: string, opts: AnalyzeOptions): Analysis {
  const parsed = parseSpec(text);
  const diagnostics = [...encodingDiagnostics(text), ...parsed.diagnostics];
  const out: Analysis = { parsed, spec: parsed.spec, vms: [], diagnostics };
  const spec = parsed.spec;
  if (!spec || !spec.provider) return out;
  const registry = opts.registry ?? builtinRegistry;
  const tree = parsed.tree;
  const at = (path: string) => valueSpan(tree, path);
  const key = (path: string) => keySpan(tree, path);
  const push = (code: string, message: string, span: { start: number; end: number } | undefined, extra: Partial<Diagnostic> = {}) => {
    if (span) diagnostics.push(diag(code, message, span, extra));
  };

  // ---- catalog and region -------------------------------------------------------------------------------
  let catalog: Catalog | undefined;
  if (spec.catalog !== undefined) {
    catalog = registry.get(spec.catalog);
    if (!catalog) {
      const known = registry.forProvider(spec.provider).map((c) => c.edition);
      push('unknown-catalog', `no catalog edition '${spec.catalog}'; for ${spec.provider}: ${known.join(', ') || 'none'}`, at('/catalog'), {
        path: '/catalog',
        fixes: known.map((e, i) => ({ kind: 'set-value', path: '/catalog', value: e, title: `Use catalog ${e}`, preferred: i === known.length - 1 })),
      });
      return out;
    }
    if (catalog.provider !== spec.provider) {
      push('catalog-provider-mismatch', `catalog ${catalog.edition} is for ${catalog.provider}, not ${spec.provider}`, at('/catalog'), { path: '/catalog' });
      return out;
    }
  } else {
    const preferred = opts.defaultCatalog ? registry.get(opts.defaultCatalog) : undefined;
    catalog = preferred && preferred.provider === spec.provider ? preferred : registry.defaultFor(spec.provider);
    if (!catalog) return out; // the schema already reports an unknown provider
  }
  out.catalog = catalog;
  let region = spec.region ?? opts.defaultRegion ?? catalog.default_region;
  if (!catalog.regions.includes(region)) {
    if (spec.region !== undefined) {
      push('unknown-region', `${catalog.edition} has prices for ${catalog.regions.join(', ')}, not ${region}; costs are left out`, at('/region'), {
        path: '/region',
        fixes: catalog.regions.map((r, i) => ({ kind: 'set-value', path: '/region', value: r, title: `Price in ${r}`, preferred: i === 0 })),
      });
    } else {
      region = catalog.default_region;
    }
  }
  out.region = region;

  // ---- VMs ----------------------------------------------------------------------------------------------
  let fileCost: number | undefined = 0;
  for (const [index, vm] of spec.vms.entries()) {
    if (opts.maxVms !== undefined && index >= opts.maxVms) {
      const first = tree.nodes.get(vm.path)?.value;
      push('too-many-vms', `this file has ${fmt(spec.vms.length)} VMs; only the first ${fmt(opts.maxVms)} are evaluated here, so findings for '${vm.name}' and the VMs after it are missing (the evaluate command evaluates them all)`,
        key(`${vm.path}/name`) ?? (first && { start: first.start, end: Math.min(first.end, first.start + 1) }), { path: vm.path });
      fileCost = undefined;
      break;
    }
    const machine = checkMachine(catalog, vm);
    for (const d of vm.disks) checkDisk(catalog, vm, d, machine);
    const cacheKey: string = opts.cache ? `${catalog.edition}\u0000${region}\u0000${JSON.stringify(vm)}` : '';
    let memo: CachedVm | undefined = opts.cache?.get(cacheKey);
    if (!memo || memo.e.catalog !== catalog) {
      memo = { e: evaluateVm(catalog, vm, region) };
      opts.cache?.set(cacheKey, memo);
    }
    const e = memo.e;
    out.vms.push(e);
    evaluationDiagnostics(catalog, region, vm, e, memo);
    fileCost = fileCost !== undefined && e.monthly_cost !== undefined ? fileCost + e.monthly_cost : undefined;
  }
  out.monthly_cost = fileCost;
  return out;

  function machineSpan(vm: VmSpec) {
    return key(`${vm.path}/machine_type`) ?? key(`${vm.path}/vcpus`) ?? key(`${vm.path}/series`) ?? key(`${vm.path}/name`);
  }

  /** The value that names machine `m` for this VM: its machine_type, or its vcpus where it gives a series. */
  function machineSetting(vm: VmSpec, m: Machine): { path: string; value: string | number } {
    return vm.machine_type !== undefined || vm.series === undefined
      ? { path: `${vm.path}/machine_type`, value: m.name }
      : { path: `${vm.path}/vcpus`, value: m.vcpus };
  }

  function setMachine(vm: VmSpec, m: Machine, title: string, preferred = true): FixData {
    return { kind: 'set-value', ...machineSetting(vm, m), title, preferred };
  }

  function checkMachine(c: Catalog, vm: VmSpec): Machine | undefined {
    if (vm.machine_type === undefined && vm.series === undefined) return undefined; // schema: missing-machine
    const r = resolveMachine(c, vm);
    if (!r.ok) {
      const path = `${vm.path}/${r.on}`;
      push(r.code, r.message, at(path) ?? key(`${vm.path}/name`), { path });
      return undefined;
    }
    if (vm.machine_type !== undefined && (vm.series !== undefined || vm.vcpus !== undefined)) {
      const m = r.machine;
      if ((vm.series !== undefined && vm.series.toLowerCase() !== m.series) || (vm.vcpus !== undefined && vm.vcpus !== m.vcpus)) {
        const path = vm.vcpus !== undefined && vm.vcpus !== m.vcpus ? `${vm.path}/vcpus` : `${vm.path}/series`;
        push('machine-conflict', `${m.name} is ${m.series} with ${m.vcpus} vCPUs; machine_type wins — remove series/vcpus or make them agree`, at(path), {
          path, fixes: [{ kind: 'remove-key', path, title: `Remove ${path.split('/').pop()}`, preferred: true }],
        });
      }
    }
    return r.machine;
  }

  function checkDisk(c: Catalog, vm: VmSpec, d: DiskSpec, machine: Machine | undefined): void {
    const t = c.disk_types[d.type];
    const p = d.path;
    if (!d.type) return;
    if (!t) {
      const known = Object.keys(c.disk_types);
      push('unknown-disk-type', `'${d.type}' is not a ${c.provider} disk type in ${c.edition}; use one of: ${known.join(', ')}`, at(`${p}/type`), { path: `${p}/type` });
      return;
    }
    if (machine?.info.disk_types && !machine.info.disk_types.includes(d.type)) {
      push('disk-type-not-on-series', `${machine.series} machines cannot attach ${d.type}; they take ${machine.info.disk_types.join(', ')}`, at(`${p}/type`), { path: `${p}/type` });
    }
    const na = (field: string, why: string) => {
      const path = `${p}/${field}`;
      if (tree.nodes.has(path)) push('not-applicable', `${field} has no effect on ${d.type}: ${why}`, key(path), { path, fixes: [{ kind: 'remove-key', path, title: `Remove ${field}`, preferred: true }] });
    };
    if (t.model === 'devices') {
      na('size', `its size is ${t.device_gib} GiB per device; set count instead`);
      const n = d.count ?? 1;
      if (!t.counts.includes(n) && tree.nodes.has(`${p}/count`)) {
        const nearest = t.counts.reduce((a, b) => (Math.abs(b - n) < Math.abs(a - n) || (Math.abs(b - n) === Math.abs(a - n) && b > a) ? b : a));
        push('local-ssd-count', `${n} local SSD devices is not allowed; allowed counts: ${t.counts.join(', ')}`, at(`${p}/count`), {
          path: `${p}/count`, fixes: [{ kind: 'set-value', path: `${p}/count`, value: nearest, title: `Use ${nearest} devices`, preferred: true }],
        });
      }
      if (d.interface !== undefined && !t.interfaces[d.interface]) {
        push('invalid-value', `interface must be one of ${Object.keys(t.interfaces).join(', ')}`, at(`${p}/interface`), { path: `${p}/interface` });
      }
      if (machine && t.vcpus_per_device && machine.vcpus < t.vcpus_per_device.min * n) {
        const need = t.vcpus_per_device.min * n;
        const bigger = [machine, ...largerMachines(machine)].find((m) => m.vcpus >= need);
        push('local-ssd-vcpus', `${n} local SSD device${n === 1 ? '' : 's'} want ${need}–${t.vcpus_per_device.max * n} vCPUs (${t.vcpus_per_device.min}–${t.vcpus_per_device.max} per device); ${machine.name} has ${machine.vcpus} (${c.edition}: ${t.vcpus_per_device.table})`, machineSpan(vm), {
          path: `${vm.path}/machine_type`, fixes: bigger && bigger !== machine ? [setMachine(vm, bigger, `Change machine to ${bigger.name}`)] : [],
        });
      }
    } else {
      na('count', 'only local SSD has devices');
      na('interface', 'only local SSD has an interface');
      if (d.size_gib === undefined && !tree.nodes.has(`${p}/size`)) {
        const def = t.size_gib.default ?? t.size_gib.min;
        push('missing-size', `disk '${d.name}' needs a size (${d.type}: ${formatSize(t.size_gib.min)} to ${formatSize(t.size_gib.max)})`, key(`${p}/name`), {
          path: p, fixes: [{ kind: 'add-key', path: p, key: 'size', value: formatSize(def), title: `Add size: ${formatSize(def)}`, preferred: true }],
        });
      } else if (d.size_gib !== undefined && (d.size_gib < t.size_gib.min - 1e-9 || d.size_gib > t.size_gib.max + 1e-9)) {
        const fix = formatSize(d.size_gib < t.size_gib.min ? t.size_gib.min : t.size_gib.max);
        push('size-out-of-range', `${d.type} sizes run from ${formatSize(t.size_gib.min)} to ${formatSize(t.size_gib.max)}; this is ${formatSize(d.size_gib)}`, at(`${p}/size`), {
          path: `${p}/size`, fixes: [{ kind: 'set-value', path: `${p}/size`, value: fix, title: `Set size to ${fix}`, preferred: true }],
        });
      }
    }
    if (d.replication === 'regional' && !(t.replication ?? []).includes('regional')) {
      push('invalid-value', `${d.type} cannot be regional`, at(`${p}/replication`), { path: `${p}/replication`, fixes: [{ kind: 'set-value', path: `${p}/replication`, value: 'zonal', title: 'Make it zonal', preferred: true }] });
    }
    if (t.model === 'provisioned') {
      const size = d.size_gib ?? t.size_gib.default ?? t.size_gib.min;
      const pr = t.provisioned;
      if (!pr.iops) na('provisioned_iops', pr.iops_per_mibps ? `its IOPS follow from the provisioned throughput (${pr.iops_per_mibps} per MiB/s)` : 'IOPS are not provisioned');
      if (!pr.mibps) na('provisioned_throughput', pr.mibps_per_iops ? `its throughput follows from the provisioned IOPS (${pr.mibps_per_iops} MiB/s per IOPS)` : 'throughput is not provisioned');
      const check = (field: string, r: typeof pr.iops, v: number | undefined, unit: string) => {
        if (!r || v === undefined) return;
        const { lo, hi } = provisionedBounds(r, size);
        if (v < lo - 1e-9 || v > hi + 1e-9) {
          const fixed = Math.round(v < lo ? Math.ceil(lo) : Math.floor(hi));
          const value = unit === 'IOPS' ? fixed : `${fixed}MiB/s`;
          push('provisioned-out-of-range', `${d.type} of ${formatSize(size)} takes ${fmt(lo)} to ${fmt(hi)} provisioned ${unit}; ${fmt(v)} is outside`, at(`${p}/${field}`), {
            path: `${p}/${field}`, fixes: [{ kind: 'set-value', path: `${p}/${field}`, value, title: `Provision ${fmt(fixed)} ${unit}`, preferred: true }],
          });
        }
      };
      check('provisioned_iops', pr.iops, d.provisioned_iops, 'IOPS');
      check('provisioned_throughput', pr.mibps, d.provisioned_mibps, 'MiB/s');
    } else {
      na('provisioned_iops', 'its IOPS come from its size');
      na('provisioned_throughput', 'its throughput comes from its size');
    }
    if (t.model === 'allocation-units' && d.size_gib !== undefined) {
      const units = d.size_gib / t.unit_gib;
      if (Math.abs(units - Math.round(units)) > 1e-9) {
        const up = Math.ceil(units) * t.unit_gib;
        const msg = t.whole_units
          ? `${d.type} sizes are whole allocation units of ${t.unit_gib} GiB; ${formatSize(d.size_gib)} is ${fmt(units)} units`
          : `${formatSize(d.size_gib)} is ${fmt(units)} allocation units of ${t.unit_gib} GiB; performance comes in whole units, so ${formatSize(up)} costs a little more and is counted the same`;
        push('allocation-unit', msg, at(`${p}/size`), {
          severity: t.whole_units ? 'error' : 'warning',
          path: `${p}/size`, fixes: [{ kind: 'set-value', path: `${p}/size`, value: formatSize(up), title: `Round up to ${formatSize(up)} (${Math.ceil(units)} units)`, preferred: true }],
        });
      }
      if (t.burst && d.size_gib < t.burst.to_gib) {
        push('hdd-burst', `${d.type} below ${formatSize(t.burst.to_gib)} can burst to the level of a ${formatSize(t.burst.to_gib)} disk for about ${t.burst.minutes_per_day} minutes a day; figures here are the sustained ones (${c.edition}: ${t.burst.table})`, at(`${p}/type`), { path: `${p}/type` });
      }
    }
  }

  /**
   * "15,000 read and write IOPS (the disk alone: 21,000)": the figures a VM limit caps on one disk, read and
   * write said once when the machine caps both at the same value.
   */
  function cappedParts(d: DiskEval): string[] {
    const out: string[] = [];
    for (const [r, w, unit] of [['read_iops', 'write_iops', 'IOPS'], ['read_mibps', 'write_mibps', 'MiB/s']] as const) {
      const cap = (k: Metric) => d.figures[k].by === 'vm' && d.diskOnly[k].value > d.figures[k].value * 1.001;
      const one = (k: Metric, dir: string) => `${fmt(d.figures[k].value)} ${unit} ${dir} (the disk alone: ${fmt(d.diskOnly[k].value)})`;
      if (cap(r) && cap(w) && d.figures[r].value === d.figures[w].value && d.diskOnly[r].value === d.diskOnly[w].value) out.push(one(r, 'read and write'));
      else {
        if (cap(r)) out.push(one(r, 'read'));
        if (cap(w)) out.push(one(w, 'write'));
      }
    }
    return out;
  }

  function evaluationDiagnostics(c: Catalog, region: string, vm: VmSpec, e: VmEval, memo: CachedVm): void {
    const m = e.machine;
    // The machine's per-VM limit binds below what the disks could give.
    if (m) {
      const capped: string[] = [];
      for (const d of e.disks) {
        const parts = cappedParts(d);
        if (parts.length) capped.push(`${d.spec.name} at ${parts.join(' and ')}`);
      }
      if (capped.length) {
        if (!memo.lift) {
          const machine = smallestMachineMeeting(c, vm, m, region, (x) => x.disks.every((d) => METRICS.every((k) => d.figures[k].by !== 'vm' || d.figures[k].value >= d.diskOnly[k].value * 0.999)));
          memo.lift = { machine, gain: machine ? gainText(c, region, vm, e, machine) : '' };
        }
        const lifts = memo.lift.machine;
        const lift = lifts ? `; ${lifts.name} (${lifts.vcpus} vCPUs) lifts it` : '; no larger machine of the series lifts it';
        push('capped-by-vcpu', `${m.name} (${m.vcpus} vCPUs) caps ${capped.join(', ')}${lift}`, machineSpan(vm), {
          path: `${vm.path}/machine_type`,
          fixes: lifts ? [setMachine(vm, lifts, `Change machine to ${lifts.name}${memo.lift.gain}`, false)] : [],
        });
      }
      if (e.egress?.binds) {
        const eg = e.egress;
        const hit = e.disks.filter((d) => d.figures.write_mibps.by === 'egress' || d.figures.write_iops.by === 'egress');
        const other = eg.other_mibps > 0 ? `other egress assumed ${fmt(eg.other_mibps)} MiB/s` : 'no other egress assumed';
        const otherPath = `${vm.path}/other_egress`;
        push('capped-by-egress', `network egress caps writes to ${hit.map((d) => `${d.spec.name} at ${fmt(d.figures.write_mibps.value)} MiB/s`).join(', ')}: ${m.name} has ${fmt(eg.cap_gbps)} Gbit/s (${fmt(eg.cap_mibps)} MiB/s), ${other}, leaving ${fmt(eg.budget_mibps)} MiB/s of network for disk writes before the ${eg.multiplier.zonal}× (zonal) / ${eg.multiplier.regional}× (regional) write multiplier`,
        key(otherPath) ?? machineSpan(vm), { path: tree.nodes.has(otherPath) ? otherPath : `${vm.path}/machine_type` });
      }
    }
    for (const d of e.disks) {
      if (d.sharesBaselineWith.length && d.type.model === 'scaled') {
        const r = d.type.rates;
        const total = [d, ...e.disks.filter((x) => d.sharesBaselineWith.includes(x.spec.name))].reduce((s, x) => s + x.size_gib, 0);
        push('shared-baseline', `'${d.spec.name}' shares one ${fmt(r.baseline_iops ?? 0)} IOPS / ${fmt(r.baseline_mibps ?? 0)} MiB/s ${d.typeName} baseline with ${d.sharesBaselineWith.map((n) => `'${n}'`).join(', ')}: together they perform like one ${formatSize(total)} disk (${c.edition}: ${r.table})`, at(`${d.spec.path}/type`), { path: `${d.spec.path}/type` });
      }
      if (m && d.type.model !== 'devices' && !vmLimitRow(c, m, d.typeName)) {
        push('machine-limits-unknown', `${c.edition} has no per-VM ${d.typeName} limits for ${m.name}; only the disk's own limits apply`, at(`${d.spec.path}/type`), { path: `${d.spec.path}/type` });
      }
      if (d.cost.monthly === undefined) push('price-unknown', d.cost.why, at(`${d.spec.path}/type`), { path: `${d.spec.path}/type` });
      // Disks are looked up by name here and in cheaperDisk: with a duplicate name (already an error) the advice
      // would be about the other disk, priced with this one's cost.
      if (d.type.model !== 'devices' && d.cost.monthly !== undefined && e.disks.filter((x) => x.spec.name === d.spec.name).length === 1
        && !e.workloads.some((w) => w.disks.includes(d.spec.name) && w.meets_target !== true)) {
        memo.cheaper ??= new Map();
        if (!memo.cheaper.has(d.spec.name)) memo.cheaper.set(d.spec.name, cheaperDisk(c, vm, m, region, d));
        const better = memo.cheaper.get(d.spec.name);
        if (better) {
          const sameType = better.type === d.typeName;
          const money = (x: number) => fmtMoney(x, c.currency);
          const what = sameType ? `${formatSize(better.size_gib)}` : `a ${formatSize(better.size_gib)} ${better.type} disk`;
          const values: Array<{ path: string; value: string | number }> = [{ path: `${d.spec.path}/size`, value: formatSize(better.size_gib) }];
          if (!sameType) values.unshift({ path: `${d.spec.path}/type`, value: better.type });
          push('overprovisioned', `'${d.spec.name}' pays for performance its workloads never use: ${what} still meets every target${better.size_gib < d.size_gib ? ', if the data fits,' : ''} and saves ${money(better.saving)}/month (${money(better.monthly)} instead of ${money(d.cost.monthly!)})`,
            at(sameType ? `${d.spec.path}/size` : `${d.spec.path}/type`), {
              path: `${d.spec.path}/${sameType ? 'size' : 'type'}`,
              fixes: tree.nodes.has(`${d.spec.path}/size`) ? [{ kind: 'set-values', values, title: `Use ${what} (−${money(better.saving)}/month)`, preferred: false }] : [],
            });
        }
      }
    }
    for (const w of e.workloads) {
      const wp = w.spec.path;
      if (w.meets_target === false) {
        const fixes: FixData[] = [];
        const s = w.suggestions;
        const disk = s.disk ? vm.disks.find((x) => x.name === s.disk) : undefined;
        if (s.together && s.machine_type && s.disk_size_gib !== undefined && disk && m) {
          // Only both together meet the target: one fix that changes the machine and resizes the disk.
          const target = resolveMachine(c, { machine_type: s.machine_type });
          const cur = e.disks.find((x) => x.spec.name === disk.name);
          if (target.ok && cur) {
            const resize = s.disk_size_gib > cur.size_gib && tree.nodes.has(`${disk.path}/size`);
            const values = [machineSetting(vm, target.machine)];
            if (resize) values.push({ path: `${disk.path}/size`, value: formatSize(s.disk_size_gib) });
            const title = resize
              ? `Change machine to ${s.machine_type} and resize '${disk.name}' to ${formatSize(s.disk_size_gib)}${costDelta(c, region, cur.size_gib, s.disk_size_gib, cur)}`
              : `Change machine to ${s.machine_type}`;
            fixes.push({ kind: 'set-values', values, title, preferred: true });
          }
        } else if (s.disk_type && s.disk_size_gib !== undefined && disk) {
          // No size of this type and no machine of the series meets the target: another type does.
          const cur = e.disks.find((x) => x.spec.name === disk.name);
          const resize = cur && s.disk_size_gib !== cur.size_gib;
          const values: Array<{ path: string; value: string | number }> = [{ path: `${disk.path}/type`, value: s.disk_type }];
          if (resize && tree.nodes.has(`${disk.path}/size`)) values.push({ path: `${disk.path}/size`, value: formatSize(s.disk_size_gib) });
          const after = vm.disks.map((x) => (x === disk ? { ...x, type: s.disk_type!, size_gib: s.disk_size_gib } : x));
          const monthly = evaluateVmWith(c, region, vm, after).disks.find((x) => x.spec.name === disk.name)?.cost.monthly;
          const delta = monthly !== undefined && cur?.cost.monthly !== undefined ? ` (${monthly >= cur.cost.monthly ? '+' : '−'}${fmtMoney(Math.abs(monthly - cur.cost.monthly), c.currency)}/month)` : '';
          if (values.length === 2 || !resize) {
            fixes.push({ kind: 'set-values', values, title: `Switch '${disk.name}' to ${s.disk_type}${resize ? `, ${formatSize(s.disk_size_gib)}` : ''}${delta}`, preferred: true });
          }
        } else if (s.disk_size_gib !== undefined && disk) {
          const cur = e.disks.find((x) => x.spec.name === disk.name);
          const extra = cur ? costDelta(c, region, cur.size_gib, s.disk_size_gib, cur) : '';
          fixes.push({ kind: tree.nodes.has(`${disk.path}/size`) ? 'set-value' : 'add-key', path: tree.nodes.has(`${disk.path}/size`) ? `${disk.path}/size` : disk.path, key: 'size', value: formatSize(s.disk_size_gib), title: `Resize '${disk.name}' to ${formatSize(s.disk_size_gib)}${extra}`, preferred: true } as FixData);
        }
        if (s.machine_type && m && !s.together) {
          const target = resolveMachine(c, { machine_type: s.machine_type });
          if (target.ok) fixes.push(setMachine(vm, target.machine, `Change machine to ${s.machine_type}`, fixes.length === 0));
        }
        const how = [
          s.disk_type && s.disk_size_gib !== undefined ? `a ${formatSize(s.disk_size_gib)} ${s.disk_type} disk for '${s.disk}'` : '',
          !s.disk_type && s.disk_size_gib !== undefined ? `resize '${s.disk}' to ${formatSize(s.disk_size_gib)}` : '',
          s.machine_type ? `use ${s.machine_type}` : '',
        ].filter(Boolean).join(s.together ? ' and ' : ' or ');
        const limitedBy = w.limited_by === 'block_size' || w.limited_by === 'queue_depth' ? '' : `; bound by ${w.limited_by}: ${w.why}`;
        push('target-unreachable', `workload '${w.spec.name}' reaches ${w.shortfalls.join(', ')}${limitedBy}${how ? ` — ${how}` : ''}`, key(`${wp}/target`) ?? key(`${wp}/name`), { path: `${wp}/target`, fixes });
      }
      if (w.spec.queue_depth !== undefined && e.disks.some((d) => w.disks.includes(d.spec.name) && d.type.model !== 'devices') && w.spec.queue_depth * c.queue.iops_per_outstanding_io.high < w.demand_iops - 1e-6) {
        const want = Math.min(Math.max(w.queue_depth_needed.low, Math.min(w.queue_depth_needed.high, c.queue.max_useful_depth)), 65536);
        push('queue-depth-too-low', `queue depth ${w.spec.queue_depth} allows at most ${fmt(w.spec.queue_depth * c.queue.iops_per_outstanding_io.high)} IOPS at ${c.queue.iops_per_outstanding_io.high} IOPS per outstanding I/O; ${fmt(w.demand_iops)} IOPS needs ${w.queue_depth_needed.low}–${w.queue_depth_needed.high} (${c.edition}: ${c.queue.table})`, at(`${wp}/queue_depth`), {
          path: `${wp}/queue_depth`, fixes: [{ kind: 'set-value', path: `${wp}/queue_depth`, value: want, title: `Set queue depth to ${want}`, preferred: true }],
        });
      }
      if (m && w.cpu_vcpus_needed > m.vcpus) {
        push('cpu-insufficient', `workload '${w.spec.name}' needs about ${fmt(w.cpu_vcpus_needed)} free vCPUs to drive ${fmt(w.demand_iops)} IOPS (1 per ${fmt(c.cpu.read_iops_per_vcpu)} reads, 1 per ${fmt(c.cpu.write_iops_per_vcpu)} writes); ${m.name} has ${m.vcpus} (${c.edition}: ${c.cpu.table})`, machineSpan(vm), { path: `${vm.path}/machine_type` });
      }
      if (w.limited_by === 'block_size') {
        const b = w.suggestions.block_kib;
        push('block-size-too-small', `at ${formatBlock(w.spec.block_kib)} per I/O the IOPS limit caps throughput at ${fmt(w.read_mibps + w.write_mibps)} MiB/s${b ? `; ${formatBlock(b)} blocks would reach the target` : ''}`, at(`${wp}/block_size`), {
          path: `${wp}/block_size`, fixes: b ? [{ kind: 'set-value', path: `${wp}/block_size`, value: formatBlock(b), title: `Use ${formatBlock(b)} blocks`, preferred: false }] : [],
        });
      }
      if (w.spec.pattern === 'sequential' && w.spec.block_kib < 64) {
        push('sequential-merge', `small sequential I/O is often merged by the kernel: fio may report more IOPS than the disk's limit while the disk sees fewer, larger operations`, at(`${wp}/pattern`), { path: `${wp}/pattern` });
      }
    }
  }
}

/** The VM evaluated with other disks (for the price of a suggested change). */
function evaluateVmWith(c: Catalog, region: string, vm: VmSpec, disks: DiskSpec[]): VmEval {
  return evaluateVm(c, { ...vm, disks }, region, { suggestions: false });
}

function gainText(c: Catalog, region: string, vm: VmSpec, before: VmEval, m: Machine): string {
  const after = evaluateOnMachine(c, vm, m, region);
  const sum = (e: VmEval, k: typeof METRICS[number]) => e.disks.reduce((s, d) => s + d.figures[k].value, 0);
  const gains = METRICS.map((k) => ({ k, d: sum(after, k) - sum(before, k) })).filter((g) => g.d > 0.5);
  if (!gains.length) return '';
  const best = gains.reduce((a, b) => (b.d / sum(before, b.k) > a.d / sum(before, a.k) ? b : a));
  return ` (+${fmt(best.d)} ${metricLabel(best.k)})`;
}

function costDelta(c: Catalog, region: string, from: number, to: number, d: VmEval['disks'][number]): string {
  const price = d.type.price;
  if (!price) return '';
  const perGib = (d.spec.replication === 'regional' && price.regional_per_gib_month ? price.regional_per_gib_month : price.per_gib_month)[region];
  if (perGib === undefined) return '';
  const delta = (to - from) * perGib;
  return ` (${delta >= 0 ? '+' : ''}${fmtMoney(delta, c.currency)}/month)`;
}
