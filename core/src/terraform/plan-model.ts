/**
 * What the plan reader knows of a plan while it maps resources: each resource of `planned_values` with its
 * address, and the `configuration` expressions that tie resources together. A disk created in the same plan
 * has no known id yet (unknown values are left out of `planned_values`), so it is tied to its instance only
 * through the references of the instance's configuration; that is how Terraform itself orders them.
 */
import type { Node } from 'jsonc-parser';
import type { Span } from '../text';
import { argumentName, at, converted, items, located, span, str } from './json';
import { Located, map, seq, type SpecMap, type SpecValue } from './spec-tree';
import { withoutInheritance } from '../own-keys';

export interface PlanResource {
  /** The full address: module.db[0].google_compute_instance.primary["a"]. */
  address: string;
  /** The address in the configuration: module and resource indexes left out. */
  configAddress: string;
  /** The configuration address of its module, with a trailing dot ('' at the root). */
  modulePrefix: string;
  type: string;
  /** count or for_each key, when the resource has one. */
  index?: string | number;
  values?: Node;
  /** The span of its "address" value: where findings about the resource as a whole go. */
  addressSpan: Span;
  /**
   * .tf files: the address of the instance an attribute's expression names (by the attribute's path), where the
   * .tf reader evaluates it for this instance; null where it cannot be known (joined to none, never by guess);
   * undefined where the references decide.
   */
  target?(path: Array<string | number>): string | null | undefined;
  /** A plan's: why `target` gave null for an attribute (what the .tf reading says of it), for a finding on the plan. */
  unjoined?(path: Array<string | number>): string | undefined;
  /** The `zone`/`region` its provider configuration defaults, for a resource that gives none. */
  providerDefaults?: ProviderDefaults;
}

/** The defaults each provider's configuration can set, by the provider's local name (`google`, not `google.west`). */
export const PROVIDER_DEFAULTS: Readonly<Record<string, ReadonlyArray<'zone' | 'region'>>> = withoutInheritance({
  google: ['zone', 'region'],
  'google-beta': ['zone', 'region'],
  aws: ['region'],
  yandex: ['zone'],
});

/** What a provider configuration defaults, as values placed where they are written. */
export interface ProviderDefaults {
  zone?: Node;
  region?: Node;
  /** A default written but not known (`region = var.region` given no value): why, said instead of any default. */
  unknown?: string;
}

/** What a mapper reports through and looks things up in. */
export interface PlanContext {
  report(code: string, message: string, at: Span): void;
  /**
   * How a value Terraform knows only later is said in what a total lacks: "known only after apply" of a plan's,
   * "unknown until plan" of the .tf files'.
   */
  afterApply: string;
  /** The resource a reference expression names (`google_compute_disk.data.id`), if exactly one. */
  referenced(from: PlanResource, expression: Array<string | number>): PlanResource | undefined;
  /** A resource a reference expression names that the configuration does not declare (`google_compute_disk.missing`). */
  undeclared(from: PlanResource, expression: Array<string | number>): string | undefined;
  /** Resources of a type, in plan order. */
  ofType(type: string): PlanResource[];
  /** Resources of a type whose `values` has this attribute value (a disk by its `name`, its `id`). */
  withValue(type: string, attribute: string, value: string): PlanResource[];
  /** Whether the configuration writes this attribute of the resource (its value may still be unknown until apply). */
  written(from: PlanResource, path: Array<string | number>): boolean;
  /** Where the configuration writes this attribute, when it does: a finding about its unknown value goes there. */
  writtenAt(from: PlanResource, path: Array<string | number>): Span | undefined;
}

/** One mapped VM: its spec, and the disk resources it uses (for the shared-disk finding). */
export interface MappedVm {
  resource: PlanResource;
  vm: SpecMap;
  diskResources: PlanResource[];
  /** Where it runs (a zone), for the region prices are read in. */
  zone?: Located;
}

/**
 * The VM an instance resource (or template) becomes, placed on its values: named by its address, its `name` beside
 * it, then the fields its provider gives (machine, pricing) and its disks; with the disk resources they come from
 * and the zone it runs in.
 */
