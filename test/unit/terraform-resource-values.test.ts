/**
 * A resource's attributes before plan (core/src/terraform/tf-resource-values.ts, hcl-values.ts): what its
 * configuration sets (a disk's name, size, type, zone as written) is known, as Terraform's plan knows it, through a
 * splat over its count or for_each instances too; what the provider computes (`id`, `self_link`) stays unknown and
 * the finding names it. And a for_each map whose keys are known and some values unknown (module.vpc's outputs in
 * terraform-aws-modules' ec2-instance example) makes its instances, as Terraform does, each.value known but for
 * what is unknown. Our own text, written the way Google's VM examples and the public modules write these.
 */
import * as assert from 'node:assert/strict';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';

before(loadTfParser);

const DISKS = `
resource "google_compute_disk" "data" {
  count = 2
  name  = "data-\${count.index}"
  type  = "pd-ssd"
  size  = 100 + 100 * count.index
  zone  = "us-central1-a"
}
`;
const vm = (forEach: string, body = '') => `
resource "google_compute_instance" "db" {
  for_each     = ${forEach}
  name         = "db-\${each.key}"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
  ${body}
}
`;
const unknowns = (r: ReturnType<typeof runTf>['r']) =>
  r.diagnostics.filter((d) => d.code === 'terraform-unknown-value').map((d) => d.message);

describe("terraform .tf: a resource's configured arguments are known before plan", () => {
  it('for_each = toset(google_compute_disk.data[*].name): one VM per disk name, as the plan has them', () => {
    const { r } = runTf(DISKS + vm('toset(google_compute_disk.data[*].name)'));
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.resource_name]),
      [
        ['google_compute_instance.db["data-0"]', 'db-data-0'],
        ['google_compute_instance.db["data-1"]', 'db-data-1'],
      ],
    );
    assert.deepEqual(unknowns(r), []);
  });

  it("an index, a size, a type and a zone as written: google_compute_disk.data[1].size, a VM's zone from its disk", () => {
    const text = `${DISKS}
resource "google_compute_instance" "one" {
  name         = google_compute_disk.data[0].name
  machine_type = "n2-standard-4"
  zone         = google_compute_disk.data[1].zone
  boot_disk {
    initialize_params {
      size = google_compute_disk.data[1].size
      type = google_compute_disk.data[0].type
    }
  }
}
`;
    const { r } = runTf(text);
    const one = r.vms.find((v) => v.name === 'google_compute_instance.one')!;
    assert.deepEqual([one.resource_name, one.region], ['data-0', 'us-central1']);
    assert.deepEqual([one.disks[0].type, one.disks[0].size_gib], ['pd-ssd', 200]);
  });

  it('what the provider computes stays unknown: for_each over [*].self_link names it, and no VM is guessed', () => {
    const { r } = runTf(DISKS + vm('toset(google_compute_disk.data[*].self_link)'));
    assert.deepEqual(r.vms, []);
    const said = unknowns(r);
    assert.equal(said.length, 1, said.join('; '));
    assert.match(
      said[0],
      /^google_compute_instance\.db's for_each is unknown until plan \(google_compute_disk\.data\[0\]\.self_link is known only after apply\): run on the plan JSON$/,
    );
  });

  it("an attribute set from a value unknown here says that value's input, not 'computed'", () => {
    const text = `variable "base" {
  type = string
}
resource "google_compute_disk" "data" {
  count = 2
  name  = "\${var.base}-\${count.index}"
  type  = "pd-ssd"
  size  = 100
  zone  = "us-central1-a"
}
${vm('toset(google_compute_disk.data[*].name)')}`;
    const said = unknowns(runTf(text).r);
    assert.equal(said.length, 1, said.join('; '));
    assert.match(
      said[0],
      /for_each is unknown until plan \(var\.base has no value\): set var\.base with -var or a \.tfvars file, or run on the plan JSON$/,
    );
  });

  it('length(google_compute_disk.data) is its count, known though its ids are not', () => {
    const text = `${DISKS}
resource "google_compute_attached_disk" "a" {
  count    = length(google_compute_disk.data)
  disk     = google_compute_disk.data[count.index].id
  instance = google_compute_instance.db["x"].id
}
${vm('toset(["x"])')}`;
    const { r } = runTf(text);
    assert.deepEqual(
      r.vms[0].disks.slice(1).map((d) => [d.name, d.size_gib]),
      [
        ['google_compute_disk.data[0]', 100],
        ['google_compute_disk.data[1]', 200],
      ],
    );
    assert.deepEqual(unknowns(r), []);
  });
});

describe('terraform .tf: a for_each map of known keys whose values are partly unknown', () => {
  it('makes its instances, each.value known but for the attributes that are not (a module call over a local map)', () => {
    const text = `
provider "aws" {
  region = "eu-west-1"
}
locals {
  instances = {
    one = {
      instance_type     = "t3.micro"
      availability_zone = element(module.vpc.azs, 0)
    }
    two = {
      instance_type     = "t3.small"
      availability_zone = element(module.vpc.azs, 1)
    }
  }
}
module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}
resource "aws_instance" "this" {
  for_each          = local.instances
  ami               = "ami-0abcdef1234567890"
  instance_type     = each.value.instance_type
  availability_zone = each.value.availability_zone
  root_block_device {
    volume_type = "gp3"
    volume_size = 20
  }
}
`;
    const { r } = runTf(text);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.machine_type, v.region]),
      [
        ['aws_instance.this["one"]', 't3.micro', 'eu-west-1'],
        ['aws_instance.this["two"]', 't3.small', 'eu-west-1'],
      ],
    );
    assert.ok(r.vms.every((v) => v.disks[0].read_iops !== undefined && v.disks[0].read_iops !== null));
    // Nothing says the for_each is unknown: its keys are known (the module not downloaded is said on its call).
    assert.ok(!unknowns(r).some((m) => /for_each/.test(m)), unknowns(r).join('; '));
  });

  it('a key whose value is unknown still makes its instance; the value it gives is said unknown where it is read', () => {
    const text = `
variable "types" {
  type = map(string)
}
resource "google_compute_instance" "vm" {
  for_each     = { a = var.types["a"], b = "n2-standard-4" }
  name         = each.key
  machine_type = each.value
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
}
`;
    const { r } = runTf(text);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.machine_type]),
      [['google_compute_instance.vm["b"]', 'n2-standard-4']],
    );
    // The instance "a" is made, and its machine type said unknown on the attribute that reads each.value.
    assert.deepEqual(unknowns(r), [
      'google_compute_instance.vm["a"]\'s machine_type is unknown until plan: run on the plan JSON: its figures are left out',
    ]);
    assert.equal(r.diagnostics.find((d) => d.code === 'terraform-unknown-value')!.line, 8);
    assert.ok(!unknowns(r).some((m) => /for_each/.test(m)), unknowns(r).join('; '));
  });
});
