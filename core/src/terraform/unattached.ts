/**
 * Disks the configuration creates and attaches to no VM it reads (`terraform-unattached-disk`). They have no figures,
 * but they are paid for: those of the configuration's provider are disks of the spec's `unattached` list, priced
 * apart in the region of their own zone, and part of the file's total (../analyze.ts), never of a VM's.
 */
import { at, located } from './json';
import { AWS_DISK_MAPPERS } from './aws';
import { AZURE_DISK_MAPPERS } from './azure';
import { GCP_DISK_MAPPERS } from './gcp';
import { push, regionWhere, type DiskMapper, type MappedVm, type PlanContext, type PlanResource } from './plan-model';
import type { SpecMap } from './spec-tree';
import { YANDEX_DISK_MAPPERS } from './yandex';
import { withoutInheritance } from '../own-keys';

/** The disk types that exist apart from an instance, as disks of the spec. */
const DISK_MAPPERS: Record<string, DiskMapper> = withoutInheritance({
  ...GCP_DISK_MAPPERS,
  ...AWS_DISK_MAPPERS,
  ...YANDEX_DISK_MAPPERS,
  ...AZURE_DISK_MAPPERS,
});

/** An unattached disk of the spec, with the region it is priced in (undefined: the spec's). */
export interface UnattachedDisk {
  spec: SpecMap;
  region?: string;
}

/**
 * The disk resources no mapped VM uses, in the configuration's order; a disk several VMs use is said once
 * (`terraform-shared-disk`).
 */
export function looseDisks(resources: PlanResource[], vms: MappedVm[], ctx: PlanContext): PlanResource[] {
  const users = new Map<PlanResource, string[]>();
  for (const vm of vms) for (const d of vm.diskResources) push(users, d, vm.resource.address);
  const loose: PlanResource[] = [];
  for (const r of resources) {
    const by = users.get(r);
    if (by && by.length > 1)
      ctx.report(
        'terraform-shared-disk',
        `attached to ${by.length} VMs (${by.slice(0, 2).join(', ')}${by.length > 2 ? ', ...' : ''}): each VM's figures assume it alone uses the disk, and its price is counted on each`,
        r.addressSpan,
      );
    else if (!by && DISK_MAPPERS[r.type]) loose.push(r);
  }
  return loose;
}

/** The provider of the first disk resource (the configuration's, when it has no VM). */
export function diskProvider(loose: PlanResource[]): string | undefined {
  return loose.length ? DISK_MAPPERS[loose[0].type].provider : undefined;
}

/**
 * Each loose disk said (`terraform-unattached-disk`), and those of `provider` as disks of the spec, priced apart:
 * a disk of another provider is not read, as a VM of another provider is not.
 */
export function unattachedDisks(loose: PlanResource[], provider: string, ctx: PlanContext): UnattachedDisk[] {
  const out: UnattachedDisk[] = [];
  for (const r of loose) {
    const mapper = DISK_MAPPERS[r.type];
    const priced = mapper.provider === provider;
    ctx.report(
      'terraform-unattached-disk',
      `${r.address} is attached to no VM by a reference storage-perf follows (one through a module's variable is not followed): no figures here${priced ? '; priced apart, as not attached' : ''}`,
      r.addressSpan,
    );
    if (!priced) continue;
    const zone = mapper.zone ? mapper.zone(r) : (located(at(r.values, 'zone')) ?? located(at(r.values, 'availability_zone')));
    out.push({ spec: mapper.map(r, ctx), region: regionWhere(zone, r, located(at(r.values, 'region')))?.value as string | undefined });
  }
  return out;
}
