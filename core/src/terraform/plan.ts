/**
 * The Terraform plan front end: the JSON of `terraform show -json PLANFILE`
 * (https://developer.hashicorp.com/terraform/internals/json-format) as the same analysis input a YAML spec
 * gives: a typed spec and a source map whose spans are places in the plan. VMs and disks are named by their
 * Terraform address and keep the resource's `name`; resource types that are not mapped are counted.
 */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import { Converter } from '../document/convert';
import type { ParsedSpec, TerraformSummary } from '../document/parse';
import type { Spec } from '../document/types';
import type { YamlTree } from '../document/yaml-nodes';
import type { Span } from '../text';
import { AWS_DISK_RESOURCES, AWS_MAPPERS } from './aws';
import { AZURE_DISK_RESOURCES, AZURE_MAPPERS } from './azure';
import { GCP_DISK_RESOURCES, GCP_MAPPERS } from './gcp';
import { GROUP_RESOURCES, markTemplates } from './groups';
import { at, items, span, str } from './json';
import {
  configAddressOf,
  LEFT_OUT,
  push,
  referencesAt,
  resourceOf,
  type MappedVm,
  type PlanContext,
  type PlanResource,
  type VmMapper,
} from './plan-model';
import { nameResources } from './finding-addresses';
import { applyPlanProviders, vmRegion } from './plan-providers';
import { Located, map, seq, specTree } from './spec-tree';
import { diskProvider, looseDisks, unattachedDisks, type UnattachedDisk } from './unattached';
import { YANDEX_DISK_RESOURCES, YANDEX_MAPPERS } from './yandex';
import { withoutInheritance } from '../own-keys';

/** The instance types read, by provider. */
const MAPPERS: Record<string, VmMapper> = withoutInheritance({ ...GCP_MAPPERS, ...YANDEX_MAPPERS, ...AWS_MAPPERS, ...AZURE_MAPPERS });
/** Types read through the instances that use them (disks, attachments, the groups that run templates): neither VMs nor ignored. */
const DISK_RESOURCES = new Set([
  ...GCP_DISK_RESOURCES,
  ...GROUP_RESOURCES,
  ...YANDEX_DISK_RESOURCES,
  ...AWS_DISK_RESOURCES,
  ...AZURE_DISK_RESOURCES,
]);
/** First segments of a reference that are not resources of the same module. */
const NOT_RESOURCES = new Set(['var', 'local', 'module', 'data', 'count', 'each', 'path', 'self', 'terraform']);

/**
 * `prepare` sees the plan's resources before they are mapped: ./plan-sources-join.ts gives them the instance each
 * attribute names, from the .tf files beside the plan.
 */
export function parseTerraformPlan(text: string, prepare?: (root: Node, resources: PlanResource[]) => void): ParsedSpec {
  const diagnostics: Diagnostic[] = [];
  const result: ParsedSpec = { text, tree: { problems: [], nodes: new Map(), value: undefined }, diagnostics };
  const root = planRoot(text, diagnostics);
  if (!root) return result;
  const resources: PlanResource[] = [];
  walkPlanned(at(root, 'planned_values', 'root_module'), resources);
  prepare?.(root, resources);
  const config = new Map<string, Node | undefined>();
  const providerKeys = new Map<string, string>();
  walkConfig(at(root, 'configuration', 'root_module'), '', config, providerKeys);
  applyPlanProviders(root, resources, providerKeys);
  resourcesToSpec(result, resources, config, span(at(root, 'format_version') ?? root), (code, message, s) =>
    diagnostics.push(diag(code, message, s)),
  );
  return result;
}

/**
 * The spec of a front end's resource records (a plan's, or the .tf files'): each mapped VM with its disks, the
 * shared and unattached disks, and the count of the types not read. `anchor` is where findings about the whole go.
 */
