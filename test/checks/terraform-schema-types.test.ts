/**
 * Provider arguments written as strings: Terraform converts an argument's value to the type of the provider's schema
 * (`size = "100"` is 100, `"true"` is true), so the mappers read the converted value wherever they read a number or
 * a bool (core/src/terraform/json.ts `converted`, plan-model.ts `Args`), and a `.tf` module and its plan (where the
 * values are numbers already) give the same figures. A string Terraform refuses (`"100GB"`) is a finding on the
 * value and its disk is left out, never read as some number.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, parseTerraformPlan } from '../../core/src';
import { countedPlanText } from '../fixtures/counted-plan';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';

before(loadTfParser);

const fromPlan = (text: string) => fileReport('plan.json', analyze(text, { frontEnd: parseTerraformPlan }));
/** Each VM's disks as figures a user reads: name, type, size, IOPS, MiB/s and price. */
const figures = (r: ReturnType<typeof fromPlan>) =>
  r.vms.map((v) => [v.name, v.monthly_cost, v.disks.map((d) => [d.name, d.type, d.size_gib, d.read_iops, d.read_mibps, d.monthly_cost])]);

describe('terraform: provider arguments written as strings', () => {
  it('GCP: count, size, provisioned_iops and preemptible as strings read as the plan reads its numbers', () => {
    const tf = `
resource "google_compute_instance" "vm" {
  count        = "2"
  machine_type = "c3-standard-22"
  zone         = "us-central1-a"
  scheduling {
    preemptible = "true"
  }
  boot_disk {
    initialize_params {
      size = "100"
      type = "pd-balanced"
    }
  }
  attached_disk {
    source = google_compute_disk.data[count.index].id
  }
}
resource "google_compute_disk" "data" {
  count            = 2
  name             = "data-\${count.index}"
  type             = "hyperdisk-extreme"
  size             = "500"
  provisioned_iops = "20000"
  zone             = "us-central1-a"
}
`;
    const { a, r } = runTf(tf);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.code.startsWith('terraform-')).map((d) => d.message),
      [],
    );
    // A plan of the same configuration: numbers already, each VM's disk joined by its configuration's reference.
    const plan = countedPlanText([
      {
        type: 'google_compute_instance',
        name: 'vm',
        counted: true,
        instances: [0, 1].map(() => ({
          machine_type: 'c3-standard-22',
          zone: 'us-central1-a',
          scheduling: [{ preemptible: true }],
          boot_disk: [{ initialize_params: [{ size: 100, type: 'pd-balanced' }] }],
          attached_disk: [{}],
        })),
        expressions: {
          attached_disk: [
            { source: { references: ['google_compute_disk.data[count.index].id', 'google_compute_disk.data', 'count.index'] } },
          ],
        },
      },
      {
        type: 'google_compute_disk',
        name: 'data',
        counted: true,
        instances: [0, 1].map((i) => ({
          name: `data-${i}`,
          type: 'hyperdisk-extreme',
          size: 500,
          provisioned_iops: 20000,
          zone: 'us-central1-a',
        })),
      },
    ]);
    const p = fromPlan(plan);
    assert.deepEqual(figures(r), figures(p));
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.size_gib, d.read_iops !== null]),
      [
        [100, true],
        [500, true],
      ],
    );
    // preemptible = "true" is Spot, as the plan's true is: the machine's price is left out of both.
    assert.equal(r.vms[0].machine_monthly_cost, null);
    assert.equal(p.vms[0].machine_monthly_cost, null);
  });

  it('AWS: volume_size, iops and throughput as strings read as the plan reads its numbers', () => {
    const tf = `
resource "aws_instance" "db" {
  instance_type     = "m6i.2xlarge"
  availability_zone = "us-east-1a"
  root_block_device {
    volume_type = "gp3"
    volume_size = "50"
    iops        = "3000"
    throughput  = "250"
  }
}
resource "aws_ebs_volume" "data" {
  availability_zone = "us-east-1a"
  type              = "io2"
  size              = "400"
  iops              = "8000"
}
resource "aws_volume_attachment" "data" {
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data.id
  instance_id = aws_instance.db.id
}
`;
    const { a, r } = runTf(tf);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.code.startsWith('terraform-')).map((d) => d.message),
      [],
    );
    const plan = countedPlanText([
      {
        type: 'aws_instance',
        name: 'db',
        instances: [
          {
            instance_type: 'm6i.2xlarge',
            availability_zone: 'us-east-1a',
            root_block_device: [{ volume_type: 'gp3', volume_size: 50, iops: 3000, throughput: 250 }],
          },
        ],
      },
      { type: 'aws_ebs_volume', name: 'data', instances: [{ availability_zone: 'us-east-1a', type: 'io2', size: 400, iops: 8000 }] },
      {
        type: 'aws_volume_attachment',
        name: 'data',
        instances: [{ device_name: '/dev/sdf' }],
        expressions: {
          volume_id: { references: ['aws_ebs_volume.data.id', 'aws_ebs_volume.data'] },
          instance_id: { references: ['aws_instance.db.id', 'aws_instance.db'] },
        },
      },
    ]);
    const p = fromPlan(plan);
    assert.deepEqual(figures(r), figures(p));
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.size_gib, d.read_iops]),
      [
        [50, 3000],
        [400, 8000],
      ],
    );
  });

  it('Azure: disk_size_gb, disk_iops_read_write and performance_plus_enabled as strings', () => {
    const tf = `
resource "azurerm_linux_virtual_machine" "vm" {
  size     = "Standard_E8s_v5"
  location = "westeurope"
  os_disk {
    storage_account_type = "Premium_LRS"
    disk_size_gb         = "128"
    caching              = "ReadWrite"
  }
}
resource "azurerm_managed_disk" "data" {
  location             = "westeurope"
  storage_account_type = "PremiumV2_LRS"
  disk_size_gb         = "512"
  disk_iops_read_write = "6000"
  disk_mbps_read_write = "200"
}
resource "azurerm_virtual_machine_data_disk_attachment" "data" {
  managed_disk_id    = azurerm_managed_disk.data.id
  virtual_machine_id = azurerm_linux_virtual_machine.vm.id
  lun                = "0"
  caching            = "None"
}
`;
    const { a, r } = runTf(tf);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.code.startsWith('terraform-')).map((d) => d.message),
      [],
    );
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.type, d.size_gib, d.read_iops]),
      [
        ['premium-ssd', 128, 500],
        ['premium-ssd-v2', 512, 6000],
      ],
    );
  });

  it('a string Terraform refuses is a finding on the value, and its disk is left out, never read as a number', () => {
    const tf = `
resource "google_compute_instance" "vm" {
  machine_type = "n2-standard-8"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = "100GB"
      type = "pd-balanced"
    }
  }
  attached_disk {
    source = google_compute_disk.data.id
  }
}
resource "google_compute_disk" "data" {
  name             = "data"
  type             = "pd-extreme"
  size             = 1000
  provisioned_iops = "lots"
  zone             = "us-central1-a"
}
`;
    const { a, r, text } = runTf(tf);
    const found = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value');
    assert.deepEqual(
      found.map((d) => [text.slice(d.span.start, d.span.end), d.message]),
      [
        [
          '"100GB"',
          'google_compute_instance.vm.boot_disk\'s size is not valid: "100GB" is not a number; Terraform refuses it, fix the value',
        ],
        [
          '"lots"',
          'google_compute_disk.data\'s provisioned_iops is not valid: "lots" is not a number; Terraform refuses it, fix the value',
        ],
      ],
    );
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.name, d.size_gib, d.read_iops, d.monthly_cost]),
      [
        ['google_compute_instance.vm.boot_disk', null, null, null],
        ['google_compute_disk.data', null, null, null],
      ],
    );
    assert.deepEqual(r.monthly_cost_missing.slice(0, 2), [
      'google_compute_instance.vm.boot_disk\'s size is not valid ("100GB" is not a number)',
      'google_compute_disk.data\'s provisioned_iops is not valid ("lots" is not a number)',
    ]);
  });
});
