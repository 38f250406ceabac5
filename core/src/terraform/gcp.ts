/**
 * Google resources as VMs and disks of the spec: google_compute_instance (boot disk, attached disks, local SSD
 * scratch disks), google_compute_instance_template, and the disks they use (google_compute_disk,
 * google_compute_region_disk, attached also through google_compute_attached_disk). Terraform's disk types
 * and sizes are the spec's: "pd-ssd", a size in GB that Google's pages mean as GiB.
 */
import type { Node } from 'jsonc-parser';
import { byLink, zoneOf } from './gcp-links';
import { at, isTrue, items, keyOf, located, span, spotWhere, str } from './json';
import type { Span } from '../text';
import {
  Args,
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

const DISK_TYPES = ['google_compute_disk', 'google_compute_region_disk'];
/** Resource types read only through the instances that use them. */
export const GCP_DISK_RESOURCES = [...DISK_TYPES, 'google_compute_attached_disk'];

const mibps = (v: number) => `${v}MiB/s`;
const lower = (v: string | number | boolean) => String(v).toLowerCase();

/** Collects an instance's disks and the disk resources among them. */
class Disks {
  readonly specs: SpecMap[] = [];
  readonly resources: PlanResource[] = [];
  constructor(
    readonly owner: PlanResource,
    readonly ctx: PlanContext,
  ) {}

  /**
   * A disk resource of the plan, by its known name or by the reference in the owner's configuration; one it cannot
   * find is left out under `name`, with why.
   */
  attach(source: Node | undefined, expression: Array<string | number>, where: Node, name: string): void {
    // A bare name is looked for in the instance's own zone (a template's instances run in zones not known here).
    const near =
      this.owner.type.endsWith('_instance') || this.owner.type.endsWith('_from_template') ? zoneOf(this.owner, this.ctx) : undefined;
    const disk = byLink(this.ctx, DISK_TYPES, str(source), near) ?? this.ctx.referenced(this.owner, expression);
    const attribute = expression
      .map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`))
      .join('')
      .slice(1);
    const place = keyOf(where) ?? span(where);
    const undeclared = !disk && !str(source) && this.ctx.undeclared(this.owner, expression);
    if (undeclared) {
      const message = `${this.owner.address}'s ${attribute} refers to ${undeclared}, which this configuration does not declare`;
      this.ctx.report('terraform-undeclared-reference', message, place);
      this.leftOut(name, place, `${name}'s source refers to ${undeclared}, which this configuration does not declare`);
      return;
    }
    if (!disk) {
      const what = str(source)
        ? `disk '${str(source)}' is not created in this plan, so its type and size are unknown here`
        : `${this.owner.address}'s ${attribute} is known only after apply`;
      this.ctx.report('terraform-unknown-value', `${what}: it is left out of ${this.owner.address}'s figures`, place);
      const why = str(source)
        ? `${name}: disk '${str(source)}' is not created in this plan, its type and size unknown`
        : `${name}'s source is ${this.ctx.afterApply}`;
      this.leftOut(name, place, why);
      return;
    }
    this.add(disk);
  }

  add(disk: PlanResource): void {
    if (this.resources.includes(disk)) return;
    this.resources.push(disk);
    this.specs.push(diskResource(disk, this.ctx));
  }

  /** A disk of the instance whose figures cannot be read here: listed by name with why (./plan-model.ts). */
  leftOut(name: string, place: Span, why: string, known?: Record<string, Located | undefined>): void {
    this.specs.push(leftOutDisk(name, place, why, known));
  }

  /** A disk written inline (boot disk, template disk), named after the block it is written in. */
  inline(
    name: string,
    where: Node,
    type: Node | undefined,
    size: Node | undefined,
    args: Args,
    extra: Record<string, Located | undefined> = {},
    params: Array<string | number> = [],
  ): void {
    const t = located(type);
    const s = args.number(size);
    if (args.refused.length) return this.leftOut(name, keyOf(where) ?? span(where), args.refused.join('; '), { type: t });
    if (!t || !s) {
      const missing = !t ? 'type' : 'size';
      // Written from a value not known yet: said on that attribute; not written at all: on the block.
      const written = params.length ? this.ctx.writtenAt(this.owner, [...params, missing]) : undefined;
      this.ctx.report(
        'terraform-unknown-value',
        `${name}'s ${missing} is known only after apply${written ? '' : ' (not set here)'}: set it to see its figures`,
        written ?? keyOf(where) ?? span(where),
      );
      this.leftOut(name, keyOf(where) ?? span(where), `${name}'s ${missing} is ${this.ctx.afterApply}`, { type: t, size: s });
      return;
    }
    this.specs.push(map(span(where), { name: new Located(name, keyOf(where) ?? span(where)), type: t, size: s, ...extra }));
  }

  /** Local SSD devices, one disk of the spec per interface with their count. */
  scratch(name: string, blocks: Node[], interfaceOf: (b: Node) => Node | undefined): void {
    const byInterface = new Map<string, Node[]>();
    for (const b of blocks) {
      const i = String(str(interfaceOf(b)) ?? 'SCSI').toLowerCase();
      push(byInterface, i, b);
    }
    for (const [iface, bs] of byInterface) {
      const where = span(bs[0]);
      const place = keyOf(bs[0].parent ?? bs[0]) ?? where;
      this.specs.push(
        map(where, {
          name: new Located(byInterface.size > 1 ? `${name}.${iface}` : name, place),
          type: new Located('local-ssd', place),
          count: new Located(bs.length, place),
          interface: located(interfaceOf(bs[0]), lower) ?? new Located('scsi', place),
        }),
      );
    }
  }
}