export function resourcesToSpec(
  result: ParsedSpec,
  resources: PlanResource[],
  config: Map<string, Node | undefined>,
  anchor: Span,
  report: PlanContext['report'],
  missing: string[] = [],
  afterApply = 'known only after apply',
  more: { unexpanded?: readonly PlanResource[]; none?: readonly string[] } = {},
): void {
  const ctx = planContext(resources, config, report, afterApply);
  const none = [...withoutInstances(config, [...resources, ...(more.unexpanded ?? [])]), ...(more.none ?? [])];
  const summary: TerraformSummary = { resources: resources.length, ignored: {}, missing, ...(none.length ? { none } : {}) };
  result.terraform = summary;
  result.finishFindings = (found) => nameResources(result, found);
  const vms = mapResources(resources, ctx, summary);
  const loose = looseDisks(resources, vms, ctx);
  if (!vms.length) {
    const ignored = Object.values(summary.ignored).reduce((a, b) => a + b, 0);
    const others = `${ignored === 1 ? '1 resource of another type' : `${ignored} resources of other types`} ignored`;
    // VMs it declares but cannot read yet (a machine type or a count not known) are not "no VM": said as they are.
    const left = summary.missing;
    const upToThree = (xs: string[]) => (xs.length > 3 ? [...xs.slice(0, 3), `${xs.length - 3} more`] : xs);
    const shown = upToThree(left);
    const zero = upToThree(none);
    report(
      'terraform-no-instances',
      left.length
        ? `no VM of this configuration has figures here: ${shown.join('; ')} (the findings on them say which value is unknown; ${others})`
        : none.length
          ? `no VM is created with these values (a count or for_each of 0): ${zero.join(', ')}; ${others}`
          : `this configuration has no VM storage-perf reads (${others})`,
      anchor,
    );
  }
  // The configuration's provider is its first VM's, else (disks alone) its first disk's.
  const first = vms[0]?.resource;
  const provider = first ? MAPPERS[first.type].provider : diskProvider(loose);
  if (provider === undefined) return;
  const unattached = unattachedDisks(loose, provider, ctx);
  if (!vms.length && !unattached.length) return;
  const where: VmRegions = new Map(vms.map((v) => [v.resource.address, vmRegion(v, ctx)]));
  result.spec = toSpec(result, vms, unattached, new Located(provider, first?.addressSpan ?? anchor), anchor, where);
  markTemplates(result.spec, resources, vms, ctx, summary.missing);
}

/** A configuration address of a managed resource (`module.db.aws_instance.x`): its type, else undefined. */
const CONFIG_ADDRESS = /^(?:module\.[^.\s]+\.)*([a-z][a-z0-9_]*)\.[^.\s]+$/;

/** The resources written that run VMs and have no instance, neither read nor unknown until plan: a count of 0. */
function withoutInstances(config: Map<string, Node | undefined>, instances: readonly PlanResource[]): string[] {
  const have = new Set(instances.map((r) => r.configAddress));
  return [...config.keys()].filter((k) => {
    const type = CONFIG_ADDRESS.exec(k)?.[1];
    return type !== undefined && readsAsVm(type) && !have.has(k);
  });
}

/** The plan's root object, or undefined with the one error that says why it is not a plan this reads. */
function planRoot(text: string, out: Diagnostic[]): Node | undefined {
  // A BOM is not JSON; blanked so that offsets stay those of the text.
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length || !root) {
    const e = errors[0];
    // An error at the end (a truncated file) is shown on the last character written, not on an empty line.
    const start = Math.min(e?.offset ?? 0, Math.max(0, text.trimEnd().length - 1));
    const s = { start, end: Math.min(text.length, start + Math.max(1, e?.length ?? 1)) };
    out.push(
      diag(
        'terraform-syntax',
        `JSON syntax error: ${e ? printParseErrorCode(e.error) : 'the file is empty'}; write the plan with terraform show -json PLANFILE`,
        s,
      ),
    );
    return undefined;
  }
  const version = at(root, 'format_version');
  const v = str(version);
  if (version && v !== undefined && v.split('.')[0] !== '1') {
    out.push(
      diag(
        'terraform-plan-format',
        `plan format ${v} is not read here: storage-perf reads format 1.x, which Terraform 1.x writes`,
        span(version),
      ),
    );
    return undefined;
  }
  if (!version || v === undefined || root.type !== 'object' || !at(root, 'planned_values')) {
    const where = version ?? root;
    const message = 'not a Terraform plan: write one with terraform show -json PLANFILE (it has format_version and planned_values)';
    out.push(diag('terraform-plan-format', message, { start: where.offset, end: where.offset + (version ? where.length : 1) }));
    return undefined;
  }
  return root;
}

