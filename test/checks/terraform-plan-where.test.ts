/**
 * Where a plan's VMs run: a VM that gives no zone of its own runs where its provider configuration says
 * (`configuration.provider_config`, https://developer.hashicorp.com/terraform/internals/json-format), as the .tf
 * reading of the same configuration says; a default written but not known is said, never replaced by another.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, joinTfFiles, parseTerraformPlan, terraformFilesFrontEnd, type HclParse } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

interface PlanResourceInput {
  type: string;
  name: string;
  values: object;
  expressions?: object;
  /** The module it is in (`module.db`), root when absent. */
  module?: string;
  /** Its provider_config_key, by default the type's provider's (module-prefixed in a module). */
  key?: string;
}

/** A plan of the documented shape: resources (root or one module down), provider configurations and variables. */
function plan(
  resources: PlanResourceInput[],
  providers: Record<string, object>,
  extra: { variables?: object; calls?: Record<string, object> } = {},
): string {
  const planned = (rs: PlanResourceInput[]) =>
    rs.map((r) => ({
      address: `${r.module ? `${r.module}.` : ''}${r.type}.${r.name}`,
      mode: 'managed',
      type: r.type,
      name: r.name,
      values: r.values,
    }));
  const configured = (rs: PlanResourceInput[]) =>
    rs.map((r) => ({
      address: `${r.type}.${r.name}`,
      mode: 'managed',
      type: r.type,
      name: r.name,
      provider_config_key: r.key ?? r.type.split('_')[0],
      expressions: r.expressions ?? {},
    }));
  const modules = [...new Set(resources.map((r) => r.module).filter((m): m is string => !!m))];
  const inModule = (m?: string) => resources.filter((r) => r.module === m);
  return JSON.stringify(
    {
      format_version: '1.2',
      terraform_version: '1.9.8',
      variables: extra.variables,
      planned_values: {
        root_module: {
          resources: planned(inModule(undefined)),
          child_modules: modules.map((m) => ({ address: m, resources: planned(inModule(m)) })),
        },
      },
      configuration: {
        provider_config: providers,
        root_module: {
          resources: configured(inModule(undefined)),
          module_calls: Object.fromEntries(
            modules.map((m) => [
              m.slice('module.'.length),
              { source: './vm', ...extra.calls?.[m], module: { resources: configured(inModule(m)) } },
            ]),
          ),
        },
      },
    },
    null,
    2,
  );
}

const EC2 = {
  type: 'aws_instance',
  name: 'db',
  values: {
    instance_type: 'm5.xlarge',
    root_block_device: [{ volume_type: 'gp3', volume_size: 500 }],
    tags: { Name: 'db' },
  },
};
const aws = (expressions: object) => ({ aws: { name: 'aws', full_name: 'registry.terraform.io/hashicorp/aws', expressions } });
const runPlan = (text: string) => {
  const a = analyze(text, { frontEnd: parseTerraformPlan });
  return { a, r: fileReport('plan.json', a) };
};

