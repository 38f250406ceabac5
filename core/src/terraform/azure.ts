/**
 * Azure resources (the azurerm provider) as VMs and disks of the spec (docs/terraform.md):
 * `azurerm_linux_virtual_machine` and `azurerm_windows_virtual_machine` (`size`; the `os_disk` block as the OS disk;
 * `disk_controller_type`), `azurerm_managed_disk` joined to a VM by `azurerm_virtual_machine_data_disk_attachment`
 * (whose `caching` is the disk's host caching), and the scale sets (`azurerm_*_virtual_machine_scale_set`: `sku`,
 * `os_disk`, each `data_disk`), read as one instance each and priced as their `instances` (./azure-groups.ts).
 * A resource's `location` is its region, as Azure writes it or as its display name ("West Europe" is westeurope).
 *
 * Storage account types are the spec's disk types; a zone-redundant one (`_ZRS`) keeps its type and says
 * `redundancy: zrs`, priced as the edition prices it (never as the LRS disk). `disk_iops_read_write` and
 * `disk_mbps_read_write` (MB/s, 10^6 bytes) are settings only for Premium SSD v2 and Ultra Disk: the provider
 * computes them for the other types, so a plan's value there is the tier's figure, not a setting, and is not read
 * (https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/managed_disk).
 */
import type { Node } from 'jsonc-parser';
import { at, items, keyOf, located, span, spotWhere, str } from './json';
import {
  Args,
  byId,
  instanceVm,
  leftOutDisk,
  machineField,
  push,
  type DiskMapper,
  type MappedVm,
  type PlanContext,
  type PlanResource,
  type VmMapper,
} from './plan-model';
import { Located, map, type SpecMap, type SpecValue } from './spec-tree';
import { withoutInheritance } from '../own-keys';

const ATTACHMENT = 'azurerm_virtual_machine_data_disk_attachment';
/** Resource types read only through the VMs that use them. */
export const AZURE_DISK_RESOURCES = ['azurerm_managed_disk', ATTACHMENT];
export const AZURE_SCALE_SETS = [
  'azurerm_linux_virtual_machine_scale_set',
  'azurerm_windows_virtual_machine_scale_set',
  'azurerm_orchestrated_virtual_machine_scale_set',
];

/** Storage account types as the spec's disk types, with the redundancy their name says. */
const TYPES: Record<string, { type: string; zrs?: true }> = withoutInheritance({
  premium_lrs: { type: 'premium-ssd' },
  premium_zrs: { type: 'premium-ssd', zrs: true },
  standardssd_lrs: { type: 'standard-ssd' },
  standardssd_zrs: { type: 'standard-ssd', zrs: true },
  standard_lrs: { type: 'standard-hdd' },
  premiumv2_lrs: { type: 'premium-ssd-v2' },
  ultrassd_lrs: { type: 'ultra-disk' },
});
/** The types whose IOPS and MB/s are provisioned settings. */
const PROVISIONED = new Set(['premium-ssd-v2', 'ultra-disk']);
const CACHING: Record<string, string> = withoutInheritance({ none: 'none', readonly: 'read-only', readwrite: 'read-write' });

/** The spec's `type` (and `redundancy`) of a storage account type; an unknown one is kept as written, for the spec to refuse. */
function diskType(n: Node | undefined): { type?: Located; redundancy?: Located } {
  const l = located(n);
  if (!l) return {};
  const t = TYPES[String(l.value).toLowerCase()];
  if (!t) return { type: l };
  return { type: new Located(t.type, l.span, l.key), redundancy: t.zrs ? new Located('zrs', l.span, l.key) : undefined };
}

/** Azure's region names as the catalog writes them: "West Europe" and "westeurope" alike. */
export function azureRegion(n: Node | undefined): Located | undefined {
  const l = located(n);
  return l && new Located(String(l.value).toLowerCase().replace(/\s+/g, ''), l.span, l.key);
}

const caching = (n: Node | undefined) => located(n, (v) => CACHING[String(v).toLowerCase()] ?? String(v));
const mbps = (v: number) => `${v}MB/s`;

