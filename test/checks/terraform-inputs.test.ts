/**
 * The .tf front end takes the values Terraform itself would use before plan: variable definitions files beside
 * the root module (`terraform.tfvars`, then `*.auto.tfvars` by name), `-var-file` and `-var` (later wins); a
 * variable given no value and no default stays unknown. Modules written as public ones are: variables in
 * variables.tf, values in terraform.tfvars.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, fileReport } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { folderInput, type TfInputOptions } from '../../protocol/src/terraform-input';

before(async () => {
  await loadHclParser();
});

const MAIN = `resource "google_compute_instance" "db" {
  name         = "db"
  machine_type = var.machine_type
  zone         = var.zone

  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }

  attached_disk {
    source = google_compute_disk.data.self_link
  }
}

resource "google_compute_disk" "data" {
  name = "db-data"
  type = var.disk_type
  size = var.disk_size
  zone = var.zone
}
`;

const VARIABLES = `variable "machine_type" {
  type        = string
  description = "The database VM's machine type"
}

variable "zone" {
  type    = string
  default = "us-central1-a"
}

variable "disk_type" {
  type    = string
  default = "pd-ssd"
}

variable "disk_size" {
  type    = number
  default = 100
}
`;

/** A module folder of these files; the report of `evaluate FOLDER` with the options given. */
function moduleReport(files: Record<string, string>, options: TfInputOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tf-inputs-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const input = folderInput(dir, {
      ...options,
      varFiles: options.varFiles?.map((f) => join(dir, f)),
    })!;
    return fileReport('module', analyze(input.text, { frontEnd: input.frontEnd }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('terraform .tf inputs: variable values as Terraform loads them', () => {
  it('terraform.tfvars gives a variable without a default its value, and overrides a default', () => {
    const r = moduleReport({
      'main.tf': MAIN,
      'variables.tf': VARIABLES,
      'terraform.tfvars': 'machine_type = "n2-standard-8"\ndisk_size    = 500\n',
    });
    assert.equal(r.vms.length, 1);
    assert.equal(r.vms[0].machine_type, 'n2-standard-8');
    const data = r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!;
    assert.equal(data.size_gib, 500);
  });

  it('*.auto.tfvars come after terraform.tfvars, in lexical order: the last one wins', () => {
    const r = moduleReport({
      'main.tf': MAIN,
      'variables.tf': VARIABLES,
      'terraform.tfvars': 'machine_type = "n2-standard-8"\ndisk_size = 500\n',
      'b.auto.tfvars': 'disk_size = 700\n',
      'a.auto.tfvars': 'disk_size = 600\nmachine_type = "n2-standard-16"\n',
    });
    assert.equal(r.vms[0].machine_type, 'n2-standard-16');
    assert.equal(r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!.size_gib, 700);
  });

  it('-var-file after the automatic files, -var after all of them', () => {
    const files = {
      'main.tf': MAIN,
      'variables.tf': VARIABLES,
      'terraform.tfvars': 'machine_type = "n2-standard-8"\n',
      'z.auto.tfvars': 'disk_size = 600\n',
      'prod.tfvars': 'disk_size = 800\nmachine_type = "n2-standard-32"\n',
    };
    const r = moduleReport(files, { varFiles: ['prod.tfvars'] });
    assert.equal(r.vms[0].machine_type, 'n2-standard-32');
    assert.equal(r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!.size_gib, 800);
    const typed = moduleReport(files, {
      varFiles: ['prod.tfvars'],
      vars: [
        { name: 'disk_size', value: '900' },
        { name: 'zone', value: 'europe-west4-a' },
        { name: 'disk_type', value: '"pd-balanced"' },
      ],
    });
    const data = typed.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!;
    assert.deepEqual([data.size_gib, data.type], [900, 'pd-balanced']);
    assert.equal(typed.vms[0].region, 'europe-west4');
  });

  it('a variable with no default and no value stays unknown: the VM is left out with a finding, never guessed', () => {
    const r = moduleReport({ 'main.tf': MAIN, 'variables.tf': VARIABLES, 'terraform.tfvars': 'disk_size = 500\n' });
    assert.equal(r.vms.length, 0);
    const unknown = r.diagnostics.filter((d) => d.code === 'terraform-unknown-value');
    assert.ok(unknown.some((d) => /machine_type/.test(d.message)));
  });

  it('a value in a .tfvars file that is not known before plan stays unknown', () => {
    const r = moduleReport({
      'main.tf': MAIN,
      'variables.tf': VARIABLES,
      'terraform.tfvars': 'machine_type = "n2-standard-8"\ndisk_size = 100 + 400\n',
    });
    assert.equal(
      r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data'),
      undefined,
    );
    assert.ok(r.diagnostics.some((d) => d.code === 'terraform-unknown-value' && /size/.test(d.message)));
  });

  it('a syntax error in terraform.tfvars is one terraform-syntax error in that file', () => {
    const r = moduleReport({ 'main.tf': MAIN, 'variables.tf': VARIABLES, 'terraform.tfvars': 'machine_type = \n' });
    const syntax = r.diagnostics.filter((d) => d.code === 'terraform-syntax');
    assert.equal(syntax.length, 1);
    assert.equal(syntax[0].file, 'terraform.tfvars');
  });
});
