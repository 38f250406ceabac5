/**
 * A plan's joins by index arithmetic: `instance = google_compute_instance.test[floor(count.index / var.disks_per_vm)].id`.
 * The plan's `configuration` lists the expression's references, not the expression, and the instance's id is known
 * only after apply. Alone, the plan joins such an attachment to no VM and says which input it would need (never the
 * VM of the same index: that is a guess, and a wrong one); with the .tf files beside it
 * (core/src/terraform/plan-sources-join.ts), the index is evaluated for each instance with the plan's variables,
 * through the .tf reading's evaluator, as Terraform will.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, parseTerraformPlan, planFrontEndWithSources, type HclParse } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { MAIN_TF, planOf } from '../fixtures/index-arithmetic-plan';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

const disksOf = (r: ReturnType<typeof fileReport>) => r.vms.map((v) => [v.name, v.disks.slice(1).map((d) => [d.name, d.size_gib])]);

describe('terraform plan: joins by index arithmetic', () => {
  it('with the .tf files beside it, each attachment joins the VM its index expression names', () => {
    const text = planOf(2);
    const a = analyze(text, { frontEnd: planFrontEndWithSources({ parse, files: [{ path: 'main.tf', text: MAIN_TF }] }) });
    assert.deepEqual(disksOf(fileReport('plan.json', a)), [
      [
        'google_compute_instance.test[0]',
        [
          ['google_compute_disk.data[0]', 100],
          ['google_compute_disk.data[1]', 110],
        ],
      ],
      [
        'google_compute_instance.test[1]',
        [
          ['google_compute_disk.data[2]', 120],
          ['google_compute_disk.data[3]', 130],
        ],
      ],
    ]);
    assert.ok(!a.diagnostics.some((d) => d.code === 'terraform-unattached-disk'), a.diagnostics.map((d) => d.message).join('\n'));
  });

  it("the plan's variables are the ones evaluated: 3 disks per VM put disks 0-2 on the first VM", () => {
    const a = analyze(planOf(3), { frontEnd: planFrontEndWithSources({ parse, files: [{ path: 'main.tf', text: MAIN_TF }] }) });
    assert.deepEqual(
      disksOf(fileReport('plan.json', a)).map(([vm, disks]) => [vm, (disks as unknown[][]).map((d) => d[0])]),
      [
        ['google_compute_instance.test[0]', ['google_compute_disk.data[0]', 'google_compute_disk.data[1]', 'google_compute_disk.data[2]']],
        ['google_compute_instance.test[1]', ['google_compute_disk.data[3]', 'google_compute_disk.data[4]', 'google_compute_disk.data[5]']],
      ],
    );
  });

  it('alone, the plan joins none of them by the same index, and says the input it cannot evaluate', () => {
    const text = planOf(2);
    const a = analyze(text, { frontEnd: parseTerraformPlan });
    const r = fileReport('plan.json', a);
    // Not google_compute_disk.data[1] on google_compute_instance.test[1]: that would be the same-index guess.
    assert.deepEqual(disksOf(r), [
      ['google_compute_instance.test[0]', []],
      ['google_compute_instance.test[1]', []],
    ]);
    // One finding for the four instances, on the expression's references in the plan's configuration.
    const found = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value');
    assert.deepEqual(
      found.map((d) => d.message),
      [
        "google_compute_attached_disk.a's instance: the instance of google_compute_instance.test it names is computed from var.disks_per_vm, which the plan does not show how: it is joined to none, never by guess; give the plan's .tf files beside it (4 instances)",
      ],
    );
    assert.equal(text.slice(found[0].span.start, found[0].span.end).startsWith('{'), true);
  });

  it('beside .tf files that cannot evaluate the index, the join is none and the finding names why', () => {
    const tf = MAIN_TF.replace('floor(count.index / var.disks_per_vm)', 'floor(count.index / var.missing)').replace(
      'variable "vms" {',
      'variable "missing" {\n  type = number\n}\nvariable "vms" {',
    );
    const a = analyze(planOf(2), { frontEnd: planFrontEndWithSources({ parse, files: [{ path: 'main.tf', text: tf }] }) });
    assert.deepEqual(
      disksOf(fileReport('plan.json', a)).map(([, d]) => d),
      [[], []],
    );
    const found = a.diagnostics.filter((d) => d.code === 'terraform-unknown-value').map((d) => d.message);
    assert.match(
      found[0],
      /^google_compute_attached_disk\.a's instance: the instance it names is unknown until plan \(var\.missing has no value\)/,
    );
  });
});
