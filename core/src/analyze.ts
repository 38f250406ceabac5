/**
 * The analysis of one spec text: parse it, look up its catalog, evaluate each VM, and run every check module
 * of the registry over the result. Pure: no file system, no protocol. The language server and the CLI both
 * call `analyze`.
 */
import { adviceFor, type AdviceMemo } from './advice';
import { machineSetting, setMachine } from './advice/fixes';
import { builtinRegistry, type Catalog, type CatalogRegistry, type Machine } from './catalog';
import { resolveCatalog } from './checks/catalog';
import { CHECKS, diag } from './checks/registry';
import type { Report, SpecContext, VmContext } from './checks/types';
import type { Diagnostic, FixData } from './diagnostics';
import { detached, type Span } from './text';
import { keySpan, parseSpec, valueSpan, type ParsedSpec } from './document/parse';
import { mayShareText, scopeSharedFindings } from './document/shared-text';
import { dropVmNodes } from './document/tree-nodes';
import type { Spec, VmSpec } from './document/types';
import { evaluateVm, priceVm, type VmPrices } from './model/evaluate';
import { evaluateUnattached, type UnattachedDiskEval } from './model/unattached';
import { gapTexts, vmCosts, type VmEval } from './model/types';
import { applySuppressions, findSuppressions } from './suppress';
import { FindingCap } from './finding-cap';
import { FINDINGS_PER_CODE } from './checks/finding-cap';
import { resolveMachine } from './catalog/machines';
import { EvaluationCache } from './vm-cache';
import { withoutWorkloads, workloadFindings } from './workload-findings';

export { EvaluationCache } from './vm-cache';

export interface AnalyzeOptions {
  /** Reuse VM evaluations from earlier analyses (the language server keeps one). */
  cache?: EvaluationCache;
  registry?: CatalogRegistry;
  /** Edition to use when the spec names none (editor setting); otherwise the provider's newest. */
  defaultCatalog?: string;
  /** Region to price in when the spec names none. */
  defaultRegion?: string;
  /**
   * The front end that turns the text into the analysis input: the YAML spec's parser unless another input
   * (a Terraform plan: ./terraform) is given. Every check, figure and fix then works on what it returns.
   */
  frontEnd?: (text: string) => ParsedSpec;
  /**
   * Leave out the findings on VMs and disks that they have without the spec's workloads (./workload-findings): a
   * workload sidecar linted beside the module it names, whose lint reports those.
   */
  workloadFindingsOnly?: boolean;
  /**
   * Keep every finding: no per-code cap (`more-findings`, ./finding-cap.ts), which is for display. A diff compares
   * all of them: a finding past the cap on one side and listed on the other is neither new nor gone.
   */
  allFindings?: boolean;
}

export interface Analysis {
  parsed: ParsedSpec;
  spec?: Spec;
  catalog?: Catalog;
  region?: string;
  vms: VmEval[];
  /** From Terraform: the disks the configuration attaches to no VM, each priced apart (no figures). */
  unattached: UnattachedDiskEval[];
  diagnostics: Diagnostic[];
  /**
   * Machines and disks of every VM, and the disks attached to none: the known part; the whole only when
   * `monthly_cost_complete`.
   */
  monthly_cost?: number;
  monthly_cost_complete: boolean;
  /** What the total lacks ("IOPS price unknown in europe-west4"), each phrase once. */
  monthly_cost_missing: string[];
}

export function analyze(text: string, opts: AnalyzeOptions = {}): Analysis {
  return finishSteps(analysisSteps(text, opts));
}

/** The analysis in steps, one VM each: a caller with other work to do runs a few steps at a time and may stop. */
export type AnalysisSteps = Generator<void, Analysis, void>;

