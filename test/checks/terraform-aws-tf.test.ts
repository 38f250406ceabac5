/**
 * AWS launch templates and what runs them (core/src/terraform/aws.ts, aws-groups.ts): aws_launch_template read as
 * one instance of it (instance_type, block_device_mappings with ebs blocks), as is aws_launch_configuration (an
 * instance's blocks), priced as the instances the Auto
 * Scaling groups of the configuration run from it; a scaling policy's range is said, never guessed. Code:
 * terraform-template, terraform-unknown-value; and ephemeral_block_device, an instance store (instance-store-unmodelled,
 * instance-store-unstated, no-instance-store). The configurations are written the way the public AWS modules
 * write them (terraform-aws-modules' autoscaling and ec2-instance; our own text).
 */
import * as assert from 'node:assert/strict';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';
import { find } from './helpers';

before(loadTfParser);
const run = runTf;

const PROVIDER = `
provider "aws" {
  region = "us-east-1"
}
`;
const TEMPLATE = `
resource "aws_launch_template" "web" {
  name_prefix   = "web-"
  image_id      = "ami-0abcdef1234567890"
  instance_type = "m7i-flex.large"

  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      volume_type           = "gp3"
      volume_size           = 40
      iops                  = 3000
      throughput            = 125
      delete_on_termination = true
    }
  }

  tag_specifications {
    resource_type = "instance"
    tags = { Name = "web" }
  }
}
`;
const group = (body: string) => `
resource "aws_autoscaling_group" "web" {
  name                = "web"
  vpc_zone_identifier = ["subnet-0123456789abcdef0"]
${body}
}
`;
const BY_ID = `  launch_template {
    id      = aws_launch_template.web.id
    version = "$Latest"
  }`;

