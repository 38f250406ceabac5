/**
 * The Terraform plan front end (core/src/terraform) and its codes. The plans follow Terraform's documented
 * JSON output format, https://developer.hashicorp.com/terraform/internals/json-format: `format_version`,
 * `planned_values.root_module` with `resources` and `child_modules`, `resource_changes`, and `configuration`
 * whose expressions carry `references`; unknown values are left out of `planned_values`.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyze, applyEdits, fileReport, fixEdits, LineIndex, parseTerraformPlan, sidecarFrontEnd } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { inputForFile, MAX_MODULE_BYTES } from '../../protocol/src/terraform-input';
import { find } from './helpers';

const PLANS = resolve(__dirname, '../../../test/fixtures/terraform/plans');
const gcpText = readFileSync(join(PLANS, 'gcp.json'), 'utf8');
const run = (text: string) => analyze(text, { frontEnd: parseTerraformPlan });
const covered = (text: string, d: { span: { start: number; end: number } }) => text.slice(d.span.start, d.span.end);
const lineOf = (text: string, d: { span: { start: number } }) => new LineIndex(text).position(d.span.start).line + 1;

/** A plan of the documented shape holding `resources` at the root module, with their configuration. */
function plan(resources: Array<{ type: string; name: string; values: object; expressions?: object }>, version = '1.2'): string {
  const provider = (t: string) => `registry.terraform.io/hashicorp/${t.split('_')[0]}`;
  return JSON.stringify(
    {
      format_version: version,
      terraform_version: '1.9.8',
      planned_values: {
        root_module: {
          resources: resources.map((r) => ({
            address: `${r.type}.${r.name}`,
            mode: 'managed',
            type: r.type,
            name: r.name,
            provider_name: provider(r.type),
            schema_version: 0,
            values: r.values,
            sensitive_values: {},
          })),
        },
      },
      configuration: {
        root_module: {
          resources: resources.map((r) => ({
            address: `${r.type}.${r.name}`,
            mode: 'managed',
            type: r.type,
            name: r.name,
            provider_config_key: r.type.split('_')[0],
            expressions: r.expressions ?? {},
            schema_version: 0,
          })),
        },
      },
    },
    null,
    2,
  );
}
const instance = (name: string, values: object, expressions?: object) => ({ type: 'google_compute_instance', name, values, expressions });
const BOOT = [{ initialize_params: [{ size: 20, type: 'pd-balanced' }] }];

