/**
 * A plan's provider configurations (`configuration.provider_config`), for what they default: the `zone`/`region` a
 * resource that gives none of its own runs in, as Terraform takes them (google: `zone`, `region`; aws: `region`;
 * yandex: `zone`). Each resource of the configuration names its configuration by `provider_config_key`; a key
 * Terraform leaves unresolved (`module.db:google`, a default configuration the module inherits) is looked for in the
 * module above, as Terraform passes it down. A value written as a constant is read; one written as a variable is
 * the root variable's value in the plan's `variables`, or, in a module, the constant or root variable its call
 * passes (else the variable's default). Anything else is unknown, and said so: never a default.
 */
import type { Node } from 'jsonc-parser';
import { at, str } from './json';
import { PROVIDER_DEFAULTS, regionWhere, type MappedVm, type PlanContext, type PlanResource, type ProviderDefaults } from './plan-model';
import { Located } from './spec-tree';
import { withoutInheritance } from '../own-keys';

/** What the plan's configuration says of modules: each module's call expressions and variables, by module path. */
interface Modules {
  /** `module.a.module.b` → the `module_calls` entry that calls it. */
  calls: Map<string, Node | undefined>;
  /** The root module's variables' values (`variables` of the plan). */
  rootValues: Node | undefined;
}

/**
 * Sets each resource's `providerDefaults` from the plan's provider configurations. `keys` holds each configuration
 * resource's `provider_config_key`, by its configuration address.
 */
export function applyPlanProviders(root: Node, resources: PlanResource[], keys: Map<string, string>): void {
  const configs = at(root, 'configuration', 'provider_config');
  if (configs?.type !== 'object') return;
  const modules: Modules = { calls: new Map(), rootValues: at(root, 'variables') };
  collectCalls(at(root, 'configuration', 'root_module'), '', modules.calls);
  const memo = new Map<string, ProviderDefaults | undefined>();
  for (const r of resources) {
    const key = keys.get(r.configAddress);
    if (!key) continue;
    if (!memo.has(key)) memo.set(key, defaultsOf(configs, key, modules));
    r.providerDefaults = memo.get(key);
  }
}

function collectCalls(module: Node | undefined, prefix: string, out: Map<string, Node | undefined>): void {
  const calls = at(module, 'module_calls');
  for (const call of calls?.type === 'object' ? (calls.children ?? []) : []) {
    const name = str(call.children?.[0]);
    if (!name) continue;
    const path = `${prefix}module.${name}`;
    out.set(path, call.children?.[1]);
    collectCalls(at(call.children?.[1], 'module'), `${path}.`, out);
  }
}

/** A key's configuration, else (a default one a module inherits) its caller's, up to the root. */
function configOf(configs: Node, key: string): { node: Node; module: string } | undefined {
  const colon = key.lastIndexOf(':');
  let module = colon < 0 ? '' : key.slice(0, colon);
  const name = colon < 0 ? key : key.slice(colon + 1);
  for (;;) {
    const node = at(configs, module ? `${module}:${name}` : name);
    if (node) return { node, module: str(at(node, 'module_address')) ?? module };
    // Only a default configuration is inherited implicitly; an aliased one is passed by name and resolved.
    if (!module || name.includes('.')) return undefined;
    module = module.includes('.module.') ? module.slice(0, module.lastIndexOf('.module.')) : '';
  }
}

function defaultsOf(configs: Node, key: string, modules: Modules): ProviderDefaults | undefined {
  const found = configOf(configs, key);
  if (!found) return undefined;
  const provider = str(at(found.node, 'name')) ?? '';
  const out: ProviderDefaults = {};
  for (const attr of PROVIDER_DEFAULTS[provider.split('.')[0]] ?? []) {
    const expression = at(found.node, 'expressions', attr);
    if (!expression) continue;
    const value = valueOf(expression, found.module, modules, 0);
    if (value) out[attr] = value;
    else out.unknown ??= `${key.replace(/^.*:/, '')}'s ${attr} is ${referenceText(expression)}`;
  }
  return out;
}

/** What an expression the plan does not resolve is written as, for the finding (`var.region`). */
function referenceText(expression: Node): string {
  const refs = at(expression, 'references');
  const first = refs?.type === 'array' ? str(refs.children?.[0]) : undefined;
  return first ? `${first}, which the plan does not give` : 'an expression the plan does not give';
}

/** A string an expression has: a constant, or a variable followed up to a constant or the root's value. */
function valueOf(expression: Node, module: string, modules: Modules, depth: number): Node | undefined {
  const constant = at(expression, 'constant_value');
  if (constant) return constant.type === 'string' ? constant : undefined;
  const refs = at(expression, 'references');
  const ref = refs?.type === 'array' && refs.children?.length ? str(refs.children[0]) : undefined;
  // `var.region` is referenced as itself: a longer expression (`"${var.region}-x"`) is not one this follows.
  const variable = ref && /^var\.([A-Za-z_][\w-]*)$/.exec(ref)?.[1];
  if (!variable || depth > 32) return undefined;
  if (!module) {
    const v = at(modules.rootValues, variable, 'value');
    return v?.type === 'string' ? v : undefined;
  }
  const call = modules.calls.get(module);
  const passed = at(call, 'expressions', variable);
  const parent = module.includes('.module.') ? module.slice(0, module.lastIndexOf('.module.')) : '';
  if (passed) return valueOf(passed, parent, modules, depth + 1);
  const d = at(call, 'module', 'variables', variable, 'default');
  return d?.type === 'string' ? d : undefined;
}

/** The VM types whose own zone, written but not known, leaves their region unknown (AWS's region is the provider's). */
const OWN_ZONE: Record<string, string> = withoutInheritance({
  google_compute_instance: 'zone',
  google_compute_instance_from_template: 'zone',
  yandex_compute_instance: 'zone',
});

/** What a VM's costs are read in place of a region that is not known: never a region the edition prices. */
export const UNKNOWN_REGION = 'an unknown region';

/**
 * The region a VM runs in (./plan-model.ts, `regionWhere`); where its zone, or its provider configuration's default,
 * is written but not known, a finding that says so: its costs are left out rather than read in another region.
 */
export function vmRegion(v: MappedVm, ctx: PlanContext): { region?: Located; unknown?: boolean } {
  const res = v.resource;
  const own = OWN_ZONE[res.type];
  const why =
    !v.zone && own && ctx.written(res, [own])
      ? `its ${own} is ${ctx.afterApply}`
      : regionWhere(v.zone, res)
        ? undefined
        : res.providerDefaults?.unknown;
  if (!why) return { region: regionWhere(v.zone, res) };
  // On its own zone where that is what is not known; else (its provider's default) on the VM.
  const where = (!v.zone && own && ctx.writtenAt(res, [own])) || res.addressSpan;
  ctx.report('terraform-unknown-value', `${res.address}'s region is not known: ${why}. Its costs are left out`, where);
  return { region: new Located(UNKNOWN_REGION, res.addressSpan), unknown: true };
}
