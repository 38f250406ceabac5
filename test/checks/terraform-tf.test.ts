/**
 * The .tf front end (core/src/terraform/tf.ts): a module folder's Terraform files, and the local modules they
 * call, read as the same resource records a plan gives, so that the Google mappers, every check and every figure
 * work on them. Codes: terraform-syntax, terraform-unknown-value, terraform-shared-disk, terraform-no-instances.
 * The HCL parser is the one the CLI and the server load (web-tree-sitter with the HCL grammar, WebAssembly).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyze, fileReport, joinTfFiles, terraformFilesFrontEnd, type HclParse, type TfFile } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { folderInput, inputForFile } from '../../protocol/src/terraform-input';

const MODULE = resolve(__dirname, '../../../test/fixtures/terraform/module');
const lineOf = (file: string, needle: string) =>
  readFileSync(join(MODULE, file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1;

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

/** The analysis of files given in memory, the first one the root module's entry. */
function run(files: TfFile[]) {
  const { text } = joinTfFiles(files);
  return analyze(text, { frontEnd: terraformFilesFrontEnd(parse, files) });
}

describe('terraform .tf files: a module folder', () => {
  const report = () => {
    const input = folderInput(MODULE)!;
    return fileReport('module', analyze(input.text, { frontEnd: input.frontEnd }));
  };

  it('names VMs by address, a for_each instance by its key and a module-nested instance by its module', () => {
    const r = report();
    assert.deepEqual(
      r.vms.map((v) => v.name),
      [
        'google_compute_instance.app["a"]',
        'google_compute_instance.app["b"]',
        'google_compute_instance.ledger',
        'google_compute_instance.fast',
        'google_compute_instance.typo',
        'module.db.google_compute_instance.primary',
      ],
    );
    const db = r.vms.find((v) => v.name === 'module.db.google_compute_instance.primary')!;
    // The module's variable is the caller's input; the disk size the child's default; the disk joined by name.
    assert.equal(db.machine_type, 'n2-highmem-16');
    assert.equal(db.resource_name, 'db-primary');
    assert.deepEqual(
      db.disks.map((d) => [d.name, d.size_gib]),
      [
        ['module.db.google_compute_instance.primary.boot_disk', 50],
        ['module.db.google_compute_disk.data', 2000],
      ],
    );
    assert.equal(r.vms[0].resource_name, 'app-a');
    assert.deepEqual(r.terraform, { resources: 13, ignored_resources: 1, ignored_types: { random_shuffle: 1 }, without_instances: [] });
  });

  it('a shared disk: one warning at its resource line; local SSD scratch disks counted per interface', () => {
    const r = report();
    const shared = r.diagnostics.filter((d) => d.code === 'terraform-shared-disk');
    assert.equal(shared.length, 1);
    assert.equal(shared[0].file, 'main.tf');
    assert.equal(shared[0].line, lineOf('main.tf', 'resource "google_compute_disk" "shared"'));
    const scratch = r.vms[0].disks.find((d) => d.type === 'local-ssd')!;
    assert.equal(scratch.size_gib, 750);
    assert.equal(scratch.read_iops, 340000);
  });

  it('a regional disk is priced as replicated; provisioned IOPS and throughput are the figures', () => {
    const r = report();
    const ledger = r.vms.find((v) => v.name === 'google_compute_instance.ledger')!;
    const regional = ledger.disks.find((d) => d.name === 'google_compute_region_disk.ledger')!;
    const zonal = r.vms[0].disks.find((d) => d.name === 'google_compute_disk.shared')!;
    // pd-ssd per GiB: a regional disk costs twice a zonal one of the catalog (200 GiB regional vs 500 GiB zonal).
    assert.equal(regional.monthly_cost! / 200, (2 * zonal.monthly_cost!) / 500);
    const fast = r.vms.find((v) => v.name === 'google_compute_instance.fast')!.disks[1];
    assert.deepEqual([fast.read_iops, fast.write_mibps, fast.limited_by?.read_iops], [20000, 600, 'provisioned']);
  });

  it('provisioned_iops = 0 and provisioned_throughput = 0 are "not set" (as the provider reads them): no finding, the type\'s defaults', () => {
    const vm = (type: string, size: number) => `
resource "google_compute_disk" "data" {
  name                   = "data"
  zone                   = "us-central1-a"
  type                   = "${type}"
  size                   = ${size}
  provisioned_iops       = 0
  provisioned_throughput = 0
}
resource "google_compute_instance" "db" {
  name         = "db"
  zone         = "us-central1-a"
  machine_type = "c3-standard-8"
  boot_disk {
    initialize_params {
      type = "pd-balanced"
      size = 20
    }
  }
  attached_disk {
    source = google_compute_disk.data.id
  }
}
`;
    for (const [type, size] of [
      ['pd-standard', 500],
      ['hyperdisk-balanced', 100],
    ] as const) {
      const text = vm(type, size);
      const a = run([{ path: 'main.tf', text }]);
      const onThem = a.diagnostics.filter((d) => /provisioned_/.test(text.slice(d.span.start, d.span.end)));
      assert.deepEqual(
        onThem.map((d) => `${d.code}: ${d.message}`),
        [],
        type,
      );
      const data = fileReport('main.tf', a).vms[0].disks.find((d) => d.name === 'google_compute_disk.data')!;
      assert.ok(data.read_iops! > 0 && data.monthly_cost! > 0, type);
    }
  });

  it("a zone that names no region is unknown-region on it, the VM's costs left out: never priced in another VM's region", () => {
    const vm = (name: string, zone: string) => `
resource "google_compute_instance" "${name}" {
  name         = "${name}"
  zone         = "${zone}"
  machine_type = "n2-standard-8"
  boot_disk {
    initialize_params {
      type = "pd-balanced"
      size = 20
    }
  }
}
`;
    for (const [first, second] of [
      ['europe-west1-b', 'uscentral1a'],
      ['<project_zone>', 'europe-west1-b'],
    ]) {
      const text = vm('a', first) + vm('b', second);
      const a = run([{ path: 'main.tf', text }]);
      const bad = first.includes('-') && first.endsWith('-b') ? second : first;
      const d = a.diagnostics.find((x) => x.code === 'unknown-region')!;
      assert.equal(text.slice(d.span.start, d.span.end), `"${bad}"`);
      const r = fileReport('main.tf', a);
      const vms = r.vms.map((v) => [v.region, v.monthly_cost ?? null]);
      assert.deepEqual(
        vms.map(([region, cost]) => (region === bad ? cost : region)),
        first === bad ? [null, 'europe-west1'] : ['europe-west1', null],
      );
      assert.equal(r.monthly_cost_complete, false);
    }
  });

  it('Spot and preemptible VMs are not priced on demand: the machine price is unknown, the total partial', () => {
    const text = [
      'resource "google_compute_instance" "batch" {',
      '  machine_type = "n2-standard-8"',
      '  zone         = "us-central1-a"',
      '  scheduling {',
      '    preemptible = true',
      '  }',
      '  boot_disk {',
      '    initialize_params {',
      '      type = "pd-ssd"',
      '      size = 100',
      '    }',
      '  }',
      '}',
      'resource "google_compute_instance" "spot" {',
      '  machine_type = "n2-standard-8"',
      '  zone         = "us-central1-a"',
      '  scheduling {',
      '    provisioning_model = "SPOT"',
      '  }',
      '  boot_disk {',
      '    initialize_params {',
      '      type = "pd-ssd"',
      '      size = 100',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    const a = run([{ path: 'main.tf', text }]);
    const r = fileReport('main.tf', a);
    for (const vm of r.vms) {
      assert.equal(vm.machine_monthly_cost, null, vm.name);
      assert.equal(vm.monthly_cost_complete, false);
      assert.deepEqual(vm.monthly_cost_missing, ['n2-standard-8 Spot price unknown']);
    }
    assert.equal(r.monthly_cost, 34);
    const found = a.diagnostics.filter((d) => d.code === 'price-unknown');
    assert.equal(found.length, 2);
    assert.match(
      found[0].message,
      /^google_compute_instance\.batch: n2-standard-8 runs as Spot, whose price gcp-2024 does not model \(on-demand prices only\)/,
    );
  });

  it('AWS: a Spot request and an instance with Spot market options are read as VMs, not priced on demand', () => {
    const block = '  instance_type = "m5.large"\n  root_block_device {\n    volume_type = "gp3"\n    volume_size = 50\n  }\n';
    const text =
      'provider "aws" {\n  region = "us-east-1"\n}\n' +
      `resource "aws_spot_instance_request" "worker" {\n${block}}\n` +
      `resource "aws_instance" "web" {\n  instance_market_options {\n    market_type = "spot"\n  }\n${block}}\n` +
      `resource "aws_instance" "plain" {\n${block}}\n`;
    const r = fileReport('main.tf', run([{ path: 'main.tf', text }]));
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.machine_monthly_cost === null]),
      [
        ['aws_spot_instance_request.worker', true],
        ['aws_instance.web', true],
        ['aws_instance.plain', false],
      ],
    );
    assert.equal(r.monthly_cost_complete, false);
  });

  it('an unknown machine type is an error at its line; a value known only at plan is an information', () => {
    const r = report();
    const unknown = r.diagnostics.find((d) => d.code === 'unknown-machine-type')!;
    assert.equal(unknown.severity, 'error');
    assert.deepEqual([unknown.file, unknown.line], ['main.tf', lineOf('main.tf', '"n2-standard-7"')]);
    const later = r.diagnostics.find((d) => d.code === 'terraform-unknown-value')!;
    assert.equal(later.severity, 'information');
    assert.match(
      later.message,
      /google_compute_instance\.later's machine_type is unknown until plan \(random_shuffle\.type\.result is known only after apply\): run on the plan JSON/,
    );
    // On the attribute at fault, not the resource's label.
    assert.equal(later.line, lineOf('main.tf', 'machine_type = random_shuffle.type.result[0]'));
  });

  it('a .tf file is read with its folder, its own text first at its own offsets', () => {
    const text = readFileSync(join(MODULE, 'main.tf'), 'utf8');
    const input = inputForFile(join(MODULE, 'main.tf'), text);
    assert.ok(input.text.startsWith(text));
    const a = analyze(input.text, { frontEnd: input.frontEnd });
    const d = a.diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(input.text.slice(d.span.start, d.span.end), '"n2-standard-7"');
    assert.equal(a.spec?.vms.length, 6);
  });
});

