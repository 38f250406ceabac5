/**
 * The .tf front end: a module's Terraform files (and the local modules it calls, `source = "./x"`) read as the
 * same resource records a plan gives (`PlanResource`: address, type, `values` as JSON nodes placed on the HCL
 * text, and the `configuration` references that join disks to instances), so that each provider's mapper
 * reads both. The files are analysed as one text, the entry file first (its offsets are its own); `sources`
 * tells which file each span is in. What is known only after plan is an information finding, never a guess.
 */
import type { Node } from 'jsonc-parser';
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import type { Span } from '../text';
import { arrayNode, evaluate, named, objectNode, type HclSyntaxNode, type Scope, type Why, whyText } from './hcl-values';
import { readsBlock, readsType } from './plan';
import { push, type PlanResource } from './plan-model';
import { instancesOf, MAX_EXPANDED, type Instance, type KeysOf } from './tf-instances';
import {
  attributeIn,
  blocksOf,
  bodyOf,
  expressions,
  exprOf,
  isOverridePath,
  labelSpan,
  labelsOf,
  nameOf,
  overridden,
  partsOf,
  vmResources,
  type Part,
} from './tf-body';
import { providerOf, providersForCall, readProviderBlock, type Providers } from './tf-providers';
import { dynamicBlocks } from './tf-dynamic';
import { targetOf } from './tf-targets';
import { variableValue } from './tf-variables';
import { referable, resourceValue, type Expansion } from './tf-resource-values';
import type { TfSource } from './tf-files';
import { callFolder, moduleKey, type CallFolder, type CallSite, type ModuleDirs } from './tf-module-sources';

/** Where values() is in a resource's body, and each attribute's expression recorded by its path. */
interface Recorded {
  path: string[];
  record: Map<string, { e: HclSyntaxNode; scope: Scope }>;
}

export const UNKNOWN = 'unknown until plan: run on the plan JSON';
/** Blocks that are Terraform's own, not the provider's attributes. */
const META = new Set(['count', 'for_each', 'depends_on', 'lifecycle', 'provider', 'provisioner', 'connection']);
const MAX_DEPTH = 16;

export interface ParsedFile {
  source: TfSource;
  body: HclSyntaxNode;
}

const attributesOf = (body: HclSyntaxNode | undefined) => (body ? named(body).filter((c) => c.type === 'attribute') : []);

/** What a module is called with beyond its inputs: values typed on the command line, provider configurations. */
interface ModuleCall {
  typed?: (name: string, at: { offset: number; length: number }) => Node;
  typedNames?: Set<string>;
  providers?: Providers;
  /** Why an input the caller gives is unknown. */
  inputWhy?: Map<string, Why>;
  /** The folders of the modules that call this one, the root module's first: a call of one of them is a cycle. */
  callers?: string[];
}

export class ModuleReader {
  readonly resources: PlanResource[] = [];
  /** Blocks whose `count` or `for_each` is known only at plan, read once without an instance key. */
  readonly unexpanded: PlanResource[] = [];
  readonly config = new Map<string, Node | undefined>();
  /** Modules whose resources are not read (a source not read here, a count unknown until plan): not in the total. */
  readonly missing: string[] = [];
  /** The resources that run VMs in the modules a call of no instance names (`count = 0`): none is created. */
  readonly none: string[] = [];
  /**
   * Said once each: attributes whose target is unknown (`<address> <path>`), and module calls not read
   * (`<offset>:<code>`: a call inside a module of several instances is said once).
   */
  private readonly said = new Set<string>();
  private grouped?: { size: number; map: Map<string, PlanResource[]> };
  /**
   * Kept by syntax node, for a module called several times (or of several instances), whose blocks are read again
   * for each: a resource body's `expressions` (its references, which no value changes), and whether a block's
   * for_each is another resource's instances.
   */
  private readonly expressionsOf = new Map<HclSyntaxNode, Node>();
  private readonly readsLater = new Map<HclSyntaxNode, boolean>();
  /** The instances read of each resource (`module.a.type.name`), and the resources whose instances are unknown. */
  private readonly byResource = new Map<string, PlanResource[]>();
  private readonly unexpandedAt = new Set<string>();
  /** Each attribute's expression and scope by where it is written: why a value a provider's reader needs is unknown. */
  private readonly attributeAt = new Map<number, { e: HclSyntaxNode; scope: Scope }>();
  /** Instances expanded so far from count and for_each, against MAX_EXPANDED. */
  private expanded = 0;
  constructor(
    readonly folders: Map<string, ParsedFile[]>,
    readonly out: Diagnostic[],
    readonly numbers: ReadonlyMap<number, number> = new Map(),
    readonly modules: ModuleDirs = {},
  ) {}

