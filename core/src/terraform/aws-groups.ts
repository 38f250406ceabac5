/**
 * AWS Auto Scaling groups: what runs a launch template (../terraform/groups.ts prices the template as the
 * instances its groups run). A group (`aws_autoscaling_group`) names the template in its `launch_template` block,
 * or in a mixed instances policy's launch template specification, by id or by name, or a launch configuration
 * (`launch_configuration`, by name). It runs `desired_capacity`
 * instances; without one, AWS starts it at `min_size` ("If you do not specify a desired capacity, the default is
 * the minimum size of the group": CreateAutoScalingGroup, Amazon EC2 Auto Scaling API Reference,
 * https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_CreateAutoScalingGroup.html). A scaling policy
 * (`aws_autoscaling_policy`) of the group moves that number between `min_size` and `max_size` by load, and a mixed
 * instances policy's overrides run other instance types than the template's: then the number is said, never guessed.
 */
import type { TemplateRun } from '../document/types';
import { groupSize } from './group-size';
import { at, items, num, str } from './json';
import type { PlanContext, PlanResource } from './plan-model';

export const AWS_GROUPS = ['aws_autoscaling_group'];
/** Types read through the templates their groups run: neither VMs nor ignored. */
export const AWS_GROUP_RESOURCES = [...AWS_GROUPS, 'aws_autoscaling_policy'];

const SPEC = ['mixed_instances_policy', 0, 'launch_template', 0, 'launch_template_specification', 0];
const TEMPLATE_PATHS: Array<Array<string | number>> = [
  ['launch_template', 0, 'id'],
  ['launch_template', 0, 'name'],
  [...SPEC, 'launch_template_id'],
  [...SPEC, 'launch_template_name'],
  // An aws_launch_configuration, by name (the older kind of template).
  ['launch_configuration'],
];

/** The launch template of the configuration the group runs (named by a reference to it, by id or by name). */
export function asgTemplate(g: PlanResource, ctx: PlanContext): PlanResource | undefined {
  for (const p of TEMPLATE_PATHS) {
    const t = ctx.referenced(g, p);
    if (t) return t;
  }
  return undefined;
}

/** How many instances of its launch template the group runs, or why that is not known before it runs. */
export function asgRun(g: PlanResource, ctx: PlanContext): TemplateRun {
  const v = g.values;
  const min = num(at(v, 'min_size'));
  const max = num(at(v, 'max_size'));
  const policy = ctx.ofType('aws_autoscaling_policy').find((p) => ctx.referenced(p, ['autoscaling_group_name']) === g || sameName(p, g));
  if (policy) return { group: g.address, autoscaler: { address: policy.address, min, max } };
  const overrides = items(at(v, ...SPEC.slice(0, 4), 'override'));
  if (overrides.some((o) => at(o, 'instance_type') || at(o, 'instance_requirements')))
    return { group: g.address, unknown: 'its mixed instances policy runs other instance types too' };
  // Part Spot: below 100 % on demand above the base capacity (absent: 100 %), priced otherwise; unknown: not guessed.
  const onDemand = ['mixed_instances_policy', 0, 'instances_distribution', 0, 'on_demand_percentage_above_base_capacity'];
  const share = num(at(v, ...onDemand));
  if ((share !== undefined && share < 100) || (share === undefined && ctx.written(g, onDemand)))
    return { group: g.address, unknown: 'its instances distribution runs Spot instances, whose price is not modelled' };
  // min_size stands in for desired_capacity only where the configuration does not write one (AWS's default).
  const desired = at(v, 'desired_capacity') || ctx.written(g, ['desired_capacity']) ? 'desired_capacity' : 'min_size';
  const size = groupSize(at(v, desired), desired, { provider: 'AWS', min: desired === 'min_size' ? undefined : min, max });
  return { group: g.address, ...size };
}

function sameName(policy: PlanResource, g: PlanResource): boolean {
  const name = str(at(policy.values, 'autoscaling_group_name'));
  return name !== undefined && name === str(at(g.values, 'name'));
}

/** The region of the group's first availability zone (us-east-1a → us-east-1), when it names zones. */
export function asgRegion(g: PlanResource): string | undefined {
  const zone = str(at(g.values, 'availability_zones', 0));
  return zone ? /^(.+-\d+)[a-z]$/.exec(zone)?.[1] : undefined;
}
