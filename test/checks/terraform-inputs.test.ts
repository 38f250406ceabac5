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
import { analyze, fileReport, joinTfFiles, terraformFilesFrontEnd, type HclParse, type TfFile } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { folderInput, type TfInputOptions } from '../../protocol/src/terraform-input';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

/** The report of files given in memory, the first one the root module's entry. */
function report(files: TfFile[]) {
  const { text } = joinTfFiles(files);
  return { text, r: fileReport('module', analyze(text, { frontEnd: terraformFilesFrontEnd(parse, files) })) };
}

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

  it("terraform.tfvars.json and *.auto.tfvars.json are read in Terraform's order; a broken one is a syntax error", () => {
    const r = moduleReport({
      'main.tf': MAIN,
      'variables.tf': VARIABLES,
      'terraform.tfvars': 'machine_type = "n2-standard-8"\ndisk_size = 500\n',
      'terraform.tfvars.json': '{\n  "disk_size": 600,\n  "disk_type": "pd-balanced"\n}\n',
      'a.auto.tfvars.json': '{ "machine_type": "n2-standard-16" }\n',
      'b.auto.tfvars': 'disk_size = 700\n',
    });
    assert.equal(r.vms[0].machine_type, 'n2-standard-16');
    const data = r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!;
    assert.deepEqual([data.size_gib, data.type], [700, 'pd-balanced']);
    const given = moduleReport(
      { 'main.tf': MAIN, 'variables.tf': VARIABLES, 'prod.tfvars.json': '{"machine_type": "n2-standard-4"}' },
      {
        varFiles: ['prod.tfvars.json'],
      },
    );
    assert.equal(given.vms[0].machine_type, 'n2-standard-4');
    const broken = moduleReport({ 'main.tf': MAIN, 'variables.tf': VARIABLES, 'terraform.tfvars.json': '{ "machine_type": }' });
    const d = broken.diagnostics.find((x) => x.code === 'terraform-syntax')!;
    assert.match(d.message, /^JSON syntax error in terraform\.tfvars\.json/);
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

  it('a function call in a .tfvars file, which Terraform refuses there, stays unknown', () => {
    const r = moduleReport({
      'main.tf': MAIN,
      'variables.tf': VARIABLES,
      'terraform.tfvars': 'machine_type = "n2-standard-8"\ndisk_size = max(100, 400)\n',
    });
    // Listed without a size, figures or price, and named by the total, which is partial: never a size guessed.
    const data = r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!;
    assert.deepEqual([data.size_gib, data.read_iops, data.monthly_cost], [null, null, null]);
    assert.ok(r.vms[0].monthly_cost_missing.includes("google_compute_disk.data's size is unknown until plan"));
    assert.ok(r.diagnostics.some((d) => d.code === 'terraform-unknown-value' && /size/.test(d.message)));
  });

  it('a syntax error in terraform.tfvars is one terraform-syntax error in that file', () => {
    const r = moduleReport({ 'main.tf': MAIN, 'variables.tf': VARIABLES, 'terraform.tfvars': 'machine_type = \n' });
    const syntax = r.diagnostics.filter((d) => d.code === 'terraform-syntax');
    assert.equal(syntax.length, 1);
    assert.equal(syntax[0].file, 'terraform.tfvars');
  });
});

/** A Google instance, with `zone` written or left to the provider. */
const gceVm = (name: string, extra = '') => `resource "google_compute_instance" "${name}" {
  name         = "${name}"
  machine_type = "n2-standard-4"
  ${extra}
  boot_disk {
    initialize_params {
      size = 50
      type = "pd-ssd"
    }
  }
}
`;