function diskResource(d: PlanResource, ctx: PlanContext): SpecMap {
  const args = new Args(ctx, d.address);
  const { basics, leftOut } = diskBasics(d, ctx, args);
  if (!basics) return leftOut;
  const v = d.values;
  return map(v ? span(v) : d.addressSpan, {
    ...basics,
    replication: d.type === 'google_compute_region_disk' ? new Located('regional', d.addressSpan) : undefined,
    ...provisioned(v, args),
    ...args.leftOut(d.addressSpan),
  });
}

/** A disk's `provisioned_iops` and `provisioned_throughput` (MiB/s), as Terraform converts them. */
function provisioned(v: Node | undefined, args: Args) {
  return {
    provisioned_iops: args.amount(at(v, 'provisioned_iops')),
    provisioned_throughput: args.amount(at(v, 'provisioned_throughput'), mibps),
  };
}

/** `pricing: spot` where the resource's `scheduling` makes it preemptible (`true`, or `"true"` as Terraform converts it) or Spot. */
function spotOf(v: Node | undefined): Located | undefined {
  const preemptible = at(v, 'scheduling', 0, 'preemptible');
  return (
    spotWhere(preemptible, () => isTrue(preemptible)) ??
    spotWhere(at(v, 'scheduling', 0, 'provisioning_model'), (x) => String(x).toUpperCase() === 'SPOT')
  );
}

function vmOf(res: PlanResource, disks: Disks, machine: Located): MappedVm {
  const v = res.values;
  return instanceVm(
    res,
    {
      resource_name: located(at(v, 'name')) ?? located(at(v, 'name_prefix')),
      // Spot and preemptible VMs: their price is not the on-demand one.
      fields: { machine_type: machine, pricing: spotOf(v) },
      disks: disks.specs,
    },
    disks.resources,
    located(at(v, 'zone')),
  );
}

function machineOf(res: PlanResource, ctx: PlanContext): Located | undefined {
  return machineField(res, ctx, 'machine_type');
}

/** An instance's `boot_disk`: the disk its `source` names, or the one its `initialize_params` create. */
function bootDisk(res: PlanResource, disks: Disks): void {
  const boot = at(res.values, 'boot_disk', 0);
  if (!boot) return;
  const params = at(boot, 'initialize_params', 0);
  if (str(at(boot, 'source')) || !params)
    disks.attach(at(boot, 'source'), ['boot_disk', 0, 'source'], boot.parent ?? boot, `${res.address}.boot_disk`);
  else {
    const args = new Args(disks.ctx, `${res.address}.boot_disk`);
    const extra = provisioned(params, args);
    disks.inline(`${res.address}.boot_disk`, boot.parent ?? boot, at(params, 'type'), at(params, 'size'), args, extra, [
      ...['boot_disk', 0, 'initialize_params', 0],
    ]);
  }
}

/** An instance's `attached_disk` blocks, each named after its place. */
function attachedDisks(res: PlanResource, disks: Disks): void {
  items(at(res.values, 'attached_disk')).forEach((a, i) =>
    disks.attach(at(a, 'source'), ['attached_disk', i, 'source'], a, `${res.address}.attached_disk[${i}]`),
  );
}

function instance(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const machine = machineOf(res, ctx);
  if (!machine) return undefined;
  const v = res.values;
  const disks = new Disks(res, ctx);
  bootDisk(res, disks);
  attachedDisks(res, disks);
  for (const a of attachmentsOf(ctx).get(res) ?? []) {
    const disk = ctx.referenced(a, ['disk']) ?? byLink(ctx, DISK_TYPES, str(at(a.values, 'disk')), zoneOf(a, ctx));
    if (disk) disks.add(disk);
    else {
      ctx.report(
        'terraform-unknown-value',
        `${a.address}'s disk is known only after apply: it is left out of ${res.address}'s figures`,
        a.addressSpan,
      );
      disks.leftOut(a.address, a.addressSpan, `${a.address}'s disk is ${ctx.afterApply}`);
    }
  }
  const scratch = items(at(v, 'scratch_disk'));
  if (scratch.length) disks.scratch(`${res.address}.scratch_disk`, scratch, (b) => at(b, 'interface'));
  return vmOf(res, disks, machine);
}

