/**
 * Yandex Cloud resources as VMs and disks of the spec: yandex_compute_instance (platform and cores: the spec's
 * series and vcpus; its boot disk and secondary disks) and yandex_compute_disk. Disk types and sizes (GB, which
 * Yandex Cloud bills as GiB) are the spec's.
 */
import type { Node } from 'jsonc-parser';
import { at, items, keyOf, located, span, str } from './json';
import {
  Args,
  byId,
  diskBasics,
  instanceVm,
  leftOutDisk,
  type DiskMapper,
  type MappedVm,
  type PlanContext,
  type PlanResource,
  type VmMapper,
} from './plan-model';
import { Located, map, type SpecMap } from './spec-tree';
import { withoutInheritance } from '../own-keys';

export const YANDEX_DISK_RESOURCES = ['yandex_compute_disk'];

function diskResource(d: PlanResource, ctx: PlanContext): SpecMap {
  const { basics, leftOut } = diskBasics(d, ctx);
  return basics ? map(d.values ? span(d.values) : d.addressSpan, basics) : leftOut;
}

/**
 * The disk a `disk_id` names: a disk of the plan by its id when known, else by the configuration's reference; else
 * a finding, and the disk left out under `name` (./plan-model.ts).
 */
function diskById(
  res: PlanResource,
  ctx: PlanContext,
  block: Node,
  expression: Array<string | number>,
  name: string,
): PlanResource | SpecMap {
  const id = str(at(block, 'disk_id'));
  const disk = byId(ctx, 'yandex_compute_disk', id) ?? ctx.referenced(res, expression);
  if (disk) return disk;
  const what = id
    ? `disk '${id}' is not created in this plan, so its type and size are unknown here`
    : 'its disk is known only after apply';
  const place = keyOf(block) ?? span(block);
  ctx.report('terraform-unknown-value', `${what}: it is left out of ${res.address}'s figures`, place);
  const why = id ? `${name}: disk '${id}' is not created in this plan, its type and size unknown` : `${name}'s disk is ${ctx.afterApply}`;
  return leftOutDisk(name, place, why);
}

function instance(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const v = res.values;
  const series = located(at(v, 'platform_id'));
  const cores = new Args(ctx, `${res.address}.resources`).number(at(v, 'resources', 0, 'cores'));
  if (!series || !cores) {
    // A value Terraform refuses is said on it already.
    if (located(at(v, 'resources', 0, 'cores')) && series) return undefined;
    ctx.report(
      'terraform-unknown-value',
      `${res.address}'s ${!series ? 'platform_id' : 'cores'} is known only after apply: its figures are left out`,
      res.addressSpan,
    );
    return undefined;
  }
  const specs: SpecMap[] = [];
  const resources: PlanResource[] = [];
  const use = (d: PlanResource | SpecMap) => {
    if ('fields' in d) specs.push(d);
    else if (!resources.includes(d)) {
      resources.push(d);
      specs.push(diskResource(d, ctx));
    }
  };
  const boot = at(v, 'boot_disk', 0);
  const params = at(boot, 'initialize_params', 0);
  const bootName = `${res.address}.boot_disk`;
  if (boot && params && !str(at(boot, 'disk_id'))) {
    const args = new Args(ctx, bootName);
    const type = located(at(params, 'type'));
    const size = args.number(at(params, 'size'));
    const where = boot.parent ?? boot;
    const place = keyOf(where) ?? span(where);
    if (args.refused.length) specs.push(leftOutDisk(bootName, place, args.refused.join('; '), { type }));
    else if (type && size) specs.push(map(span(where), { name: new Located(bootName, place), type, size }));
    else {
      const missing = !type ? 'type' : 'size';
      ctx.report(
        'terraform-unknown-value',
        `${bootName}'s ${missing} is known only after apply (not set here): set it to see its figures`,
        place,
      );
      specs.push(leftOutDisk(bootName, place, `${bootName}'s ${missing} is ${ctx.afterApply}`, { type, size }));
    }
  } else if (boot) use(diskById(res, ctx, boot, ['boot_disk', 0, 'disk_id'], bootName));
  items(at(v, 'secondary_disk')).forEach((b, i) =>
    use(diskById(res, ctx, b, ['secondary_disk', i, 'disk_id'], `${res.address}.secondary_disk[${i}]`)),
  );
  return instanceVm(
    res,
    { resource_name: located(at(v, 'name')), fields: { series, vcpus: cores }, disks: specs },
    resources,
    located(at(v, 'zone')),
  );
}

/** The disk resources that exist apart from an instance, as disks of the spec (unattached ones are priced apart). */
export const YANDEX_DISK_MAPPERS: Record<string, DiskMapper> = withoutInheritance({
  yandex_compute_disk: { provider: 'yandex', map: diskResource },
});

export const YANDEX_MAPPERS: Record<string, VmMapper> = withoutInheritance({
  yandex_compute_instance: { provider: 'yandex', map: instance },
});