describe("terraform .tf inputs: the provider block's region and zone", () => {
  const region = (r: ReturnType<typeof report>['r'], vm: string) => r.vms.find((v) => v.name === vm)?.region;

  it("google: a VM with no zone of its own runs in the provider's zone; one with its own keeps it", () => {
    const { r } = report([
      {
        path: 'providers.tf',
        text: 'provider "google" {\n  project = "acme"\n  region  = "europe-west4"\n  zone    = "europe-west1-b"\n}\n',
      },
      { path: 'main.tf', text: gceVm('a') + gceVm('b', 'zone = "us-east1-c"') },
    ]);
    assert.equal(region(r, 'google_compute_instance.a'), 'europe-west1');
    assert.equal(region(r, 'google_compute_instance.b'), 'us-east1');
    assert.equal(r.region, 'europe-west1');
  });

  it("google: the provider's region alone prices a VM with no zone in that region", () => {
    const { r } = report([
      {
        path: 'main.tf',
        text: 'provider "google" {\n  region = var.region\n}\nvariable "region" {\n  default = "asia-east1"\n}\n' + gceVm('a'),
      },
    ]);
    assert.equal(region(r, 'google_compute_instance.a'), 'asia-east1');
  });

  it("an aliased provider configuration, named by a resource's provider argument", () => {
    const { r } = report([
      {
        path: 'main.tf',
        text:
          'provider "google" {\n  zone = "us-central1-a"\n}\nprovider "google" {\n  alias = "west"\n  zone  = "europe-west4-a"\n}\n' +
          gceVm('a') +
          gceVm('b', 'provider = google.west'),
      },
    ]);
    assert.equal(region(r, 'google_compute_instance.a'), 'us-central1');
    assert.equal(region(r, 'google_compute_instance.b'), 'europe-west4');
  });

  it('a child module inherits the default configuration, or the one its providers argument maps', () => {
    const { r } = report([
      {
        path: 'main.tf',
        text: `provider "google" {
  zone = "us-central1-a"
}
provider "google" {
  alias = "eu"
  zone  = "europe-west4-a"
}
module "us" {
  source = "./vm"
}
module "eu" {
  source = "./vm"
  providers = {
    google = google.eu
  }
}
`,
      },
      { path: 'vm/main.tf', text: gceVm('vm') },
    ]);
    assert.equal(region(r, 'module.us.google_compute_instance.vm'), 'us-central1');
    assert.equal(region(r, 'module.eu.google_compute_instance.vm'), 'europe-west4');
  });

  it("aws: the provider's region prices an instance that names no availability zone", () => {
    const { r } = report([
      {
        path: 'main.tf',
        text: `provider "aws" {
  region = "eu-west-1"
}
resource "aws_instance" "db" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "m5.xlarge"
  root_block_device {
    volume_type = "gp3"
    volume_size = 100
  }
}
`,
      },
    ]);
    assert.equal(region(r, 'aws_instance.db'), 'eu-west-1');
  });

  it('no provider zone or region, none on the VM: no region is made up for it', () => {
    const { r } = report([{ path: 'main.tf', text: 'provider "google" {\n  project = "acme"\n}\n' + gceVm('a') }]);
    assert.equal(region(r, 'google_compute_instance.a'), undefined);
  });
});

describe('terraform .tf inputs: override files', () => {
  const DISKS = `resource "google_compute_instance" "db" {
  name         = "db"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"

  boot_disk {
    initialize_params {
      size = 50
      type = "pd-balanced"
    }
  }
}
`;

  it("override.tf's attributes replace the resource's, attribute by attribute: one VM, never a duplicate", () => {
    const { r, text } = report([
      { path: 'main.tf', text: DISKS },
      { path: 'override.tf', text: 'resource "google_compute_instance" "db" {\n  machine_type = "n2-standard-16"\n}\n' },
    ]);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.machine_type, v.region]),
      [['google_compute_instance.db', 'n2-standard-16', 'us-central1']],
    );
    // The boot disk the override does not name is the original's.
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.type, d.size_gib]),
      [['pd-balanced', 50]],
    );
    assert.ok(text.includes('n2-standard-16'));
  });

  it('a nested block in *_override.tf replaces every block of that type; override files apply by name, the last wins', () => {
    const { r } = report([
      { path: 'main.tf', text: DISKS },
      {
        path: 'z_override.tf',
        text: 'resource "google_compute_instance" "db" {\n  boot_disk {\n    initialize_params {\n      size = 200\n    }\n  }\n}\n',
      },
      { path: 'a_override.tf', text: 'resource "google_compute_instance" "db" {\n  machine_type = "n2-standard-8"\n}\n' },
    ]);
    assert.equal(r.vms.length, 1);
    assert.equal(r.vms[0].machine_type, 'n2-standard-8');
    // The new boot_disk has no type: the provider's default is not guessed; the disk is listed without figures.
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.name, d.size_gib, d.read_iops]),
      [['google_compute_instance.db.boot_disk', null, null]],
    );
    assert.equal(r.vms[0].monthly_cost_complete, false);
    assert.ok(r.diagnostics.some((d) => d.code === 'terraform-unknown-value' && d.file === 'z_override.tf'));
  });

  it('an override of a variable and of a local changes their values; one of a resource that does not exist adds none', () => {
    const { r } = report([
      {
        path: 'main.tf',
        text: `variable "machine" {
  default = "n2-standard-4"
}
locals {
  size = 50
}
resource "google_compute_instance" "db" {
  name         = "db"
  machine_type = var.machine
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = local.size
      type = "pd-ssd"
    }
  }
}
`,
      },
      {
        path: 'override.tf',
        text:
          'variable "machine" {\n  default = "n2-standard-32"\n}\nlocals {\n  size = 300\n}\n' +
          'resource "google_compute_instance" "ghost" {\n  machine_type = "n2-standard-2"\n}\n',
      },
    ]);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.machine_type, v.disks[0]?.size_gib]),
      [['google_compute_instance.db', 'n2-standard-32', 300]],
    );
  });
});

