/**
 * Disks a Terraform configuration creates and attaches to no VM (`terraform-unattached-disk`): they have no figures,
 * but they are paid for, so they are priced apart, listed in the report's `unattached_disks`, part of the file's
 * total (never of a VM's), and seen by the diff. Plans follow Terraform's documented JSON output format,
 * https://developer.hashicorp.com/terraform/internals/json-format; attribute names are the providers'
 * (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ebs_volume, .../google/latest/docs/
 * resources/compute_disk and compute_region_disk).
 */
import * as assert from 'node:assert/strict';
import { planText, type PlanResourceInput } from '../helpers';
import { analyze, diffAnalyses, fileReport, parseTerraformPlan } from '../../core/src';

const run = (text: string) => analyze(text, { frontEnd: parseTerraformPlan });
const app: PlanResourceInput = {
  type: 'aws_instance',
  name: 'app',
  values: { instance_type: 'm6i.large', availability_zone: 'us-east-1a', root_block_device: [{ volume_type: 'gp3', volume_size: 50 }] },
};
const archive = (values: object = {}): PlanResourceInput => ({
  type: 'aws_ebs_volume',
  name: 'archive',
  values: { availability_zone: 'us-east-1a', type: 'st1', size: 16000, tags: { Name: 'archive' }, ...values },
});

describe('terraform: disks attached to no VM', () => {
  it('a volume attached to nothing is priced apart and in the file total, never in a VM’s', () => {
    const a = run(planText([app, archive()]));
    const r = fileReport('plan.json', a);
    // aws-2025: st1 is $0.045 per GiB-month in us-east-1.
    assert.deepEqual(r.unattached_disks, [
      {
        name: 'aws_ebs_volume.archive',
        resource_name: 'archive',
        type: 'st1',
        size_gib: 16000,
        region: 'us-east-1',
        monthly_cost: 720,
        monthly_cost_complete: true,
        monthly_cost_missing: [],
        cost_explanation: r.unattached_disks![0].cost_explanation,
      },
    ]);
    assert.match(r.unattached_disks![0].cost_explanation, /^16,000 GiB × \$0\.045 per month = \$720\.00 \(aws-2025: /);
    assert.equal(r.vms.length, 1);
    assert.ok(!r.vms[0].disks.some((d) => d.name === 'aws_ebs_volume.archive'));
    assert.equal(r.monthly_cost, Math.round((r.vms[0].monthly_cost! + 720) * 100) / 100);
    assert.equal(r.monthly_cost_complete, true);
    const said = a.diagnostics.find((d) => d.code === 'terraform-unattached-disk')!;
    assert.match(said.message, /attached to no VM .*: no figures here; priced apart, as not attached$/);
  });

  it('one that cannot be priced is listed with why, and the file total is partial, naming it', () => {
    const r = fileReport('plan.json', run(planText([app, archive({ size: undefined })])));
    const why = "aws_ebs_volume.archive's size is known only after apply";
    assert.deepEqual(
      r.unattached_disks!.map((d) => [
        d.name,
        d.size_gib,
        d.monthly_cost,
        d.monthly_cost_complete,
        d.monthly_cost_missing,
        d.cost_explanation,
      ]),
      [['aws_ebs_volume.archive', null, null, false, [why], why]],
    );
    assert.equal(r.monthly_cost, r.vms[0].monthly_cost);
    assert.deepEqual([r.monthly_cost_complete, r.monthly_cost_missing], [false, [why]]);
    // A size St1 does not come in: not priced either.
    const big = fileReport('plan.json', run(planText([app, archive({ size: 20000 })])));
    assert.deepEqual(big.monthly_cost_missing, ["disk 'aws_ebs_volume.archive' has a size st1 does not come in"]);
  });

  it('a configuration of disks alone is priced, with the finding that it has no VM', () => {
    const a = run(planText([archive()]));
    assert.ok(a.diagnostics.some((d) => d.code === 'terraform-no-instances'));
    const r = fileReport('plan.json', a);
    assert.deepEqual([r.vms.length, r.monthly_cost, r.monthly_cost_complete, r.catalog], [0, 720, true, 'aws-2025']);
  });

  it('Google: a regional disk at the regional price of its own region; a zonal one in its zone’s region', () => {
    const vm: PlanResourceInput = {
      type: 'google_compute_instance',
      name: 'db',
      values: {
        machine_type: 'n2-standard-8',
        zone: 'us-central1-a',
        boot_disk: [{ initialize_params: [{ type: 'pd-balanced', size: 20 }] }],
      },
    };
    const r = fileReport(
      'plan.json',
      run(
        planText([
          vm,
          { type: 'google_compute_region_disk', name: 'dr', values: { name: 'dr', type: 'pd-ssd', size: 100, region: 'europe-west4' } },
          { type: 'google_compute_disk', name: 'spare', values: { name: 'spare', type: 'pd-ssd', size: 100, zone: 'europe-west4-b' } },
        ]),
      ),
    );
    // gcp-2024: pd-ssd is $0.187 (zonal) and $0.374 (regional) per GiB-month in europe-west4.
    assert.deepEqual(
      r.unattached_disks!.map((d) => [d.name, d.region, d.monthly_cost]),
      [
        ['google_compute_region_disk.dr', 'europe-west4', 37.4],
        ['google_compute_disk.spare', 'europe-west4', 18.7],
      ],
    );
    assert.equal(r.monthly_cost, Math.round((r.vms[0].monthly_cost! + 37.4 + 18.7) * 100) / 100);
  });

  it('the diff sees a disk added that no VM uses: its price, and the file total’s change', () => {
    const base = run(planText([app]));
    const head = run(planText([app, archive()]));
    const d = diffAnalyses({ analysis: base, path: 'base.json' }, { analysis: head, path: 'head.json' });
    assert.equal(d.monthly_cost.delta, 720);
    assert.deepEqual(
      d.unattached_disks.map((x) => [x.name, x.change, x.type.after, x.size_gib.after, x.monthly_cost.delta]),
      [['aws_ebs_volume.archive', 'added', 'st1', 16000, 720]],
    );
    assert.match(d.summary, /1 disk attached to no VM added.*\+\$720\.00\/month/);
    const same = diffAnalyses({ analysis: head, path: 'a.json' }, { analysis: run(planText([app, archive()])), path: 'b.json' });
    assert.deepEqual(same.unattached_disks, []);
  });
});
