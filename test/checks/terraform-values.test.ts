/**
 * Values in .tf files as Terraform evaluates them before plan (core/src/terraform/hcl-values.ts and the modules it
 * uses; tf-instances.ts, tf-variables.ts, tf-dynamic.ts, tf-targets.ts): counts from conditionals over defaults, a
 * number written as a string, a variable's declared type, locals that hold another resource's id, dynamic blocks
 * whose for_each is known, and index arithmetic joining disks to VMs. Where a value cannot be known the finding
 * (terraform-unknown-value) names the input that would make it known; a join is never guessed. The configurations
 * are written the way public modules write them (terraform-aws-modules' autoscaling, Google's VM examples); our
 * own text.
 */
import * as assert from 'node:assert/strict';
import { analyze, joinTfFiles, terraformFilesFrontEnd, type HclParse } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';
import { find } from './helpers';

before(loadTfParser);

const GCE = (extra: string) => `
resource "google_compute_instance" "test" {
  ${extra}
  name         = "vm-\${count.index}"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
}
`;
const DISKS = (count: string) => `
resource "google_compute_disk" "data" {
  count = ${count}
  name  = "data-\${count.index}"
  type  = "pd-ssd"
  size  = 100 + 10 * count.index
  zone  = "us-central1-a"
}
`;
const ATTACH = (count: string, instance: string) => `
resource "google_compute_attached_disk" "a" {
  count    = ${count}
  disk     = google_compute_disk.data[count.index].id
  instance = ${instance}
}
`;
const disksOf = (r: ReturnType<typeof runTf>['r']) => r.vms.map((v) => [v.name, v.disks.slice(1).map((d) => [d.name, d.size_gib])]);

describe('terraform .tf values: counts Terraform resolves from defaults', () => {
  it('count = var.create ? 1 : 0, a number written as a string and a declared type make the instances known', () => {
    const text = `
variable "create" {
  default = true
}
variable "replicas" {
  default = "2"
}
variable "enabled" {
  type    = bool
  default = "false"
}
${GCE('count = var.create ? var.replicas : 0')}
resource "google_compute_instance" "off" {
  count        = var.enabled ? 1 : 0
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
}
`;
    const { a, r } = runTf(text);
    assert.deepEqual(
      r.vms.map((v) => v.name),
      ['google_compute_instance.test[0]', 'google_compute_instance.test[1]'],
    );
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unknown-value'), a.diagnostics.map((d) => d.message).join('; '));
  });

  it('a count from a variable without default names the variable to set', () => {
    const text = `variable "create" {\n  type = bool\n}\n${GCE('count = var.create ? 1 : 0')}`;
    const { a, text: analysed } = runTf(text);
    const d = find(a, 'terraform-unknown-value');
    assert.equal(
      d.message,
      "google_compute_instance.test's count is unknown until plan (var.create has no value): set var.create with -var or a .tfvars file, or run on the plan JSON",
    );
    assert.equal(analysed.slice(d.span.start, d.span.end), 'count = var.create ? 1 : 0');
  });

  it('a string that is not a number is a clear finding: Terraform refuses it', () => {
    const text = `variable "replicas" {\n  default = "three"\n}\n${GCE('count = var.replicas')}`;
    const d = find(runTf(text).a, 'terraform-unknown-value');
    assert.match(
      d.message,
      /^google_compute_instance\.test's count is not valid: "three" is not a number; Terraform refuses it, fix the value/,
    );
    const typed = `variable "replicas" {\n  type    = number\n  default = "three"\n}\n${GCE('count = var.replicas')}`;
    assert.match(find(runTf(typed).a, 'terraform-unknown-value').message, /count is not valid: var\.replicas: "three" is not a number/);
  });

  it('locals, functions and for expressions over known values', () => {
    const text = `
variable "zones" {
  default = ["us-central1-b", "us-central1-a", "us-central1-b"]
}
locals {
  zones    = toset(var.zones)
  per_zone = { for z in local.zones : z => max(1, length(z) - 12) }
}
resource "google_compute_instance" "vm" {
  for_each     = local.per_zone
  name         = format("vm-%s-%d", each.key, each.value)
  machine_type = "n2-standard-\${each.value * 4}"
  zone         = each.key
}
`;
    const { r } = runTf(text);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.resource_name, v.machine_type]),
      [
        ['google_compute_instance.vm["us-central1-a"]', 'vm-us-central1-a-1', 'n2-standard-4'],
        ['google_compute_instance.vm["us-central1-b"]', 'vm-us-central1-b-1', 'n2-standard-4'],
      ],
    );
  });
});