describe('terraform .tf inputs: *.tf.json files', () => {
  const JSON_MAIN = JSON.stringify(
    {
      variable: { size: { default: 400 }, machine: { default: 'n2-standard-8' } },
      resource: {
        google_compute_instance: {
          db: {
            name: 'db',
            machine_type: '${var.machine}',
            zone: 'us-central1-a',
            labels: { team: 'data' },
            boot_disk: { initialize_params: { size: 20, type: 'pd-balanced' } },
            attached_disk: [{ source: '${google_compute_disk.data.self_link}' }],
          },
        },
        google_compute_disk: { data: { name: 'db-${var.machine}', type: 'pd-ssd', size: '${var.size}', zone: 'us-central1-a' } },
      },
    },
    null,
    2,
  );

  it('read like .tf: variables, templates, nested blocks, a disk joined by reference; values placed on the JSON', () => {
    const { r, text } = report([{ path: 'main.tf.json', text: JSON_MAIN }]);
    assert.equal(r.vms.length, 1);
    const [db] = r.vms;
    assert.equal(db.machine_type, 'n2-standard-8');
    assert.deepEqual(
      db.disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['google_compute_instance.db.boot_disk', 'pd-balanced', 20],
        ['google_compute_disk.data', 'pd-ssd', 400],
      ],
    );
    assert.equal(db.disks[1].resource_name, 'db-n2-standard-8');
    assert.ok(text.length > 0);
    const bad = JSON_MAIN.replace('"n2-standard-8"', '"n2-standard-7"');
    const a = analyze(bad, { frontEnd: terraformFilesFrontEnd(parse, [{ path: 'main.tf.json', text: bad }]) });
    const d = a.diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(bad.slice(d.span.start, d.span.end), 'var.machine');
  });

  it('a .tf.json beside .tf files is one module with them, and _override.tf.json merges', () => {
    const { r } = report([
      { path: 'main.tf.json', text: JSON_MAIN },
      { path: 'vars.tf', text: '' },
      { path: 'db_override.tf.json', text: '{"resource": {"google_compute_disk": {"data": {"size": 900}}}}' },
    ]);
    assert.equal(r.vms[0].disks.find((d) => d.name === 'google_compute_disk.data')?.size_gib, 900);
  });

  it('malformed JSON is one terraform-syntax error in that file', () => {
    const { r } = report([{ path: 'main.tf.json', text: '{"resource": {' }]);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.file]),
      [['terraform-syntax', 'main.tf.json']],
    );
  });
});

