/**
 * One finding per unknown thing: nothing about blocks storage-perf never reads, one finding for a resource whose
 * instances are unknown (not one more per block of it), and each module call's findings named by that call.
 */
import * as assert from 'node:assert/strict';
import { analyze, joinTfFiles, terraformFilesFrontEnd, type HclParse, type TfFile } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

function findings(files: TfFile[]) {
  const { text } = joinTfFiles(files);
  return analyze(text, { frontEnd: terraformFilesFrontEnd(parse, files) }).diagnostics;
}

const ASG = `provider "aws" {
  region = "us-east-1"
}
variable "tags" {
  type = map(string)
}
resource "aws_launch_template" "web" {
  instance_type = "m5.large"
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      volume_type = "gp3"
      volume_size = 50
    }
  }
  dynamic "tag_specifications" {
    for_each = var.tags
    content {
      resource_type = "instance"
    }
  }
}
resource "aws_autoscaling_group" "web" {
  desired_capacity = 2
  min_size         = 1
  max_size         = 3
  launch_template {
    id = aws_launch_template.web.id
  }
  dynamic "tag" {
    for_each = var.tags
    content {
      key                 = tag.key
      value               = tag.value
      propagate_at_launch = true
    }
  }
  dynamic "initial_lifecycle_hook" {
    for_each = var.tags
    content {
      name                 = initial_lifecycle_hook.key
      lifecycle_transition = "autoscaling:EC2_INSTANCE_LAUNCHING"
    }
  }
}
resource "aws_security_group" "web" {
  dynamic "ingress" {
    for_each = var.tags
    content {
      from_port = 443
      to_port   = 443
      protocol  = "tcp"
    }
  }
}
`;

describe('terraform: one finding per unknown thing', () => {
  it('dynamic blocks storage-perf never reads (tags, lifecycle hooks, rules) are not said', () => {
    const unknown = findings([{ path: 'main.tf', text: ASG }]).filter((d) => d.code === 'terraform-unknown-value');
    assert.deepEqual(
      unknown.map((d) => d.message),
      [],
    );
  });

  it('a dynamic block it reads is said, once, on the block', () => {
    const text = ASG.replace(
      '  dynamic "tag_specifications" {',
      '  dynamic "block_device_mappings" {\n    for_each = var.tags\n    content {\n      device_name = "/dev/sdb"\n    }\n  }\n  dynamic "tag_specifications" {',
    );
    const unknown = findings([{ path: 'main.tf', text }]).filter((d) => d.code === 'terraform-unknown-value');
    assert.equal(unknown.length, 1);
    assert.match(unknown[0].message, /^aws_launch_template\.web's dynamic "block_device_mappings" blocks are unknown until plan/);
  });

  it('a resource whose count is unknown is one finding, not one more per dynamic block of it', () => {
    const text = `variable "n" {
  type = number
}
variable "disks" {
  type = list(number)
}
resource "aws_instance" "db" {
  count         = var.n
  ami           = "ami-0123456789abcdef0"
  instance_type = "m5.large"
  root_block_device {
    volume_type = "gp3"
    volume_size = 50
  }
  dynamic "ebs_block_device" {
    for_each = var.disks
    content {
      device_name = "/dev/sdb"
      volume_size = ebs_block_device.value
    }
  }
  dynamic "tag" {
    for_each = var.disks
    content {
      key = "x"
    }
  }
}
`;
    const unknown = findings([{ path: 'main.tf', text }]).filter((d) => d.code === 'terraform-unknown-value');
    assert.equal(unknown.length, 1, unknown.map((d) => d.message).join('\n'));
    assert.match(unknown[0].message, /^aws_instance\.db's count/);
  });

  it("a module called twice: each call's findings name that call, not the first one's", () => {
    const found = findings([
      {
        path: 'main.tf',
        text: 'module "a" {\n  source = "./m"\n  zone   = "us-central1-a"\n}\nmodule "b" {\n  source = "./m"\n  zone   = "europe-west4-a"\n}\n',
      },
      {
        path: 'm/main.tf',
        text: `variable "zone" {}
variable "size" {}
resource "google_compute_instance" "vm" {
  name         = "vm"
  machine_type = "n2-standard-4"
  zone         = var.zone
  boot_disk {
    initialize_params {
      size = var.size
      type = "pd-ssd"
    }
  }
}
`,
      },
    ]).filter((d) => d.code === 'terraform-unknown-value');
    assert.deepEqual(
      found.map((d) => d.message.slice(0, d.message.indexOf(' '))),
      ["module.a.google_compute_instance.vm.boot_disk's", "module.b.google_compute_instance.vm.boot_disk's"],
    );
  });
});

describe("terraform: 'no VM' is said only where there is none", () => {
  it('a VM whose machine type or count is unknown is said as such, not as no VM', () => {
    const text = `variable "machine" {
  type = string
}
variable "n" {
  type = number
}
resource "google_compute_instance" "db" {
  name         = "db"
  machine_type = var.machine
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-ssd"
    }
  }
}
resource "google_compute_instance" "web" {
  count        = var.n
  name         = "web"
  machine_type = "n2-standard-2"
  zone         = "us-central1-a"
}
`;
    const none = findings([{ path: 'main.tf', text }]).filter((d) => d.code === 'terraform-no-instances');
    assert.equal(none.length, 1);
    assert.doesNotMatch(none[0].message, /has no VM/, none[0].message);
    assert.match(
      none[0].message,
      /^no VM of this configuration has figures here: .*google_compute_instance\.web's instances, unknown until plan/,
    );
    assert.match(none[0].message, /google_compute_instance\.db, not evaluated/);
  });
});

describe('terraform: an unknown value is said on the attribute at fault', () => {
  it("a machine type or a boot disk's size written from a value not known: on that attribute, not the resource's label", () => {
    const text = `variable "machine" {
  type = string
}
variable "size" {
  type = number
}
resource "google_compute_instance" "db" {
  name         = "db"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = var.size
      type = "pd-ssd"
    }
  }
}
resource "google_compute_instance" "web" {
  name         = "web"
  machine_type = var.machine
  zone         = "us-central1-a"
}
`;
    const files = [{ path: 'main.tf', text }];
    const { text: joined } = joinTfFiles(files);
    const unknown = findings(files).filter((d) => d.code === 'terraform-unknown-value');
    const at = (d: { span: { start: number; end: number } }) => joined.slice(d.span.start, d.span.end);
    assert.deepEqual(
      unknown.map((d) => at(d)),
      ['size = var.size', 'machine_type = var.machine'],
    );
    // Written, so not "not set here".
    assert.doesNotMatch(unknown[0].message, /not set here/);
  });
});
