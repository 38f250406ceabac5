/**
 * Yandex Cloud resources as VMs and disks of the spec: yandex_compute_instance (platform and cores: the spec's
 * series and vcpus; its boot disk and secondary disks) and yandex_compute_disk. Disk types and sizes (GB, which
 * Yandex Cloud bills as GiB) are the spec's.
 */
import type { Node } from 'jsonc-parser';
import { at, items, keyOf, located, span, str } from './json';
import { diskBasics, instanceVm, type MappedVm, type PlanContext, type PlanResource, type VmMapper } from './plan-model';
import { Located, map, type SpecMap } from './spec-tree';

export const YANDEX_DISK_RESOURCES = ['yandex_compute_disk'];

function diskResource(d: PlanResource, ctx: PlanContext): SpecMap | undefined {
  const basics = diskBasics(d, ctx);
  if (!basics) return undefined;
  return map(d.values ? span(d.values) : d.addressSpan, basics);
}

/** The disk a `disk_id` names: a disk of the plan by its id when known, else by the configuration's reference. */
function diskById(res: PlanResource, ctx: PlanContext, block: Node, expression: Array<string | number>): PlanResource | undefined {
  const id = str(at(block, 'disk_id'));
  const known = id ? ctx.withValue('yandex_compute_disk', 'id', id) : [];
  const disk = known.length === 1 ? known[0] : ctx.referenced(res, expression);
  if (!disk) {
    const what = id
      ? `disk '${id}' is not created in this plan, so its type and size are unknown here`
      : 'its disk is known only after apply';
    ctx.report('terraform-unknown-value', `${what}: it is left out of ${res.address}'s figures`, keyOf(block) ?? span(block));
  }
  return disk;
}

function instance(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const v = res.values;
  const series = located(at(v, 'platform_id'));
  const cores = located(at(v, 'resources', 0, 'cores'));
  if (!series || !cores) {
    ctx.report(
      'terraform-unknown-value',
      `${res.address}'s ${!series ? 'platform_id' : 'cores'} is known only after apply: its figures are left out`,
      res.addressSpan,
    );
    return undefined;
  }
  const specs: SpecMap[] = [];
  const resources: PlanResource[] = [];
  const use = (d: PlanResource | undefined) => {
    const s = d && !resources.includes(d) ? diskResource(d, ctx) : undefined;
    if (!d || !s) return;
    resources.push(d);
    specs.push(s);
  };
  const boot = at(v, 'boot_disk', 0);
  const params = at(boot, 'initialize_params', 0);
  if (boot && params && !str(at(boot, 'disk_id'))) {
    const type = located(at(params, 'type'));
    const size = located(at(params, 'size'));
    const where = boot.parent ?? boot;
    if (type && size)
      specs.push(map(span(where), { name: new Located(`${res.address}.boot_disk`, keyOf(where) ?? span(where)), type, size }));
    else
      ctx.report(
        'terraform-unknown-value',
        `${res.address}.boot_disk's ${!type ? 'type' : 'size'} is known only after apply (not set here): set it to see its figures`,
        keyOf(where) ?? span(where),
      );
  } else if (boot) use(diskById(res, ctx, boot, ['boot_disk', 0, 'disk_id']));
  items(at(v, 'secondary_disk')).forEach((b, i) => use(diskById(res, ctx, b, ['secondary_disk', i, 'disk_id'])));
  return instanceVm(
    res,
    { resource_name: located(at(v, 'name')), fields: { series, vcpus: cores }, disks: specs },
    resources,
    located(at(v, 'zone')),
  );
}

export const YANDEX_MAPPERS: Record<string, VmMapper> = {
  yandex_compute_instance: { provider: 'yandex', map: instance },
};