describe("terraform .tf values: a module's input and a .tfvars value", () => {
  const callee = `variable "replicas" {\n  type = number\n}\n${GCE('count = var.replicas')}`;
  const analyse = (files: Array<{ path: string; text: string }>) => {
    const { text } = joinTfFiles(files);
    return analyze(text, { frontEnd: terraformFilesFrontEnd(parser, files) });
  };
  let parser: HclParse;
  before(async () => {
    parser = await loadHclParser();
  });

  it("a module's input unknown in its caller: the finding in the module names the caller's input to set", () => {
    const a = analyse([
      { path: 'main.tf', text: 'variable "size" {}\nmodule "vm" {\n  source   = "./vm"\n  replicas = var.size\n}\n' },
      { path: 'vm/main.tf', text: callee },
    ]);
    const d = a.diagnostics.find((x) => /count is unknown until plan/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join('; '));
    assert.match(d.message, /\(var\.size has no value\): set var\.size with -var or a \.tfvars file, or run on the plan JSON$/);
  });

  it('a module input written as a string is converted by the type the module declares; a .tfvars value may be arithmetic', () => {
    const a = analyse([
      {
        path: 'main.tf',
        text: 'variable "n" {}\nmodule "vm" {\n  source   = "./vm"\n  replicas = "${var.n}"\n}\nmodule "one" {\n  source   = "./vm"\n  replicas = "1"\n}\n',
      },
      { path: 'vm/main.tf', text: callee },
      { path: 'terraform.tfvars', text: 'n = 1 + 1\n' },
    ]);
    assert.deepEqual(
      a.spec?.vms.map((v) => v.name),
      [
        'module.vm.google_compute_instance.test[0]',
        'module.vm.google_compute_instance.test[1]',
        'module.one.google_compute_instance.test[0]',
      ],
    );
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unknown-value'), a.diagnostics.map((d) => d.message).join('; '));
  });
});

describe('terraform .tf values: index arithmetic joins a disk to the right VM, never by guess', () => {
  it('instance = google_compute_instance.test[floor(count.index / var.disks_per_vm)].id', () => {
    const text = `
variable "vms" {
  default = "2"
}
variable "disks_per_vm" {
  type    = number
  default = 2
}
${GCE('count = var.vms')}${DISKS('var.vms * var.disks_per_vm')}${ATTACH('var.vms * var.disks_per_vm', 'google_compute_instance.test[floor(count.index / var.disks_per_vm)].id')}`;
    assert.deepEqual(disksOf(runTf(text).r), [
      [
        'google_compute_instance.test[0]',
        [
          ['google_compute_disk.data[0]', 100],
          ['google_compute_disk.data[1]', 110],
        ],
      ],
      [
        'google_compute_instance.test[1]',
        [
          ['google_compute_disk.data[2]', 120],
          ['google_compute_disk.data[3]', 130],
        ],
      ],
    ]);
  });

  it('count.index % n and element(list, count.index) wrap around as Terraform does', () => {
    const modulo = GCE('count = 2') + DISKS('4') + ATTACH('4', 'google_compute_instance.test[count.index % 2].id');
    const byElement = GCE('count = 2') + DISKS('4') + ATTACH('4', 'element(google_compute_instance.test[*].id, count.index)');
    for (const text of [modulo, byElement])
      assert.deepEqual(disksOf(runTf(text).r), [
        [
          'google_compute_instance.test[0]',
          [
            ['google_compute_disk.data[0]', 100],
            ['google_compute_disk.data[2]', 120],
          ],
        ],
        [
          'google_compute_instance.test[1]',
          [
            ['google_compute_disk.data[1]', 110],
            ['google_compute_disk.data[3]', 130],
          ],
        ],
      ]);
  });

  it('instance = local.vm.id, the local an object written per condition (try(x[0].id, null)), joins the one the condition picks', () => {
    const local = (windows: string) => `
locals {
  windows = ${windows}
  vm = local.windows ? {
    id = try(google_compute_instance.other[0].id, null)
  } : {
    id = try(google_compute_instance.test[0].id, null)
  }
}
resource "google_compute_instance" "other" {
  count        = local.windows ? 1 : 0
  name         = "other"
  machine_type = "n2-standard-2"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
    }
  }
}
`;
    const attached = (windows: string) => local(windows) + GCE('count = local.windows ? 0 : 1') + DISKS('2') + ATTACH('2', 'local.vm.id');
    assert.deepEqual(disksOf(runTf(attached('false')).r), [
      [
        'google_compute_instance.test[0]',
        [
          ['google_compute_disk.data[0]', 100],
          ['google_compute_disk.data[1]', 110],
        ],
      ],
    ]);
    const { a, r } = runTf(attached('true'));
    assert.deepEqual(disksOf(r), [
      [
        'google_compute_instance.other[0]',
        [
          ['google_compute_disk.data[0]', 100],
          ['google_compute_disk.data[1]', 110],
        ],
      ],
    ]);
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unattached-disk'), a.diagnostics.map((d) => d.message).join('; '));
  });

  it("a provider's attribute that is unknown names the input that would make it known", () => {
    const text = `variable "type" {}
resource "google_compute_instance" "a" {
  name         = "a"
  machine_type = var.type
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
    }
  }
}
`;
    const { a, text: analysed } = runTf(text);
    const d = a.diagnostics.find((x) => x.code === 'terraform-unknown-value' && /machine_type/.test(x.message));
    assert.ok(d, a.diagnostics.map((x) => x.message).join('; '));
    assert.match(
      d.message,
      /^google_compute_instance\.a's machine_type is unknown until plan \(var\.type has no value\): set var\.type with -var or a \.tfvars file, or run on the plan JSON/,
    );
    assert.match(analysed.slice(d.span.start, d.span.end), /^machine_type = var\.type|^var\.type$/);
    assert.equal(a.diagnostics.filter((x) => x.code === 'terraform-unknown-value').length, 1);
  });

  it('an index that cannot be known leaves the disk out, naming the input; never the same index by guess', () => {
    const text = `variable "disks_per_vm" {\n  type = number\n}\n${GCE('count = 2')}${DISKS('4')}${ATTACH('4', 'google_compute_instance.test[floor(count.index / var.disks_per_vm)].id')}`;
    const { a, r, text: analysed } = runTf(text);
    assert.deepEqual(disksOf(r), [
      ['google_compute_instance.test[0]', []],
      ['google_compute_instance.test[1]', []],
    ]);
    const d = a.diagnostics.find((x) => /the instance it names/.test(x.message))!;
    assert.ok(d, a.diagnostics.map((x) => x.message).join('; '));
    assert.match(
      d.message,
      /^google_compute_attached_disk\.a.*'s instance: the instance it names is unknown until plan \(var\.disks_per_vm has no value\): set var\.disks_per_vm with -var or a \.tfvars file, or run on the plan JSON; it is joined to none, never by guess/,
    );
    assert.equal(analysed.slice(d.span.start, d.span.end), 'floor(count.index / var.disks_per_vm)');
  });
});

