/**
 * `evaluate plan.json` with the module's .tf files beside the plan: an attachment whose instance is named by index
 * arithmetic joins the VM Terraform will attach it to, as the .tf files evaluate it with the plan's variables.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../fixtures/lint-cli';
import { MAIN_TF, planOf } from '../fixtures/index-arithmetic-plan';

interface Report {
  files: Array<{ vms: Array<{ name: string; disks: Array<{ name: string }> }> }>;
}

describe('evaluate: a plan beside its .tf files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sp-plan-beside-'));
    writeFileSync(join(dir, 'plan.json'), planOf(2));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const disks = () => {
    const r = spawnSync(process.execPath, [BIN, 'evaluate', 'plan.json', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
    const report = JSON.parse(r.stdout) as Report;
    return report.files[0].vms.map((v) => [v.name, v.disks.slice(1).map((d) => d.name)]);
  };

  it('joins each attachment through the index expression of main.tf', () => {
    writeFileSync(join(dir, 'main.tf'), MAIN_TF);
    assert.deepEqual(disks(), [
      ['google_compute_instance.test[0]', ['google_compute_disk.data[0]', 'google_compute_disk.data[1]']],
      ['google_compute_instance.test[1]', ['google_compute_disk.data[2]', 'google_compute_disk.data[3]']],
    ]);
  });

  it('without them, joins none (never the same-index guess)', () => {
    assert.deepEqual(disks(), [
      ['google_compute_instance.test[0]', []],
      ['google_compute_instance.test[1]', []],
    ]);
  });
});