describe('terraform .tf: AWS launch templates and Auto Scaling groups', () => {
  it("a launch template alone: one instance's figures from its instance_type and ebs mappings, at no price", () => {
    const { a, r } = run(PROVIDER + TEMPLATE);
    const vm = r.vms[0];
    assert.equal(vm.name, 'aws_launch_template.web');
    assert.equal(vm.machine_type, 'm7i-flex.large');
    assert.deepEqual(
      vm.disks.map((d) => [d.name, d.type, d.size_gib]),
      [['aws_launch_template.web.block_device_mappings["/dev/xvda"]', 'gp3', 40]],
    );
    // m7i-flex.large's EBS baseline (312 Mbps, 2,500 IOPS) caps the 3,000 IOPS gp3.
    assert.equal(vm.disks[0].read_iops, 2500);
    assert.deepEqual([vm.monthly_cost, vm.monthly_cost_complete], [0, true]);
    assert.equal(
      find(a, 'terraform-template').message,
      "aws_launch_template.web: a template runs nothing by itself (one instance's figures, no price)",
    );
  });

  it("'terraform-template': an Auto Scaling group's desired_capacity instances are priced, each as one instance of the template", () => {
    const one = run(PROVIDER + TEMPLATE).r.vms[0];
    const { a, r } = run(PROVIDER + TEMPLATE + group(`  desired_capacity = 3\n  min_size = 1\n  max_size = 5\n${BY_ID}`));
    const vm = r.vms[0];
    assert.equal(vm.disks[0].read_iops, 2500);
    assert.equal(vm.monthly_cost_complete, true);
    // Each instance as one is priced (in cents): m7i-flex.large $0.09576 an hour in us-east-1, 730 hours a month;
    // gp3 $0.08 per GiB-month.
    assert.equal(vm.machine_monthly_cost, (3 * Math.round(0.09576 * 730 * 100)) / 100);
    assert.equal(vm.disks[0].monthly_cost, (3 * Math.round(40 * 0.08 * 100)) / 100);
    assert.equal(one.disks[0].read_iops, vm.disks[0].read_iops);
    assert.equal(
      find(a, 'terraform-template').message,
      "aws_launch_template.web: one instance's figures; priced as the 3 instances aws_autoscaling_group.web runs",
    );
  });

  it('without desired_capacity a group runs min_size instances, as AWS starts it; a template named by name is followed too', () => {
    const byName = `  min_size = 2\n  max_size = 4\n  launch_template {\n    name    = aws_launch_template.web.name\n    version = "$Latest"\n  }`;
    const { a, r } = run(PROVIDER + TEMPLATE + group(byName));
    assert.equal(r.vms[0].machine_monthly_cost, (2 * Math.round(0.09576 * 730 * 100)) / 100);
    assert.match(find(a, 'terraform-template').message, /priced as the 2 instances aws_autoscaling_group\.web runs$/);
  });

  it("a scaling policy's range is said, never guessed: the instances are left out and the total is partial", () => {
    const policy = `
resource "aws_autoscaling_policy" "cpu" {
  name                   = "cpu-target"
  autoscaling_group_name = aws_autoscaling_group.web.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
    target_value = 50
  }
}
`;
    const { a, r } = run(PROVIDER + TEMPLATE + group(`  desired_capacity = 2\n  min_size = 2\n  max_size = 10\n${BY_ID}`) + policy);
    const vm = r.vms[0];
    assert.equal(vm.monthly_cost_complete, false);
    assert.deepEqual(vm.monthly_cost_missing, ['the 2–10 instances aws_autoscaling_policy.cpu scales aws_autoscaling_group.web to']);
    assert.match(
      find(a, 'terraform-template').message,
      /aws_autoscaling_policy\.cpu scales aws_autoscaling_group\.web to 2–10 instances by load, not in the total$/,
    );
    // The policy is read through the group: not counted as a resource storage-perf ignores.
    assert.equal(r.terraform?.ignored_types?.aws_autoscaling_policy, undefined);
  });

  it('a mixed instances policy that runs other instance types: the number of template instances is said unknown', () => {
    const mixed = `  desired_capacity = 4
  min_size = 1
  max_size = 4
  mixed_instances_policy {
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.web.id
      }
      override {
        instance_type = "c7a.large"
      }
    }
  }`;
    const { a, r } = run(PROVIDER + TEMPLATE + group(mixed));
    assert.equal(r.vms[0].monthly_cost_complete, false);
    assert.match(
      find(a, 'terraform-template').message,
      /aws_autoscaling_group\.web's instances: its mixed instances policy runs other instance types too, not in the total$/,
    );
  });

  it("a template without an ebs mapping leaves the AMI's root volume out, and one without instance_type has no figures", () => {
    const bare = `
resource "aws_launch_template" "bare" {
  name_prefix   = "bare-"
  instance_type = "t3.micro"
}
resource "aws_launch_template" "typeless" {
  name_prefix = "typeless-"
}
`;
    const { a, r, text } = run(PROVIDER + bare);
    // The AMI's root volume is listed without figures or price, never given a size: the total says it lacks it.
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.disks.map((d) => [d.name, d.size_gib, d.monthly_cost])]),
      [['aws_launch_template.bare', [['aws_launch_template.bare.root_volume', null, null]]]],
    );
    // No group runs the template: it costs nothing, its root volume included.
    assert.deepEqual([r.vms[0].monthly_cost, r.vms[0].monthly_cost_complete], [0, true]);
    const unknown = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value').map((d) => d.message);
    assert.ok(
      unknown.some((m) => /^aws_launch_template\.bare's root volume is not set here \(its type and size come from the AMI\)/.test(m)),
      unknown.join('\n'),
    );
    assert.ok(
      unknown.some((m) => /^aws_launch_template\.typeless's instance_type is not set here/.test(m)),
      unknown.join('\n'),
    );
    assert.ok(text.includes('"typeless"'));
  });
});