/** Provisioned IOPS and MB/s, for the types that take them, under the names the resource gives them. */
function provisioned(values: Node | undefined, type: Located | undefined, args: Args, iops: string, throughput: string) {
  if (!type || !PROVISIONED.has(String(type.value))) return {};
  return { provisioned_iops: args.amount(at(values, iops)), provisioned_throughput: args.amount(at(values, throughput), mbps) };
}

/**
 * A disk block written inline (a VM's `os_disk`, a scale set's `os_disk` or `data_disk`): its type, size, caching
 * and settings; left out with why when its type or size is not known here (an OS disk's size is then its image's).
 */
function blockDisk(name: string, block: Node, role: 'os' | 'data', ctx: PlanContext): SpecMap {
  const where = block.parent ?? block;
  const place = keyOf(where) ?? span(where);
  const args = new Args(ctx, name);
  const { type, redundancy } = diskType(at(block, 'storage_account_type'));
  const size = args.number(at(block, 'disk_size_gb'));
  if (args.refused.length) return leftOutDisk(name, place, args.refused.join('; '), { type });
  if (!type || !size) {
    const missing = !type ? 'storage_account_type' : 'disk_size_gb';
    const image = role === 'os' && type ? " (the image's size applies)" : '';
    ctx.report('terraform-unknown-value', `${name}'s ${missing} is not set here${image}: set it to see its figures`, place);
    return leftOutDisk(name, place, `${name}'s ${missing} is ${ctx.afterApply}${image}`, { type, size });
  }
  return map(span(block), {
    name: new Located(name, place),
    role: new Located(role, place),
    type,
    redundancy,
    size,
    caching: caching(at(block, 'caching')),
    ...provisioned(block, type, args, 'ultra_ssd_disk_iops_read_write', 'ultra_ssd_disk_mbps_read_write'),
    ...args.leftOut(place),
  });
}

/** An azurerm_managed_disk as a disk of the spec (attached or not). */
function managedDisk(d: PlanResource, ctx: PlanContext, extra: Record<string, SpecValue | undefined> = {}): SpecMap {
  const v = d.values;
  const args = new Args(ctx, d.address);
  const { type, redundancy } = diskType(at(v, 'storage_account_type'));
  const size = args.number(at(v, 'disk_size_gb'));
  const resource_name = located(at(v, 'name'));
  if (args.refused.length) return leftOutDisk(d.address, d.addressSpan, args.refused.join('; '), { resource_name, type });
  if (!type || !size) {
    const missing = !type ? 'storage_account_type' : 'disk_size_gb';
    ctx.report('terraform-unknown-value', `${d.address}'s ${missing} is known only after apply: set it to see its figures`, d.addressSpan);
    return leftOutDisk(d.address, d.addressSpan, `${d.address}'s ${missing} is ${ctx.afterApply}`, { resource_name, type, size });
  }
  const onDemand = args.bool(at(v, 'on_demand_bursting_enabled'));
  const plus = args.bool(at(v, 'performance_plus_enabled'));
  return map(v ? span(v) : d.addressSpan, {
    name: new Located(d.address, d.addressSpan),
    resource_name,
    type,
    redundancy,
    size,
    tier: located(at(v, 'tier')),
    bursting: onDemand?.value === true ? new Located('on-demand', onDemand.span, onDemand.key) : undefined,
    performance_plus: plus?.value === true ? plus : undefined,
    ...provisioned(v, type, args, 'disk_iops_read_write', 'disk_mbps_read_write'),
    ...extra,
    ...args.leftOut(d.addressSpan),
  });
}

const VM_TYPES = ['azurerm_linux_virtual_machine', 'azurerm_windows_virtual_machine'];

/** Data disk attachments by the VM they attach to, read once per plan. */
const attachments = new WeakMap<PlanContext, Map<PlanResource, PlanResource[]>>();
function attachmentsOf(ctx: PlanContext): Map<PlanResource, PlanResource[]> {
  let m = attachments.get(ctx);
  if (m) return m;
  m = new Map();
  for (const a of ctx.ofType(ATTACHMENT)) {
    const id = str(at(a.values, 'virtual_machine_id'));
    const target = VM_TYPES.map((t) => byId(ctx, t, id)).find((r) => r) ?? ctx.referenced(a, ['virtual_machine_id']);
    if (target) push(m, target, a);
    else
      ctx.report(
        'terraform-unknown-value',
        `${a.address}'s virtual machine is known only after apply, or not created in this plan: its disk is left out`,
        keyOf(at(a.values, 'virtual_machine_id') ?? a.values!) ?? a.addressSpan,
      );
  }
  attachments.set(ctx, m);
  return m;
}