  report(code: string, message: string, at: Span): void {
    this.out.push(diag(code, message, at));
  }

  /** A module: its variables (given or default), locals, resources and the modules it calls. */
  read(
    folder: string,
    address: string,
    configPrefix: string,
    inputs: Map<string, Node | undefined>,
    depth: number,
    call: ModuleCall = {},
  ): void {
    const { typed, typedNames = new Set<string>() } = call;
    // Override files (override.tf, *_override.tf) after the others, by name: merged into the blocks they name.
    const all = this.folders.get(folder) ?? [];
    const overrides = all.filter((f) => isOverridePath(f.source.path)).sort((a, b) => (a.source.path < b.source.path ? -1 : 1));
    const files = [...all.filter((f) => !isOverridePath(f.source.path)), ...overrides];
    const over = new Map<string, Part[][]>();
    for (const f of overrides)
      for (const b of blocksOf(f.body))
        if (nameOf(b) === 'resource') push(over, labelsOf(b).slice(0, 2).join('.'), partsOf(bodyOf(b), f.source.start));
    const varWhy = new Map<string, Why>();
    const scope: Scope = { vars: new Map(), locals: new Map(), base: 0, localBase: new Map(), numbers: this.numbers, varWhy };
    const providers: Providers = new Map(call.providers);
    for (const f of files)
      for (const b of blocksOf(f.body)) {
        const kind = nameOf(b);
        if (kind === 'variable') {
          const name = labelsOf(b)[0];
          const def = attributesOf(bodyOf(b)).find((a) => nameOf(a) === 'default');
          const label = labelSpan(b, f.source.start);
          // An override of a variable's description or type keeps the value it had.
          if (isOverridePath(f.source.path) && !def) continue;
          const given =
            typed && typedNames.has(name)
              ? { value: typed(name, { offset: label.start, length: label.end - label.start }) }
              : inputs.has(name)
                ? { value: inputs.get(name), why: call.inputWhy?.get(name) }
                : undefined;
          const { value, why } = variableValue(b, name, { ...scope, base: f.source.start }, given);
          scope.vars.set(name, value);
          if (why) varWhy.set(name, why);
        } else if (kind === 'locals')
          for (const a of attributesOf(bodyOf(b))) {
            const e = exprOf(a);
            if (!e) continue;
            scope.locals.set(nameOf(a), e);
            scope.localBase.set(nameOf(a), f.source.start);
          }
      }
    for (const f of files)
      for (const b of blocksOf(f.body))
        if (nameOf(b) === 'provider') readProviderBlock(b, { ...scope, base: f.source.start }, providers, isOverridePath(f.source.path));
    // Resources whose for_each is another resource's instances come after the others, which they read.
    const blocks = files.filter((f) => !isOverridePath(f.source.path)).flatMap((f) => blocksOf(f.body).map((b) => ({ b, f })));
    const later = (b: HclSyntaxNode) => {
      let is = this.readsLater.get(b);
      if (is === undefined)
        this.readsLater.set(
          b,
          (is = /^\s*for_each\s*=\s*(?!(?:var|local|module|data|each|count)\.)[a-z0-9_-]+\.[a-z0-9_-]+(?:\[\s*\*\s*\]|\.\*)?\s*$/im.test(
            bodyOf(b)?.text ?? '',
          )),
        );
      return is;
    };
    const ordered = [...blocks.filter((x) => !later(x.b)), ...blocks.filter((x) => later(x.b))];
    const pending = this.referable(ordered, scope, address, (b, f, key) =>
      this.resource(b, { ...scope, base: f.source.start }, address, configPrefix, providers, over.get(key)),
    );
    for (const { b, f } of ordered) {
      if (nameOf(b) === 'resource') pending.get(labelsOf(b).slice(0, 2).join('.'))?.();
      else if (nameOf(b) === 'module')
        this.module(
          b,
          { ...scope, base: f.source.start },
          { folder, address, configPrefix, depth, providers, callers: call.callers ?? [] },
        );
    }
  }

