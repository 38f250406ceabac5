/**
 * What runs an instance template (core/src/terraform/groups.ts): managed instance groups price their instances,
 * an autoscaler's range is said and not guessed; and google_compute_instance_from_template and the regional
 * template, read as Google's provider builds them. Code: terraform-template. The configurations are written the
 * way Google's samples and the public modules write them (our own text).
 */
import * as assert from 'node:assert/strict';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';
import { find } from './helpers';

before(loadTfParser);
const run = runTf;

const TEMPLATE = `
resource "google_compute_instance_template" "web" {
  name_prefix  = "web-"
  machine_type = "n2-standard-4"
  disk {
    source_image = "debian-cloud/debian-12"
    boot         = true
    disk_type    = "pd-balanced"
    disk_size_gb = 50
  }
  disk {
    disk_type    = "pd-ssd"
    disk_size_gb = 200
  }
  network_interface { network = "default" }
}
`;
const INSTANCE = `
resource "google_compute_instance" "one" {
  name         = "one"
  machine_type = "n2-standard-4"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
      type  = "pd-balanced"
      size  = 50
    }
  }
  attached_disk { source = google_compute_disk.one.id }
  network_interface { network = "default" }
}
resource "google_compute_disk" "one" {
  name = "one-data"
  type = "pd-ssd"
  size = 200
  zone = "us-central1-a"
}
`;
const group = (size: string, extra = '') => `
resource "google_compute_instance_group_manager" "web" {
  name               = "web"
  zone               = "us-central1-a"
  base_instance_name = "web"
  ${size}
  version {
    instance_template = google_compute_instance_template.web.id
  }
  ${extra}
}
`;