export function instanceVm(
  res: PlanResource,
  vm: { resource_name?: Located; fields: Record<string, SpecValue | undefined>; disks: SpecValue[] },
  diskResources: PlanResource[],
  zone: Located | undefined,
): MappedVm {
  const where = res.values ? span(res.values) : res.addressSpan;
  return {
    resource: res,
    vm: map(where, {
      name: new Located(res.address, res.addressSpan),
      resource_name: vm.resource_name,
      ...vm.fields,
      disks: seq(where, vm.disks),
    }),
    diskResources,
    zone,
  };
}

/** A mapper per disk type that exists apart from an instance: its provider and how it becomes a disk of the spec. */
export interface DiskMapper {
  provider: string;
  map(res: PlanResource, ctx: PlanContext): SpecMap;
  /** Where the disk runs, for its region, when not its `zone` or `availability_zone` (an Azure disk's `location`). */
  zone?(res: PlanResource): Located | undefined;
}

/** A mapper per instance type the front end reads: its provider and how it becomes a VM of the spec. */
export interface VmMapper {
  provider: string;
  map(res: PlanResource, ctx: PlanContext): MappedVm | undefined;
}

const INDEX = /\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]/g;

export function configAddressOf(address: string): string {
  return address.replace(INDEX, '');
}

/** The references of an expression in a configuration resource's `expressions`. */
export function referencesAt(expressions: Node | undefined, path: Array<string | number>): string[] {
  return items(at(expressions, ...path, 'references'))
    .map((n) => str(n))
    .filter((s): s is string => s !== undefined);
}

export function resourceOf(node: Node, moduleAddress: string): PlanResource | undefined {
  const addressNode = at(node, 'address');
  const address = str(addressNode);
  const type = str(at(node, 'type'));
  if (!address || !type || !addressNode || str(at(node, 'mode')) === 'data') return undefined;
  const modulePrefix = moduleAddress ? `${configAddressOf(moduleAddress)}.` : '';
  const indexNode = at(node, 'index');
  const index =
    indexNode && (indexNode.type === 'string' || indexNode.type === 'number') ? (indexNode.value as string | number) : undefined;
  return {
    address,
    configAddress: configAddressOf(address),
    modulePrefix,
    type,
    index,
    values: at(node, 'values'),
    addressSpan: span(addressNode),
  };
}

/** The region of a zone (us-central1-a → us-central1; ru-central1-b → ru-central1; AWS's us-east-1a → us-east-1). */
export function regionOf(zone: Located | undefined): string | undefined {
  return zone && (/^(.+)-[a-z]$/.exec(String(zone.value)) ?? /^(.+-\d+)[a-z]$/.exec(String(zone.value)))?.[1];
}

/**
 * The region a resource is priced in, placed where it is written: its own zone's, else the region it names itself
 * (a regional disk's), else (.tf files) its provider configuration's default zone's or region.
 */
export function regionWhere(zone: Located | undefined, res: PlanResource, own?: Located): Located | undefined {
  const defaults = zone || own ? undefined : res.providerDefaults;
  const z = zone ?? located(defaults?.zone);
  const region = regionOf(z);
  // A zone that names no region ("uscentral1a", "<project_zone>") is kept as written: the edition does not know
  // it, and says so (unknown-region), rather than the VM being priced in another VM's region or the default one.
  if (z) return new Located(region ?? String(z.value), z.span, z.key);
  return own ?? located(defaults?.region);
}

/** Appends to the list a key holds, made on first use. */
export function push<K, V>(m: Map<K, V[]>, key: K, value: V): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

/** The key under which a left-out disk's reason is kept in the built spec, read back as its `invalid` (./plan.ts). */
export const LEFT_OUT = 'left_out';

/**
 * A disk the configuration gives a VM (or creates) whose figures cannot be read here: a type or size known only after
 * apply, a disk not created in the plan, an AMI's root volume. It is kept by name with why, and with what is known of
 * it, so that it is listed without figures or price and every total it is part of names it as what it lacks.
 */
