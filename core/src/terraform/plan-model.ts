/**
 * What the plan reader knows of a plan while it maps resources: each resource of `planned_values` with its
 * address, and the `configuration` expressions that tie resources together. A disk created in the same plan
 * has no known id yet (unknown values are left out of `planned_values`), so it is tied to its instance only
 * through the references of the instance's configuration; that is how Terraform itself orders them.
 */
import type { Node } from 'jsonc-parser';
import type { Span } from '../text';
import { at, items, located, span, str } from './json';
import { Located, map, seq, type SpecMap, type SpecValue } from './spec-tree';

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
  /** .tf files: the `zone`/`region` its provider configuration defaults, for a resource that gives none. */
  providerDefaults?: { zone?: Node; region?: Node };
}

/** What a mapper reports through and looks things up in. */
export interface PlanContext {
  report(code: string, message: string, at: Span): void;
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

/** Appends to the list a key holds, made on first use. */
export function push<K, V>(m: Map<K, V[]>, key: K, value: V): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

/**
 * What every disk resource gives (its address, name, type and size), or nothing when its type or size is known
 * only after apply: then a finding says so, and the disk is left out rather than given a figure.
 */
export function diskBasics(d: PlanResource, ctx: PlanContext) {
  const type = located(at(d.values, 'type'));
  const size = located(at(d.values, 'size'));
  if (!type || !size) {
    ctx.report(
      'terraform-unknown-value',
      `${d.address}'s ${!type ? 'type' : 'size'} is known only after apply: set it to see its figures`,
      d.addressSpan,
    );
    return undefined;
  }
  return { name: new Located(d.address, d.addressSpan), resource_name: located(at(d.values, 'name')), type, size };
}

/** A VM resource's machine (`field`: machine_type, instance_type); without one, a finding that its figures are left out. */
export function machineField(res: PlanResource, ctx: PlanContext, field: string): Located | undefined {
  const machine = located(at(res.values, field));
  if (!machine)
    ctx.report('terraform-unknown-value', `${res.address}'s ${field} is known only after apply: its figures are left out`, res.addressSpan);
  return machine;
}