describe('terraform .tf: AWS instance store (ephemeral_block_device)', () => {
  const ec2 = (type: string, blocks: string) => `${PROVIDER}
resource "aws_instance" "cache" {
  ami           = "ami-0abcdef1234567890"
  instance_type = "${type}"

  root_block_device {
    volume_type = "gp3"
    volume_size = 30
    encrypted   = true
  }
${blocks}
  tags = { Name = "cache" }
}
`;
  const EPHEMERAL = `
  ephemeral_block_device {
    device_name  = "/dev/sdb"
    virtual_name = "ephemeral0"
  }
  ephemeral_block_device {
    device_name = "/dev/sdc"
    no_device   = true
  }
`;

  it("is the instance type's instance store, one disk with AWS's IOPS, on the line of the first block", () => {
    const { a, r, text } = run(ec2('m6id.large', EPHEMERAL));
    const vm = r.vms[0];
    assert.deepEqual(
      vm.disks.map((d) => [d.name, d.type, d.read_iops, d.read_mibps, d.monthly_cost]),
      [
        ['aws_instance.cache.root_block_device', 'gp3', 3000, vm.disks[0].read_mibps, vm.disks[0].monthly_cost],
        ['aws_instance.cache.ephemeral_block_device', 'instance-store', 33542, null, 0],
      ],
    );
    const d = find(a, 'instance-store-unmodelled');
    assert.equal(d.span.start, text.indexOf('ephemeral_block_device {'));
    assert.match(
      d.message,
      /^aws_instance\.cache\.ephemeral_block_device: m6id\.large's instance store: AWS gives 33,542 read and 16,771 write IOPS/,
    );
  });

  it('no_device blocks are not disks; on a type without instance store the block is the error', () => {
    const off = run(ec2('m6id.large', '  ephemeral_block_device {\n    device_name = "/dev/sdb"\n    no_device   = true\n  }\n'));
    assert.deepEqual(
      off.r.vms[0].disks.map((d) => d.type),
      ['gp3'],
    );
    const none = run(ec2('m7i-flex.large', EPHEMERAL));
    assert.match(find(none.a, 'no-instance-store').message, /m7i-flex\.large has no instance store in aws-2025/);
  });

  it('no_device in any spelling Terraform converts (true, 1, "1", "true") suppresses the block; false, 0, "0" do not', () => {
    const disks = (v: string) =>
      run(ec2('m6id.large', `  ephemeral_block_device {\n    device_name = "/dev/sdb"\n    no_device   = ${v}\n  }\n`)).r.vms[0].disks.map(
        (d) => d.type,
      );
    for (const v of ['true', '1', '"1"', '"true"', '"TRUE"']) assert.deepEqual(disks(v), ['gp3'], v);
    for (const v of ['false', '0', '"0"', '"false"']) assert.deepEqual(disks(v), ['gp3', 'instance-store'], v);
  });

  it("an HDD instance store AWS states no IOPS for (d3.xlarge) is listed without figures, in the instance's price", () => {
    const { a, r } = run(ec2('d3.xlarge', EPHEMERAL));
    const store = r.vms[0].disks[1];
    assert.deepEqual([store.type, store.read_iops, store.monthly_cost], ['instance-store', null, 0]);
    assert.match(
      find(a, 'instance-store-unstated').message,
      /d3\.xlarge's instance store \(3 × 1,980 GB .*HDD\): AWS states no IOPS for it/,
    );
  });

  it('a launch template mapping with a virtual_name is the instance store of its instance type', () => {
    const template = `${PROVIDER}
resource "aws_launch_template" "cache" {
  instance_type = "i4g.large"
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      volume_type = "gp3"
      volume_size = 20
    }
  }
  block_device_mappings {
    device_name  = "/dev/sdb"
    virtual_name = "ephemeral0"
  }
}
`;
    const vm = run(template).r.vms[0];
    // AWS's instance store table: i4g.large, 1 x 468 GB NVMe SSD, 31,250 / 25,000 random IOPS.
    assert.deepEqual(
      vm.disks.map((d) => [d.name, d.type, d.read_iops]),
      [
        ['aws_launch_template.cache.block_device_mappings["/dev/xvda"]', 'gp3', 2500],
        ['aws_launch_template.cache.block_device_mappings', 'instance-store', 31250],
      ],
    );
  });
});