export function leftOutDisk(name: string, place: Span, why: string, known: Record<string, Located | undefined> = {}): SpecMap {
  return map(place, { name: new Located(name, place), ...known, [LEFT_OUT]: new Located(why, place) });
}

/**
 * A resource's (or one of its blocks') number and bool arguments as Terraform converts them to the provider's schema
 * (./json.ts, `converted`: `size = "100"` is 100). A value Terraform refuses is said on it (`owner`'s argument) and
 * kept in `refused`: the disk it belongs to is then left out with why (`leftOut`), never read with a value
 * Terraform would not take.
 */
export class Args {
  readonly refused: string[] = [];
  constructor(
    readonly ctx: PlanContext,
    readonly owner: string,
  ) {}

  number(n: Node | undefined): Located | undefined {
    return this.read(n, 'number');
  }

  bool(n: Node | undefined): Located | undefined {
    return this.read(n, 'bool');
  }

  /**
   * A provisioned amount (`provisioned_iops`, `iops`, `throughput`), or undefined where it is 0: the providers read 0
   * as "not set" (the type's default applies), and generated configurations write it so. `as` adds a unit.
   */
  amount(n: Node | undefined, as?: (v: number) => string): Located | undefined {
    const l = this.number(n);
    return !l || l.value === 0 ? undefined : as ? new Located(as(l.value as number), l.span, l.key) : l;
  }

  /** The reason a disk with a refused value is left out, under the key ./plan.ts marks it by; nothing otherwise. */
  leftOut(place: Span): Record<string, Located> {
    return this.refused.length ? { [LEFT_OUT]: new Located(this.refused.join('; '), place) } : {};
  }

  private read(n: Node | undefined, kind: 'number' | 'bool'): Located | undefined {
    const v = converted(n, kind);
    if (!v || v instanceof Located) return v;
    const what = `${this.owner}'s ${argumentName(n) ?? 'value'}`;
    this.ctx.report('terraform-unknown-value', `${what} is not valid: ${v.refused}; Terraform refuses it, fix the value`, v.at);
    this.refused.push(`${what} is not valid (${v.refused})`);
    return undefined;
  }
}

/**
 * What every disk resource gives (its address, name, type and size); when its type or size is known only after apply,
 * a finding says so and the disk is left out of the figures (`leftOut`), never given a figure.
 */
export function diskBasics(d: PlanResource, ctx: PlanContext, args = new Args(ctx, d.address)) {
  const type = located(at(d.values, 'type'));
  const size = args.number(at(d.values, 'size'));
  const resource_name = located(at(d.values, 'name'));
  if (args.refused.length) return { leftOut: leftOutDisk(d.address, d.addressSpan, args.refused.join('; '), { resource_name, type }) };
  if (!type || !size) {
    const missing = !type ? 'type' : 'size';
    const where = ctx.writtenAt(d, [missing]);
    const message = `${d.address}'s ${missing} is known only after apply: set it to see its figures`;
    ctx.report('terraform-unknown-value', message, where ?? d.addressSpan);
    const why = `${d.address}'s ${missing} is ${ctx.afterApply}`;
    return { leftOut: leftOutDisk(d.address, d.addressSpan, why, { resource_name, type, size }) };
  }
  return { basics: { name: new Located(d.address, d.addressSpan), resource_name, type, size } };
}

/** The one resource of a type whose `id` the plan knows to be `id`; undefined when none is, or several. */
export function byId(ctx: PlanContext, type: string, id: string | undefined): PlanResource | undefined {
  const found = id ? ctx.withValue(type, 'id', id) : [];
  return found.length === 1 ? found[0] : undefined;
}

/** A VM resource's machine (`field`: machine_type, instance_type); without one, a finding that its figures are left out. */
export function machineField(res: PlanResource, ctx: PlanContext, field: string): Located | undefined {
  const machine = located(at(res.values, field));
  if (!machine) {
    const where = ctx.writtenAt(res, [field]);
    const message = `${res.address}'s ${field} is known only after apply: its figures are left out`;
    ctx.report('terraform-unknown-value', message, where ?? res.addressSpan);
  }
  return machine;
}