function walkPlanned(module: Node | undefined, out: PlanResource[]): void {
  const address = str(at(module, 'address')) ?? '';
  for (const r of items(at(module, 'resources'))) {
    const res = resourceOf(r, address);
    if (res) out.push(res);
  }
  for (const child of items(at(module, 'child_modules'))) walkPlanned(child, out);
}

/** The references of a resource's `for_each` (a .tf block's attribute; a plan's `for_each_expression`). */
function forEachOf(config: Map<string, Node | undefined>, from: PlanResource): string[] {
  const own = referencesAt(config.get(from.configAddress), ['for_each']);
  return own.length ? own : referencesAt(config.get(`${from.configAddress}${FOR_EACH}`), []);
}

/** Where a plan's `for_each_expression` of a resource is kept in the configuration map, beside its expressions. */
const FOR_EACH = ' for_each';

function walkConfig(module: Node | undefined, prefix: string, out: Map<string, Node | undefined>, keys: Map<string, string>): void {
  for (const r of items(at(module, 'resources'))) {
    const address = str(at(r, 'address'));
    if (!address || str(at(r, 'mode')) === 'data') continue;
    out.set(prefix + address, at(r, 'expressions'));
    const key = str(at(r, 'provider_config_key'));
    if (key) keys.set(prefix + address, key);
    if (at(r, 'for_each_expression')) out.set(`${prefix}${address}${FOR_EACH}`, at(r, 'for_each_expression'));
  }
  const calls = at(module, 'module_calls');
  for (const call of calls?.type === 'object' ? (calls.children ?? []) : []) {
    const name = str(call.children?.[0]);
    if (name) walkConfig(at(call.children?.[1], 'module'), `${prefix}module.${name}.`, out, keys);
  }
}

