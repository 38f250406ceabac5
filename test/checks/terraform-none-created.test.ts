/**
 * A resource that runs VMs with a `count` or `for_each` of 0, or in a module called with one: Terraform creates
 * none of it with these values. The report says so (`terraform.without_instances`), as the plan's configuration
 * says it (a resource written there with no instance planned), so that such a resource is neither silently absent
 * nor "not read"; and a configuration that creates no VM says why rather than "has no VM storage-perf reads".
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, joinTfFiles, parseTerraformPlan, terraformFilesFrontEnd, type HclParse, type TfFile } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { planText } from '../helpers';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

function run(files: TfFile[]) {
  const { text } = joinTfFiles(files);
  const a = analyze(text, { frontEnd: terraformFilesFrontEnd(parse, files) });
  return { a, r: fileReport('main.tf', a) };
}

const VM = `
  ami           = "ami-1"
  instance_type = "m5.large"
  availability_zone = "us-east-1a"
  root_block_device {
    volume_type = "gp3"
    volume_size = 20
  }`;

describe('terraform: resources of which no instance is created', () => {
  it('lists a resource whose count is 0 with these values, and not one whose count is unknown or 1', () => {
    const { a, r } = run([
      {
        path: 'main.tf',
        text: `variable "create" { default = false }
variable "n" {}
resource "aws_instance" "off" {
  count = var.create ? 1 : 0
${VM}
}
resource "aws_instance" "on" {
${VM}
}
resource "aws_instance" "later" {
  count = var.n
${VM}
}
`,
      },
    ]);
    assert.deepEqual(r.terraform?.without_instances, ['aws_instance.off']);
    assert.deepEqual(
      r.vms.map((v) => v.name),
      ['aws_instance.on'],
    );
    assert.ok(r.monthly_cost_missing.includes("aws_instance.later's instances, unknown until plan"), r.monthly_cost_missing.join('; '));
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-no-instances'));
  });

  it('lists the VM resources of a module called with a for_each of {}, and says why the configuration has no VM', () => {
    const { a, r } = run([
      {
        path: 'main.tf',
        text: `variable "items" { default = {} }
module "wrapper" {
  source   = "./vm"
  for_each = var.items
}
`,
      },
      { path: 'vm/main.tf', text: `resource "aws_instance" "this" {\n${VM}\n}\nresource "aws_security_group" "sg" {}\n` },
    ]);
    assert.deepEqual(r.terraform?.without_instances, ['module.wrapper.aws_instance.this']);
    const none = a.diagnostics.filter((d) => d.code === 'terraform-no-instances');
    assert.equal(none.length, 1);
    assert.match(none[0].message, /^no VM is created with these values \(a count or for_each of 0\): module\.wrapper\.aws_instance\.this;/);
  });

  it('reads the same from a plan: a VM resource written in the configuration with no instance planned', () => {
    const plan = JSON.parse(
      planText([{ type: 'aws_instance', name: 'on', values: { instance_type: 'm5.large', availability_zone: 'us-east-1a' } }]),
    );
    plan.configuration.root_module.resources.push({
      address: 'aws_instance.off',
      mode: 'managed',
      type: 'aws_instance',
      name: 'off',
      provider_config_key: 'aws',
      expressions: { instance_type: { constant_value: 'm5.large' } },
      count_expression: { references: ['var.create'] },
      schema_version: 1,
    });
    plan.configuration.root_module.resources.push({
      address: 'data.aws_instance.existing',
      mode: 'data',
      type: 'aws_instance',
      name: 'existing',
      provider_config_key: 'aws',
      expressions: {},
      schema_version: 1,
    });
    const r = fileReport('plan.json', analyze(JSON.stringify(plan), { frontEnd: parseTerraformPlan }));
    assert.deepEqual(r.terraform?.without_instances, ['aws_instance.off']);
  });
});
