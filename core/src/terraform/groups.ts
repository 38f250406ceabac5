/**
 * Google's managed instance groups: what runs an instance template. A template alone runs nothing; a group
 * (`google_compute_instance_group_manager`, `google_compute_region_instance_group_manager`) runs `target_size`
 * instances of it, split between its `version` blocks by their own `target_size { fixed }`; an autoscaler
 * (`google_compute_autoscaler`, `google_compute_region_autoscaler`) that targets the group sets the size between
 * its `min_replicas` and `max_replicas` by load, so that number is said and never guessed. The template's VM
 * keeps one instance's figures and is priced as the instances its groups run (../model/evaluate.ts).
 */
import type { Node } from 'jsonc-parser';
import type { Spec, TemplateRun } from '../document/types';
import { plural } from '../units';
import { AWS_GROUP_RESOURCES, AWS_GROUPS, asgRegion, asgRun, asgTemplate } from './aws-groups';
import { AZURE_SCALE_SETS } from './azure';
import { AZURE_GROUP_RESOURCES, isScaleSet, scaleSetRegion, scaleSetRun } from './azure-groups';
import { groupSize } from './group-size';
import { at, items, num, str } from './json';
import { push, type MappedVm, type PlanContext, type PlanResource } from './plan-model';

const TEMPLATES = new Set([
  'google_compute_instance_template',
  'google_compute_region_instance_template',
  'aws_launch_template',
  'aws_launch_configuration',
  // A scale set is its own template and its own group.
  ...AZURE_SCALE_SETS,
]);
const GROUPS = new Set([
  'google_compute_instance_group_manager',
  'google_compute_region_instance_group_manager',
  ...AWS_GROUPS,
  ...AZURE_SCALE_SETS,
]);
const AUTOSCALERS = ['google_compute_autoscaler', 'google_compute_region_autoscaler'];
/** Types read through the templates they run: neither VMs nor ignored. */
export const GROUP_RESOURCES = [...GROUPS, ...AUTOSCALERS, ...AWS_GROUP_RESOURCES, ...AZURE_GROUP_RESOURCES];

/** Each template's VM marked as a template, with the groups that run it, the region they run in, and a finding. */
export function markTemplates(spec: Spec, resources: PlanResource[], vms: MappedVm[], ctx: PlanContext, missing: string[]): void {
  const groups = resources.filter((r) => GROUPS.has(r.type));
  const running = new Set<PlanResource>();
  const scalers = new Map<PlanResource, PlanResource>();
  for (const a of AUTOSCALERS.flatMap((t) => ctx.ofType(t))) {
    const g = ctx.referenced(a, ['target']);
    if (g) scalers.set(g, a);
  }
  // Each group's templates read once (not each template against every group), in the groups' order.
  const byTemplate = new Map<PlanResource, Array<{ g: PlanResource; versions: number[] }>>();
  for (const g of groups) for (const [t, versions] of templatesRun(g, ctx)) push(byTemplate, t, { g, versions });
  const specVms = new Map(spec.vms.map((x) => [x.name, x]));
  for (const v of vms) {
    if (!TEMPLATES.has(v.resource.type)) continue;
    const vm = specVms.get(v.resource.address);
    if (!vm) continue;
    const runs: TemplateRun[] = [];
    let region: string | undefined;
    for (const { g, versions } of byTemplate.get(v.resource) ?? []) {
      running.add(g);
      const run = runOf(g, versions, scalers.get(g), ctx);
      const where = groupRegion(g);
      region ??= where;
      if (where !== undefined && where !== region && run.instances !== undefined)
        runs.push({ group: g.address, unknown: `it runs in ${where}, priced apart from ${region}` });
      else runs.push(run);
    }
    vm.template = { runs };
    if (region !== undefined) vm.region = region;
    ctx.report('terraform-template', `${v.resource.address}: ${templateText(runs)}`, v.resource.addressSpan);
  }
  // A group whose template is not one evaluated here (named by a literal, a data source, another module, or not
  // evaluated itself): its instances are said to be left out, never dropped without a word.
  for (const g of groups) {
    if (running.has(g)) continue;
    const message = `${g.address}'s instances are left out: it runs no template storage-perf evaluates in this configuration`;
    ctx.report('terraform-unknown-value', message, g.addressSpan);
    missing.push(`${g.address}'s instances, template not evaluated`);
  }
}