describe("terraform plan: the provider configuration's region and zone", () => {
  it("an AWS instance with no availability zone is priced in its provider's region, as the .tf reading of it is", () => {
    const { r } = runPlan(plan([EC2], aws({ region: { constant_value: 'eu-west-1' } })));
    assert.equal(r.vms[0].region, 'eu-west-1');
    assert.equal(r.region, 'eu-west-1');
    const tf = `provider "aws" {
  region = "eu-west-1"
}
resource "aws_instance" "db" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "m5.xlarge"
  tags = {
    Name = "db"
  }
  root_block_device {
    volume_type = "gp3"
    volume_size = 500
  }
}
`;
    const files = [{ path: 'main.tf', text: tf }];
    const fromTf = fileReport('main.tf', analyze(joinTfFiles(files).text, { frontEnd: terraformFilesFrontEnd(parse, files) }));
    assert.equal(fromTf.vms[0].region, 'eu-west-1');
    // One configuration, one price: the plan and the .tf files agree (both in eu-west-1's prices, not us-east-1's).
    assert.equal(r.monthly_cost, fromTf.monthly_cost);
    const usEast = runPlan(plan([EC2], aws({ region: { constant_value: 'us-east-1' } }))).r;
    assert.notEqual(r.monthly_cost, usEast.monthly_cost);
  });

  it("a provider region written as a root variable is the variable's value in the plan", () => {
    const { r } = runPlan(plan([EC2], aws({ region: { references: ['var.region'] } }), { variables: { region: { value: 'us-west-2' } } }));
    assert.equal(r.vms[0].region, 'us-west-2');
  });

  it("a module's instance: the default configuration it inherits, or the module's own, whose variable its call passes", () => {
    const inherited = runPlan(
      plan([{ ...EC2, module: 'module.db', key: 'module.db:aws' }], aws({ region: { constant_value: 'eu-central-1' } })),
    ).r;
    assert.equal(inherited.vms[0].region, 'eu-central-1');
    const own = runPlan(
      plan(
        [{ ...EC2, module: 'module.db', key: 'module.db:aws' }],
        {
          ...aws({ region: { constant_value: 'eu-central-1' } }),
          'module.db:aws': { name: 'aws', module_address: 'module.db', expressions: { region: { references: ['var.region'] } } },
        },
        { calls: { 'module.db': { expressions: { region: { constant_value: 'ap-northeast-1' } } } } },
      ),
    ).r;
    assert.equal(own.vms[0].region, 'ap-northeast-1');
  });

  it('a provider region the plan does not give is said, and the costs left out: never a default region', () => {
    const { a, r } = runPlan(plan([EC2], aws({ region: { references: ['data.aws_region.current.name', 'data.aws_region.current'] } })));
    const said = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value');
    assert.equal(said.length, 1);
    assert.match(
      said[0].message,
      /^aws_instance\.db's region is not known: aws's region is data\.aws_region\.current\.name, which the plan does not give\. Its costs are left out/,
    );
    assert.equal(r.vms[0].region, undefined);
    assert.equal(r.vms[0].monthly_cost_complete, false);
    assert.equal(r.monthly_cost_complete, false);
    assert.ok(!a.diagnostics.some((d) => d.code === 'unknown-region' || d.code === 'unpriced-region'));
    // Its figures are still given: only where it is priced is unknown.
    assert.equal(r.vms[0].disks[0].read_iops, 3000);
  });

  it("google: a VM the plan gives no zone runs in the provider's zone; one whose own zone is unknown is said", () => {
    const gce = (expressions: object = {}) => ({
      type: 'google_compute_instance',
      name: 'db',
      values: { name: 'db', machine_type: 'n2-standard-4', boot_disk: [{ initialize_params: [{ size: 50, type: 'pd-balanced' }] }] },
      expressions,
    });
    const google = { google: { name: 'google', expressions: { zone: { constant_value: 'europe-west4-b' } } } };
    assert.equal(runPlan(plan([gce()], google)).r.vms[0].region, 'europe-west4');
    const { a, r } = runPlan(plan([gce({ zone: { references: ['data.google_compute_zones.up.names'] } })], google));
    assert.equal(r.vms[0].region, undefined);
    assert.match(
      a.diagnostics.find((d) => d.code === 'terraform-unknown-value')!.message,
      /^google_compute_instance\.db's region is not known: its zone is known only after apply/,
    );
    // Said on the zone that is not known, not on the VM's address.
    const text = plan([gce({ zone: { references: ['data.google_compute_zones.up.names'] } })], google);
    const said = analyze(text, { frontEnd: parseTerraformPlan }).diagnostics.find((d) => d.code === 'terraform-unknown-value')!;
    assert.match(text.slice(said.span.start, said.span.end), /^\{\s*"references": \[\s*"data\.google_compute_zones\.up\.names"/);
  });

  it('.tf files: a provider region given no value is said the same way, and no region is made up', () => {
    const files = [
      {
        path: 'main.tf',
        text: `variable "region" {
  type = string
}
provider "aws" {
  region = var.region
}
resource "aws_instance" "db" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "m5.xlarge"
  root_block_device {
    volume_type = "gp3"
    volume_size = 500
  }
}
`,
      },
    ];
    const a = analyze(joinTfFiles(files).text, { frontEnd: terraformFilesFrontEnd(parse, files) });
    const r = fileReport('main.tf', a);
    assert.equal(r.vms[0].region, undefined);
    assert.equal(r.monthly_cost_complete, false);
    assert.match(
      a.diagnostics.find((d) => d.code === 'terraform-unknown-value')!.message,
      /^aws_instance\.db's region is not known: aws's region is var\.region, which is unknown until plan/,
    );
  });
});

describe('terraform plan: disks matched to attachments by zone and name', () => {
  // As a gcloud export writes them: one disk name in two zones, attached by self link.
  const disk = (tfName: string, zone: string, size: number) => ({
    type: 'google_compute_disk',
    name: tfName,
    values: { name: 'data', zone, type: 'pd-ssd', size, project: 'acme' },
  });
  const vm = (zone: string, source: string) => ({
    type: 'google_compute_instance',
    name: 'db',
    values: {
      name: 'db',
      zone,
      machine_type: 'n2-standard-8',
      boot_disk: [{ initialize_params: [{ size: 20, type: 'pd-balanced' }] }],
      attached_disk: [{ source }],
    },
  });
  const DISKS = [disk('data_a', 'us-central1-a', 10), disk('data_b', 'us-central1-b', 800)];
  const google = { google: { name: 'google' } };
  const dataDisk = (r: ReturnType<typeof runPlan>['r']) => r.vms[0].disks.find((d) => d.name !== 'google_compute_instance.db.boot_disk');

  it('a self link names the disk of its zone, never the one of the same name in another zone', () => {
    const link = 'https://www.googleapis.com/compute/v1/projects/acme/zones/us-central1-b/disks/data';
    const { a, r } = runPlan(plan([...DISKS, vm('us-central1-b', link)], google));
    assert.equal(dataDisk(r)?.name, 'google_compute_disk.data_b');
    assert.equal(dataDisk(r)?.size_gib, 800);
    assert.equal(r.monthly_cost_complete, true);
    // The other one is attached to no VM, and said so.
    assert.deepEqual(
      (r.unattached_disks ?? []).map((d) => d.name),
      ['google_compute_disk.data_a'],
    );
    assert.ok(!a.diagnostics.some((d) => /not created in this plan/.test(d.message)));
  });

  it("a bare name is the disk in the instance's own zone", () => {
    const { r } = runPlan(plan([...DISKS, vm('us-central1-a', 'data')], google));
    assert.equal(dataDisk(r)?.name, 'google_compute_disk.data_a');
  });

  it("a link to a zone where no disk of that name is created: not taken for another zone's disk", () => {
    const link = 'projects/acme/zones/us-central1-c/disks/data';
    const { r } = runPlan(plan([disk('data_b', 'us-central1-b', 800), vm('us-central1-c', link)], google));
    assert.equal(dataDisk(r)?.size_gib, null);
    assert.equal(r.monthly_cost_complete, false);
  });

  it('google_compute_attached_disk by self links: the disk and the instance of its zone', () => {
    const attachment = {
      type: 'google_compute_attached_disk',
      name: 'data',
      values: {
        zone: 'us-central1-b',
        disk: 'projects/acme/zones/us-central1-b/disks/data',
        instance: 'projects/acme/zones/us-central1-b/instances/db',
      },
    };
    const bare = vm('us-central1-b', 'unused');
    const instance = { ...bare, values: { ...bare.values, attached_disk: [] } };
    const { r } = runPlan(plan([...DISKS, instance, attachment], google));
    assert.equal(dataDisk(r)?.name, 'google_compute_disk.data_b');
  });
});
