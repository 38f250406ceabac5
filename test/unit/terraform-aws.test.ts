/**
 * The Terraform plan front end on AWS resources: aws_instance (instance_type, availability_zone,
 * root_block_device, ebs_block_device), aws_ebs_volume and aws_volume_attachment. The plans follow Terraform's
 * documented JSON output format, https://developer.hashicorp.com/terraform/internals/json-format:
 * `format_version`, `planned_values.root_module` with `resources` and `child_modules`, `resource_changes`, and
 * `configuration` whose expressions carry `references`; unknown values (the ids of resources the plan creates)
 * are left out of `planned_values`. Attribute names are the AWS provider's
 * (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance, .../ebs_volume,
 * .../volume_attachment).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { planText, type PlanResourceInput } from '../helpers';
import { analyze, fileReport, parseTerraformPlan } from '../../core/src';

const PLANS = resolve(__dirname, '../../../test/fixtures/terraform/plans');
const awsText = readFileSync(join(PLANS, 'aws.json'), 'utf8');
const run = (text: string) => analyze(text, { frontEnd: parseTerraformPlan });
const covered = (text: string, d: { span: { start: number; end: number } }) => text.slice(d.span.start, d.span.end);

const ec2 = (name: string, values: object): PlanResourceInput => ({
  type: 'aws_instance',
  name,
  values: { instance_type: 'm6i.xlarge', availability_zone: 'us-east-1a', ...values },
});

describe('terraform plans: AWS', () => {
  const a = run(awsText);
  const report = fileReport('plan.json', a);
  const vm = (address: string) => report.vms.find((v) => v.name === address)!;

  it('names instances by address and their Name tag; other types are counted', () => {
    assert.deepEqual(
      report.vms.map((v) => [v.name, v.resource_name, v.machine_type]),
      [
        ['aws_instance.app', 'app', 'c6i.xlarge'],
        ['aws_instance.cache', 'cache', 'r6i.large'],
        ['aws_instance.node[0]', 'node-0', 'r5b.2xlarge'],
        ['aws_instance.node[1]', 'node-1', 'r5b.2xlarge'],
        ['module.db.aws_instance.primary', 'db-primary', 'm6i.2xlarge'],
      ],
    );
    assert.deepEqual(report.terraform, {
      resources: 12,
      ignored_resources: 1,
      ignored_types: { aws_security_group: 1 },
      without_instances: [],
    });
    assert.equal(a.catalog?.edition, 'aws-2025');
  });

  it('root_block_device and ebs_block_device are disks of the instance, with their IOPS', () => {
    const p = vm('module.db.aws_instance.primary');
    assert.deepEqual(
      p.disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['module.db.aws_instance.primary.root_block_device', 'gp3', 50],
        ['module.db.aws_instance.primary.ebs_block_device["/dev/sdf"]', 'io2', 500],
      ],
    );
    const io2 = a.vms.find((v) => v.spec.name === 'module.db.aws_instance.primary')!.spec.disks[1];
    assert.equal(io2.provisioned_iops, 40000);
  });

  it('a volume created in the plan joins its instance through the attachment’s configuration references', () => {
    const d = vm('aws_instance.app').disks.find((x) => x.name === 'aws_ebs_volume.data')!;
    assert.equal(d.resource_name, 'app-data');
    const spec = a.vms.find((v) => v.spec.name === 'aws_instance.app')!.spec.disks.find((x) => x.name === 'aws_ebs_volume.data')!;
    assert.deepEqual([spec.type, spec.size_gib, spec.provisioned_iops, spec.provisioned_mibps], ['gp3', 1000, 6000, 500]);
  });

  it("each instance is priced in its availability zone's region", () => {
    assert.equal(vm('aws_instance.app').region, 'eu-central-1');
    assert.equal(vm('module.db.aws_instance.primary').region, 'us-east-1');
    // On demand, 730 hours a month: c6i.xlarge is $0.17 an hour in us-east-1 and $0.194 in eu-central-1.
    assert.equal(vm('aws_instance.app').machine_type, 'c6i.xlarge');
    assert.equal(vm('aws_instance.app').machine_monthly_cost!.toFixed(2), (0.194 * 730).toFixed(2));
    assert.equal(vm('aws_instance.app').monthly_cost_complete, true);
    // Its root volume's size is the AMI's: the instance's total lacks it, and says so.
    assert.equal(vm('aws_instance.cache').monthly_cost_complete, false);
    assert.deepEqual(vm('aws_instance.cache').monthly_cost_missing, [
      "aws_instance.cache.root_block_device's volume_size is known only after apply",
    ]);
  });

  it('a volume attached to several instances (count.index attachments) is one shared-disk finding', () => {
    const shared = a.diagnostics.filter((x) => x.code === 'terraform-shared-disk');
    assert.equal(shared.length, 1);
    assert.equal(covered(awsText, shared[0]), '"aws_ebs_volume.shared"');
    for (const n of ['aws_instance.node[0]', 'aws_instance.node[1]'])
      assert.ok(
        vm(n).disks.some((d) => d.name === 'aws_ebs_volume.shared'),
        n,
      );
  });

  it('an unattached volume and a root volume whose size is the AMI’s: said, never guessed', () => {
    const un = a.diagnostics.find((x) => x.code === 'terraform-unattached-disk')!;
    assert.equal(covered(awsText, un), '"aws_ebs_volume.logs"');
    const unknown = a.diagnostics.find((x) => x.code === 'terraform-unknown-value')!;
    assert.match(unknown.message, /aws_instance\.cache\.root_block_device's volume_size is known only after apply/);
    // Listed without figures or price, never given a size.
    assert.deepEqual(
      vm('aws_instance.cache').disks.map((d) => [d.name, d.type, d.size_gib, d.read_iops, d.monthly_cost]),
      [['aws_instance.cache.root_block_device', 'gp3', null, null, null]],
    );
  });

  it('an instance without root_block_device: its root volume (the AMI’s) is said to be left out, not dropped silently', () => {
    const text = planText([ec2('bare', {})]);
    const a = run(text);
    const d = a.diagnostics.find((x) => x.code === 'terraform-unknown-value')!;
    assert.match(d.message, /aws_instance\.bare's root volume is not set here .*left out of the figures; set root_block_device/);
    assert.equal(covered(text, d), '"aws_instance.bare"');
    assert.equal(a.vms[0].disks.length, 0);
    // Listed without figures or price, and named by the totals, which are partial: the machine alone is not the whole.
    const r = fileReport('plan.json', a);
    assert.deepEqual(
      r.vms[0].disks.map((x) => [x.name, x.read_iops, x.monthly_cost]),
      [['aws_instance.bare.root_block_device', null, null]],
    );
    const why = "aws_instance.bare's root volume is the AMI's, its type and size unknown here";
    assert.deepEqual([r.vms[0].monthly_cost_complete, r.vms[0].monthly_cost_missing], [false, [why]]);
    assert.deepEqual([r.monthly_cost_complete, r.monthly_cost_missing], [false, [why]]);
    assert.equal(r.vms[0].monthly_cost, r.vms[0].machine_monthly_cost);
  });

  it('known ids join too; a gp2 volume’s computed IOPS is not read as a setting', () => {
    const text = planText([
      ec2('web', { id: 'i-0123', root_block_device: [{ volume_type: 'gp2', volume_size: 100, iops: 300, throughput: 0 }] }),
      {
        type: 'aws_ebs_volume',
        name: 'old',
        values: { id: 'vol-0abc', availability_zone: 'us-east-1a', size: 100, type: 'gp2', iops: 300, throughput: 0 },
      },
      { type: 'aws_volume_attachment', name: 'old', values: { device_name: '/dev/sdf', instance_id: 'i-0123', volume_id: 'vol-0abc' } },
    ]);
    const r = run(text);
    const disks = r.vms[0].spec.disks;
    assert.deepEqual(
      disks.map((d) => [d.name, d.type, d.provisioned_iops, d.provisioned_mibps]),
      [
        ['aws_instance.web.root_block_device', 'gp2', undefined, undefined],
        ['aws_ebs_volume.old', 'gp2', undefined, undefined],
      ],
    );
    assert.deepEqual(
      r.diagnostics.filter((x) => x.severity === 'error'),
      [],
    );
  });

  it("ephemeral_block_device: the instance type's instance store is one disk, on the first block that is not no_device", () => {
    // As the plan writes the blocks: a set of objects with device_name, no_device and virtual_name.
    const text = planText([
      ec2('cache', {
        instance_type: 'm6id.large',
        root_block_device: [{ volume_type: 'gp3', volume_size: 30 }],
        ephemeral_block_device: [
          { device_name: '/dev/sdb', no_device: false, virtual_name: 'ephemeral0' },
          { device_name: '/dev/sdc', no_device: true, virtual_name: '' },
        ],
      }),
      ec2('off', {
        instance_type: 'm6id.large',
        root_block_device: [{ volume_type: 'gp3', volume_size: 30 }],
        ephemeral_block_device: [{ device_name: '/dev/sdb', no_device: true, virtual_name: '' }],
      }),
    ]);
    const a = run(text);
    const r = fileReport('plan.json', a);
    const cache = r.vms.find((v) => v.name === 'aws_instance.cache')!;
    assert.deepEqual(
      cache.disks.map((d) => [d.name, d.type]),
      [
        ['aws_instance.cache.root_block_device', 'gp3'],
        ['aws_instance.cache.ephemeral_block_device', 'instance-store'],
      ],
    );
    // AWS's instance store table: m6id.large, 1 x 118 GB NVMe SSD, 33,542 / 16,771 random IOPS; part of the instance's price.
    const store = cache.disks[1];
    assert.deepEqual([store.read_iops, store.write_iops, store.read_mibps, store.monthly_cost], [33542, 16771, null, 0]);
    assert.equal(r.vms.find((v) => v.name === 'aws_instance.off')!.disks.length, 1);
    const d = a.diagnostics.find((x) => x.code === 'instance-store-unmodelled')!;
    assert.equal(covered(text, d), '"ephemeral_block_device"');
    assert.match(d.message, /^aws_instance\.cache\.ephemeral_block_device: m6id\.large's instance store: AWS gives 33,542 read/);
  });

  it('a launch template is priced as the desired_capacity instances of the Auto Scaling group whose configuration references it', () => {
    // In a plan the template's id is unknown: the group's launch_template block is joined by its configuration's references.
    const text = planText([
      {
        type: 'aws_launch_template',
        name: 'web',
        values: {
          instance_type: 'c7a.large',
          block_device_mappings: [
            { device_name: '/dev/xvda', no_device: '', virtual_name: '', ebs: [{ volume_type: 'gp3', volume_size: 20 }] },
          ],
        },
      },
      {
        type: 'aws_autoscaling_group',
        name: 'web',
        values: {
          availability_zones: ['eu-west-1a'],
          desired_capacity: 2,
          min_size: 1,
          max_size: 4,
          launch_template: [{ version: '$Latest' }],
        },
        expressions: { launch_template: [{ id: { references: ['aws_launch_template.web.id', 'aws_launch_template.web'] } }] },
      },
    ]);
    const a = run(text);
    const r = fileReport('plan.json', a);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.region, v.disks.map((d) => d.name)]),
      [['aws_launch_template.web', 'eu-west-1', ['aws_launch_template.web.block_device_mappings["/dev/xvda"]']]],
    );
    assert.match(
      a.diagnostics.find((x) => x.code === 'terraform-template')!.message,
      /priced as the 2 instances aws_autoscaling_group\.web runs$/,
    );
    assert.equal(r.monthly_cost_complete, true);
    assert.deepEqual(r.terraform, { resources: 2, ignored_resources: 0, ignored_types: {}, without_instances: [] });
  });

  it('an unknown instance type is an error on its instance_type value; an unknown one waits for apply', () => {
    const text = planText([ec2('x', { instance_type: 'm6i.huge', root_block_device: [{ volume_type: 'gp3', volume_size: 10 }] })]);
    const d = run(text).diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.severity, 'error');
    assert.equal(covered(text, d), '"m6i.huge"');
    const later = run(planText([{ type: 'aws_instance', name: 'y', values: { availability_zone: 'us-east-1a' } }]));
    assert.match(later.diagnostics.find((x) => x.code === 'terraform-unknown-value')!.message, /instance_type is known only after apply/);
    assert.equal(later.vms.length, 0);
  });
});