  /**
   * The module's resources as its references read them (`scope.resource`, ./tf-resource-values.ts): each is read
   * by `read` when first referred to, or else in its turn (the map holds those not read yet).
   */
  private referable(
    blocks: Array<{ b: HclSyntaxNode; f: ParsedFile }>,
    scope: Scope,
    address: string,
    read: (b: HclSyntaxNode, f: ParsedFile, key: string) => void,
  ): Map<string, () => void> {
    const pending = new Map<string, () => void>();
    const expansions = new Map<string, Expansion>();
    scope.resource = (ref) => {
      pending.get(ref)?.();
      const at = `${address}${ref}`;
      return resourceValue(ref, expansions.get(ref), this.byResource.get(at) ?? [], this.unexpandedAt.has(at));
    };
    for (const { b, f } of blocks) {
      const key = labelsOf(b).slice(0, 2).join('.');
      if (nameOf(b) !== 'resource') continue;
      const parts = partsOf(bodyOf(b), f.source.start);
      expansions.set(key, attributeIn(parts, 'count') ? 'count' : attributeIn(parts, 'for_each') ? 'for_each' : 'one');
      pending.set(key, () => {
        pending.delete(key);
        read(b, f, key);
      });
    }
    return pending;
  }

  /** A resource body's `expressions` (./tf-body.ts), kept by its node unless override files change its parts. */
  private expressions(body: HclSyntaxNode, parts: Part[], base: number, overridden: boolean): Node {
    if (overridden) return expressions(parts, base + body.startIndex);
    let e = this.expressionsOf.get(body);
    if (!e) this.expressionsOf.set(body, (e = expressions(parts, base + body.startIndex)));
    return e;
  }

  /** Why the attribute written at `offset` is unknown until plan (the inputs that would make it known), if it is. */
  whyAt(offset: number): Why[] | undefined {
    const r = this.attributeAt.get(offset);
    if (!r) return undefined;
    const why: Why[] = [];
    evaluate(r.e, { ...r.scope, why });
    return why.length ? why : undefined;
  }

  /** The instances of a `count` or `for_each`, or undefined (with why) when they are not read. */
  /** `quiet`: a resource of a type never read, whose unknown count changes no figure, is not said. */
  private instances(parts: Part[], scope: Scope, what: string, keysOf: KeysOf = () => undefined, quiet = false): Instance[] | undefined {
    const got = instancesOf(parts, scope, keysOf, MAX_EXPANDED - this.expanded);
    if (Array.isArray(got)) {
      this.expanded += got.length;
      return got;
    }
    if (!quiet)
      this.report('terraform-unknown-value', `${what}'s ${got.why}`, {
        start: got.base + got.node.startIndex,
        end: got.base + got.node.endIndex,
      });
    return undefined;
  }

  private resource(
    b: HclSyntaxNode,
    scope: Scope,
    address: string,
    configPrefix: string,
    providers: Providers,
    overrides: Part[][] = [],
  ): void {
    const [type, name] = labelsOf(b);
    if (!type || !name) return;
    const body = bodyOf(b);
    const parts = overrides.reduce(overridden, partsOf(body, scope.base));
    const providerDefaults = providerOf(type, attributeIn(parts, 'provider')?.node, providers);
    const configAddress = `${configPrefix}${type}.${name}`;
    this.config.set(configAddress, body && this.expressions(body, parts, scope.base, overrides.length > 0));
    const of = (list: PlanResource[], ref: string) =>
      list.filter((r) => r.configAddress === `${configPrefix}${ref}` && r.address.startsWith(`${address}${ref}`));
    const keysOf = (ref: string) => {
      const read = of(this.resources, ref);
      return read.length && read.every((r) => r.index !== undefined) ? read.map((r) => r.index!) : undefined;
    };
    const instances = this.instances(parts, scope, `${address}${type}.${name}`, keysOf, !readsType(type));
    // A block whose instances are known only at plan still has a place, where a plan's instance of it is written.
    if (!instances) this.unexpandedAt.add(`${address}${type}.${name}`);
    if (!instances)
      this.unexpanded.push({
        ...{ address: `${address}${type}.${name}`, configAddress, modulePrefix: configPrefix, type },
        // Its count's finding is the one said of it: not one more per dynamic block of instances not read.
        ...{ values: body && this.values(parts, body, scope, `${address}${type}.${name}`), addressSpan: labelSpan(b, scope.base) },
      });
    // A dynamic block over another resource of the module makes a block per instance of it (./tf-dynamic.ts).
    const resourceInstances = (ref: string) =>
      of(this.resources, ref).length
        ? of(this.resources, ref).map((r) => ({ key: r.index ?? 0, address: r.address }))
        : of(this.unexpanded, ref).length
          ? null
          : undefined;
    for (const inst of instances ?? []) {
      const key = inst.index === undefined ? '' : typeof inst.index === 'number' ? `[${inst.index}]` : `[${JSON.stringify(inst.index)}]`;
      const s = { ...scope, ...inst, resourceInstances };
      const own = `${address}${type}.${name}${key}`;
      const at: Recorded = { path: [], record: new Map() };
      const record: PlanResource = {
        address: own,
        configAddress,
        modulePrefix: configPrefix,
        type,
        index: inst.index,
        values: body && this.values(parts, body, s, own, at, type),
        addressSpan: labelSpan(b, scope.base),
        providerDefaults,
        target: (path) => this.target(own, { address, configPrefix }, at.record, path),
      };
      this.resources.push(record);
      push(this.byResource, `${address}${type}.${name}`, record);
    }
  }

