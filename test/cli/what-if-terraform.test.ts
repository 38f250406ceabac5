/**
 * `evaluate --set ADDRESS.ATTRIBUTE=VALUE` on Terraform input: a plan, a .tf file. The value the resource writes
 * is changed in memory; what it cannot change alone is refused with the reason, exit 2.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BIN, ROOT } from '../fixtures/lint-cli';

const evaluate = (args: string[]) => spawnSync(process.execPath, [BIN, 'evaluate', ...args], { cwd: ROOT, encoding: 'utf8' });
const SET = 'google_compute_instance.db.machine_type=n2-standard-16';

describe('evaluate --set with a Terraform address', () => {
  for (const file of ['test/fixtures/terraform/planned/plan.json', 'test/fixtures/terraform/planned/main.tf']) {
    it(`${file}: the machine changed by address, the figures before and after`, () => {
      const r = evaluate([file, '--set', SET, '--format', 'json']);
      assert.equal(r.stderr, '');
      const f = JSON.parse(r.stdout).files[0];
      assert.equal(f.what_if.before.vms.find((v: { name: string }) => v.name === 'google_compute_instance.db').machine_type, null);
      const db = f.vms.find((v: { name: string }) => v.name === 'google_compute_instance.db');
      assert.equal(db.machine_type, 'n2-standard-16');
      assert.ok(db.disks.every((d: { read_iops: number | null }) => d.read_iops !== null));
    });
  }
  it('one instance of a count block written once: refused, naming the instances', () => {
    const r = evaluate(['test/fixtures/terraform/public/main.tf', '--set', 'google_compute_instance.node[0].machine_type=n2-standard-8']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /machine_type is written once for 3 instances \(google_compute_instance\.node\[0\], /);
  });
  it('an address the configuration lacks, and an attribute storage-perf does not read: said, with the nearest address', () => {
    const r = evaluate(['test/fixtures/terraform/public/main.tf', '--set', 'google_compute_instance.nod[0].machine_type=n2-standard-8']);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /no VM or disk google_compute_instance\.nod\[0\] in this configuration; did you mean google_compute_instance\.node\[0\]\?/,
    );
    const z = evaluate(['test/fixtures/terraform/public/main.tf', '--set', 'google_compute_instance.node[0].zone=europe-west4-a']);
    assert.equal(z.status, 2);
    assert.match(z.stderr, /zone is not a value storage-perf reads; it sets machine_type, /);
  });
  it('a value from a variable is not a literal of the resource: refused', () => {
    const r = evaluate(['test/fixtures/terraform/module', '--set', 'google_compute_instance.app["a"].machine_type=n2-standard-16']);
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stderr, /machine_type is not a literal written in it \(a variable, a local or an expression\): set that instead/);
    const block = evaluate(['test/fixtures/terraform/module', '--set', 'google_compute_instance.app.machine_type=n2-standard-16']);
    assert.match(
      block.stderr,
      /google_compute_instance\.app has instances \(google_compute_instance\.app\["a"\], google_compute_instance\.app\["b"\]\): name one/,
    );
  });
});
