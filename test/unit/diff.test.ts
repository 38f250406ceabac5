/**
 * The core of `storage-perf diff`: two analyses compared VM by VM, figures with their binding limits, target
 * verdicts, prices (unknown kept unknown), findings matched by what they say, unchanged VMs counted.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze, diffAnalyses, EvaluationCache, frontEndFor, type DiffRecord } from '../../core/src';
import { vmMoney } from '../../core/src/diff/items';
import { SPEC_HEAD, vmLines } from '../../bench/specs';
import { fleet, SSD, spec, vm } from '../fixtures/diff-specs';

const ROOT = resolve(__dirname, '../../..');

function diff(base: string, head: string, cache: EvaluationCache | undefined = new EvaluationCache()): DiffRecord {
  return diffAnalyses({ analysis: analyze(base, { cache }), path: 'base' }, { analysis: analyze(head, { cache }), path: 'head' });
}

describe('diff (core)', () => {
  it('a larger machine moves the binding limit of the disk from the VM to its size', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-32', SSD)));
    assert.equal(r.vms.length, 1);
    const v = r.vms[0];
    assert.deepEqual(v.machine_type, { before: 'n2-standard-8', after: 'n2-standard-32' });
    const read = v.disks[0].figures.read_iops;
    // pd-ssd 500 GiB: 6,000 + 30 × 500 = 21,000 on its own; n2-standard-8 holds it to 15,000.
    assert.deepEqual(read, { before: 15000, after: 21000, limited_by: { before: 'vm', after: 'size' }, limit_changed: true });
    assert.match(r.summary, /^1 VM changed: .*\+\$\d[\d,]*\.\d\d\/month; 0 VMs unchanged$/);
  });

  it('a cheaper disk type that misses the target: now missed, by how much, and the error that appeared', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-8', 'type: pd-standard\nsize: 500GiB')));
    const w = r.vms[0].workloads[0];
    assert.equal(w.verdict, 'now missed');
    assert.deepEqual(w.target, { before: 'met', after: 'missed' });
    assert.ok(w.headroom.after! < -0.9, `pd-standard's few hundred IOPS are far short of 12,000: ${w.headroom.after}`);
    assert.equal(r.counts.targets_now_missed, 1);
    assert.ok(r.vms[0].findings.appeared.some((f) => f.code === 'target-unreachable' && f.severity === 'error' && f.vm === 'db'));
    assert.ok(r.counts.errors_appeared >= 1);
    assert.match(r.summary, /1 target now missed/);
    // The cheaper disk saves money: $0.17 → $0.04 per GiB-month on 500 GiB.
    assert.equal(r.vms[0].disks[0].monthly_cost.delta, -65);
  });

  it('a resize: the cost change of the disk, the VM and the file, in cents', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-8', 'type: pd-ssd\nsize: 1000GiB')));
    const v = r.vms[0];
    // 500 more GiB of pd-ssd at $0.17.
    assert.equal(v.disks[0].monthly_cost.delta, 85);
    assert.deepEqual(v.disks[0].size_gib, { before: 500, after: 1000 });
    assert.equal(v.monthly_cost.disks.delta, 85);
    assert.equal(v.monthly_cost.machine.delta, 0);
    assert.equal(v.monthly_cost.total.delta, 85);
    assert.equal(r.monthly_cost.delta, 85);
    assert.match(r.summary, /\+\$85\.00\/month/);
  });

  it('a VM added and one removed; unchanged VMs counted, not listed', () => {
    const keep = vm('web', 'n2-standard-4', 'type: pd-balanced\nsize: 100GiB', 1000);
    const r = diff(spec(keep + vm('old', 'n2-standard-8', SSD)), spec(vm('new', 'n2-standard-16', SSD) + keep));
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.change]),
      [
        ['new', 'added'],
        ['old', 'removed'],
      ],
    );
    assert.equal(r.counts.vms_unchanged, 1);
    const added = r.vms[0];
    assert.equal(added.monthly_cost.total.before, null);
    assert.equal(added.monthly_cost.total.delta, added.monthly_cost.total.after!.amount);
    assert.equal(r.vms[1].monthly_cost.total.delta, -r.vms[1].monthly_cost.total.before!.amount!);
    assert.match(r.summary, /^1 VM added, 1 removed: .*; 1 VM unchanged$/);
    // The web VM moved: its findings moved with it, neither appeared nor gone.
    assert.ok(!r.vms.some((v) => v.name === 'web'));
  });

  it('a renamed disk is removed and added', () => {
    const r = diff(spec(vm('db', 'n2-standard-8', SSD)), spec(vm('db', 'n2-standard-8', SSD).replace(/name: data/, 'name: pgdata')));
    const disks = r.vms[0].disks.map((d) => [d.name, d.change]);
    assert.deepEqual(disks, [
      ['pgdata', 'added'],
      ['data', 'removed'],
    ]);
  });

  it('a disk of a Terraform plan renamed (its `name`) is matched by its address: no change to report', () => {
    const plan = readFileSync(join(ROOT, 'test/fixtures/terraform/plans/gcp.json'), 'utf8');
    const renamed = plan.replace(/"name": "shared-data"/g, '"name": "shared-pgdata"');
    assert.notEqual(renamed, plan);
    const frontEnd = frontEndFor('plan.json');
    const cache = new EvaluationCache();
    const r = diffAnalyses(
      { analysis: analyze(plan, { cache, frontEnd }), path: 'plan.json' },
      { analysis: analyze(renamed, { cache, frontEnd }), path: 'plan.json' },
    );
    assert.deepEqual(r.vms, [], JSON.stringify(r.vms));
    assert.equal(r.counts.vms_unchanged, 4);
    // A resize of that disk is a change of the disk at that address, on both VMs that attach it.
    const resized = plan.replace(/("name": "shared-data",[^}]*?"size": )(\d+)/, (_m, p: string, n: string) => `${p}${Number(n) * 2}`);
    assert.notEqual(resized, plan);
    const s = diffAnalyses(
      { analysis: analyze(plan, { cache, frontEnd }), path: 'plan.json' },
      { analysis: analyze(resized, { cache, frontEnd }), path: 'plan.json' },
    );
    assert.ok(s.vms.length >= 1);
    for (const v of s.vms) {
      assert.ok(v.disks.every((d) => d.change === 'changed'));
      const shared = v.disks.find((d) => d.name === 'google_compute_disk.shared')!;
      assert.equal(shared.size_gib.after, shared.size_gib.before! * 2);
    }
  });

  it('a price unknown on one side stays unknown: no delta, never 0', () => {
    const extreme = 'type: pd-extreme\nsize: 1000GiB\nprovisioned_iops: 20000';
    const r = diff(spec(vm('db', 'n2-standard-64', SSD), 'europe-west4'), spec(vm('db', 'n2-standard-64', extreme), 'europe-west4'));
    const d = r.vms[0].disks[0].monthly_cost;
    assert.equal(d.before!.complete, true);
    assert.equal(d.after!.complete, false);
    assert.equal(d.delta, null);
    assert.equal(r.vms[0].monthly_cost.total.delta, null);
    assert.deepEqual(r.vms[0].monthly_cost.total.after!.missing, ['IOPS price unknown in europe-west4']);
    assert.equal(r.monthly_cost.delta, null);
    assert.match(r.summary, /monthly cost change unknown \(IOPS price unknown in europe-west4\)/);
    assert.doesNotMatch(r.summary, /\$0\.00/);
  });

  it('shares one evaluation cache: 1 VM of 100 changed is listed alone, the same as analysed apart', () => {
    const lines = (changed: number) => {
      const out = [...SPEC_HEAD];
      for (let i = 0; i < 100; i++) out.push(...vmLines(`vm${i}`, i, i === changed ? i + 1 : i));
      return out.join('\n') + '\n';
    };
    const base = lines(-1),
      head = lines(42);
    const shared = diff(base, head);
    assert.equal(shared.counts.vms_unchanged, 99);
    assert.deepEqual(
      shared.vms.map((v) => v.name),
      ['vm42'],
    );
    // Without a shared cache every pair is compared through its reports: the same record.
    assert.deepEqual(diff(base, head, undefined), shared);
  });

  it('a target that moved: its values before and after, beside the verdict', () => {
    // pd-ssd 500 GiB on n2-standard-8 reaches 15,000 IOPS: 12,000 is met, 20,000 missed.
    const r = diff(spec(vm('db', 'n2-standard-8', SSD, 12000)), spec(vm('db', 'n2-standard-8', SSD, 20000)));
    const w = r.vms[0].workloads[0];
    assert.equal(w.verdict, 'now missed');
    assert.deepEqual(w.target_values, { before: { iops: 12000 }, after: { iops: 20000 } });
    // A target lowered that stays met is a change too, though the verdict and the figures are the same.
    const lowered = diff(spec(vm('db', 'n2-standard-8', SSD, 12000)), spec(vm('db', 'n2-standard-8', SSD, 10000)));
    assert.deepEqual(
      lowered.vms.flatMap((v) => v.workloads.map((x) => [x.name, x.verdict, x.target_values])),
      [['oltp', 'still met', { before: { iops: 12000 }, after: { iops: 10000 } }]],
    );
  });

  it('no change: a summary that says so', () => {
    const text = spec(vm('db', 'n2-standard-8', SSD));
    const r = diff(text, text);
    assert.equal(r.summary, 'No change in figures, targets, cost or findings (1 VM unchanged)');
    assert.equal(r.monthly_cost.delta, 0);
  });
});

describe('diff: a side that is not there (a file the change adds or deletes)', () => {
  const text = spec(vm('a', 'n2-standard-32', SSD) + vm('b', 'n2-standard-32', 'type: pd-standard\nsize: 500GiB'));

  it('nothing → a spec: every VM added, its findings new, its cost the change', () => {
    const a = analyze(text);
    const r = diffAnalyses({ path: 'x.perf.yaml', ref: 'main' }, { analysis: a, path: 'x.perf.yaml' });
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.change]),
      [
        ['a', 'added'],
        ['b', 'added'],
      ],
    );
    assert.deepEqual([r.base.exists, r.base.vms, r.base.catalog, r.head.exists], [false, 0, null, true]);
    assert.deepEqual(r.base.monthly_cost, { amount: 0, complete: true, missing: [] });
    assert.equal(r.monthly_cost.delta, a.monthly_cost);
    assert.equal(r.counts.findings_appeared, a.diagnostics.length);
    assert.equal(r.counts.targets_now_missed, 1);
    assert.match(r.summary, /^New file, 2 VMs added: 1 target now missed, /);
  });

  it('a spec → nothing: every VM removed, its findings gone', () => {
    const a = analyze(text);
    const r = diffAnalyses({ analysis: a, path: 'x.perf.yaml', ref: 'main' }, { path: 'x.perf.yaml' });
    assert.deepEqual(
      r.vms.map((v) => [v.name, v.change]),
      [
        ['a', 'removed'],
        ['b', 'removed'],
      ],
    );
    assert.deepEqual([r.counts.findings_appeared, r.counts.findings_gone], [0, a.diagnostics.length]);
    assert.equal(r.currency, 'USD');
    assert.match(r.summary, /^Deleted file, 2 VMs removed: /);
  });
});

describe('diff: findings are compared before the per-file cap', () => {
  // 221 targets missed, then 117: more than a file lists of one code (100) on both sides.
  const base = fleet(221, 0),
    head = fleet(221, 104);

  it('an analysis for a diff keeps every finding: none is counted in more-findings', () => {
    const all = analyze(base, { allFindings: true }).diagnostics;
    assert.equal(all.filter((d) => d.code === 'target-unreachable').length, 221);
    assert.ok(!all.some((d) => d.code === 'more-findings'));
    // The cap is for display: a plain analysis still lists 100 and counts the rest.
    const capped = analyze(base).diagnostics;
    assert.equal(capped.filter((d) => d.code === 'target-unreachable').length, 100);
    assert.ok(capped.some((d) => d.code === 'more-findings' && /^121 more target-unreachable/.test(d.message)));
  });

  it('221 missed targets cut to 117: 104 findings gone, none new, the VMs left alone unchanged', () => {
    const cache = new EvaluationCache();
    const side = (text: string, path: string) => ({ analysis: analyze(text, { cache, allFindings: true }), path });
    const r = diffAnalyses(side(base, 'base'), side(head, 'head'));
    assert.equal(r.counts.findings_appeared, 0, JSON.stringify(r.vms.flatMap((v) => v.findings.appeared).slice(0, 3)));
    assert.equal(r.counts.errors_appeared, 0);
    const gone = r.vms.flatMap((v) => v.findings.gone).filter((f) => f.code === 'target-unreachable');
    assert.equal(gone.length, 104);
    assert.equal(r.counts.targets_now_met, 104);
    assert.deepEqual([r.counts.vms_changed, r.counts.vms_unchanged], [104, 117]);
    assert.ok(![...r.findings.appeared, ...r.findings.gone].some((f) => f.code === 'more-findings'));
  });
});

describe('diff: a partial machine price stays partial', () => {
  it("a template's machine price with instances not priced (an autoscaled group) is not shown as whole", () => {
    const v = {
      machine_monthly_cost: 100,
      machine_monthly_cost_complete: false,
      disks: [],
      disks_monthly_cost: 0,
      monthly_cost: 100,
      monthly_cost_complete: false,
      monthly_cost_missing: ['the 2–10 instances x scales y to'],
    } as unknown as Parameters<typeof vmMoney>[0];
    const m = vmMoney(v);
    assert.equal(m.machine?.complete, false);
    assert.equal(vmMoney({ ...v!, machine_monthly_cost_complete: true }).machine?.complete, true);
  });
});