  /**
   * A block's body as a plan's `values`: attributes by name, nested blocks as lists (a dynamic block's, when its
   * for_each is known, as the blocks it makes). Each attribute's expression and scope is recorded by its path
   * (`launch_template.0.id`), for the references that join resources (./tf-targets).
   */
  private values(
    parts: Part[],
    body: HclSyntaxNode,
    place: Scope,
    owner: string,
    at: Recorded = { path: [], record: new Map() },
    type?: string,
  ): Node {
    const entries: Array<[string, Node, number]> = [];
    const blocks = new Map<string, { items: Node[]; at: number }>();
    const item = (name: string, inner: HclSyntaxNode | undefined, scope: Scope, base: number, span: HclSyntaxNode) => {
      const list = blocks.get(name) ?? { items: [], at: scope.base + span.startIndex };
      const path = { path: [...at.path, name, String(list.items.length)], record: at.record };
      const v = inner ? this.values(partsOf(inner, base), inner, scope, owner, path, type) : objectNode([], 0, 0);
      list.items.push({ ...v, offset: scope.base + span.startIndex, length: span.endIndex - span.startIndex });
      blocks.set(name, list);
    };
    for (const { node: c, base } of parts) {
      const scope = { ...place, base };
      const name = nameOf(c);
      if (META.has(name)) continue;
      if (c.type === 'attribute') {
        const e = exprOf(c);
        const v = e && evaluate(e, scope);
        if (e) {
          at.record.set([...at.path, name].join('.'), { e, scope });
          // A finding on the attribute is placed on its name or on its value: either finds it.
          this.attributeAt.set(scope.base + c.startIndex, { e, scope }).set(scope.base + e.startIndex, { e, scope });
        }
        if (v) entries.push([name, v, scope.base + c.startIndex]);
      } else if (c.type === 'block' && name === 'dynamic') {
        const d = dynamicBlocks(c, scope);
        // Only blocks storage-perf reads are said (not tags, lifecycle hooks, rules), and only of instances read.
        if ('why' in d) {
          if (type && readsBlock(type, d.label) && !d.said)
            this.report('terraform-unknown-value', `${owner}'s dynamic "${d.label}" blocks ${d.why}`, labelSpan(c, scope.base));
          else if (d.said) this.missing.push(`${owner}'s dynamic "${d.label}" blocks, unknown until plan`);
        } else for (const s of d.scopes) item(d.label, d.content, s, base, c);
      } else if (c.type === 'block') item(name, bodyOf(c), scope, base, c);
    }
    for (const [name, { items, at }] of blocks) {
      const last = items[items.length - 1];
      entries.push([name, arrayNode(items, at, last.offset + last.length - at), at]);
    }
    // Read by a reference to the resource: an attribute not here is unknown (written but unknown here, or computed).
    const why = (path: string[]) => {
      const r = at.record.get(path.join('.'));
      const w: Why[] = [];
      if (r) evaluate(r.e, { ...r.scope, why: w });
      return w.length ? w : undefined;
    };
    return referable(objectNode(entries, place.base + body.startIndex, body.endIndex - body.startIndex), owner, why, at.path);
  }

  /** The resources read so far by configuration address (built again when more have been read). */
  private byConfig(): Map<string, PlanResource[]> {
    if (this.grouped?.size !== this.resources.length) {
      const map = new Map<string, PlanResource[]>();
      for (const r of this.resources) push(map, r.configAddress, r);
      this.grouped = { size: this.resources.length, map };
    }
    return this.grouped.map;
  }