/** google_compute_attached_disk resources by the instance they name, read once per plan. */
const attachments = new WeakMap<PlanContext, Map<PlanResource, PlanResource[]>>();
function attachmentsOf(ctx: PlanContext): Map<PlanResource, PlanResource[]> {
  let m = attachments.get(ctx);
  if (m) return m;
  m = new Map();
  for (const a of ctx.ofType('google_compute_attached_disk')) {
    const target =
      ctx.referenced(a, ['instance']) ?? byLink(ctx, ['google_compute_instance'], str(at(a.values, 'instance')), zoneOf(a, ctx));
    if (target) push(m, target, a);
  }
  attachments.set(ctx, m);
  return m;
}

function template(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const machine = machineOf(res, ctx);
  if (!machine) return undefined;
  const disks = new Disks(res, ctx);
  templateDisks(res, disks, () => true);
  return vmOf(res, disks, machine);
}

type TemplateDisk = 'boot' | 'scratch' | 'attached';

/**
 * A template's `disk` blocks of the kinds asked, as disks of `into`: its boot disk (the block with `boot = true`,
 * else the first, as Google takes it), the others, and its `type = "SCRATCH"` blocks as local SSD.
 */
function templateDisks(t: PlanResource, into: Disks, wanted: (k: TemplateDisk) => boolean, named = t.address): void {
  const blocks = items(at(t.values, 'disk'));
  const marked = blocks.findIndex((b) => isTrue(at(b, 'boot')));
  const boot = marked >= 0 ? marked : 0;
  const kind = (b: Node, i: number): TemplateDisk => (str(at(b, 'type')) === 'SCRATCH' ? 'scratch' : i === boot ? 'boot' : 'attached');
  blocks.forEach((b, i) => {
    const k = kind(b, i);
    if (k === 'scratch' || !wanted(k)) return;
    if (str(at(b, 'source'))) return into.attach(at(b, 'source'), ['disk', i, 'source'], b, `${named}.disk[${i}]`);
    const args = new Args(into.ctx, `${named}.disk[${i}]`);
    into.inline(`${named}.disk[${i}]`, b, at(b, 'disk_type'), at(b, 'disk_size_gb'), args, provisioned(b, args));
  });
  const scratch = blocks.filter((b, i) => kind(b, i) === 'scratch');
  if (scratch.length && wanted('scratch')) into.scratch(`${named}.scratch_disk`, scratch, (b) => at(b, 'interface'));
}

const TEMPLATE_TYPES = ['google_compute_instance_template', 'google_compute_region_instance_template'];

/**
 * google_compute_instance_from_template: an instance of its `source_instance_template`, with what it sets itself
 * in place of the template's. As the provider builds it, its `boot_disk`, its `scratch_disk` blocks and its
 * `attached_disk` blocks each replace the template's disks of that kind only; the template's others stay.
 */
function fromTemplate(res: PlanResource, ctx: PlanContext): MappedVm | undefined {
  const t = ctx.referenced(res, ['source_instance_template']);
  const where = at(res.values, 'source_instance_template');
  if (!t || !TEMPLATE_TYPES.includes(t.type)) {
    const message = `${res.address}'s source_instance_template is not a template of this configuration: its machine and disks are unknown here`;
    ctx.report('terraform-unknown-value', message, (where && keyOf(where)) ?? res.addressSpan);
    return undefined;
  }
  const own = (k: string) => at(res.values, k, 0) !== undefined;
  // Its own machine type, even one known only after apply: then the template's is not the one it runs.
  const machine = ctx.written(res, ['machine_type']) ? machineOf(res, ctx) : machineOf(t, ctx);
  if (!machine) return undefined;
  const disks = new Disks(res, ctx);
  if (own('boot_disk')) bootDisk(res, disks);
  templateDisks(t, disks, (k) => !own(k === 'boot' ? 'boot_disk' : k === 'scratch' ? 'scratch_disk' : 'attached_disk'), res.address);
  attachedDisks(res, disks);
  const scratch = items(at(res.values, 'scratch_disk'));
  if (scratch.length) disks.scratch(`${res.address}.scratch_disk`, scratch, (b) => at(b, 'interface'));
  const vm = vmOf(res, disks, machine);
  // Spot or preemptible as the template schedules it, unless the instance sets its own scheduling.
  if (!own('scheduling')) vm.vm.fields.pricing = spotOf(t.values);
  return vm;
}

/** The disk resources that exist apart from an instance, as disks of the spec (unattached ones are priced apart). */
export const GCP_DISK_MAPPERS: Record<string, DiskMapper> = withoutInheritance({
  google_compute_disk: { provider: 'gcp', map: diskResource },
  google_compute_region_disk: { provider: 'gcp', map: diskResource },
});

export const GCP_MAPPERS: Record<string, VmMapper> = withoutInheritance({
  google_compute_instance: { provider: 'gcp', map: instance },
  google_compute_instance_template: { provider: 'gcp', map: template },
  google_compute_region_instance_template: { provider: 'gcp', map: template },
  google_compute_instance_from_template: { provider: 'gcp', map: fromTemplate },
});
