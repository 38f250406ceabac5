/**
 * AWS resources as VMs and disks of the spec: aws_instance (instance_type; its root_block_device,
 * ebs_block_device and ephemeral_block_device blocks), aws_ebs_volume, joined to an instance by
 * aws_volume_attachment, and aws_launch_template (instance_type; block_device_mappings, each an EBS volume or an
 * instance store volume) and aws_launch_configuration (an instance's blocks), each read as one instance of it. The
 * availability_zone (a template's placement) gives the
 * region it is priced in. Instance store volumes (`virtual_name = "ephemeral0"`) are one disk of the spec's
 * `instance-store` type, the instance type's volumes together, as AWS states their figures; a `no_device` block
 * is not a disk. Terraform's volume types, sizes (GiB), IOPS and
 * throughput (MiB/s) are the spec's. The AWS provider takes `iops` only for gp3, io1 and io2 and `throughput`
 * only for gp3 (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ebs_volume); a value
 * a plan carries for another type (a gp2 volume's computed IOPS) is AWS's own figure, not a setting, and is
 * not read.
 */
import type { Node } from 'jsonc-parser';
import { at, flagSet, items, keyOf, located, span, spotWhere, str } from './json';
import {
  Args,
  byId,
  diskBasics,
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
import { Located, map, type SpecMap } from './spec-tree';
import { withoutInheritance } from '../own-keys';

/** Resource types read only through the instances that use them. */
export const AWS_DISK_RESOURCES = ['aws_ebs_volume', 'aws_volume_attachment'];

const IOPS_TYPES = new Set(['gp3', 'io1', 'io2']);
const THROUGHPUT_TYPES = new Set(['gp3']);
/** The device names AMIs give their root volume (Amazon Linux and most others: /dev/xvda; Ubuntu, Windows: /dev/sda1). */
const ROOT_DEVICES = new Set(['/dev/xvda', '/dev/sda1']);
const mibps = (v: number) => `${v}MiB/s`;

/** A volume's `iops` and `throughput` settings (aws_ebs_volume and the block devices name them alike), for the types that take them. */
function settings(values: Node | undefined, type: Located, args: Args) {
  const t = String(type.value);
  return {
    provisioned_iops: IOPS_TYPES.has(t) ? args.amount(at(values, 'iops')) : undefined,
    provisioned_throughput: THROUGHPUT_TYPES.has(t) ? args.amount(at(values, 'throughput'), mibps) : undefined,
  };
}

function volumeResource(d: PlanResource, ctx: PlanContext): SpecMap {
  const args = new Args(ctx, d.address);
  const { basics, leftOut } = diskBasics(d, ctx, args);
  const resource_name = located(at(d.values, 'tags', 'Name'));
  if (!basics) return map(leftOut.span, { ...leftOut.fields, resource_name });
  return map(d.values ? span(d.values) : d.addressSpan, {
    ...basics,
    resource_name,
    ...settings(d.values, basics.type, args),
    ...args.leftOut(d.addressSpan),
  });
}

/**
 * A root_block_device or ebs_block_device block: a volume written inline, named after its block; left out with why
 * when its type or size is not known here.
 */
function blockDevice(name: string, block: Node, ctx: PlanContext): SpecMap {
  const where = block.parent ?? block;
  const place = keyOf(where) ?? span(where);
  const args = new Args(ctx, name);
  const type = located(at(block, 'volume_type'));
  const size = args.number(at(block, 'volume_size'));
  if (args.refused.length) return leftOutDisk(name, place, args.refused.join('; '), { type });
  if (!type || !size) {
    const missing = !type ? 'volume_type' : 'volume_size';
    ctx.report(
      'terraform-unknown-value',
      `${name}'s ${missing} is known only after apply (not set here): set it to see its figures`,
      place,
    );
    return leftOutDisk(name, place, `${name}'s ${missing} is ${ctx.afterApply}`, { type, size });
  }
  return map(span(block), {
    name: new Located(name, place),
    type,
    size,
    ...settings(block, type, args),
    ...args.leftOut(place),
  });
}

/** What a total lacks for a root volume the AMI gives. */
const amiRoot = (res: PlanResource) => `${res.address}'s root volume is the AMI's, its type and size unknown here`;

/** `no_device` suppresses a device of the AMI: a boolean on an instance's blocks, a string on a launch template's. */
const noDevice = flagSet;

/**
 * Instance store volumes named by block device mappings (ephemeral_block_device, or a template's mappings with a
 * virtual_name): one disk of the instance type's store, all its volumes together, placed on the first block.
 */
function instanceStore(name: string, blocks: Node[]): SpecMap | undefined {
  const first = blocks.find((b) => !noDevice(at(b, 'no_device')));
  if (!first) return undefined;
  const place = keyOf(first.parent ?? first) ?? span(first);
  return map(span(first), { name: new Located(name, place), type: new Located('instance-store', place) });
}

/** aws_volume_attachment resources by the instance they attach to, read once per plan. */
const attachments = new WeakMap<PlanContext, Map<PlanResource, PlanResource[]>>();
function attachmentsOf(ctx: PlanContext): Map<PlanResource, PlanResource[]> {
  let m = attachments.get(ctx);
  if (m) return m;
  m = new Map();
  for (const a of ctx.ofType('aws_volume_attachment')) {
    const target = byId(ctx, 'aws_instance', str(at(a.values, 'instance_id'))) ?? ctx.referenced(a, ['instance_id']);
    if (target) push(m, target, a);
    else
      ctx.report(
        'terraform-unknown-value',
        `${a.address}'s instance is known only after apply, or not created in this plan: its volume is left out`,
        a.addressSpan,
      );
  }
  attachments.set(ctx, m);
  return m;
}

/**
 * The disks an instance's (or a launch configuration's) blocks write: root_block_device, each ebs_block_device,
 * and the ephemeral_block_device blocks as its instance store.
 */
function blockDisks(res: PlanResource, ctx: PlanContext): SpecMap[] {
  const v = res.values;
  const specs: SpecMap[] = [];
  const root = at(v, 'root_block_device', 0);
  const rootName = `${res.address}.root_block_device`;
  if (root) specs.push(blockDevice(rootName, root, ctx));
  // Every instance has a root volume: without the block, its type and size come from the AMI (or are computed).
  // It is listed as left out, so that the instance's total says it lacks it.
  else {
    ctx.report(
      'terraform-unknown-value',
      `${res.address}'s root volume is not set here (its type and size come from the AMI): it is left out of the figures; set root_block_device to include it`,
      res.addressSpan,
    );
    specs.push(leftOutDisk(rootName, res.addressSpan, amiRoot(res)));
  }
  items(at(v, 'ebs_block_device')).forEach((b) => {
    const device = str(at(b, 'device_name'));
    specs.push(blockDevice(`${res.address}.ebs_block_device${device ? `["${device}"]` : ''}`, b, ctx));
  });
  const store = instanceStore(`${res.address}.ephemeral_block_device`, items(at(v, 'ephemeral_block_device')));
  if (store) specs.push(store);
  return specs;
}

/**
 * An aws_launch_configuration, the older kind of template an Auto Scaling group runs, as one instance of it
 * (./groups.ts prices it as the instances its group runs): its instance_type and the same blocks as an instance's.
 * A `spot_price` runs Spot instances (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/launch_configuration).
 */
function launchConfiguration(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const v = res.values;
  const machine = machineField(res, ctx, 'instance_type');
  if (!machine) return undefined;
  return instanceVm(
    res,
    {
      resource_name: located(at(v, 'name')) ?? located(at(v, 'name_prefix')),
      fields: {
        machine_type: machine,
        pricing: spotWhere(at(v, 'spot_price'), (x) => String(x) !== ''),
      },
      disks: blockDisks(res, ctx),
    },
    [],
    undefined,
  );
}

function instance(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const v = res.values;
  const machine = machineField(res, ctx, 'instance_type');
  if (!machine) return undefined;
  const specs = blockDisks(res, ctx);
  const resources: PlanResource[] = [];
  for (const a of attachmentsOf(ctx).get(res) ?? []) {
    const volume = byId(ctx, 'aws_ebs_volume', str(at(a.values, 'volume_id'))) ?? ctx.referenced(a, ['volume_id']);
    if (!volume) {
      ctx.report(
        'terraform-unknown-value',
        `${a.address}'s volume is known only after apply, or not created in this plan: it is left out of ${res.address}'s figures`,
        a.addressSpan,
      );
      const why = `${a.address}'s volume is ${ctx.afterApply}, or not created in this plan`;
      specs.push(leftOutDisk(a.address, a.addressSpan, why));
      continue;
    }
    if (resources.includes(volume)) continue;
    resources.push(volume);
    specs.push(volumeResource(volume, ctx));
  }
  return instanceVm(
    res,
    {
      resource_name: located(at(v, 'tags', 'Name')),
      fields: {
        machine_type: machine,
        // A Spot instance (market options, or a Spot request): its price is not the on-demand one.
        pricing:
          res.type === 'aws_spot_instance_request'
            ? new Located('spot', res.addressSpan)
            : spotWhere(at(v, 'instance_market_options', 0, 'market_type'), (x) => String(x).toLowerCase() === 'spot'),
      },
      disks: specs,
    },
    resources,
    located(at(v, 'availability_zone')),
  );
}

/**
 * An aws_launch_template as one instance of it (./plan.ts prices a template at nothing): its instance_type and
 * block_device_mappings, each an EBS volume (`ebs` block), an instance store volume (`virtual_name`) or a device
 * the template suppresses (`no_device`).
 */
function launchTemplate(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const v = res.values;
  const machine = located(at(v, 'instance_type'));
  if (!machine) {
    ctx.report(
      'terraform-unknown-value',
      `${res.address}'s instance_type is not set here (one given where the template is used is not read): its figures are left out`,
      res.addressSpan,
    );
    return undefined;
  }
  const specs: SpecMap[] = [];
  const stores: Node[] = [];
  const mappings = items(at(v, 'block_device_mappings'));
  for (const m of mappings) {
    if (noDevice(at(m, 'no_device'))) continue;
    const device = str(at(m, 'device_name'));
    const ebs = at(m, 'ebs', 0);
    if (ebs) specs.push(blockDevice(`${res.address}.block_device_mappings${device ? `["${device}"]` : ''}`, ebs, ctx));
    else if (str(at(m, 'virtual_name'))) stores.push(m);
  }
  // Without an EBS mapping of a root device name, the root volume is the AMI's: left out, as on an instance
  // without root_block_device (AMIs name their root /dev/xvda or /dev/sda1).
  if (!mappings.some((m) => at(m, 'ebs', 0) && ROOT_DEVICES.has(str(at(m, 'device_name')) ?? ''))) {
    ctx.report(
      'terraform-unknown-value',
      `${res.address}'s root volume is not set here (its type and size come from the AMI): it is left out of the figures; map its root device (/dev/xvda or /dev/sda1) with an ebs block to include it`,
      res.addressSpan,
    );
    specs.push(leftOutDisk(`${res.address}.root_volume`, res.addressSpan, amiRoot(res)));
  }
  const store = instanceStore(`${res.address}.block_device_mappings`, stores);
  if (store) specs.push(store);
  return instanceVm(
    res,
    {
      resource_name: located(at(v, 'name')) ?? located(at(v, 'name_prefix')),
      fields: {
        machine_type: machine,
        pricing: spotWhere(at(v, 'instance_market_options', 0, 'market_type'), (x) => String(x).toLowerCase() === 'spot'),
      },
      disks: specs,
    },
    [],
    located(at(v, 'placement', 0, 'availability_zone')),
  );
}

/** The disk resources that exist apart from an instance, as disks of the spec (unattached ones are priced apart). */
export const AWS_DISK_MAPPERS: Record<string, DiskMapper> = withoutInheritance({
  aws_ebs_volume: { provider: 'aws', map: volumeResource },
});

export const AWS_MAPPERS: Record<string, VmMapper> = withoutInheritance({
  aws_launch_template: { provider: 'aws', map: launchTemplate },
  aws_launch_configuration: { provider: 'aws', map: launchConfiguration },
  aws_instance: { provider: 'aws', map: instance },
  // A Spot request runs an instance of the same arguments (instance_type, root_block_device, ...).
  aws_spot_instance_request: { provider: 'aws', map: instance },
});