function planContext(
  resources: PlanResource[],
  config: Map<string, Node | undefined>,
  report: PlanContext['report'],
  afterApply: string,
): PlanContext {
  const byConfig = new Map<string, PlanResource[]>();
  const byType = new Map<string, PlanResource[]>();
  const byAddress = new Map(resources.map((r) => [r.address, r]));
  for (const r of resources) {
    push(byConfig, r.configAddress, r);
    push(byType, r.type, r);
  }
  // Indexes built on first use: a plan of thousands of instances looks disks up once each, not by a scan.
  const indexes = new Map<string, Map<string, PlanResource[]>>();
  const index = (type: string, attribute: string) => {
    let m = indexes.get(`${type} ${attribute}`);
    if (m) return m;
    m = new Map();
    for (const r of byType.get(type) ?? []) {
      const v = str(at(r.values, attribute));
      if (v !== undefined) push(m, v, r);
    }
    indexes.set(`${type} ${attribute}`, m);
    return m;
  };
  const said = new Set<string>();
  return {
    report,
    afterApply,
    ofType: (type) => byType.get(type) ?? [],
    withValue: (type, attribute, value) => index(type, attribute).get(value) ?? [],
    written: (from, path) => at(config.get(from.configAddress), ...path) !== undefined,
    writtenAt(from, path) {
      const n = at(config.get(from.configAddress), ...path);
      return n && n.length ? span(n) : undefined;
    },
    undeclared(from, expression) {
      for (const ref of referencesAt(config.get(from.configAddress), expression)) {
        const segs = configAddressOf(ref).split('.');
        if (segs.length < 2 || NOT_RESOURCES.has(segs[0])) continue;
        const address = `${from.modulePrefix}${segs[0]}.${segs[1]}`;
        if (!config.has(address)) return address;
      }
      return undefined;
    },
    referenced(from, expression) {
      const exact = from.target?.(expression);
      const sayOnce = (message: string) => {
        const key = `${from.address} ${expression.join('.')}`;
        if (said.has(key)) return;
        said.add(key);
        const n = at(config.get(from.configAddress), ...expression);
        report('terraform-unknown-value', message, n?.length ? span(n) : from.addressSpan);
      };
      // A plan's resource joined through the .tf files (the .tf front end says its own).
      if (exact === null && from.unjoined)
        sayOnce(from.unjoined(expression) ?? `${from.address}'s ${attributeText(expression)}: the instance it names is not known`);
      if (exact !== undefined) return exact === null ? undefined : byAddress.get(exact);
      const refs = referencesAt(config.get(from.configAddress), expression);
      // `for_each = google_compute_disk.data` makes each.value that resource's instance of the same key (the
      // reference to each.value makes the look-up below one by the instance's own key).
      if (refs.some((r) => /^each\.value\b/.test(r))) refs.push(...forEachOf(config, from));
      const perInstance = refs.some((r) => r === 'count.index' || r.startsWith('each.'));
      // An index computed from more than the instance's own (`x[floor(count.index / var.per_vm)]`): the plan's
      // references do not say which instance; the .tf files beside it do (`target`). Joined to none, never by guess.
      const inputs = perInstance ? refs.filter((r) => /^(?:var|local)\./.test(r)) : [];
      for (const ref of refs) {
        const segs = configAddressOf(ref).split('.');
        if (segs.length < 2 || NOT_RESOURCES.has(segs[0])) continue;
        const candidates = byConfig.get(`${from.modulePrefix}${segs[0]}.${segs[1]}`) ?? [];
        if (candidates.length === 1) return candidates[0];
        if (inputs.length && candidates.length > 1) {
          const message = `${from.address}'s ${attributeText(expression)}: the instance of ${segs[0]}.${segs[1]} it names is computed from ${inputs.join(', ')}, which the plan does not show how: it is joined to none, never by guess; give the plan's .tf files beside it`;
          sayOnce(message);
          return undefined;
        }
        // Several instances: the one of the same index when the expression indexes by it; else none (no guess).
        const same = perInstance ? candidates.filter((c) => c.index === from.index) : [];
        if (same.length === 1) return same[0];
      }
      return undefined;
    },
  };
}

/** An attribute's path as written: `attached_disk[0].source`. */
function attributeText(path: Array<string | number>): string {
  return path
    .map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`))
    .join('')
    .slice(1);
}

/** The nested blocks the mappers read, of the resource types they read: a `dynamic` one of these is unknown until plan. */
const READ_BLOCKS = new Set([
  ...['boot_disk', 'initialize_params', 'attached_disk', 'scratch_disk', 'secondary_disk', 'disk', 'scheduling', 'resources'],
  ...['root_block_device', 'ebs_block_device', 'ephemeral_block_device', 'block_device_mappings', 'ebs', 'placement'],
  ...['instance_market_options', 'launch_template', 'mixed_instances_policy', 'launch_template_specification', 'override'],
  ...['version', 'instance_requirements'],
]);

/**
 * Whether a nested block of a resource is one storage-perf reads: a `dynamic` block of any other (tags, lifecycle
 * hooks, network rules) changes nothing it says, and is not said.
 */
export function readsBlock(type: string, block: string): boolean {
  return readsType(type) && READ_BLOCKS.has(block);
}

/** Whether storage-perf reads resources of this type at all (VMs, templates, groups, disks, attachments). */
export function readsType(type: string): boolean {
  return MAPPERS[type] !== undefined || DISK_RESOURCES.has(type);
}

/** Whether resources of this type run VMs: instances and templates read as VMs, and the groups that run templates. */
export function readsAsVm(type: string): boolean {
  return MAPPERS[type] !== undefined || GROUP_RESOURCES.includes(type);
}

/** The providers of the mappers as their users name them. */
const PROVIDER_NAMES: Record<string, string> = withoutInheritance({
  gcp: 'Google Cloud',
  aws: 'AWS',
  yandex: 'Yandex Cloud',
  azure: 'Azure',
});

function mapResources(resources: PlanResource[], ctx: PlanContext, summary: TerraformSummary): MappedVm[] {
  const vms: MappedVm[] = [];
  let provider: string | undefined;
  for (const r of resources) {
    const mapper = MAPPERS[r.type];
    if (!mapper) {
      if (!DISK_RESOURCES.has(r.type)) summary.ignored[r.type] = (summary.ignored[r.type] ?? 0) + 1;
      continue;
    }
    provider ??= mapper.provider;
    if (mapper.provider !== provider) {
      ctx.report(
        'terraform-other-provider',
        `${r.address} is not evaluated: the configuration's first VM is on ${PROVIDER_NAMES[provider] ?? provider}, and one analysis reads one provider`,
        r.addressSpan,
      );
      continue;
    }
    const vm = mapper.map(r, ctx);
    if (vm) vms.push(vm);
    else summary.missing.push(`${r.address}, not evaluated`);
  }
  return vms;
}