/**
 * The templates of the configuration a group runs, each with the version blocks that run it (-1 for the top-level
 * `instance_template` of older configurations, and for an AWS Auto Scaling group's one launch template).
 */
function templatesRun(g: PlanResource, ctx: PlanContext): Map<PlanResource, number[]> {
  const out = new Map<PlanResource, number[]>();
  if (isScaleSet(g)) return out.set(g, [-1]);
  if (AWS_GROUPS.includes(g.type)) {
    const t = asgTemplate(g, ctx);
    if (t) out.set(t, [-1]);
    return out;
  }
  const top = ctx.referenced(g, ['instance_template']);
  if (top) push(out, top, -1);
  items(at(g.values, 'version')).forEach((_, i) => {
    const t = ctx.referenced(g, ['version', i, 'instance_template']);
    if (t) push(out, t, i);
  });
  return out;
}

/**
 * How many instances of the template a group runs: its target size when one version (or the top level) runs the
 * template; with several versions, the `fixed` share of each that runs it, and the rest of the size for the
 * version without a share. A percent share is rounded by Google in ways its page does not fix: not guessed.
 */
function runOf(g: PlanResource, running: number[], scaler: PlanResource | undefined, ctx: PlanContext): TemplateRun {
  if (AWS_GROUPS.includes(g.type)) return asgRun(g, ctx);
  if (isScaleSet(g)) return scaleSetRun(g, ctx);
  if (scaler) {
    const policy = at(scaler.values, 'autoscaling_policy', 0);
    const min = num(at(policy, 'min_replicas'));
    const max = num(at(policy, 'max_replicas'));
    return { group: g.address, autoscaler: { address: scaler.address, min, max } };
  }
  const given = groupSize(at(g.values, 'target_size'), 'target_size', { provider: 'Google Cloud' });
  if (!('instances' in given)) return { group: g.address, ...given };
  const size = given.instances;
  const versions = items(at(g.values, 'version'));
  if (versions.length <= 1) return { group: g.address, instances: size };
  const share = (v: Node) => at(v, 'target_size', 0);
  if (versions.some((v) => share(v) && num(at(share(v), 'fixed')) === undefined))
    return { group: g.address, unknown: "a version's target_size is a percent or known only after apply" };
  const fixed = versions.reduce((s, v) => s + (num(at(share(v), 'fixed')) ?? 0), 0);
  const rest = Math.max(0, size - fixed);
  const instances = running.reduce((s, i) => {
    const v = i < 0 ? undefined : versions[i];
    return s + (v && share(v) ? num(at(share(v), 'fixed'))! : rest);
  }, 0);
  return { group: g.address, instances };
}

/** The region a group runs in: a zonal group's zone's, a regional group's own. */
function groupRegion(g: PlanResource): string | undefined {
  if (AWS_GROUPS.includes(g.type)) return asgRegion(g);
  if (isScaleSet(g)) return scaleSetRegion(g);
  const zone = str(at(g.values, 'zone'));
  if (zone) return /^(.+)-[a-z]$/.exec(zone)?.[1];
  return str(at(g.values, 'region'));
}

function templateText(runs: TemplateRun[]): string {
  if (!runs.length) return "a template runs nothing by itself (one instance's figures, no price)";
  const known = runs.filter((r) => r.instances !== undefined);
  const n = known.reduce((s, r) => s + r.instances!, 0);
  const parts: string[] = [];
  if (known.length)
    parts.push(
      `priced as the ${plural(n, 'instance')} ${known.length === 1 ? `${known[0].group} runs` : `its ${known.length} groups run`}`,
    );
  const rest = runs.filter((r) => r.instances === undefined);
  if (rest.length) {
    const r = rest[0];
    const a = r.autoscaler;
    const range = a ? ` ${a.min ?? '?'}–${a.max ?? '?'} instances by load` : '';
    const first = a ? `${a.address} scales ${r.group} to${range}` : `${r.group}'s instances: ${r.unknown}`;
    parts.push(`${first}${rest.length > 1 ? ` (and ${rest.length - 1} more group${rest.length > 2 ? 's' : ''})` : ''}, not in the total`);
  }
  return `one instance's figures; ${parts.join('; ')}`;
}
