/**
 * The analysis of one spec text: parse it, look up its catalog, evaluate each VM, and run every check module
 * of the registry over the result. Pure: no file system, no protocol. The language server and the CLI both
 * call `analyze`.
 */
import { adviceFor } from './advice';
import { machineSetting, setMachine } from './advice/fixes';
import { builtinRegistry, type Catalog, type CatalogRegistry } from './catalog';
import { resolveCatalog } from './checks/catalog';
import { CHECKS, diag } from './checks/registry';
import type { Report, SpecContext, VmContext } from './checks/types';
import type { Diagnostic } from './diagnostics';
import { keySpan, parseSpec, valueSpan, type ParsedSpec } from './document/parse';
import type { Spec, VmSpec } from './document/types';
import { evaluateVm } from './model/evaluate';
import { gapTexts, vmCosts, type VmEval } from './model/types';
import { applySuppressions } from './suppress';
import { fmt } from './units';

/**
 * Memo of per-VM evaluations across analyses of the same document: an edit usually touches one VM, and a
 * VM's evaluation depends only on its own spec, the catalog and the region. Keys include all three. Advice
 * for an evaluation is memoised with it (../advice), so it too survives an edit elsewhere.
 */
export class EvaluationCache {
  private readonly vms = new Map<string, VmEval>();
  constructor(private readonly limit = 20000) {}
  get(key: string): VmEval | undefined {
    return this.vms.get(key);
  }
  set(key: string, value: VmEval): void {
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
  /**
   * The front end that turns the text into the analysis input: the YAML spec's parser unless another input
   * (a Terraform plan: ./terraform) is given. Every check, figure and fix then works on what it returns.
   */
  frontEnd?: (text: string) => ParsedSpec;
}

export interface Analysis {
  parsed: ParsedSpec;
  spec?: Spec;
  catalog?: Catalog;
  region?: string;
  vms: VmEval[];
  diagnostics: Diagnostic[];
  /** Machines and disks of every VM: the known part; the whole only when `monthly_cost_complete`. */
  monthly_cost?: number;
  monthly_cost_complete: boolean;
  /** What the total lacks ("IOPS price unknown in europe-west4"), each phrase once. */
  monthly_cost_missing: string[];
}

export function analyze(text: string, opts: AnalyzeOptions = {}): Analysis {
  const parsed = (opts.frontEnd ?? parseSpec)(text);
  const found: Diagnostic[] = [];
  const ctx = specContext(text, parsed, found);
  for (const m of CHECKS) m.spec?.(ctx);
  found.push(...parsed.diagnostics);
  const out: Analysis = { parsed, spec: parsed.spec, vms: [], diagnostics: found, monthly_cost_complete: false, monthly_cost_missing: [] };
  const resolved = resolveCatalog(ctx, {
    registry: opts.registry ?? builtinRegistry,
    defaultCatalog: opts.defaultCatalog,
    defaultRegion: opts.defaultRegion,
  });
  if (resolved && parsed.spec) evaluateVms(out, ctx, parsed.spec, resolved.catalog, resolved.region, opts);
  // Findings in the order of the text; stable, so findings at one place keep the registry's order.
  out.diagnostics = applySuppressions(text, found);
  return out;
}

function specContext(text: string, parsed: ParsedSpec, found: Diagnostic[]): SpecContext {
  const report: Report = (code, message, span, extra) => {
    if (span) found.push(diag(code, message, span, extra));
  };
  return {
    text,
    spec: parsed.spec,
    report,
    at: (path) => valueSpan(parsed.tree, path),
    key: (path) => keySpan(parsed.tree, path),
    has: (path) => parsed.tree.nodes.has(path),
  };
}

function evaluateVms(out: Analysis, ctx: SpecContext, spec: Spec, catalog: Catalog, region: string, opts: AnalyzeOptions): void {
  out.catalog = catalog;
  out.region = region;
  let complete = true;
  for (const [index, vm] of spec.vms.entries()) {
    if (opts.maxVms !== undefined && index >= opts.maxVms) {
      tooManyVms(ctx, spec, vm, opts.maxVms);
      complete = false;
      out.monthly_cost_missing.push(`VMs after the first ${opts.maxVms} not evaluated`);
      break;
    }
    // A Terraform VM runs in its own zone's region, which may not be the file's (the first VM's).
    const own = vm.region ?? region;
    const e = evaluation(catalog, own, vm, opts.cache);
    out.vms.push(e);
    const vmCtx = vmContext(ctx, spec, catalog, own, vm, e);
    for (const m of CHECKS) m.vm?.(vmCtx);
    if (e.monthly_cost !== undefined) out.monthly_cost = (out.monthly_cost ?? 0) + e.monthly_cost;
    complete &&= e.monthly_cost_complete;
  }
  if (!out.vms.length && complete) out.monthly_cost = 0;
  // VMs left unevaluated have no figures at all: the file has no total, not even a partial one.
  if (out.monthly_cost_missing.length) out.monthly_cost = undefined;
  out.monthly_cost_complete = complete && out.monthly_cost !== undefined;
  out.monthly_cost_missing = [...new Set([...gapTexts(out.vms.flatMap(vmCosts)), ...out.monthly_cost_missing])];
}

function evaluation(catalog: Catalog, region: string, vm: VmSpec, cache: EvaluationCache | undefined): VmEval {
  const key = cache ? `${catalog.edition}\u0000${region}\u0000${JSON.stringify(vm)}` : '';
  let e = cache?.get(key);
  if (!e || e.catalog !== catalog) {
    e = evaluateVm(catalog, vm, region);
    cache?.set(key, e);
  }
  return e;
}

function vmContext(ctx: SpecContext, spec: Spec, catalog: Catalog, region: string, vm: VmSpec, e: VmEval): VmContext {
  return {
    ...ctx,
    spec,
    catalog,
    region,
    vm,
    machine: e.machine,
    evaluation: e,
    advice: adviceFor(e, region),
    machineSpan: () =>
      ctx.key(`${vm.path}/machine_type`) ?? ctx.key(`${vm.path}/vcpus`) ?? ctx.key(`${vm.path}/series`) ?? ctx.key(`${vm.path}/name`),
    setMachine: (m, title, preferred) => setMachine(vm, m, title, preferred),
    machineSetting: (m) => machineSetting(vm, m),
  };
}

function tooManyVms(ctx: SpecContext, spec: Spec, vm: VmSpec, maxVms: number): void {
  const first = ctx.at(vm.path);
  ctx.report(
    'too-many-vms',
    `this file has ${fmt(spec.vms.length)} VMs; only the first ${fmt(maxVms)} are evaluated here, so findings for '${vm.name}' and the VMs after it are missing (the evaluate command evaluates them all)`,
    ctx.key(`${vm.path}/name`) ?? (first && { start: first.start, end: Math.min(first.end, first.start + 1) }),
    { path: vm.path },
  );
}