/** Where each VM runs (./plan-providers.ts, `vmRegion`), by address. */
type VmRegions = Map<string, ReturnType<typeof vmRegion>>;

function toSpec(
  result: ParsedSpec,
  vms: MappedVm[],
  unattached: UnattachedDisk[],
  provider: Located,
  versionSpan: Span,
  where: VmRegions,
): Spec {
  // The file's region is its first VM's known one: never one that is not known.
  const region = vms.map((v) => where.get(v.resource.address)).find((r) => r?.region && !r.unknown)?.region;
  // Each VM's region where it is written (its zone), for the findings on it (a zone that names no region).
  for (const v of vms) v.vm.fields.region = where.get(v.resource.address)?.region;
  const root = map(versionSpan, {
    version: new Located(1, versionSpan),
    provider,
    region,
    vms: seq(
      versionSpan,
      vms.map((v) => v.vm),
    ),
    unattached: unattached.length
      ? seq(
          versionSpan,
          unattached.map((u) => u.spec),
        )
      : undefined,
  });
  result.tree = specTree(root);
  const conv = new Converter(result.tree, result.diagnostics);
  const spec = conv.spec();
  if (unattached.length) {
    spec.unattached = conv.topLevelDisks('unattached');
    spec.unattached.forEach((d, i) => {
      d.resource_name = textAt(result.tree, `${d.path}/resource_name`);
      d.region = unattached[i].region;
    });
  }
  // Each VM is priced in its own zone's region: the spec's region (the first zone's) is only the default.
  for (const vm of spec.vms) {
    vm.resource_name = textAt(result.tree, `${vm.path}/resource_name`);
    vm.region = where.get(vm.name)?.region?.value as string | undefined;
    if (where.get(vm.name)?.unknown) vm.region_unknown = true;
    for (const d of vm.disks) d.resource_name = textAt(result.tree, `${d.path}/resource_name`);
  }
  markLeftOut(spec, result.tree);
  return spec;
}

/** A string the front end put in the built spec at a pointer, beside the keys the converter reads. */
function textAt(tree: YamlTree, path: string): string | undefined {
  const v = tree.nodes.get(path)?.value;
  return v?.kind === 'scalar' && typeof v.value === 'string' ? v.value : undefined;
}

/**
 * The disks the front end left out of the figures (./plan-model.ts, `leftOutDisk`), marked with why: the model lists
 * them without figures or price and every total they are part of says it lacks them. Also for a sidecar's VMs,
 * whose spec is converted from the plan's nodes again.
 */
export function markLeftOut(spec: Spec, tree: YamlTree): void {
  for (const d of [...spec.vms.flatMap((vm) => vm.disks), ...(spec.unattached ?? [])]) {
    const why = textAt(tree, `${d.path}/${LEFT_OUT}`);
    if (why !== undefined) d.invalid = why;
  }
}
