/**
 * Terraform plans generated from the same records as the specs (./generate.ts), for the invariants that concern
 * Terraform input: each VM an instance (google_compute_instance, aws_instance), its disks disk resources joined to it
 * as Terraform joins them (attached_disk references, aws_volume_attachment), its local SSD scratch disks or instance
 * store; and what a configuration holds beyond that: disks attached to no VM, and disks whose size is known only
 * after apply. Plans follow Terraform's documented JSON output format,
 * https://developer.hashicorp.com/terraform/internals/json-format.
 */
import fc from 'fast-check';
import { INSTANCE_STORE, type Catalog } from '../../core/src';
import { diskArb, machinesOf, specArb, type GenDisk, type GenSpec } from './generate';

export interface GenPlan {
  spec: GenSpec;
  /** Disks the configuration creates and attaches to no VM. */
  unattached: GenDisk[];
  /** Disks (`vm/disk`, or `spareN`) whose size the plan leaves unknown: known only after apply. */
  sizeUnknown: string[];
}

interface Resource {
  type: string;
  name: string;
  values: Record<string, unknown>;
  expressions?: Record<string, unknown>;
}

const refer = (address: string) => ({ references: [`${address}.id`, address] });

/** A plan of one edition of a provider Terraform front ends read (Google's, AWS's); undefined for the others. */
export function planArb(c: Catalog): fc.Arbitrary<GenPlan> | undefined {
  if (c.provider !== 'gcp' && c.provider !== 'aws') return undefined;
  const machines = machinesOf(c).filter((m) => m.spelled.machine_type);
  if (!machines.length) return undefined;
  const volume = (name: string) =>
    fc
      .constantFrom(...machines)
      .chain(({ machine }) => diskArb(c, machine, name).filter((d) => d.type !== INSTANCE_STORE && d.count === undefined));
  return specArb(c)
    .filter((s) => s.vms.every((v) => v.machine_type !== undefined))
    .chain((spec) =>
      fc.record({
        spec: fc.constant(spec),
        unattached: fc.integer({ min: 0, max: 2 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => volume(`spare${i}`)))),
        unknown: fc.array(fc.nat(), { maxLength: 2 }),
      }),
    )
    .map(({ spec, unattached, unknown }) => {
      const all = [
        ...spec.vms.flatMap((v) => v.disks.filter((d) => d.size !== undefined).map((d) => `${v.name}/${d.name}`)),
        ...unattached.map((d) => d.name),
      ];
      return { spec, unattached, sizeUnknown: all.length ? [...new Set(unknown.map((i) => all[i % all.length]))] : [] };
    });
}

/** The plan's JSON, as `terraform show -json` writes it. */
export function toPlan(p: GenPlan, c: Catalog): string {
  const resources = c.provider === 'aws' ? awsResources(p) : gcpResources(p);
  const head = (r: Resource) => ({ address: `${r.type}.${r.name}`, mode: 'managed', type: r.type, name: r.name });
  return JSON.stringify(
    {
      format_version: '1.2',
      terraform_version: '1.9.8',
      planned_values: { root_module: { resources: resources.map((r) => ({ ...head(r), schema_version: 0, values: r.values })) } },
      configuration: { root_module: { resources: resources.map((r) => ({ ...head(r), expressions: r.expressions ?? {} })) } },
    },
    null,
    2,
  );
}

/** The size a disk resource states, unless the plan leaves it unknown. */
const sized = (p: GenPlan, key: string, d: GenDisk) => (p.sizeUnknown.includes(key) ? undefined : d.size);

function gcpDisk(p: GenPlan, key: string, name: string, d: GenDisk, zone: string | undefined): Resource {
  const regional = d.replication === 'regional';
  return {
    type: regional ? 'google_compute_region_disk' : 'google_compute_disk',
    name,
    values: {
      name,
      type: d.type,
      size: sized(p, key, d),
      provisioned_iops: d.provisioned_iops,
      provisioned_throughput: d.provisioned_throughput,
      ...(regional ? { region: zone?.replace(/-[a-z]$/, '') } : { zone }),
    },
  };
}

function gcpResources(p: GenPlan): Resource[] {
  const zone = p.spec.region && `${p.spec.region}-b`;
  const out: Resource[] = [];
  for (const vm of p.spec.vms) {
    const disks = vm.disks.filter((d) => d.count === undefined);
    const scratch = vm.disks
      .filter((d) => d.count !== undefined)
      .flatMap((d) => Array.from({ length: d.count! }, () => ({ interface: d.interface?.toUpperCase() })));
    const own = disks.map((d) => gcpDisk(p, `${vm.name}/${d.name}`, `${vm.name}_${d.name}`, d, zone));
    out.push(...own, {
      type: 'google_compute_instance',
      name: vm.name,
      values: {
        name: vm.name,
        machine_type: vm.machine_type,
        zone,
        attached_disk: own.map(() => ({ mode: 'READ_WRITE' })),
        scratch_disk: scratch,
      },
      expressions: { attached_disk: own.map((r) => ({ source: refer(`${r.type}.${r.name}`) })) },
    });
  }
  p.unattached.forEach((d) => out.push(gcpDisk(p, d.name, d.name, d, zone)));
  return out;
}

function awsVolume(p: GenPlan, key: string, name: string, d: GenDisk, zone: string | undefined): Resource {
  return {
    type: 'aws_ebs_volume',
    name,
    values: {
      availability_zone: zone,
      type: d.type,
      size: sized(p, key, d),
      iops: d.provisioned_iops,
      throughput: d.provisioned_throughput,
    },
  };
}

/** Each VM's first volume is its root_block_device; without one its root volume is the AMI's (known only after apply). */
function awsResources(p: GenPlan): Resource[] {
  const zone = p.spec.region && `${p.spec.region}a`;
  const out: Resource[] = [];
  for (const vm of p.spec.vms) {
    const [root, ...rest] = vm.disks.filter((d) => d.type !== INSTANCE_STORE);
    const store = vm.disks.some((d) => d.type === INSTANCE_STORE);
    const rootBlock = root && {
      volume_type: root.type,
      volume_size: sized(p, `${vm.name}/${root.name}`, root),
      iops: root.provisioned_iops,
      throughput: root.provisioned_throughput,
    };
    out.push({
      type: 'aws_instance',
      name: vm.name,
      values: {
        instance_type: vm.machine_type,
        availability_zone: zone,
        ...(rootBlock ? { root_block_device: [rootBlock] } : {}),
        ...(store ? { ephemeral_block_device: [{ device_name: '/dev/sdb', virtual_name: 'ephemeral0' }] } : {}),
      },
    });
    rest.forEach((d) => {
      const name = `${vm.name}_${d.name}`;
      out.push(awsVolume(p, `${vm.name}/${d.name}`, name, d, zone), {
        type: 'aws_volume_attachment',
        name,
        values: { device_name: '/dev/sdf' },
        expressions: { instance_id: refer(`aws_instance.${vm.name}`), volume_id: refer(`aws_ebs_volume.${name}`) },
      });
    });
  }
  p.unattached.forEach((d) => out.push(awsVolume(p, d.name, d.name, d, zone)));
  return out;
}