describe('terraform .tf inputs: for_each known before plan, and the bound on expansion', () => {
  const ZONES = `variable "zones" {
  type    = list(string)
  default = ["us-central1-b", "us-central1-a", "us-central1-b"]
}

resource "google_compute_disk" "data" {
  for_each = toset(var.zones)
  name     = "data-\${each.key}"
  type     = "pd-ssd"
  size     = 500
  zone     = each.value
}

resource "google_compute_instance" "db" {
  for_each     = google_compute_disk.data
  name         = "db-\${each.key}"
  machine_type = "n2-standard-8"
  zone         = each.key

  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
}
`;

  it("toset(var.list) of a default: one instance per distinct value, keyed by it; another resource's for_each keys", () => {
    const { r } = report([{ path: 'main.tf', text: ZONES }]);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.resource_name, v.region]),
      [
        ['google_compute_instance.db["us-central1-a"]', 'db-us-central1-a', 'us-central1'],
        ['google_compute_instance.db["us-central1-b"]', 'db-us-central1-b', 'us-central1'],
      ],
    );
    // The disks are not attached to these VMs: each one is unattached, said once for the block's two instances
    // (one finding per place).
    const unattached = r.diagnostics.filter((d) => d.code === 'terraform-unattached-disk');
    assert.equal(unattached.length, 1);
    assert.match(unattached[0].message, /\(2 instances\)$/);
  });

  it('each.value of another resource is its instance: what its configuration sets is known, what the provider computes is not', () => {
    // zone is set on each disk (each.value of the disks' own for_each): known before plan, as Terraform's plan has it.
    const text = ZONES.replace('zone         = each.key', 'zone         = each.value.zone');
    const { r } = report([{ path: 'main.tf', text }]);
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.region]),
      [
        ['google_compute_instance.db["us-central1-a"]', 'us-central1'],
        ['google_compute_instance.db["us-central1-b"]', 'us-central1'],
      ],
    );
    // self_link is computed by the provider: unknown until plan, never guessed, and said.
    const computed = ZONES.replace('zone         = each.key', 'zone         = each.value.self_link');
    const c = report([{ path: 'main.tf', text: computed }]);
    assert.deepEqual(
      c.r.vms.map((v) => v.region),
      [undefined, undefined],
    );
    assert.ok(
      c.r.diagnostics.some((d) => /google_compute_instance\.db's region is not known: its zone is unknown until plan/.test(d.message)),
      c.r.diagnostics.map((d) => d.message).join('; '),
    );
  });

  it('a count past the bound: its instances are left out with one finding on it, and the rest is read', () => {
    const many = `resource "google_compute_instance" "fleet" {
  count        = 5000
  name         = "n-\${count.index}"
  machine_type = "n2-standard-2"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
}
`;
    const started = performance.now();
    const { r } = report([{ path: 'main.tf', text: many + ZONES }]);
    assert.ok(performance.now() - started < 2000);
    assert.equal(r.vms.length, 2);
    const bound = r.diagnostics.filter((d) => d.code === 'terraform-unknown-value' && /5,000 instances/.test(d.message));
    assert.equal(bound.length, 1);
    assert.match(bound[0].message, /more than the 1,000 read from one block/);
    assert.equal(bound[0].line, 2);
  });

  it('nested expansions share one bound per analysis: a module of count 20 whose resource has count 900', () => {
    const { r } = report([
      { path: 'main.tf', text: 'module "m" {\n  source = "./m"\n  count  = 20\n}\n' },
      {
        path: 'm/main.tf',
        text: 'resource "google_compute_disk" "d" {\n  count = 900\n  name  = "d-${count.index}"\n  type  = "pd-ssd"\n  size  = 10\n  zone  = "us-central1-a"\n}\n',
      },
    ]);
    const bound = r.diagnostics.filter((d) => /instances read in one analysis/.test(d.message));
    assert.ok(bound.length >= 1);
    assert.ok(r.terraform!.resources <= 10000);
  });
});

describe('terraform .tf inputs: order of the VMs', () => {
  it('a for_each over a variable or a local keeps the resource in the order it is written', () => {
    const vm = (name: string, forEach: string) => gceVm(name, `for_each = ${forEach}\n  zone = "us-central1-a"`);
    const { r } = report([
      {
        path: 'main.tf',
        text:
          'variable "v" {\n  default = ["x"]\n}\nlocals {\n  l = ["y"]\n}\n' +
          vm('a', 'local.l') +
          vm('b', 'var.v') +
          vm('c', 'toset(var.v)'),
      },
    ]);
    assert.deepEqual(
      r.vms.map((v) => v.name),
      ['google_compute_instance.a["y"]', 'google_compute_instance.b["x"]', 'google_compute_instance.c["x"]'],
    );
  });
});