describe('terraform .tf: AWS instance types the catalog lacks', () => {
  it('t1 and a family newer than the catalog are warnings, their disks listed without figures, never an error offering another family', () => {
    const ec2 = (name: string, type: string) =>
      `resource "aws_instance" "${name}" {\n  instance_type = "${type}"\n  root_block_device {\n    volume_type = "gp3"\n    volume_size = 20\n  }\n}\n`;
    const { a, r } = run(PROVIDER + ec2('legacy', 't1.micro') + ec2('next', 'm8g.large') + ec2('flex', 'm7i-flex.large'));
    const found = a.diagnostics.filter((d) => d.code === 'unmodelled-machine-type');
    assert.deepEqual(
      found.map((d) => [d.severity, d.fixes ?? []]),
      [
        ['warning', []],
        ['warning', []],
      ],
    );
    assert.ok(!a.diagnostics.some((d) => d.severity === 'error'));
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.disks[0].read_iops !== null]),
      [
        ['aws_instance.legacy', false],
        ['aws_instance.next', false],
        ['aws_instance.flex', true],
      ],
    );
    assert.equal(r.monthly_cost_complete, false);
  });
});

describe('terraform .tf.json: AWS launch templates, groups and instance store', () => {
  it('block_device_mappings, ebs, launch_template and ephemeral_block_device are blocks there too', () => {
    const json = JSON.stringify({
      provider: { aws: { region: 'us-east-1' } },
      resource: {
        aws_launch_template: {
          web: {
            instance_type: 'm7i-flex.large',
            block_device_mappings: [{ device_name: '/dev/xvda', ebs: { volume_type: 'gp3', volume_size: 40 } }],
          },
        },
        aws_autoscaling_group: {
          web: { desired_capacity: 2, min_size: 1, max_size: 3, launch_template: { id: '${aws_launch_template.web.id}' } },
        },
        aws_instance: {
          cache: {
            instance_type: 'm6id.large',
            root_block_device: { volume_type: 'gp3', volume_size: 30 },
            ephemeral_block_device: [{ device_name: '/dev/sdb', virtual_name: 'ephemeral0' }],
          },
        },
      },
    });
    const { a, r } = run(json, 'main.tf.json');
    assert.match(find(a, 'terraform-template').message, /priced as the 2 instances aws_autoscaling_group\.web runs$/);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.disks.map((d) => d.type)]),
      [
        ['aws_launch_template.web', ['gp3']],
        ['aws_instance.cache', ['gp3', 'instance-store']],
      ],
    );
  });

  it('a desired_capacity known only after apply is not min_size; a group part Spot is not priced on demand', () => {
    const lt = '  launch_template {\n    id      = aws_launch_template.web.id\n    version = "$Latest"\n  }';
    const unknown = run(
      `${PROVIDER}variable "n" { type = number }\n${TEMPLATE}${group(`  min_size = 1\n  max_size = 4\n  desired_capacity = var.n\n${lt}`)}`,
    );
    assert.equal(unknown.r.monthly_cost_complete, false);
    assert.match(find(unknown.a, 'terraform-template').message, /desired_capacity is known only after apply, not in the total$/);
    const spot = run(
      PROVIDER +
        TEMPLATE +
        group(`  min_size = 4
  max_size = 4
  mixed_instances_policy {
    instances_distribution {
      on_demand_percentage_above_base_capacity = 0
    }
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.web.id
      }
    }
  }`),
    );
    assert.equal(spot.r.monthly_cost_complete, false);
    assert.match(find(spot.a, 'terraform-template').message, /runs Spot instances, whose price is not modelled, not in the total$/);
  });

  it('a group whose launch template is not in the configuration is said, and leaves the total partial', () => {
    const { a, r } = run(
      `${PROVIDER}${TEMPLATE}${group('  min_size = 2\n  max_size = 2\n  launch_template {\n    id = "lt-0123456789abcdef0"\n  }')}`,
    );
    assert.equal(r.monthly_cost_complete, false);
    assert.ok(
      r.monthly_cost_missing.includes("aws_autoscaling_group.web's instances, template not evaluated"),
      r.monthly_cost_missing.join(' | '),
    );
    assert.ok(
      a.diagnostics.some(
        (d) => d.code === 'terraform-unknown-value' && /^aws_autoscaling_group\.web's instances are left out/.test(d.message),
      ),
    );
  });

  it("a launch template that maps a data volume only: the AMI's root volume is said to be left out", () => {
    const data = TEMPLATE.replace('device_name = "/dev/xvda"', 'device_name = "/dev/sdf"');
    const { a } = run(PROVIDER + data);
    assert.ok(a.diagnostics.some((d) => d.code === 'terraform-unknown-value' && /root volume is not set here/.test(d.message)));
    assert.ok(!run(PROVIDER + TEMPLATE).a.diagnostics.some((d) => /root volume is not set here/.test(d.message)));
  });
});

