/**
 * Azure scale sets: a scale set is its own group. It is read as one instance (./azure.ts) and priced as the
 * `instances` it runs (../terraform/groups.ts). An autoscale setting (`azurerm_monitor_autoscale_setting`) whose
 * `target_resource_id` names the scale set moves that number between its profile's `capacity` `minimum` and
 * `maximum` by load: then the range is said and the instances are left out of the total, never guessed
 * (https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/monitor_autoscale_setting).
 */
import type { TemplateRun } from '../document/types';
import { AZURE_SCALE_SETS, azureRegion } from './azure';
import { groupSize } from './group-size';
import { at, num } from './json';
import type { PlanContext, PlanResource } from './plan-model';

const AUTOSCALE = 'azurerm_monitor_autoscale_setting';
/** Types read through the scale sets they size: neither VMs nor ignored. */
export const AZURE_GROUP_RESOURCES = [AUTOSCALE];

export const isScaleSet = (r: PlanResource) => AZURE_SCALE_SETS.includes(r.type);

/** How many instances a scale set runs, or why that is not known before it runs. */
export function scaleSetRun(g: PlanResource, ctx: PlanContext): TemplateRun {
  const scaler = ctx.ofType(AUTOSCALE).find((a) => ctx.referenced(a, ['target_resource_id']) === g);
  if (scaler) {
    const capacity = at(scaler.values, 'profile', 0, 'capacity', 0);
    return {
      group: g.address,
      autoscaler: { address: scaler.address, min: num(at(capacity, 'minimum')), max: num(at(capacity, 'maximum')) },
    };
  }
  const n = at(g.values, 'instances');
  // An orchestrated scale set without `instances` starts empty (the provider's default is 0).
  if (n === undefined && !ctx.written(g, ['instances']) && g.type === 'azurerm_orchestrated_virtual_machine_scale_set')
    return { group: g.address, instances: 0 };
  return { group: g.address, ...groupSize(n, 'instances', { provider: 'Azure' }) };
}

/** The region a scale set runs in: its location. */
export function scaleSetRegion(g: PlanResource): string | undefined {
  return azureRegion(at(g.values, 'location'))?.value as string | undefined;
}