describe('checks: terraform (instance groups and templates)', () => {
  it("'terraform-template': a group's target_size instances are priced, each as one instance of the template", () => {
    const one = run(INSTANCE).r.vms[0];
    const { a, r } = run(TEMPLATE + group('target_size = 3'));
    const web = r.vms.find((v) => v.name === 'google_compute_instance_template.web')!;
    assert.equal(web.monthly_cost_complete, true);
    // Three instances of the same machine and disks as the lone instance, priced in the group's zone's region.
    assert.equal(web.monthly_cost, Math.round(one.monthly_cost! * 3 * 100) / 100);
    assert.equal(web.disks[1].monthly_cost, Math.round(one.disks[1].monthly_cost! * 3 * 100) / 100);
    // Figures stay one instance's.
    assert.deepEqual(
      web.disks.map((d) => d.read_iops),
      one.disks.map((d) => d.read_iops),
    );
    assert.equal(r.monthly_cost, web.monthly_cost);
    assert.equal(
      find(a, 'terraform-template').message,
      "google_compute_instance_template.web: one instance's figures; priced as the 3 instances google_compute_instance_group_manager.web runs",
    );
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-no-instances' || d.code === 'price-unknown'));
    assert.equal(r.terraform?.ignored_resources, 0);
  });

  it('a template alone costs nothing; a group of 0 instances neither', () => {
    const alone = run(TEMPLATE).r;
    assert.deepEqual([alone.monthly_cost, alone.monthly_cost_complete], [0, true]);
    const none = run(TEMPLATE + group('target_size = 0')).r;
    assert.deepEqual([none.monthly_cost, none.monthly_cost_complete], [0, true]);
  });

  it("an autoscaler's range is said, never guessed: the instances are left out and the total is partial", () => {
    const scaler = `
resource "google_compute_autoscaler" "web" {
  name   = "web"
  zone   = "us-central1-a"
  target = google_compute_instance_group_manager.web.id
  autoscaling_policy {
    min_replicas    = 2
    max_replicas    = 10
    cooldown_period = 60
    cpu_utilization { target = 0.6 }
  }
}
`;
    const { a, r } = run(TEMPLATE + group('') + scaler);
    assert.equal(r.monthly_cost_complete, false);
    assert.equal(r.monthly_cost, 0);
    assert.deepEqual(r.monthly_cost_missing, [
      'the 2–10 instances google_compute_autoscaler.web scales google_compute_instance_group_manager.web to',
    ]);
    assert.match(
      find(a, 'terraform-template').message,
      /google_compute_autoscaler\.web scales google_compute_instance_group_manager\.web to 2–10 instances by load, not in the total$/,
    );
  });

  it('a target size from a variable without a default is unknown: not priced, and said', () => {
    const { a, r } = run(`variable "size" { type = number }\n${TEMPLATE}${group('target_size = var.size')}`);
    assert.equal(r.monthly_cost_complete, false);
    assert.match(find(a, 'terraform-template').message, /target_size is known only after apply, not in the total$/);
  });

  it("a canary version's fixed share and the rest of the size go to the template each version runs", () => {
    const canary = `
resource "google_compute_instance_template" "canary" {
  name_prefix  = "web-canary-"
  machine_type = "n2-standard-8"
  disk {
    boot         = true
    disk_type    = "pd-balanced"
    disk_size_gb = 50
  }
  network_interface { network = "default" }
}
resource "google_compute_instance_group_manager" "web" {
  name               = "web"
  zone               = "us-central1-a"
  base_instance_name = "web"
  target_size        = 5
  version {
    name              = "stable"
    instance_template = google_compute_instance_template.web.id
  }
  version {
    name              = "canary"
    instance_template = google_compute_instance_template.canary.id
    target_size { fixed = 1 }
  }
}
`;
    const { a } = run(TEMPLATE + canary);
    const messages = a.diagnostics.filter((d) => d.code === 'terraform-template').map((d) => d.message);
    assert.deepEqual(messages, [
      "google_compute_instance_template.web: one instance's figures; priced as the 4 instances google_compute_instance_group_manager.web runs",
      "google_compute_instance_template.canary: one instance's figures; priced as the 1 instance google_compute_instance_group_manager.web runs",
    ]);
    const percent = run(TEMPLATE + canary.replace('fixed = 1', 'percent = 20')).a;
    assert.match(
      find(percent, 'terraform-template').message,
      /a version's target_size is a percent or known only after apply, not in the total$/,
    );
  });

  it('a regional group prices its instances in its region; a regional template is read like a global one', () => {
    const regional = `
resource "google_compute_region_instance_template" "web" {
  name_prefix  = "web-"
  region       = "europe-west1"
  machine_type = "n2-standard-4"
  disk {
    boot         = true
    disk_type    = "pd-balanced"
    disk_size_gb = 50
  }
  network_interface { network = "default" }
}
resource "google_compute_region_instance_group_manager" "web" {
  name               = "web"
  region             = "europe-west1"
  base_instance_name = "web"
  target_size        = 2
  version { instance_template = google_compute_region_instance_template.web.id }
}
`;
    const { a, r } = run(regional);
    const web = r.vms[0];
    assert.equal(web.name, 'google_compute_region_instance_template.web');
    assert.equal(web.region, 'europe-west1');
    assert.equal(web.monthly_cost_complete, true);
    assert.ok(web.monthly_cost! > 0);
    assert.match(
      find(a, 'terraform-template').message,
      /priced as the 2 instances google_compute_region_instance_group_manager\.web runs$/,
    );
  });

  it("google_compute_instance_from_template: the template's machine and disks, each kind replaced only by what it sets", () => {
    const from = (body: string) => `${TEMPLATE}
resource "google_compute_instance_from_template" "db" {
  name                     = "db"
  zone                     = "us-central1-a"
  source_instance_template = google_compute_instance_template.web.self_link_unique
  ${body}
}
`;
    const plain = run(from('')).r.vms.find((v) => v.name === 'google_compute_instance_from_template.db')!;
    assert.equal(plain.machine_type, 'n2-standard-4');
    assert.deepEqual(
      plain.disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['google_compute_instance_from_template.db.disk[0]', 'pd-balanced', 50],
        ['google_compute_instance_from_template.db.disk[1]', 'pd-ssd', 200],
      ],
    );
    assert.ok(plain.monthly_cost! > 0, 'an instance is paid for, unlike its template');
    // Its own machine type and boot disk replace the template's; the template's other disk stays.
    const own = run(
      from(`machine_type = "n2-standard-8"
  boot_disk {
    initialize_params {
      type = "pd-ssd"
      size = 100
    }
  }`),
    ).r.vms.find((v) => v.name === 'google_compute_instance_from_template.db')!;
    assert.equal(own.machine_type, 'n2-standard-8');
    assert.deepEqual(
      own.disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['google_compute_instance_from_template.db.boot_disk', 'pd-ssd', 100],
        ['google_compute_instance_from_template.db.disk[1]', 'pd-ssd', 200],
      ],
    );
    // A template not in the configuration: unknown, never a guess.
    const elsewhere = run(`
resource "google_compute_instance_from_template" "db" {
  name                     = "db"
  zone                     = "us-central1-a"
  source_instance_template = "projects/p/global/instanceTemplates/web"
}
`);
    const d = find(elsewhere.a, 'terraform-unknown-value');
    assert.match(
      d.message,
      /^google_compute_instance_from_template\.db's source_instance_template is not a template of this configuration/,
    );
    assert.equal(elsewhere.text.slice(d.span.start, d.span.end), 'source_instance_template');
  });

  it('the same in *.tf.json: version, target_size and scheduling are blocks there too', () => {
    const json = JSON.stringify({
      resource: {
        google_compute_instance_template: {
          web: {
            machine_type: 'n2-standard-4',
            disk: [{ boot: true, disk_type: 'pd-balanced', disk_size_gb: 50 }],
            scheduling: { provisioning_model: 'SPOT', preemptible: true },
          },
        },
        google_compute_instance_group_manager: {
          web: {
            zone: 'us-central1-a',
            target_size: 4,
            version: [
              { instance_template: '${google_compute_instance_template.web.id}' },
              { instance_template: '${google_compute_instance_template.web.id}', target_size: { fixed: 1 } },
            ],
          },
        },
      },
    });
    const { a, r } = run(json, 'main.tf.json');
    assert.match(find(a, 'terraform-template').message, /priced as the 4 instances google_compute_instance_group_manager\.web runs$/);
    // Spot instances: the machine's price is not modelled, so the total is partial, and said.
    assert.equal(r.monthly_cost_complete, false);
    assert.ok(a.diagnostics.some((d) => d.code === 'price-unknown'));
  });

  it('a group of unknown count, or running a template not in the configuration, leaves the total partial and is said', () => {
    const counted = run(
      `variable "n" { type = number }\n${TEMPLATE}${group('target_size = 3').replace('name               = "web"', 'count              = var.n\n  name               = "web"')}`,
    );
    assert.equal(counted.r.monthly_cost_complete, false);
    assert.ok(
      counted.r.monthly_cost_missing.some((m) => m.startsWith('google_compute_instance_group_manager.web')),
      counted.r.monthly_cost_missing.join(' | '),
    );
    const literal = run(
      TEMPLATE + group('target_size = 3').replace('google_compute_instance_template.web.id', '"projects/p/global/instanceTemplates/other"'),
    );
    assert.equal(literal.r.monthly_cost_complete, false);
    assert.ok(literal.a.diagnostics.some((d) => /^google_compute_instance_group_manager\.web's instances are left out/.test(d.message)));
  });

  it("instance_from_template: its own machine_type known only after apply is not the template's", () => {
    const { a, r } = run(`variable "mt" { type = string }
${TEMPLATE}
resource "google_compute_instance_from_template" "db" {
  name                     = "db"
  zone                     = "us-central1-a"
  machine_type             = var.mt
  source_instance_template = google_compute_instance_template.web.self_link_unique
}
`);
    assert.ok(!r.vms.some((v) => v.name === 'google_compute_instance_from_template.db'));
    assert.equal(r.monthly_cost_complete, false);
    assert.ok(a.diagnostics.some((d) => /google_compute_instance_from_template\.db's machine_type is unknown until plan/.test(d.message)));
  });
});