describe('terraform .tf files: what is and is not resolved', () => {
  const vm = (extra = '') => `resource "google_compute_instance" "vm" {
  ${extra}
  name         = "vm-\${count.index}"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 10
      type = "pd-ssd"
    }
  }
  attached_disk {
    source = google_compute_disk.d[count.index].self_link
  }
}
resource "google_compute_disk" "d" {
  ${extra}
  name = "d-\${count.index}"
  type = "pd-ssd"
  size = data.google_compute_image.base.disk_size_gb
  zone = "us-central1-a"
}
`;

  it('count = 1e1: HCL reads a number with an exponent and no fraction; so does this, with its value', () => {
    for (const [written, n] of [
      ['1e1', 10],
      ['2E0', 2],
      ['30e-1', 3],
      ['1.0e1', 10],
    ] as const) {
      const a = run([{ path: 'main.tf', text: vm(`count = ${written}`) }]);
      assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-syntax'), `${written}: ${a.diagnostics.map((d) => d.message).join('; ')}`);
      assert.equal(a.spec?.vms.length, n, written);
    }
    // A string that looks like one is left as written.
    const named = run([{ path: 'main.tf', text: vm('count = 1e0').replace('"vm-', '"1e1-') }]);
    assert.equal(named.spec?.vms[0].resource_name, '1e1-0');
  });

  it('count: each instance joined to the disk of its own index; an expression unknown before plan is said so', () => {
    const a = run([{ path: 'main.tf', text: vm('count = 2') }]);
    assert.deepEqual(
      a.spec?.vms.map((v) => v.name),
      ['google_compute_instance.vm[0]', 'google_compute_instance.vm[1]'],
    );
    assert.deepEqual(
      a.spec?.vms.map((v) => v.resource_name),
      ['vm-0', 'vm-1'],
    );
    // A data source's attribute is read only at plan: the disk is left out and said so, never guessed.
    // Both instances' disks are written at one place: one finding there, with the instance count.
    const sizes = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value');
    assert.equal(sizes.length, 1);
    assert.match(
      sizes[0].message,
      /^google_compute_disk\.d's size is unknown until plan \(data\.google_compute_image\.base is read only at plan\): run on the plan JSON.* \(2 instances\)$/,
    );
  });

  it('count from a function of a data source: one information at the count naming it, the resource left out', () => {
    const text = vm('count = length(data.google_compute_zones.up.names)');
    const a = run([{ path: 'main.tf', text }]);
    const counts = a.diagnostics.filter((d) => /count is unknown until plan/.test(d.message));
    assert.equal(counts.length, 2);
    assert.equal(text.slice(counts[0].span.start, counts[0].span.end), 'count = length(data.google_compute_zones.up.names)');
    assert.match(
      counts[0].message,
      /count is unknown until plan \(data\.google_compute_zones\.up is read only at plan\): run on the plan JSON/,
    );
    assert.equal(a.spec, undefined);
    assert.ok(a.diagnostics.some((d) => d.code === 'terraform-no-instances'));
  });

  it('a module from a registry that terraform init has not downloaded is not read, and says so at its source', () => {
    const text = 'module "vm" {\n  source  = "terraform-google-modules/vm/google//modules/compute_instance"\n  version = "~> 14.0"\n}\n';
    const a = run([{ path: 'main.tf', text }]);
    const d = a.diagnostics.find((x) => x.code === 'terraform-unknown-value')!;
    assert.match(
      d.message,
      /^module\.vm's resources are not read: .* is not downloaded .*: run `terraform init` in the root module, or run on the plan JSON$/,
    );
    assert.equal(text.slice(d.span.start, d.span.end), '"terraform-google-modules/vm/google//modules/compute_instance"');
  });

  it("for_each over another resource: each.value.self_link is that resource's instance of the same key", () => {
    const text = `resource "google_compute_disk" "data" {
  for_each = toset(["a", "b"])
  name     = "data-\${each.key}"
  type     = "pd-ssd"
  size     = 100
  zone     = "us-central1-a"
}
resource "google_compute_instance" "vm" {
  for_each     = google_compute_disk.data
  name         = "vm-\${each.key}"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
  attached_disk {
    source = each.value.self_link
  }
}
`;
    const a = run([{ path: 'main.tf', text }]);
    assert.deepEqual(
      a.spec?.vms.map((v) => [v.name, v.disks.map((d) => d.name)]),
      [
        ['google_compute_instance.vm["a"]', ['google_compute_instance.vm["a"].boot_disk', 'google_compute_disk.data["a"]']],
        ['google_compute_instance.vm["b"]', ['google_compute_instance.vm["b"].boot_disk', 'google_compute_disk.data["b"]']],
      ],
    );
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unattached-disk' || d.code === 'terraform-unknown-value'));
    // The same finding on both instances, naming them mid-message: one finding at that place, with the count.
    const capped = a.diagnostics.filter((d) => d.code === 'capped-by-vcpu');
    assert.equal(capped.length, 1);
    // The boot disk alone fits under the machine's limit: only the data disk is capped (its own figures above it).
    assert.match(capped[0].message, /caps google_compute_disk\.data at .*; .* \(2 instances\)$/);
    assert.equal(a.monthly_cost_complete, true);
  });

  it('what runs VMs but is not read leaves the total partial, named: a module of unknown count, a VM not evaluated', () => {
    const text = `variable "enabled" { type = bool }
module "extra" {
  source = "./extra"
  count  = var.enabled ? 1 : 0
}
module "vm" {
  source  = "terraform-google-modules/vm/google//modules/compute_instance"
  version = "~> 14.0"
}
${vm('count = var.enabled ? 2 : 0')}
resource "google_compute_instance" "other" {
  machine_type = var.machine
  zone         = "us-central1-a"
}
variable "machine" { type = string }
resource "google_compute_instance" "one" {
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
    const a = run([
      { path: 'main.tf', text },
      { path: 'extra/main.tf', text: 'resource "google_compute_disk" "x" {\n  size = 10\n}\n' },
    ]);
    assert.equal(a.vms.length, 1);
    assert.equal(a.monthly_cost_complete, false);
    assert.deepEqual(a.monthly_cost_missing, [
      "google_compute_instance.vm's instances, unknown until plan",
      "module.extra's resources, unknown until plan",
      "module.vm's resources, not read",
      'google_compute_instance.other, not evaluated',
    ]);
  });

  it('a boot disk whose type is left to the provider is listed without figures; the totals are partial, naming it', () => {
    const text = `resource "google_compute_instance" "vm" {
  machine_type = "n2-standard-8"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
      size  = 100
    }
  }
}
`;
    const r = fileReport('main.tf', run([{ path: 'main.tf', text }]));
    const why = "google_compute_instance.vm.boot_disk's type is unknown until plan";
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.name, d.size_gib, d.read_iops, d.monthly_cost]),
      [['google_compute_instance.vm.boot_disk', null, null, null]],
    );
    assert.deepEqual([r.vms[0].monthly_cost_complete, r.vms[0].monthly_cost_missing], [false, [why]]);
    assert.deepEqual([r.monthly_cost_complete, r.monthly_cost_missing], [false, [why]]);
  });

  it('a dynamic block is unknown until plan, never expanded by guess', () => {
    const text = vm('').replace(
      '  attached_disk {',
      '  dynamic "attached_disk" {\n    for_each = var.disks\n    content {\n    }\n  }\n  ignored {',
    );
    const a = run([{ path: 'main.tf', text: text.replaceAll('${count.index}', 'x') }]);
    assert.ok(a.diagnostics.some((d) => /dynamic "attached_disk" blocks are unknown until plan/.test(d.message)));
  });

  for (const [what, text] of [
    ['an unclosed block', 'resource "google_compute_disk" "d" {\n  size = \n'],
    ['a stray token', 'resource "google_compute_disk" "d" {\n  size = 10 }}\n'],
    ['a missing quote', 'locals {\n  a = "x\n}\n'],
    ['braces only', '{{{'],
  ])
    it(`malformed HCL (${what}): exactly one error, no crash`, () => {
      const a = run([{ path: 'main.tf', text }]);
      assert.equal(a.diagnostics.length, 1, JSON.stringify(a.diagnostics));
      assert.equal(a.diagnostics[0].code, 'terraform-syntax');
      assert.equal(a.diagnostics[0].severity, 'error');
      assert.ok(a.diagnostics[0].span.end <= text.length);
    });
});

describe('terraform .tf files: Yandex Cloud, through the same mapper as its plans', () => {
  it('an instance with its boot disk and a secondary disk joined by disk_id reference', () => {
    const text = [
      'resource "yandex_compute_disk" "data" {',
      '  type = "network-ssd"',
      '  size = 200',
      '  zone = "ru-central1-a"',
      '}',
      'resource "yandex_compute_instance" "db" {',
      '  platform_id = "standard-v3"',
      '  zone        = "ru-central1-a"',
      '  resources {',
      '    cores  = 8',
      '    memory = 32',
      '  }',
      '  boot_disk {',
      '    initialize_params {',
      '      size = 30',
      '      type = "network-hdd"',
      '    }',
      '  }',
      '  secondary_disk {',
      '    disk_id = yandex_compute_disk.data.id',
      '  }',
      '}',
      '',
    ].join('\n');
    const r = fileReport('main.tf', run([{ path: 'main.tf', text }]));
    assert.equal(r.catalog, 'yandex-2025');
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.name, d.type, d.size_gib, d.read_iops]),
      [
        ['yandex_compute_instance.db.boot_disk', 'network-hdd', 30, 300],
        ['yandex_compute_disk.data', 'network-ssd', 200, 7000],
      ],
    );
  });
});

describe('terraform .tf files: module folders on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sp-tf-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a module called twice with count: the disk of each instance, from module inputs', () => {
    mkdirSync(join(dir, 'vm'));
    writeFileSync(join(dir, 'main.tf'), 'module "web" {\n  source  = "./vm"\n  count   = 2\n  machine = "n2-standard-4"\n}\n');
    writeFileSync(
      join(dir, 'vm', 'main.tf'),
      'variable "machine" {}\nresource "google_compute_instance" "vm" {\n  machine_type = var.machine\n  zone = "europe-west4-a"\n  boot_disk {\n    initialize_params {\n      size = 10\n      type = "pd-ssd"\n    }\n  }\n}\n',
    );
    const input = folderInput(dir)!;
    const a = analyze(input.text, { frontEnd: input.frontEnd });
    assert.deepEqual(
      a.spec?.vms.map((v) => [v.name, v.machine_type, v.region]),
      [
        ['module.web[0].google_compute_instance.vm', 'n2-standard-4', 'europe-west4'],
        ['module.web[1].google_compute_instance.vm', 'n2-standard-4', 'europe-west4'],
      ],
    );
  });

  it('a local module whose folder has no .tf file is said so', () => {
    writeFileSync(join(dir, 'main.tf'), 'module "gone" {\n  source = "./gone"\n}\n');
    const input = folderInput(dir)!;
    const a = analyze(input.text, { frontEnd: input.frontEnd });
    assert.equal(a.diagnostics[0].message, "module.gone's resources are not read: ./gone has no .tf file");
  });
});
