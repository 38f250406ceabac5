/**
 * A group's size that its provider (or Terraform's conversion) refuses is said with the value and the rule, never as
 * "known only after apply" and never counted (core/src/terraform/group-size.ts): an AWS Auto Scaling group's
 * desired_capacity outside min_size–max_size, negative or a fraction, or a string that is not a number; a Google
 * managed instance group's negative target_size; an Azure scale set's instances that is not a number. A size
 * that is not known here is still said as known only after apply. Code: terraform-template. Our own text, written
 * the way the public modules write these resources.
 */
import * as assert from 'node:assert/strict';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';
import { find } from './helpers';

before(loadTfParser);

const AWS = (size: string) => `
provider "aws" {
  region = "us-east-1"
}
resource "aws_launch_template" "web" {
  name_prefix   = "web-"
  instance_type = "m5.large"
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      volume_type = "gp3"
      volume_size = 40
    }
  }
}
resource "aws_autoscaling_group" "web" {
  name                = "web"
  vpc_zone_identifier = ["subnet-0123456789abcdef0"]
  ${size}
  launch_template {
    id      = aws_launch_template.web.id
    version = "$Latest"
  }
}
`;
const GCP = (size: string) => `
resource "google_compute_instance_template" "web" {
  name_prefix  = "web-"
  machine_type = "n2-standard-4"
  disk {
    boot         = true
    disk_type    = "pd-balanced"
    disk_size_gb = 50
  }
}
resource "google_compute_instance_group_manager" "web" {
  name               = "web"
  zone               = "us-central1-a"
  base_instance_name = "web"
  ${size}
  version {
    instance_template = google_compute_instance_template.web.id
  }
}
`;
const AZURE = (size: string) => `
resource "azurerm_linux_virtual_machine_scale_set" "web" {
  name     = "web"
  location = "westeurope"
  sku      = "Standard_D4s_v5"
  ${size}
  os_disk {
    caching              = "ReadOnly"
    storage_account_type = "StandardSSD_LRS"
    disk_size_gb         = 64
  }
}
`;

/** The group's part of the terraform-template finding, and whether the file's total is complete. */
function said(text: string): { message: string; complete: boolean | undefined; cost: number | null | undefined } {
  const { a, r } = runTf(text);
  return { message: find(a, 'terraform-template').message, complete: r.monthly_cost_complete, cost: r.vms[0].machine_monthly_cost };
}

describe('terraform: a group size the provider refuses is said with its value and the rule', () => {
  it('desired_capacity above max_size, below min_size, negative, a fraction or not a number: refused, not in the total', () => {
    const cases: Array<[string, string]> = [
      ['desired_capacity = 5\n  min_size = 1\n  max_size = 3', 'desired_capacity 5 is not from min_size 1 to max_size 3, refused by AWS'],
      ['desired_capacity = 1\n  min_size = 2\n  max_size = 4', 'desired_capacity 1 is not from min_size 2 to max_size 4, refused by AWS'],
      ['desired_capacity = -1\n  min_size = 0\n  max_size = 3', 'desired_capacity -1 is not a whole number of 0 or more, refused by AWS'],
      ['desired_capacity = 2.5\n  min_size = 1\n  max_size = 3', 'desired_capacity 2.5 is not a whole number of 0 or more, refused by AWS'],
      ['desired_capacity = "three"\n  min_size = 1\n  max_size = 3', 'desired_capacity "three" is not a number, refused by Terraform'],
      ['min_size = -2\n  max_size = 3', 'min_size -2 is not a whole number of 0 or more, refused by AWS'],
    ];
    for (const [size, text] of cases) {
      const got = said(AWS(size));
      assert.equal(
        got.message,
        `aws_launch_template.web: one instance's figures; aws_autoscaling_group.web's instances: ${text}, not in the total`,
        size,
      );
      assert.doesNotMatch(got.message, /known only after apply/, size);
      assert.equal(got.complete, false, size);
      assert.equal(got.cost, 0, `${size}: no instance of a refused size is priced`);
    }
  });

  it('a size the provider takes is priced: desired_capacity written as a string, at max_size', () => {
    const got = said(AWS('desired_capacity = "3"\n  min_size = 1\n  max_size = 3'));
    assert.equal(got.message, "aws_launch_template.web: one instance's figures; priced as the 3 instances aws_autoscaling_group.web runs");
    assert.equal(got.complete, true);
  });

  it("a Google group's negative target_size and an Azure scale set's instances that is not a number are refused", () => {
    assert.equal(
      said(GCP('target_size = -3')).message,
      "google_compute_instance_template.web: one instance's figures; google_compute_instance_group_manager.web's instances: target_size -3 is not a whole number of 0 or more, refused by Google Cloud, not in the total",
    );
    assert.equal(
      said(AZURE('instances = "four"')).message,
      'azurerm_linux_virtual_machine_scale_set.web: one instance\'s figures; azurerm_linux_virtual_machine_scale_set.web\'s instances: instances "four" is not a number, refused by Terraform, not in the total',
    );
  });

  it('a size that is not known here is still said as known only after apply', () => {
    const got = said(`variable "size" { type = number }\n${GCP('target_size = var.size')}`);
    assert.match(
      got.message,
      /google_compute_instance_group_manager\.web's instances: target_size is known only after apply, not in the total$/,
    );
    assert.equal(got.complete, false);
  });
});
