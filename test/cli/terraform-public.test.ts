/**
 * Terraform written as public modules write it (test/fixtures/terraform/public): a `count = var.x ? 1 : 0`
 * replica, a `count = var.node_count` pool, a `random_id` and a Cloud SQL instance beside the VMs. What a CI
 * user reads of it must name the resource, sit on the .tf argument, and be said once per place.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportDiagnostic } from '../../core/src';
import { lint, ROOT } from '../fixtures/lint-cli';

const PUBLIC = 'test/fixtures/terraform/public';
const tf = readFileSync(join(ROOT, PUBLIC, 'main.tf'), 'utf8').split('\n');
const tfLine = (needle: string) => tf.findIndex((l) => l.includes(needle)) + 1;
const annotations = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::'));

describe('Terraform as public modules write it', () => {
  it('lint plan.json --format github: a count = var.x ? 1 : 0 instance sits on its .tf argument, named by address', async () => {
    const r = await lint([`${PUBLIC}/plan.json`, '--format', 'github'], { cwd: ROOT });
    assert.equal(r.code, 1, r.stderr);
    const bad = annotations(r.stdout).find((l) => l.includes('unknown-machine-type'));
    assert.ok(bad?.startsWith(`::error file=${PUBLIC}/main.tf,line=${tfLine('"n2-standard-7"')},`), r.stdout);
    assert.match(bad!, /::google_compute_instance\.bad\[0\]: n2-standard comes with/);
  });

  it('lint plan.json --format github: the instances of one block are one annotation with their count', async () => {
    const r = await lint([`${PUBLIC}/plan.json`, '--format', 'github'], { cwd: ROOT });
    const sizes = annotations(r.stdout).filter((l) => l.includes('size-out-of-range'));
    assert.equal(sizes.length, 1, r.stdout);
    assert.match(sizes[0], new RegExp(`line=${tfLine(' size = 100')},`));
    assert.match(sizes[0], /::google_compute_instance\.node\.boot_disk: pd-extreme sizes .* \(3 instances\)$/);
  });

  it('lint plan.json --format sarif: the same places and messages', async () => {
    const r = await lint([`${PUBLIC}/plan.json`, '--format', 'sarif'], { cwd: ROOT });
    const results = JSON.parse(r.stdout).runs[0].results as Array<{
      ruleId: string;
      message: { text: string };
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
    }>;
    assert.equal(results.length, 3);
    for (const x of results) assert.match(x.message.text, /^google_compute_instance\.(bad\[0\]|node\.boot_disk): /);
    for (const x of results) assert.match(x.locations[0].physicalLocation.artifactLocation.uri, /main\.tf$/);
  });

  it('every other format names the resource in each finding: stylish, compact, json, junit', async () => {
    for (const format of ['stylish', 'compact', 'junit']) {
      const r = await lint([`${PUBLIC}/plan.json`, '--format', format], { cwd: ROOT });
      assert.equal((r.stdout.match(/google_compute_instance\.(bad|node)\[\d\]/g) ?? []).length >= 7, true, `${format}: ${r.stdout}`);
    }
    const r = await lint([`${PUBLIC}/plan.json`, '--format', 'json'], { cwd: ROOT });
    const all = (JSON.parse(r.stdout) as { files: Array<{ diagnostics: ReportDiagnostic[] }> }).files.flatMap((f) => f.diagnostics);
    assert.equal(all.length, 7);
    for (const d of all) assert.match(d.message, /^google_compute_instance\.(bad|node)\[\d\](\.boot_disk)?: /);
  });

  it('lint main.tf: one finding per place, with the instance count; nothing about random_id or Cloud SQL', async () => {
    const r = await lint([`${PUBLIC}/main.tf`, '--format', 'json'], { cwd: ROOT });
    const all = (JSON.parse(r.stdout) as { files: Array<{ diagnostics: ReportDiagnostic[] }> }).files.flatMap((f) => f.diagnostics);
    assert.deepEqual(
      all.map((d) => [d.code, d.line]),
      [
        // `count = var.enable_replica ? 1 : 0` is resolved from the default, as Terraform does: the replica is read.
        ['unknown-machine-type', tfLine('machine_type = "n2-standard-7"')],
        ['size-out-of-range', tfLine(' size = 100')],
        ['disk-type-not-on-machine', tfLine('type = "pd-extreme"')],
      ],
    );
    assert.match(all[1].message, /^google_compute_instance\.node\.boot_disk: .* \(3 instances\)$/);
    assert.ok(!all.some((d) => /random_id|google_sql/.test(d.message)), JSON.stringify(all));
  });
});