/** The data disks attached to a VM, each with its attachment's caching. */
function attachedDisks(res: PlanResource, ctx: PlanContext): { specs: SpecMap[]; resources: PlanResource[] } {
  const specs: SpecMap[] = [];
  const resources: PlanResource[] = [];
  for (const a of attachmentsOf(ctx).get(res) ?? []) {
    const disk = byId(ctx, 'azurerm_managed_disk', str(at(a.values, 'managed_disk_id'))) ?? ctx.referenced(a, ['managed_disk_id']);
    if (!disk) {
      const place = keyOf(at(a.values, 'managed_disk_id') ?? a.values!) ?? a.addressSpan;
      ctx.report(
        'terraform-unknown-value',
        `${a.address}'s disk is known only after apply, or not created in this plan: it is left out of ${res.address}'s figures`,
        place,
      );
      specs.push(leftOutDisk(a.address, place, `${a.address}'s disk is ${ctx.afterApply}, or not created in this plan`));
      continue;
    }
    if (resources.includes(disk)) continue;
    resources.push(disk);
    specs.push(managedDisk(disk, ctx, { role: new Located('data', a.addressSpan), caching: caching(at(a.values, 'caching')) }));
  }
  return { specs, resources };
}

/**
 * A VM or scale set as the spec's VM: its size (`sizeField`), its `os_disk`, the data disks it has, its region
 * from `location`; a Spot VM's price is not the pay-as-you-go one (not modelled: left out, said).
 */
function azureVm(
  res: PlanResource,
  ctx: PlanContext,
  sizeField: string,
  data: (res: PlanResource) => { specs: SpecMap[]; resources: PlanResource[] },
): MappedVm | undefined {
  const v = res.values;
  const machine = machineField(res, ctx, sizeField);
  if (!machine) return undefined;
  const os = at(v, 'os_disk', 0);
  const disks = data(res);
  return instanceVm(
    res,
    {
      resource_name: located(at(v, 'name')),
      fields: {
        machine_type: machine,
        disk_controller: located(at(v, 'disk_controller_type'), (c) => String(c).toLowerCase()),
        pricing: spotWhere(at(v, 'priority'), (p) => String(p).toLowerCase() === 'spot'),
      },
      disks: [...(os ? [blockDisk(`${res.address}.os_disk`, os, 'os', ctx)] : []), ...disks.specs],
    },
    disks.resources,
    azureRegion(at(v, 'location')),
  );
}

const virtualMachine = (res: PlanResource, ctx: PlanContext) => azureVm(res, ctx, 'size', (r) => attachedDisks(r, ctx));

/** A scale set as one instance of it: its `data_disk` blocks (./azure-groups.ts prices it as its instances). */
const scaleSet = (res: PlanResource, ctx: PlanContext) =>
  // The orchestrated kind names its size `sku_name`.
  azureVm(res, ctx, res.type.startsWith('azurerm_orchestrated') ? 'sku_name' : 'sku', (r) => ({
    specs: items(at(r.values, 'data_disk')).map((b, i) =>
      blockDisk(`${r.address}.data_disk[${located(at(b, 'lun'))?.value ?? i}]`, b, 'data', ctx),
    ),
    resources: [],
  }));

export const AZURE_DISK_MAPPERS: Record<string, DiskMapper> = withoutInheritance({
  // Its `zone` is an availability zone number ("1"): the region is its `location`.
  azurerm_managed_disk: { provider: 'azure', map: (d, ctx) => managedDisk(d, ctx), zone: (d) => azureRegion(at(d.values, 'location')) },
});

export const AZURE_MAPPERS: Record<string, VmMapper> = withoutInheritance({
  ...Object.fromEntries(VM_TYPES.map((t) => [t, { provider: 'azure', map: virtualMachine }])),
  ...Object.fromEntries(AZURE_SCALE_SETS.map((t) => [t, { provider: 'azure', map: scaleSet }])),
});