describe('checks: terraform', () => {
  const a = run(gcpText);
  const report = fileReport('plan.json', a);
  const vm = (address: string) => report.vms.find((v) => v.name === address)!;

  it('names VMs and disks by address and keeps their resource names; other types are counted', () => {
    assert.deepEqual(
      report.vms.map((v) => [v.name, v.resource_name]),
      [
        ['google_compute_instance.db', 'db-1'],
        ['google_compute_instance.replica', 'db-2'],
        ['google_compute_instance.bogus', 'bogus'],
        ['module.analytics.google_compute_instance.worker', 'analytics'],
      ],
    );
    assert.equal(vm('google_compute_instance.db').disks[1].resource_name, 'shared-data');
    assert.deepEqual(report.terraform, {
      resources: 9,
      ignored_resources: 1,
      ignored_types: { google_compute_network: 1 },
      without_instances: [],
    });
    assert.equal(report.region, 'us-central1');
  });
  it('a disk created in the plan joins its instance through the configuration references', () => {
    assert.deepEqual(
      vm('google_compute_instance.db').disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['google_compute_instance.db.boot_disk', 'pd-balanced', 50],
        ['google_compute_disk.shared', 'pd-ssd', 500],
        ['google_compute_instance.db.scratch_disk', 'local-ssd', 750],
      ],
    );
  });
  it('local SSD scratch disks are one disk of their count and interface', () => {
    const d = vm('google_compute_instance.db').disks[2];
    assert.equal(d.limited_by?.read_iops, 'devices');
    assert.ok(d.read_iops! > 0);
  });
  it('a regional disk attached by google_compute_attached_disk, on the instance the attachment names', () => {
    const r = vm('google_compute_instance.replica').disks.find((d) => d.name === 'google_compute_region_disk.regional');
    assert.ok(r, 'regional disk on the replica');
    assert.equal(a.vms[1].spec.disks.find((d) => d.name === r.name)?.replication, 'regional');
  });
  it('a module-nested instance with provisioned IOPS on a disk of its module', () => {
    const w = vm('module.analytics.google_compute_instance.worker');
    assert.deepEqual(
      w.disks.map((d) => [d.name, d.read_iops, d.limited_by?.read_iops]),
      [
        // Its boot disk's size is the image's: listed without figures (the next test).
        ['module.analytics.google_compute_instance.worker.boot_disk', null, undefined],
        ['module.analytics.google_compute_disk.fast', 50000, 'provisioned'],
      ],
    );
  });
  it('unknown machine type: an error at that resource, on its machine_type line', () => {
    const d = a.diagnostics.find((x) => x.code === 'unknown-machine-type')!;
    assert.equal(d.severity, 'error');
    assert.equal(covered(gcpText, d), '"n2-standard-7"');
    assert.equal(lineOf(gcpText, d), gcpText.split('\n').findIndex((l) => l.includes('"n2-standard-7"')) + 1);
    assert.equal(vm('google_compute_instance.bogus').figures_unavailable !== null, true);
  });
  it("'terraform-shared-disk': once, on the shared disk's address", () => {
    const shared = a.diagnostics.filter((x) => x.code === 'terraform-shared-disk');
    assert.equal(shared.length, 1);
    assert.equal(covered(gcpText, shared[0]), '"google_compute_disk.shared"');
  });
  it("'terraform-unknown-value': a boot disk whose size is the image's, left out, never guessed", () => {
    const d = find(a, 'terraform-unknown-value');
    assert.match(d.message, /worker\.boot_disk's size is known only after apply/);
    assert.equal(covered(gcpText, d), '"boot_disk"');
    const unknownMachine = run(plan([instance('x', { zone: 'us-central1-a', boot_disk: BOOT })]));
    assert.match(find(unknownMachine, 'terraform-unknown-value').message, /machine_type is known only after apply/);
    assert.equal(unknownMachine.vms.length, 0);
  });
  it("a disk left out of the figures is listed with why, and the VM's and the file's totals are partial, naming it", () => {
    // The worker's boot disk, whose size is its image's, is listed without figures or price; its VM lacks it.
    const worker = vm('module.analytics.google_compute_instance.worker');
    const boot = worker.disks.find((d) => d.name === 'module.analytics.google_compute_instance.worker.boot_disk')!;
    assert.deepEqual([boot.type, boot.size_gib, boot.read_iops, boot.monthly_cost], ['pd-balanced', null, null, null]);
    const why = "module.analytics.google_compute_instance.worker.boot_disk's size is known only after apply";
    assert.match(boot.cost_explanation, new RegExp(`^${why.replace(/[.[\]]/g, '\\$&')}`));
    assert.equal(worker.monthly_cost_complete, false);
    assert.ok(worker.monthly_cost_missing.includes(why), worker.monthly_cost_missing.join(' | '));
    assert.equal(report.monthly_cost_complete, false);
    assert.ok(report.monthly_cost_missing.includes(why));
    // A boot disk whose type is unknown, and an attached disk the plan does not create: each named.
    const text = plan([
      instance('x', {
        machine_type: 'n2-standard-8',
        zone: 'us-central1-a',
        boot_disk: [{ initialize_params: [{ size: 20 }] }],
        attached_disk: [{ source: 'projects/p/zones/us-central1-a/disks/old-data' }],
      }),
    ]);
    const r = fileReport('plan.json', run(text));
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.name, d.monthly_cost]),
      [
        ['google_compute_instance.x.boot_disk', null],
        ['google_compute_instance.x.attached_disk[0]', null],
      ],
    );
    assert.deepEqual(r.vms[0].monthly_cost_missing, [
      "google_compute_instance.x.boot_disk's type is known only after apply",
      "google_compute_instance.x.attached_disk[0]: disk 'projects/p/zones/us-central1-a/disks/old-data' is not created in this plan, its type and size unknown",
    ]);
    assert.deepEqual([r.vms[0].monthly_cost_complete, r.monthly_cost_complete], [false, false]);
    // The machine is still priced: the known part is kept.
    assert.equal(r.vms[0].monthly_cost, r.vms[0].machine_monthly_cost);
  });
  it("'terraform-syntax': malformed JSON is one error, never a crash", () => {
    for (const text of ['{"format_version": "1.2",', '', '[1, 2', '\ufeff{]']) {
      const r = run(text);
      assert.deepEqual(
        r.diagnostics.map((d) => d.code),
        ['terraform-syntax'],
        JSON.stringify(text),
      );
    }
  });
  it('a plan cut anywhere is one syntax error; a plan of the wrong shapes is read without a crash', () => {
    for (let cut = 1; cut < gcpText.length - 2; cut += 97) {
      const r = run(gcpText.slice(0, cut));
      assert.deepEqual(
        r.diagnostics.map((d) => d.code),
        ['terraform-syntax'],
        `cut at ${cut}`,
      );
    }
    const shapes = [[], {}, 'x', 1, null, [{}], { values: [] }, { resources: {} }];
    for (const v of shapes) {
      const odd = gcpText.replace(
        /"(values|resources|attached_disk|boot_disk|child_modules|expressions|references|scratch_disk)": /g,
        `"$1": ${JSON.stringify(v)}, "_": `,
      );
      assert.doesNotThrow(() => run(odd), JSON.stringify(v));
    }
  });
  it("'terraform-plan-format': another major version, or JSON that is not a plan", () => {
    const v2 = plan([instance('x', { machine_type: 'n2-standard-8', boot_disk: BOOT })], '2.0');
    const d = find(run(v2), 'terraform-plan-format');
    assert.equal(covered(v2, d), '"2.0"');
    assert.match(d.message, /plan format 2\.0 is not read here/);
    assert.match(find(run('{"values": {}}'), 'terraform-plan-format').message, /not a Terraform plan/);
  });
  it("'terraform-undeclared-reference': a plan's attached disk referring to a resource its configuration lacks", () => {
    const text = plan([
      instance(
        'x',
        { machine_type: 'n2-standard-8', zone: 'us-central1-a', boot_disk: BOOT, attached_disk: [{ mode: 'READ_WRITE' }] },
        { attached_disk: [{ source: { references: ['google_compute_disk.gone.id', 'google_compute_disk.gone'] } }] },
      ),
    ]);
    const d = find(run(text), 'terraform-undeclared-reference');
    assert.equal(d.severity, 'error');
    assert.match(
      d.message,
      /^google_compute_instance\.x's attached_disk\[0\]\.source refers to google_compute_disk\.gone, which this configuration does not declare$/,
    );
  });
  it("'terraform-no-instances', 'terraform-unattached-disk', 'terraform-other-provider'", () => {
    const none = run(plan([{ type: 'google_compute_network', name: 'n', values: { name: 'n' } }]));
    assert.match(find(none, 'terraform-no-instances').message, /\(1 resource of another type ignored\)/);
    const lone = plan([
      instance('x', { machine_type: 'n2-standard-8', zone: 'us-central1-a', boot_disk: BOOT }),
      { type: 'google_compute_disk', name: 'spare', values: { name: 'spare', type: 'pd-ssd', size: 100 } },
    ]);
    assert.equal(covered(lone, find(run(lone), 'terraform-unattached-disk')), '"google_compute_disk.spare"');
    const mixed = plan([
      instance('x', { machine_type: 'n2-standard-8', zone: 'us-central1-a', boot_disk: BOOT }),
      { type: 'yandex_compute_instance', name: 'y', values: { platform_id: 'standard-v3', resources: [{ cores: 4 }] } },
    ]);
    assert.equal(covered(mixed, find(run(mixed), 'terraform-other-provider')), '"yandex_compute_instance.y"');
    assert.match(find(run(mixed), 'terraform-other-provider').message, /the configuration's first VM is on Google Cloud,/);
  });
  it('yandex_compute_instance with a yandex_compute_disk it refers to', () => {
    const text = plan([
      { type: 'yandex_compute_disk', name: 'data', values: { name: 'data', type: 'network-ssd', size: 186, zone: 'ru-central1-a' } },
      {
        type: 'yandex_compute_instance',
        name: 'db',
        values: {
          name: 'db',
          platform_id: 'standard-v3',
          zone: 'ru-central1-a',
          resources: [{ cores: 8, memory: 32, core_fraction: 100 }],
          boot_disk: [{ initialize_params: [{ size: 20, type: 'network-hdd' }] }],
          secondary_disk: [{ auto_delete: false }],
        },
        expressions: { secondary_disk: [{ disk_id: { references: ['yandex_compute_disk.data.id', 'yandex_compute_disk.data'] } }] },
      },
    ]);
    const r = fileReport('plan.json', run(text));
    assert.equal(r.catalog, 'yandex-2025');
    assert.equal(r.region, 'ru-central1');
    assert.deepEqual(
      r.vms[0].disks.map((d) => [d.name, d.type, d.size_gib]),
      [
        ['yandex_compute_instance.db.boot_disk', 'network-hdd', 20],
        ['yandex_compute_disk.data', 'network-ssd', 186],
      ],
    );
    assert.ok(r.vms[0].disks[1].read_iops! > 0);
  });

  it("prices each VM in its own zone's region, not the first VM's", () => {
    const values = (zone: string) => ({ zone, machine_type: 'n2-standard-8', boot_disk: BOOT });
    const two = run(plan([instance('us', values('us-central1-a')), instance('eu', values('europe-west4-a'))]));
    // The same VM as a spec, priced in each region: the plan's figures must be those, VM by VM.
    const spec = (region: string) =>
      analyze(
        `version: 1\nprovider: gcp\nregion: ${region}\nvms:\n  - name: x\n    machine_type: n2-standard-8\n    disks:\n      - name: boot\n        type: pd-balanced\n        size: 20\n`,
      ).vms[0];
    const [us, eu] = [spec('us-central1'), spec('europe-west4')];
    assert.notEqual(us.monthly_cost, eu.monthly_cost);
    assert.deepEqual(
      two.vms.map((v) => [v.spec.name, v.monthly_cost, v.machine_cost.monthly]),
      [
        ['google_compute_instance.us', us.monthly_cost, us.machine_cost.monthly],
        ['google_compute_instance.eu', eu.monthly_cost, eu.machine_cost.monthly],
      ],
    );
    // The report says where each VM is priced: the file's region is only the first VM's.
    assert.deepEqual(
      fileReport('plan.json', two).vms.map((v) => v.region),
      ['us-central1', 'europe-west4'],
    );
    // A VM in a real region the edition does not price has its prices left out, and says so as information.
    const far = run(plan([instance('us', values('us-central1-a')), instance('sa', values('southamerica-east1-a'))]));
    assert.equal(far.vms[1].monthly_cost_complete, false);
    assert.equal(far.monthly_cost_complete, false);
    const said = far.diagnostics.filter((d) => d.code === 'unpriced-region');
    assert.deepEqual(
      said.map((d) => [d.message, d.severity]),
      [
        [
          "google_compute_instance.sa: gcp-2024 has no prices for southamerica-east1, a gcp region (it prices us-central1, us-east1, us-east4, us-west1, europe-west1 and 8 more): this VM's costs are left out",
          'information',
        ],
      ],
    );
    // On the zone that gives the region (the message names the VM, as every finding on a resource's values does).
    assert.equal(far.parsed.text.slice(said[0].span.start, said[0].span.end), '"southamerica-east1-a"');
    assert.ok(!far.diagnostics.some((d) => d.code === 'unknown-region'));
    // A zone of no region Google offers: unknown-region, a warning.
    const nowhere = run(plan([instance('us', values('us-central1-a')), instance('xx', values('mars-north1-a'))]));
    assert.deepEqual(
      nowhere.diagnostics.filter((d) => d.code === 'unknown-region').map((d) => d.message),
      ["google_compute_instance.xx: gcp-2024 has no prices for region 'mars-north1', where this VM's zone is: its costs are left out"],
    );
  });

  it("a plan's for_each over another resource: each.value is that resource's instance of the same key", () => {
    const disk = (k: string) => ({
      address: `google_compute_disk.data["${k}"]`,
      mode: 'managed',
      type: 'google_compute_disk',
      name: 'data',
      index: k,
      values: { name: `data-${k}`, type: 'pd-ssd', size: 100, zone: 'us-central1-a' },
    });
    const vm = (k: string) => ({
      address: `google_compute_instance.vm["${k}"]`,
      mode: 'managed',
      type: 'google_compute_instance',
      name: 'vm',
      index: k,
      values: { name: `vm-${k}`, machine_type: 'n2-standard-4', zone: 'us-central1-a', boot_disk: BOOT, attached_disk: [{}] },
    });
    const text = JSON.stringify({
      format_version: '1.2',
      planned_values: { root_module: { resources: [disk('a'), disk('b'), vm('a'), vm('b')] } },
      configuration: {
        root_module: {
          resources: [
            { address: 'google_compute_disk.data', mode: 'managed', type: 'google_compute_disk', name: 'data', expressions: {} },
            {
              address: 'google_compute_instance.vm',
              mode: 'managed',
              type: 'google_compute_instance',
              name: 'vm',
              expressions: { attached_disk: [{ source: { references: ['each.value.self_link', 'each.value'] } }] },
              for_each_expression: { references: ['google_compute_disk.data'] },
            },
          ],
        },
      },
    });
    const a = run(text);
    assert.deepEqual(
      a.spec?.vms.map((v) => [v.name, v.disks.map((d) => d.name)]),
      [
        ['google_compute_instance.vm["a"]', ['google_compute_instance.vm["a"].boot_disk', 'google_compute_disk.data["a"]']],
        ['google_compute_instance.vm["b"]', ['google_compute_instance.vm["b"].boot_disk', 'google_compute_disk.data["b"]']],
      ],
    );
  });

  describe('the workload sidecar', () => {
    const sidecarText = readFileSync(join(PLANS, 'gcp.perf.yaml'), 'utf8');
    const side = (text: string, plan: { text: string } | { error: string } = { text: gcpText }) =>
      analyze(text, { frontEnd: sidecarFrontEnd(plan) });
    it("evaluates the VMs its workloads name, with the plan's disks; workload findings on its own lines", () => {
      const a = side(sidecarText);
      assert.deepEqual(
        a.vms.map((v) => [v.spec.name, v.spec.workloads.map((w) => w.name)]),
        [
          ['google_compute_instance.db', ['oltp']],
          ['module.analytics.google_compute_instance.worker', ['scan']],
        ],
      );
      const miss = find(a, 'target-unreachable');
      assert.equal(covered(sidecarText, miss), 'target');
      // A finding on the VM's machine goes on the address that names it in the sidecar.
      assert.equal(covered(sidecarText, find(a, 'capped-by-vcpu')), 'google_compute_instance.db');
    });
    it("'terraform-unknown-address': a workload on a VM the plan lacks, with the nearest address", () => {
      const text = sidecarText.replace('vm: google_compute_instance.db', 'vm: google_compute_instance.dbb');
      const d = find(side(text), 'terraform-unknown-address');
      assert.equal(covered(text, d), 'google_compute_instance.dbb');
      assert.match(d.message, /did you mean google_compute_instance\.db\?/);
    });
    it("'terraform-sidecar-plan': a plan that cannot be read or is not one, on the terraform value", () => {
      const unread = find(side(sidecarText, { error: 'cannot read gcp.json: no such file' }), 'terraform-sidecar-plan');
      assert.equal(covered(sidecarText, unread), 'gcp.json');
      assert.match(find(side(sidecarText, { text: '{' }), 'terraform-sidecar-plan').message, /JSON syntax error/);
    });
    it("its keys are checked as a spec's: a misspelt workload key is one 'unknown-key' at the key, renamed by its fix", () => {
      const text = sidecarText.replace('    block_size: 8KiB', '    blok_size: 8KiB');
      const a = side(text);
      // The misspelling adds one error, not more; the workload it is in is then not evaluated (its block size is
      // not the one it gives), so its own findings (target-unreachable, cpu-insufficient) go.
      const ds = a.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'target-unreachable');
      const notOfOltp = side(sidecarText).diagnostics.filter((d) => !d.message.includes("workload 'oltp'"));
      assert.equal(a.diagnostics.length, notOfOltp.length + 1);
      assert.ok(!a.diagnostics.some((d) => d.code === 'target-unreachable'));
      assert.deepEqual(
        ds.map((d) => [d.code, covered(text, d)]),
        [['unknown-key', 'blok_size']],
      );
      assert.match(ds[0].message, /did you mean 'block_size'\?/);
      const rename = ds[0].fixes!.find((f) => f.kind === 'rename-key')!;
      const fixed = applyEdits(text, fixEdits(text, a.parsed.tree, rename));
      assert.equal(fixed, sidecarText);
      // A fix never edits what the plan gave (placed on the address that names the VM).
      const vmFix = { kind: 'set-value' as const, path: '/vms/0/machine_type', value: 'n2-standard-16', title: 'x' };
      assert.deepEqual(fixEdits(text, a.parsed.tree, vmFix), []);
    });
    it("the sidecar's own top-level keys and those of a workload on an unknown address are checked too", () => {
      const text = sidecarText
        .replace('terraform: gcp.json', 'terraform: gcp.json\nregoin: europe-west4')
        .replace('vm: google_compute_instance.db', 'vm: google_compute_instance.dbb')
        .replace('    read_ratio: 0.7', '    read_ration: 0.7')
        .replace('    read_ratio: 1\n', '    read_ratio: 2\n');
      const ds = side(text).diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(ds.map((d) => [d.code, covered(text, d)]).sort(), [
        ['out-of-range', '2'],
        ['terraform-unknown-address', 'google_compute_instance.dbb'],
        ['unknown-key', 'read_ration'],
        ['unknown-key', 'regoin'],
      ]);
    });
    it('a disk named by a workload must be a disk of its VM', () => {
      const text = sidecarText.replace('disk: google_compute_disk.shared', 'disk: google_compute_region_disk.regional');
      assert.equal(covered(text, find(side(text), 'unknown-disk-ref')), 'google_compute_region_disk.regional');
    });
  });

  it("'terraform-template': a template alone costs nothing, with one instance's figures; a group that runs it prices its instances", () => {
    const template = {
      type: 'google_compute_instance_template',
      name: 'web',
      values: { machine_type: 'n2-standard-4', region: 'us-central1', disk: [{ disk_type: 'pd-balanced', disk_size_gb: 50 }] },
    };
    const db = instance('db', { machine_type: 'n2-standard-8', zone: 'us-central1-a', boot_disk: BOOT });
    const alone = run(plan([template, db]));
    const r = fileReport('plan.json', alone);
    const web = r.vms.find((v) => v.name === 'google_compute_instance_template.web')!;
    assert.deepEqual([web.monthly_cost, web.monthly_cost_complete, web.disks[0].monthly_cost], [0, true, 0]);
    assert.equal(web.disks[0].read_iops, 3300);
    assert.equal(r.monthly_cost, r.vms.find((v) => v.name === 'google_compute_instance.db')!.monthly_cost);
    const d = find(alone, 'terraform-template');
    assert.equal(d.message, "google_compute_instance_template.web: a template runs nothing by itself (one instance's figures, no price)");
    assert.ok(!alone.diagnostics.some((x) => x.code === 'price-unknown'));
    // A managed instance group that runs it: its instances are priced (more in terraform-groups.test.ts).
    const group = {
      type: 'google_compute_instance_group_manager',
      name: 'web',
      values: { zone: 'us-central1-a', target_size: 3, version: [{}] },
      expressions: {
        version: [
          { instance_template: { references: ['google_compute_instance_template.web.id', 'google_compute_instance_template.web'] } },
        ],
      },
    };
    const grouped = run(plan([template, group, db]));
    const g = fileReport('plan.json', grouped);
    const gw = g.vms.find((v) => v.name === 'google_compute_instance_template.web')!;
    assert.equal(g.monthly_cost_complete, true);
    assert.ok(gw.monthly_cost! > 0);
    assert.match(find(grouped, 'terraform-template').message, /priced as the 3 instances google_compute_instance_group_manager\.web runs$/);
  });
});