  /** The instance an attribute of `owner` names (./tf-targets); where it cannot be known, said once, and null. */
  private target(
    owner: string,
    module: { address: string; configPrefix: string },
    record: Recorded['record'],
    path: Array<string | number>,
  ): string | null | undefined {
    const key = path.join('.');
    const r = record.get(key);
    const keys = (ref: string) => {
      const of = this.byConfig()
        .get(`${module.configPrefix}${ref}`)
        ?.filter((x) => x.address.startsWith(`${module.address}${ref}`));
      return of?.length ? of.map((x) => x.index) : undefined;
    };
    const t = r && targetOf(r.e, r.scope, module.address, keys);
    if (!t || 'address' in t) return t?.address;
    if (!this.said.has(`${owner} ${key}`)) {
      this.said.add(`${owner} ${key}`);
      const attribute = path
        .map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`))
        .join('')
        .slice(1);
      const message = `${owner}'s ${attribute}: the instance it names ${whyText(t.why)}; it is joined to none, never by guess`;
      this.report('terraform-unknown-value', message, { start: t.base + t.node.startIndex, end: t.base + t.node.endIndex });
    }
    return null;
  }

  /** A module call: its instances, each read with its inputs, or one finding on its `source` saying why it is not read. */
  private module(b: HclSyntaxNode, scope: Scope, from: CallSite): void {
    const { folder, address, configPrefix, depth, providers } = from;
    const name = labelsOf(b)[0];
    const body = bodyOf(b);
    const attrs = attributesOf(body);
    const sourceAttr = attrs.find((a) => nameOf(a) === 'source');
    const sourceExpr = sourceAttr && exprOf(sourceAttr);
    const source = sourceExpr && evaluate(sourceExpr, scope);
    const at = sourceExpr ? { start: scope.base + sourceExpr.startIndex, end: scope.base + sourceExpr.endIndex } : labelSpan(b, scope.base);
    if (!name) return;
    const found: CallFolder =
      source?.type !== 'string'
        ? { why: 'its source is not a string written in it', code: 'terraform-unknown-value' }
        : callFolder(folder, String(source.value), moduleKey(configPrefix, name), this.modules, (f) => this.folders.has(f));
    const cycle = 'folder' in found && [...from.callers, folder].includes(found.folder);
    if (!('folder' in found) || cycle || depth >= MAX_DEPTH) {
      const why = !('folder' in found)
        ? found.why
        : cycle
          ? `${String(source!.value)} is a module that calls this one (a cycle)`
          : `modules are read ${MAX_DEPTH} calls deep`;
      const code = 'code' in found ? found.code : 'terraform-unknown-value';
      // One finding per call written, however many instances of its caller there are.
      const key = `${at.start}:${code}`;
      if (!this.said.has(key)) {
        this.said.add(key);
        this.report(code, `${configPrefix}module.${name}'s resources are not read: ${why}`, at);
      }
      this.missing.push(`${address}module.${name}'s resources, not read`);
      return;
    }
    const instances = this.instances(partsOf(body, scope.base), scope, `module.${name}`);
    if (!instances) this.missing.push(`${address}module.${name}'s resources, unknown until plan`);
    // A call of no instance creates none of its resources: those that run VMs are said, as a plan's configuration has them.
    if (instances?.length === 0) this.none.push(...vmResources(this.folders.get(found.folder), `${configPrefix}module.${name}.`));
    for (const inst of instances ?? []) {
      const s = { ...scope, ...inst };
      const inputs = new Map<string, Node | undefined>();
      const inputWhy = new Map<string, Why>();
      for (const a of attrs)
        if (!META.has(nameOf(a)) && nameOf(a) !== 'source' && nameOf(a) !== 'providers') {
          const why: Why[] = [];
          inputs.set(nameOf(a), evaluate(exprOf(a)!, { ...s, why }));
          if (!inputs.get(nameOf(a)) && why[0]) inputWhy.set(nameOf(a), why[0]);
        }
      const key = inst.index === undefined ? '' : typeof inst.index === 'number' ? `[${inst.index}]` : `[${JSON.stringify(inst.index)}]`;
      this.read(found.folder, `${address}module.${name}${key}.`, `${configPrefix}module.${name}.`, inputs, depth + 1, {
        providers: providersForCall(body, providers),
        inputWhy,
        callers: [...from.callers, folder],
      });
    }
  }
}
