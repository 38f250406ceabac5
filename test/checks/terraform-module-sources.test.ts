/**
 * Modules where Terraform finds them: a local source anywhere in the repository (`examples/basic` calling `../../`,
 * `envs/prod` calling `../../modules/vm`), held there by real path; a registry or git source in the folder
 * `terraform init` downloaded it to (`.terraform/modules/modules.json`); otherwise one finding per call on its
 * `source`. Codes: terraform-file-refused, terraform-unknown-value.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { analyze, fileReport, moduleFolder, type Analysis } from '../../core/src';
import { moduleKey, sameSource } from '../../core/src/terraform/tf-module-sources';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { folderInput, type TfInputOptions } from '../../protocol/src/terraform-input';

const vm = (name: string, machine = 'n2-standard-4') =>
  `resource "google_compute_instance" "${name}" {\n  name         = "${name}"\n  machine_type = "${machine}"\n  zone         = "europe-west4-a"\n  boot_disk {\n    initialize_params {\n      type = "pd-ssd"\n      size = 100\n    }\n  }\n}\n`;
const call = (name: string, source: string, extra = '') => `module "${name}" {\n  source = "${source}"\n${extra}}\n`;

let repo: string;
let outside: string;
before(() => loadHclParser());
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'sp-modsrc-'));
  outside = mkdtempSync(join(tmpdir(), 'sp-modsrc-out-'));
  mkdirSync(join(repo, '.git')); // a git work tree: the root module sources are read in
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function write(base: string, path: string, text: string): void {
  mkdirSync(dirname(join(base, path)), { recursive: true });
  writeFileSync(join(base, path), text);
}

function evaluate(folder: string, options: TfInputOptions = {}): { a: Analysis; text: string } {
  const input = folderInput(join(repo, folder), options)!;
  return { a: analyze(input.text, { frontEnd: input.frontEnd }), text: input.text };
}

const vmNames = (a: Analysis) => a.spec?.vms.map((v) => v.name) ?? [];
const of = (a: Analysis, code: string) => a.diagnostics.filter((d) => d.code === code);

describe('terraform modules: local sources anywhere in the repository', () => {
  it("examples/basic calling '../../': the repository's root module is read, its findings under its own file", () => {
    write(repo, 'main.tf', vm('node', 'n2-standard-7'));
    write(repo, 'examples/basic/main.tf', call('root', '../../'));
    const { a } = evaluate('examples/basic');
    assert.deepEqual(vmNames(a), ['module.root.google_compute_instance.node']);
    const r = fileReport('examples/basic', a);
    const d = r.diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.file, '../../main.tf');
    assert.equal(d.line, 3);
  });

  it("envs/prod calling '../../modules/vm': the module's VM with the caller's inputs, findings on modules/vm's lines", () => {
    write(repo, 'modules/vm/main.tf', `variable "machine" {}\n${vm('vm').replace('"n2-standard-4"', 'var.machine')}`);
    write(repo, 'envs/prod/main.tf', call('vm', '../../modules/vm', '  machine = "n2-standard-7"\n'));
    const { a } = evaluate('envs/prod');
    assert.deepEqual(vmNames(a), ['module.vm.google_compute_instance.vm']);
    const d = fileReport('envs/prod', a).diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.file, '../../modules/vm/main.tf');
    assert.equal(d.line, 4);
    assert.ok(!a.diagnostics.some((x) => x.code === 'terraform-unknown-value'));
  });

  it('a source outside the repository is refused on its source value, naming --root; read with a --root holding it', () => {
    write(outside, 'vm/main.tf', vm('far'));
    const rel = `../../../${basename(outside)}/vm`;
    write(repo, 'envs/prod/main.tf', call('far', rel));
    const { a, text } = evaluate('envs/prod');
    const [d, ...more] = of(a, 'terraform-file-refused');
    assert.equal(more.length, 0);
    assert.equal(text.slice(d.span.start, d.span.end), `"${rel}"`);
    assert.match(
      d.message,
      /^module\.far's resources are not read: .* is refused: it is outside .*; name a folder that holds it with --root$/,
    );
    assert.deepEqual(vmNames(a), []);
    const wider = evaluate('envs/prod', { root: dirname(repo) });
    assert.deepEqual(vmNames(wider.a), ['module.far.google_compute_instance.far']);
    assert.equal(of(wider.a, 'terraform-file-refused').length, 0);
  });

  it('a module folder linked out of the repository is refused, and read with --follow-links', () => {
    write(outside, 'main.tf', vm('linked'));
    mkdirSync(join(repo, 'modules'));
    symlinkSync(outside, join(repo, 'modules', 'vm'));
    write(repo, 'envs/prod/main.tf', call('vm', '../../modules/vm'));
    const { a, text } = evaluate('envs/prod');
    const [d] = of(a, 'terraform-file-refused');
    assert.equal(text.slice(d.span.start, d.span.end), '"../../modules/vm"');
    assert.match(d.message, /its real path .* is outside .*--follow-links.*--root/);
    assert.deepEqual(vmNames(a), []);
    const followed = evaluate('envs/prod', { followLinks: true });
    assert.deepEqual(vmNames(followed.a), ['module.vm.google_compute_instance.linked']);
    assert.equal(of(followed.a, 'terraform-file-refused').length, 0);
  });

  it('a module that calls the module calling it (a cycle) ends, with one finding on the call that closes it', () => {
    write(repo, 'a/main.tf', `${call('b', '../b')}${vm('a')}`);
    write(repo, 'b/main.tf', call('a', '../a'));
    const { a, text } = evaluate('a');
    assert.deepEqual(vmNames(a), ['google_compute_instance.a']);
    const [d, ...more] = of(a, 'terraform-unknown-value');
    assert.equal(more.length, 0);
    assert.equal(d.message, "module.b.module.a's resources are not read: ../a is a module that calls this one (a cycle)");
    assert.equal(text.slice(d.span.start, d.span.end), '"../a"');
  });
});

describe('terraform modules: what terraform init downloaded', () => {
  const modulesJson = (modules: object[]) => JSON.stringify({ Modules: [{ Key: '', Source: '', Dir: '.' }, ...modules] });

  it('a registry source and a nested call are read from the folders .terraform/modules/modules.json records', () => {
    write(repo, 'main.tf', `${call('web', 'terraform-google-modules/vm/google//modules/compute_instance', '  version = "14.0.0"\n')}`);
    write(
      repo,
      '.terraform/modules/web/modules/compute_instance/main.tf',
      `${call('extra', 'app.terraform.io/acme/vm/google')}${vm('web')}`,
    );
    write(repo, '.terraform/modules/web.extra/main.tf', vm('extra', 'n2-standard-7'));
    write(
      repo,
      '.terraform/modules/modules.json',
      modulesJson([
        {
          Key: 'web',
          Source: 'registry.terraform.io/terraform-google-modules/vm/google//modules/compute_instance',
          Version: '14.0.0',
          Dir: '.terraform/modules/web/modules/compute_instance',
        },
        { Key: 'web.extra', Source: 'app.terraform.io/acme/vm/google', Version: '1.0.0', Dir: '.terraform/modules/web.extra' },
      ]),
    );
    const { a } = evaluate('.');
    assert.deepEqual(vmNames(a).sort(), [
      'module.web.google_compute_instance.web',
      'module.web.module.extra.google_compute_instance.extra',
    ]);
    const d = fileReport('.', a).diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.file, '.terraform/modules/web.extra/main.tf');
    assert.ok(!a.diagnostics.some((x) => x.code === 'terraform-unknown-value'));
  });

  it('a registry module not downloaded: one finding per call, on its source, however many instances call it', () => {
    write(repo, 'main.tf', call('group', './group', '  count = 3\n'));
    write(repo, 'group/main.tf', `${call('vm', 'terraform-aws-modules/ec2-instance/aws')}${call('db', 'git::https://example.com/db.git')}`);
    const { a, text } = evaluate('.');
    const found = of(a, 'terraform-unknown-value');
    assert.deepEqual(
      found.map((d) => text.slice(d.span.start, d.span.end)),
      ['"terraform-aws-modules/ec2-instance/aws"', '"git::https://example.com/db.git"'],
    );
    assert.match(
      found[0].message,
      /^module\.group\.module\.vm's resources are not read: .*run `terraform init` in the root module, or run on the plan JSON$/,
    );
  });

  it('a source changed since terraform init is not read from the old download, and says to run it again', () => {
    write(repo, 'main.tf', call('web', 'terraform-google-modules/vm/google'));
    write(repo, '.terraform/modules/web/main.tf', vm('old'));
    write(
      repo,
      '.terraform/modules/modules.json',
      modulesJson([{ Key: 'web', Source: 'registry.terraform.io/acme/other/google', Dir: '.terraform/modules/web' }]),
    );
    const { a } = evaluate('.');
    assert.deepEqual(vmNames(a), []);
    assert.match(
      of(a, 'terraform-unknown-value')[0].message,
      /is not the source terraform init downloaded for "web" \(registry\.terraform\.io\/acme\/other\/google\): run `terraform init`/,
    );
  });

  it('a recorded folder out of the repository is refused', () => {
    write(outside, 'main.tf', vm('far'));
    write(repo, 'main.tf', call('web', 'acme/vm/google'));
    write(
      repo,
      '.terraform/modules/modules.json',
      modulesJson([{ Key: 'web', Source: 'registry.terraform.io/acme/vm/google', Dir: outside }]),
    );
    const { a } = evaluate('.');
    assert.deepEqual(vmNames(a), []);
    assert.match(
      of(a, 'terraform-file-refused')[0].message,
      /^module\.web's resources are not read: acme\/vm\/google is refused: it is outside /,
    );
  });
});

describe('terraform modules: paths and names', () => {
  it('moduleFolder joins a source to its caller, above the root module too', () => {
    assert.equal(moduleFolder('', '../../'), '../..');
    assert.equal(moduleFolder('../..', './modules/vm'), '../../modules/vm');
    assert.equal(moduleFolder('../a', '../../b'), '../../b');
    assert.equal(moduleFolder('x/y', '../z'), 'x/z');
  });

  it("moduleKey is modules.json's key; sameSource takes Terraform's recorded spellings", () => {
    assert.equal(moduleKey('module.a.module.b.', 'c'), 'a.b.c');
    assert.equal(moduleKey('', 'web'), 'web');
    assert.ok(sameSource('ns/vm/google//modules/x', 'registry.terraform.io/ns/vm/google//modules/x'));
    assert.ok(sameSource('github.com/acme/vm', 'git::https://github.com/acme/vm.git'));
    assert.ok(!sameSource('ns/vm/google', 'registry.terraform.io/ns/other/google'));
  });
});
