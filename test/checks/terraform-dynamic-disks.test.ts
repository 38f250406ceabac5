/**
 * `dynamic "attached_disk" { for_each = google_compute_disk.data }` over a disk resource expanded by `count` (or
 * `for_each`): one block per instance of the disk resource, `attached_disk.value.self_link` (`.id`, `.name`) joining
 * each (core/src/terraform/tf-dynamic.ts, tf-targets.ts). Where the disks' count is unknown, one finding, on that
 * count, names the input.
 */
import * as assert from 'node:assert/strict';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';

before(loadTfParser);

const moduleText = (count: string, forEach: string, attr: string) => `
variable "n" {
  type = number
}
resource "google_compute_instance" "vm" {
  machine_type = "n2-standard-8"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
  dynamic "attached_disk" {
    for_each = ${forEach}
    content {
      source = attached_disk.value.${attr}
    }
  }
}
resource "google_compute_disk" "data" {
  ${count}
  name = "data-\${count.index}"
  type = "pd-ssd"
  size = 100 + 10 * count.index
  zone = "us-central1-a"
}
`;

describe('terraform .tf: a dynamic attached_disk over a disk resource', () => {
  for (const [forEach, attr] of [
    ['google_compute_disk.data', 'self_link'],
    ['google_compute_disk.data[*]', 'id'],
    ['google_compute_disk.data', 'name'],
  ])
    it(`for_each = ${forEach}, source = attached_disk.value.${attr}: one disk per instance`, () => {
      // The VM is written before the disks: the disks are read first all the same.
      const { a, r } = runTf(moduleText('count = 2', forEach, attr));
      assert.deepEqual(
        r.vms[0].disks.map((d) => [d.name, d.size_gib]),
        [
          ['google_compute_instance.vm.boot_disk', 20],
          ['google_compute_disk.data[0]', 100],
          ['google_compute_disk.data[1]', 110],
        ],
      );
      assert.deepEqual(
        a.diagnostics.filter((d) => d.code.startsWith('terraform-')).map((d) => d.message),
        [],
      );
    });

  it('a disk count unknown until plan is one finding, which names the input, and the total is partial', () => {
    const { a, r, text } = runTf(moduleText('count = var.n', 'google_compute_disk.data', 'self_link'));
    const found = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value');
    assert.deepEqual(
      found.map((d) => [text.slice(d.span.start, d.span.end), d.message]),
      [
        [
          'count = var.n',
          "google_compute_disk.data's count is unknown until plan (var.n has no value): set var.n with -var or a .tfvars file, or run on the plan JSON",
        ],
      ],
    );
    assert.deepEqual(
      r.vms[0].disks.map((d) => d.name),
      ['google_compute_instance.vm.boot_disk'],
    );
    assert.ok(r.monthly_cost_missing.includes('google_compute_instance.vm\'s dynamic "attached_disk" blocks, unknown until plan'));
  });
});