describe('terraform .tf: AWS launch configurations', () => {
  const CONFIGURATION = `
resource "aws_launch_configuration" "web" {
  name_prefix   = "web-"
  image_id      = "ami-0abcdef1234567890"
  instance_type = "m5.large"

  root_block_device {
    volume_type = "gp3"
    volume_size = 100
  }

  ebs_block_device {
    device_name = "/dev/sdf"
    volume_type = "io1"
    volume_size = 200
    iops        = 4000
  }
}
`;
  const RUNS = `  desired_capacity     = 3\n  min_size = 2\n  max_size = 4\n  launch_configuration = aws_launch_configuration.web.name`;

  it("is one instance's figures from its instance_type and blocks, priced as the desired_capacity instances its group runs", () => {
    const { a, r } = run(PROVIDER + CONFIGURATION + group(RUNS));
    const vm = r.vms[0];
    assert.equal(vm.name, 'aws_launch_configuration.web');
    assert.equal(vm.machine_type, 'm5.large');
    assert.deepEqual(
      vm.disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['aws_launch_configuration.web.root_block_device', 'gp3', 100],
        ['aws_launch_configuration.web.ebs_block_device["/dev/sdf"]', 'io1', 200],
      ],
    );
    assert.equal(vm.monthly_cost_complete, true);
    // m5.large $0.096 an hour in us-east-1, 730 hours a month, three instances (in cents).
    assert.equal(vm.machine_monthly_cost, (3 * Math.round(0.096 * 730 * 100)) / 100);
    assert.equal(
      find(a, 'terraform-template').message,
      "aws_launch_configuration.web: one instance's figures; priced as the 3 instances aws_autoscaling_group.web runs",
    );
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unknown-value'), a.diagnostics.map((d) => d.message).join(' | '));
  });

  it("a spot_price runs Spot instances, whose price is not the on-demand one; without root_block_device the AMI's root volume is said", () => {
    const spot = CONFIGURATION.replace('instance_type = "m5.large"', 'instance_type = "m5.large"\n  spot_price    = "0.05"').replace(
      / {2}root_block_device \{[^}]*\}\n/,
      '',
    );
    const { a, r } = run(PROVIDER + spot + group(RUNS));
    assert.equal(r.vms[0].monthly_cost_complete, false);
    assert.match(
      find(a, 'terraform-unknown-value').message,
      /^aws_launch_configuration\.web's root volume is not set here \(its type and size come from the AMI\)/,
    );
  });
});