/** Runs the remaining steps of an analysis at once. */
export function finishSteps(steps: AnalysisSteps): Analysis {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/**
 * `analyze` as steps: the language server runs them in slices between other requests, so that a hover never
 * waits for a long file's analysis, and drops them when a newer text arrives. The steps are the VMs: parsing and
 * the spec-wide checks are the first step.
 */
export function* analysisSteps(text: string, opts: AnalyzeOptions = {}): AnalysisSteps {
  const run = begin(text, opts);
  if (run.vms)
    for (const e of run.vms.checked(new CostTotal())) {
      run.out.vms.push(e);
      yield;
    }
  return finish(run);
}

/**
 * The analysis of a spec whose VMs come one at a time and are not kept: the JSON report of a spec of many VMs is
 * written VM by VM, never held whole (cli/src/evaluate.ts). `analysis` has the spec's catalog, region and cost
 * totals at once (each VM is evaluated once ahead for its price: the totals come before the VMs in the report),
 * no VMs, and its findings once `vms()` has run to its end.
 */
export interface StreamedAnalysis {
  analysis: Analysis;
  /** Each VM's evaluation, checked, in the spec's order; then the findings are put in `analysis`. */
  vms(): Generator<VmEval, void, void>;
  /**
   * Whether another VM of the spec has this one's content and shares its evaluation (through the cache): its report
   * but for the name is that VM's, worth keeping for it. A VM of its own kind is let go once written.
   */
  alike(vm: VmSpec): boolean;
}

export function streamedAnalysis(text: string, opts: AnalyzeOptions = {}): StreamedAnalysis {
  const run = begin(text, opts, true);
  // The findings are the analysis's once whole (capped, after every VM): none are shown before.
  run.out.diagnostics = [];
  let started = false;
  const total = new CostTotal();
  // Each VM's evaluation as the checks below get it (the same function, from the same cache): the totals are theirs.
  const vms = run.vms;
  let alike: WeakSet<VmSpec> | undefined;
  if (vms) {
    alike = vms.priceAll(total);
    total.finish(run.out);
  }
  return {
    analysis: run.out,
    alike: (vm) => !!alike?.has(vm),
    *vms() {
      // A second run would check every VM again and find everything twice.
      if (started) throw new Error('the VMs of a streamed analysis are checked once');
      started = true;
      if (vms)
        for (const e of vms.checked(undefined)) {
          yield e;
          // Where nothing after the VMs reads the tree (the cap's own condition: no text VMs share, no suppression,
          // no front end's finishing), a VM's nodes are read no more once it is checked and written: let go, a
          // large spec's tree goes as its report is written.
          if (run.prunes) dropVmNodes(run.out.parsed.tree, e.spec.path);
        }
      finish(run);
    },
  };
}

/** An analysis begun: parsed, its spec-wide checks run, its catalog resolved; its VMs to evaluate (none without a catalog). */
interface Run {
  text: string;
  opts: AnalyzeOptions;
  out: Analysis;
  found: Diagnostic[];
  /** The findings' cap, applied as they come where nothing else changes them before it (`prunable`). */
  cap: FindingCap;
  /** Whether findings are pruned as they come (`prunable`): then too, nothing after the VMs reads the tree. */
  prunes?: boolean;
  vms?: {
    /** Evaluates and checks each VM in turn, adding its price to `total` when one is given. */
    checked: (total: CostTotal | undefined) => Generator<VmEval, void, void>;
    /**
     * Adds each VM's price to `total`, as its evaluation gives it (the cache's when it has one, not added to it);
     * gives the VMs whose content another VM of the spec shares.
     */
    priceAll: (total: CostTotal) => WeakSet<VmSpec>;
  };
}

function begin(text: string, opts: AnalyzeOptions, streamed = false): Run {
  const parsed = (opts.frontEnd ?? parseSpec)(text);
  const found: Diagnostic[] = [];
  const ctx = specContext(text, parsed, found);
  for (const m of CHECKS) m.spec?.(ctx);
  // A file that is not text (binary, UTF-16) has its encoding error alone: YAML's errors on it would only repeat it.
  // (A loop, not a spread: a file of 100,000 duplicate keys has as many findings, more than a call's arguments hold.)
  if (!found.some((d) => d.code === 'encoding' && d.severity === 'error')) for (const d of parsed.diagnostics) found.push(d);
  const out: Analysis = {
    parsed,
    spec: parsed.spec,
    vms: [],
    unattached: [],
    diagnostics: found,
    monthly_cost_complete: false,
    monthly_cost_missing: [],
  };
  const resolved = resolveCatalog(ctx, {
    registry: opts.registry ?? builtinRegistry,
    defaultCatalog: opts.defaultCatalog,
    defaultRegion: opts.defaultRegion,
  });
  const spec = parsed.spec;
  const cap = new FindingCap();
  if (!resolved || !spec) return { text, opts, out, found, cap };
  const { catalog, region } = resolved;
  out.catalog = catalog;
  out.region = region;
  out.unattached = (spec.unattached ?? []).map((d) => evaluateUnattached(catalog, d, region));
  // (A sidecar's findings are compared with another analysis's before the cap: none is dropped before then.)
  const prune = prunable(text, parsed) && !opts.workloadFindingsOnly && !opts.allFindings;
  let pruneAt = PRUNE_AT;
  // How many times `listed` said no: findings made then lack what a listed one has, and are not memoised.
  let unlisted = 0;
  const checked: CheckedContext = {
    ...ctx,
    found,
    // A streamed analysis with a cache keeps only the contents VMs share, and they share their evaluation, so
    // their advice too: a memo by content would hold the advice of a thousand VMs nothing asks for again.
    adviceByContent: !(streamed && opts.cache),
    listed: (code, span) => {
      if (!prune || !span) return true;
      // Within one VM too: a VM of thousands of workloads that miss their targets would search advice for each.
      if (found.length >= pruneAt) {
        pruneNow();
        // The VM's findings so far may be gone from `found`: not memoised (counted as a no, as below).
        unlisted++;
      }
      if (cap.listed(code, span)) return true;
      unlisted++;
      return false;
    },
  };
  const pruneNow = () => {
    cap.prune(found);
    pruneAt = Math.max(PRUNE_AT, 2 * found.length);
  };
  const memo = opts.cache && vmMemo(checked, spec, catalog, region, opts.cache, () => unlisted);
  const vms = {
    priceAll: (total: CostTotal) => {
      if (memo) return memo.priceAll(total);
      // Without a cache no two VMs share an evaluation.
      for (const vm of spec.vms) total.add(priceAhead(catalog, vm, vm.region ?? region));
      return new WeakSet<VmSpec>();
    },
    *checked(total: CostTotal | undefined) {
      for (const vm of spec.vms) {
        // A Terraform VM runs in its own zone's region, which may not be the file's (the first VM's).
        const own = vm.region ?? region;
        const e = memo ? memo.run(vm) : checkVm(checked, spec, catalog, own, vm, evaluateVm(catalog, vm, own));
        total?.add(priceOf(e));
        // What is past the cap already is counted and let go: a spec of 10,000 VMs finds 50,000 things.
        if (prune && found.length >= pruneAt) pruneNow();
        yield e;
      }
      total?.finish(out);
    },
  };
  return { text, opts, out, found, cap, vms, prunes: prune };
}

function finish(run: Run): Analysis {
  const { out, text } = run;
  const parsed = out.parsed;
  // Findings in the order of the text; stable, so findings at one place keep the registry's order.
  // Findings on text that several VMs share (an anchor) name their VM; fixes there say which VMs they change.
  let scoped = scopeSharedFindings(text, parsed.tree, parsed.spec, applySuppressions(text, run.found));
  if (run.opts.workloadFindingsOnly) {
    const alone = analyze(text, {
      ...run.opts,
      cache: undefined,
      workloadFindingsOnly: false,
      frontEnd: withoutWorkloads(run.opts.frontEnd),
    });
    scoped = workloadFindings(scoped, alone.diagnostics);
  }
  const finished = parsed.finishFindings ? parsed.finishFindings(scoped) : scoped;
  // At most FINDINGS_PER_CODE findings of one code, the rest counted (./finding-cap.ts): what one file can cost.
  out.diagnostics = run.opts.allFindings ? finished : run.cap.finish(finished);
  return out;
}

/** Findings in hand before the cap is applied to them as they come, and again whenever they double. */
const PRUNE_AT = 4 * FINDINGS_PER_CODE;

/**
 * Whether the cap may drop findings before the analysis ends: where no suppression comment, no text that VMs share
 * and no front end's wording can change or remove a finding before the cap counts it.
 */
function prunable(text: string, parsed: ParsedSpec): boolean {
  return !parsed.finishFindings && !parsed.sources && !mayShareText(text) && !findSuppressions(text).length;
}

/** What a VM adds to the spec's total: its price, whether it is whole, and what it lacks. */
interface VmPrice {
  monthly_cost?: number;
  monthly_cost_complete: boolean;
  missing: string[];
}

function priceOf(e: VmPrices): VmPrice {
  return { monthly_cost: e.monthly_cost, monthly_cost_complete: e.monthly_cost_complete, missing: gapTexts(vmCosts(e)) };
}

/** A VM's price for a look ahead: a price needs no figures (../model/evaluate.ts: `priceVm`). */
function priceAhead(catalog: Catalog, vm: VmSpec, region: string): VmPrice {
  return priceOf(priceVm(catalog, vm, region));
}

/** The VMs' prices added up as they come: the known part, whether it is whole, and what it lacks (each phrase once). */
class CostTotal {
  private monthly?: number;
  private complete = true;
  private count = 0;
  private readonly missing = new Set<string>();

  add(p: VmPrice): void {
    this.count++;
    if (p.monthly_cost !== undefined) this.monthly = (this.monthly ?? 0) + p.monthly_cost;
    this.complete &&= p.monthly_cost_complete;
    for (const text of p.missing) this.missing.add(text);
  }

  finish(out: Analysis): void {
    // The disks attached to no VM are paid for too: priced apart, part of the file's total.
    for (const u of out.unattached)
      this.add({ monthly_cost: u.cost.monthly, monthly_cost_complete: u.cost.complete, missing: gapTexts([u.cost]) });
    if (!this.count && this.complete) this.monthly = 0;
    const left = out.parsed.terraform?.missing ?? [];
    out.monthly_cost = this.monthly;
    out.monthly_cost_complete = this.complete && this.monthly !== undefined && !left.length;
    out.monthly_cost_missing = [...new Set([...this.missing, ...left])];
  }
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

/** What the checks of a VM are given beyond the spec's: where findings go, and whether one is past the cap. */
type CheckedContext = SpecContext & {
  found: Diagnostic[];
  listed: VmContext['listed'];
  /** Whether a VM's advice is also memoised by its content (../advice: `adviceFor`). */
  adviceByContent: boolean;
};

/**
 * Runs every check module's `vm` hook on one evaluated VM. `memo`: how its advice is kept (../advice): its size
 * searches memoised unless the run knows that no other VM can ask the same, and its content as the evaluation
 * cache's key holds it.
 */
function checkVm(ctx: CheckedContext, spec: Spec, catalog: Catalog, region: string, vm: VmSpec, e: VmEval, memo: AdviceMemo = {}): VmEval {
  const vmCtx = new VmChecks(ctx, spec, catalog, region, vm, e, memo);
  for (const m of CHECKS) m.vm?.(vmCtx);
  return e;
}

/**
 * Evaluation and checks of each VM through the cache. A VM's findings are memoised under its source text and
 * what the checks read beyond the VM: the spec's headroom policy, and whether it is the first VM whose machine
 * the catalog knows (where an edition without machine prices is said once). Findings with a span outside the
 * VM's text (an alias's anchor elsewhere) cannot be moved with it and are not memoised.
 */
function vmMemo(
  ctx: CheckedContext,
  spec: Spec,
  catalog: Catalog,
  fileRegion: string,
  cache: EvaluationCache,
  /** How many times the checks' `listed` has said no so far. */
  unlisted: () => number,
) {
  const found = ctx.found;
  const firstKnown = catalog.machine_prices ? undefined : spec.vms.find((v) => resolveMachine(catalog, v).ok);
  // After a look ahead (priceAll): the contents another VM of the spec shares. Only those are worth keeping in the
  // cache for the run; a VM of its own kind is evaluated, checked and let go.
  let repeated: Set<string> | undefined;
  // And the VMs that another VM of the spec resembles but for disk sizes: only their size searches can be asked
  // again in the run (../advice/search.ts), so only theirs are memoised. The others' would cost a copy of the VM
  // as text per search for nothing (a fleet of distinct VMs hits that memo never).
  let sizesApart: WeakSet<VmSpec> | undefined;
  // Each VM's key as the look ahead made it, kept until the VM is checked: a key is the VM's content written out as
  // text (../document/vm-content.ts), made once per VM, not twice.
  const keys = new Map<VmSpec, string>();
  return {
    /**
     * Adds each VM's price to `total`, from the cache's evaluation when it has one, else from one made and not kept:
     * a look ahead at every VM of a large spec would otherwise fill the cache with evaluations that the checks,
     * later, find evicted. VMs written alike are priced once.
     */
    priceAll(total: CostTotal): WeakSet<VmSpec> {
      const prices = new Map<string, { price: VmPrice; first: VmSpec }>();
      const alike = new WeakSet<VmSpec>();
      const bySizeless = new Map<string, VmSpec>();
      sizesApart = new WeakSet();
      for (const vm of spec.vms) {
        const region = vm.region ?? fileRegion;
        const key = cache.key(catalog, region, vm);
        keys.set(vm, key);
        // Loosely: a key without any "size_gib" (two VMs taken as alike that are not only lose a memo's work).
        const sizeless = key.replace(SIZES, '');
        const like = bySizeless.get(sizeless);
        if (like) sizesApart.add(like).add(vm);
        else bySizeless.set(sizeless, vm);
        const seen = prices.get(key);
        if (seen) {
          alike.add(seen.first).add(vm);
          (repeated ??= new Set()).add(key);
        }
        const cached = cache.peek(key);
        const price = seen?.price ?? (cached ? priceOf(cached) : priceAhead(catalog, vm, region));
        if (!seen) prices.set(key, { price, first: vm });
        total.add(price);
      }
      repeated ??= new Set();
      return alike;
    },
    run(vm: VmSpec): VmEval {
      const region = vm.region ?? fileRegion;
      const key = keys.get(vm) ?? cache.key(catalog, region, vm);
      keys.delete(vm);
      const e = cache.evaluation(key, vm, () => evaluateVm(catalog, vm, region), !repeated || repeated.has(key));
      // The advice's memo by content reads the content the key holds (written out once per VM, not twice).
      const memo: AdviceMemo = { memoSizes: !sizesApart || sizesApart.has(vm), content: EvaluationCache.contentOf(key) };
      const at = ctx.at(vm.path);
      // Findings are memoised with the cache's entry: a VM of its own kind in a streamed run has none to keep them.
      if (!at || !cache.peek(key)) return checkVm(ctx, spec, catalog, region, vm, e, memo);
      // The VM's text with its name's value masked: replicas that differ only by name share their findings (the
      // evaluation leaves the name out too), moved to each one's place with the spans after the name shifted.
      const name = nameIn(ctx.at(`${vm.path}/name`), at);
      // A key the cache keeps: a copy, not a view into this version of the document (../text.ts, `detached`).
      const own = detached(
        name ? `${ctx.text.slice(at.start, name.start)}\u0001${ctx.text.slice(name.end, at.end)}` : ctx.text.slice(at.start, at.end),
      );
      const fkey = `${spec.min_headroom}\u0000${vm === firstKnown}\u0000${own}`;
      const place = { path: vm.path, start: at.start, nameEnd: name?.end ?? at.end, nameLength: name ? name.end - name.start : 0 };
      const memoised = cache.findings(key, fkey, place);
      if (memoised) {
        for (const d of memoised) found.push(d);
        return e;
      }
      const before = found.length;
      const said = unlisted();
      checkVm(ctx, spec, catalog, region, vm, e, memo);
      const mine = found.slice(before);
      // Findings past the cap are made without their advice: another VM written alike may be listed.
      if (unlisted() === said && memoisable(mine, at, name, vm.name)) cache.setFindings(key, fkey, { ...place, diagnostics: mine });
      return e;
    },
  };
}

/** Every disk size in a VM's content (../document/vm-content.ts): JSON numbers hold no comma and no brace. */
const SIZES = /"size_gib":[^,}]*,?/g;

/** The span of a VM's name value when it lies in the VM's own text (not an alias's anchor elsewhere). */
function nameIn(name: Span | undefined, vm: Span): Span | undefined {
  return name && name.start >= vm.start && name.end <= vm.end && name.end > name.start ? name : undefined;
}

/**
 * Whether a VM's findings can be memoised and moved to another VM written alike: every span within the VM's
 * text and none inside its name's value (a span may end at the name or begin after it), and the name quoted
 * nowhere (a finding that says it would be wrong under another name; none does today, but a check may).
 */
function memoisable(found: Diagnostic[], vm: Span, name: Span | undefined, vmName: string): boolean {
  const inName = (o: number) => name !== undefined && o > name.start && o < name.end;
  if (!found.every((d) => d.span.start >= vm.start && d.span.end <= vm.end && !inName(d.span.start) && !inName(d.span.end))) return false;
  return !name || !found.length || !JSON.stringify(found).includes(vmName);
}

/**
 * What the checks of one VM are given: an instance of a class, one per VM, where a spread of the spec's context
 * and a closure per method were made for each.
 */
class VmChecks implements VmContext {
  readonly text: string;
  readonly at: SpecContext['at'];
  readonly key: SpecContext['key'];
  readonly has: SpecContext['has'];
  readonly report: Report;
  readonly listed: VmContext['listed'];
  readonly machine: VmContext['machine'];
  readonly advice: VmContext['advice'];

  constructor(
    ctx: CheckedContext,
    readonly spec: Spec,
    readonly catalog: Catalog,
    readonly region: string,
    readonly vm: VmSpec,
    readonly evaluation: VmEval,
    memo: AdviceMemo,
  ) {
    this.text = ctx.text;
    this.at = ctx.at;
    this.key = ctx.key;
    this.has = ctx.has;
    this.report = ctx.report;
    this.listed = ctx.listed;
    this.machine = evaluation.machine;
    this.advice = adviceFor(evaluation, region, spec.min_headroom, { ...memo, byContent: ctx.adviceByContent });
  }

  machineSpan(): Span | undefined {
    const p = this.vm.path;
    return this.key(`${p}/machine_type`) ?? this.key(`${p}/vcpus`) ?? this.key(`${p}/series`) ?? this.key(`${p}/name`);
  }

  setMachine(m: Machine, title: string, preferred?: boolean): FixData {
    return setMachine(this.vm, m, title, preferred);
  }

  machineSetting(m: Machine): { path: string; value: string | number } {
    return machineSetting(this.vm, m);
  }
}
