/**
 * What Terraform findings say is true of the configuration they are about: an undeclared reference is its own
 * error, an unfollowed attachment is not "attached to no VM", a module outside the root says so, and an unknown
 * value names its attribute. Codes: terraform-undeclared-reference, terraform-unattached-disk,
 * terraform-unknown-value, terraform-file-refused.
 */
import * as assert from 'node:assert/strict';
import { analyze, joinTfFiles, terraformFilesFrontEnd, type HclParse, type TfFile } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

function run(files: TfFile[]) {
  const { text } = joinTfFiles(files);
  return { text, a: analyze(text, { frontEnd: terraformFilesFrontEnd(parse, files) }) };
}

const BOOT = '  boot_disk {\n    initialize_params {\n      size = 20\n      type = "pd-balanced"\n    }\n  }\n';
const instance = (name: string, extra: string) =>
  `resource "google_compute_instance" "${name}" {\n  name         = "${name}"\n  machine_type = "n2-standard-8"\n  zone         = "us-central1-a"\n${BOOT}${extra}}\n`;
const DISK = 'resource "google_compute_disk" "data" {\n  name = "data"\n  type = "pd-ssd"\n  size = 100\n  zone = "us-central1-a"\n}\n';

describe('Terraform messages say what is true', () => {
  it("'terraform-undeclared-reference': an attached disk referring to a resource not declared is an error there", () => {
    const { text, a } = run([
      { path: 'main.tf', text: instance('db', '  attached_disk {\n    source = google_compute_disk.missing.id\n  }\n') },
    ]);
    const d = a.diagnostics.find((x) => x.code === 'terraform-undeclared-reference')!;
    assert.equal(d.severity, 'error');
    assert.equal(
      d.message,
      "google_compute_instance.db's attached_disk[0].source refers to google_compute_disk.missing, which this configuration does not declare",
    );
    assert.match(text.slice(d.span.start, d.span.end), /^attached_disk/);
    assert.ok(!a.diagnostics.some((x) => x.code === 'terraform-unknown-value'));
  });

  it("'terraform-unknown-value' on an attached disk names the attribute", () => {
    const { a } = run([
      { path: 'main.tf', text: instance('db', '  attached_disk {\n    source = data.google_compute_disk.old.id\n  }\n') },
    ]);
    const d = a.diagnostics.find((x) => x.code === 'terraform-unknown-value')!;
    assert.match(
      d.message,
      /^google_compute_instance\.db's attached_disk\[0\]\.source is unknown until plan: run on the plan JSON: it is left out/,
    );
  });

  it("'terraform-unattached-disk': a disk passed to a module's variable is not said to be attached to no VM", () => {
    const root = `${DISK}module "vm" {\n  source = "./vm"\n  disk   = google_compute_disk.data.self_link\n}\n`;
    const child = `variable "disk" {}\n${instance('vm', '  attached_disk {\n    source = var.disk\n  }\n')}`;
    const { a } = run([
      { path: 'main.tf', text: root },
      { path: 'vm/main.tf', text: child },
    ]);
    const d = a.diagnostics.find((x) => x.code === 'terraform-unattached-disk')!;
    assert.doesNotMatch(d.message, /attached to no VM of this plan/);
    assert.match(
      d.message,
      /^google_compute_disk\.data is attached to no VM by a reference storage-perf follows \(one through a module's variable is not followed\)/,
    );
  });

  it("'terraform-file-refused': a module the reader refused (outside the root) says why, not that its folder has no .tf file", () => {
    const files = [{ path: 'main.tf', text: `module "shared" {\n  source = "../shared"\n}\n${instance('db', '')}` }];
    const { text } = joinTfFiles(files);
    const refused = new Map([['../shared', 'it is outside the repository; name a folder that holds it with --root']]);
    const a = analyze(text, { frontEnd: terraformFilesFrontEnd(parse, files, [], { refused }) });
    const d = a.diagnostics.find((x) => x.code === 'terraform-file-refused')!;
    assert.equal(
      d.message,
      "module.shared's resources are not read: ../shared is refused: it is outside the repository; name a folder that holds it with --root",
    );
    assert.equal(text.slice(d.span.start, d.span.end), '"../shared"');
    assert.ok(!a.diagnostics.some((x) => /no \.tf file/.test(x.message)));
  });
});