describe('terraform .tf values: a launch template named through a local, in a dynamic block (terraform-aws-autoscaling)', () => {
  const text = (use: string) => `
provider "aws" {
  region = "us-east-1"
}
variable "create" {
  type    = bool
  default = true
}
variable "create_launch_template" {
  type    = bool
  default = "true"
}
variable "launch_template_id" {
  type    = string
  default = null
}
variable "use_mixed_instances_policy" {
  type    = bool
  default = ${use}
}
variable "desired_capacity" {
  type    = number
  default = "3"
}
locals {
  create             = var.create
  launch_template_id = var.create && var.create_launch_template ? aws_launch_template.this[0].id : var.launch_template_id
}
resource "aws_launch_template" "this" {
  count         = local.create && var.create_launch_template ? 1 : 0
  name_prefix   = "web-"
  instance_type = "m7i-flex.large"
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      volume_type = "gp3"
      volume_size = 40
    }
  }
}
resource "aws_autoscaling_group" "this" {
  count            = local.create ? 1 : 0
  min_size         = 0
  max_size         = 10
  desired_capacity = var.desired_capacity
  dynamic "launch_template" {
    for_each = var.use_mixed_instances_policy ? [] : [1]
    content {
      id      = local.launch_template_id
      version = "$Latest"
    }
  }
}
`;

  it("launch_template { id = local.launch_template_id } joins the template; the group's 3 instances are priced", () => {
    const { a, r } = runTf(text('false'));
    assert.equal(r.vms.length, 1);
    assert.equal(r.vms[0].name, 'aws_launch_template.this[0]');
    assert.equal(
      find(a, 'terraform-template').message,
      "aws_launch_template.this[0]: one instance's figures; priced as the 3 instances aws_autoscaling_group.this[0] runs",
    );
    assert.equal(r.vms[0].machine_monthly_cost, (3 * Math.round(0.09576 * 730 * 100)) / 100);
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unknown-value'), a.diagnostics.map((d) => d.message).join('; '));
  });

  it('a dynamic block whose for_each is empty makes no block: the group names no template, and says so', () => {
    const { a } = runTf(text('true'));
    assert.ok(!a.diagnostics.some((d) => /dynamic "launch_template"/.test(d.message)));
    assert.ok(
      a.diagnostics.some((d) => /aws_autoscaling_group\.this\[0\]/.test(d.message)),
      a.diagnostics.map((d) => d.message).join('; '),
    );
  });
});