describe('checks: terraform, files the reader refuses', () => {
  before(() => loadHclParser());

  it("'terraform-file-refused': a module's .tf file linked out of the repository, on the module's first byte", () => {
    const d = mkdtempSync(join(tmpdir(), 'storage-perf-refused-'));
    const outside = mkdtempSync(join(tmpdir(), 'storage-perf-refused-'));
    try {
      writeFileSync(join(outside, 'disk.tf'), 'resource "google_compute_disk" "x" {\n  type = "pd-ssd"\n  size = 100\n}\n');
      symlinkSync(join(outside, 'disk.tf'), join(d, 'disk.tf'));
      const main = 'resource "google_compute_disk" "y" {\n  type = "pd-ssd"\n  size = 10\n}\n';
      const input = inputForFile(join(d, 'main.tf'), main);
      const a = analyze(input.text, { frontEnd: input.frontEnd });
      const f = find(a, 'terraform-file-refused');
      assert.match(
        f.message,
        /^disk\.tf is not read: its real path .*disk\.tf is outside .*; links out of it are followed only when asked/,
      );
      assert.deepEqual(f.span, { start: 0, end: 1 });
      // Followed when asked: no finding, the disk read.
      const followed = inputForFile(join(d, 'main.tf'), main, { followLinks: true });
      const b = analyze(followed.text, { frontEnd: followed.frontEnd });
      assert.ok(!b.diagnostics.some((x) => x.code === 'terraform-file-refused'));
      assert.match(followed.text, /google_compute_disk" "x"/);
    } finally {
      rmSync(d, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('Terraform: a variable file that cannot be read', () => {
  it('terraform-var-file: an error on the entry file naming the file; the module is read without it', async () => {
    await loadHclParser();
    const module = resolve(__dirname, '../../../test/fixtures/terraform/tfvars');
    const missing = join(module, 'missing.tfvars');
    const input = inputForFile(join(module, 'main.tf'), readFileSync(join(module, 'main.tf'), 'utf8'), { varFiles: [missing] });
    const a = analyze(input.text, { frontEnd: input.frontEnd });
    const d = find(a, 'terraform-var-file');
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.span, { start: 0, end: 1 });
    assert.equal(
      d.message,
      `cannot read the variable file ${missing} (--var-file, or the terraformVarFiles setting): ENOENT; the module is read without it`,
    );
    assert.equal(a.vms.length, 1);
  });
});

describe('Terraform: a module larger than a module read takes in', () => {
  it('terraform-module-size: the file past the limit is left out and named; the rest is read', async () => {
    await loadHclParser();
    const dir = mkdtempSync(join(tmpdir(), 'storage-perf-module-size-'));
    try {
      const main =
        'resource "google_compute_instance" "vm" {\n  name = "a"\n  machine_type = "n2-standard-8"\n  zone = "us-central1-a"\n}\n';
      writeFileSync(join(dir, 'main.tf'), main);
      writeFileSync(join(dir, 'z.tf.json'), `{"locals": {"x": "${'a'.repeat(MAX_MODULE_BYTES)}"}}`);
      const input = inputForFile(join(dir, 'main.tf'), main);
      const a = analyze(input.text, { frontEnd: input.frontEnd });
      const d = find(a, 'terraform-module-size');
      assert.equal(d.severity, 'error');
      assert.match(d.message, /^z\.tf\.json is left out: the module's files would take more than 33554432 bytes/);
      assert.ok(input.text.length < 1000, 'the large file is not in the analysed text');
      assert.equal(a.vms.length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
