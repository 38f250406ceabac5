/**
 * A design fix's cost in its title (core/src/language/fix-cost.ts): the change of the VMs it changes, from the spec
 * analysed again with it applied, whatever the file's other VMs cost or lack.
 */
import * as assert from 'node:assert/strict';
import { analyze, fileReport, fmtMoney, textWithFix, titleWithCost, type Analysis, type FixData } from '../../core/src';

/** 'db' holds a disk its machine cannot attach (fixed by another type); 'other' is a VM of its own. */
const spec = (db: string, otherMachine: string) => `version: 1
provider: gcp
catalog: gcp-2024
region: us-central1
vms:
  - name: db
    machine_type: n2-standard-8
    disks:
${db}  - name: other
    machine_type: ${otherMachine}
    disks:
      - name: boot
        type: hyperdisk-balanced
        size: 100GiB
`;
const EXTREME = '      - name: data\n        type: pd-extreme\n        size: 600GiB\n        provisioned_iops: 10000\n';
const TOO_SMALL = '      - name: data\n        type: pd-balanced\n        size: 0.5GiB\n';
// gcp-2024 prices no N4D machine: a VM on one has a partial total, and so has the file.
const UNPRICED = 'n4d-standard-8';
const PRICED = 'n2-standard-8';

const money = (s: string) => Number(s.replace(/,/g, ''));

function titled(text: string, code: string): { a: Analysis; fix: FixData; title: string } {
  const a = analyze(text);
  const d = a.diagnostics.find((x) => x.code === code);
  const fix = d?.fixes?.find((f) => f.preferred);
  assert.ok(fix, `${code} with a preferred fix: ${a.diagnostics.map((x) => x.code).join(', ')}`);
  return { a, fix, title: titleWithCost(a, fix, (t) => analyze(t)) };
}

describe("a design fix's cost", () => {
  it('is the change of the VM it changes, even where another VM of the file lacks a price', () => {
    const unpriced = titled(spec(EXTREME, UNPRICED), 'disk-type-not-on-machine');
    assert.equal(unpriced.a.monthly_cost_complete, false, 'the file total is partial');
    assert.doesNotMatch(unpriced.title, /unknown/);
    const m = /^Use pd-ssd \(([+−])\$([\d,.]+)\/month; 'db' then \$([\d,.]+)\/month\)$/.exec(unpriced.title);
    assert.ok(m, unpriced.title);
    // Applied and analysed again: the VM's cost moves by what the title says, to what it says.
    const before = fileReport('x', unpriced.a).vms[0];
    const after = fileReport('x', analyze(textWithFix(unpriced.a, unpriced.fix))).vms[0];
    assert.equal(after.disks[0].type, 'pd-ssd');
    assert.equal(Math.round((after.monthly_cost! - before.monthly_cost!) * 100), Math.round((m[1] === '+' ? 1 : -1) * money(m[2]) * 100));
    assert.equal(Math.round(after.monthly_cost! * 100), Math.round(money(m[3]) * 100));
    // The same change where every VM is priced: the same cost, and the file's total after it.
    const priced = titled(spec(EXTREME, PRICED), 'disk-type-not-on-machine');
    const file = analyze(textWithFix(priced.a, priced.fix)).monthly_cost!;
    assert.equal(priced.title, `Use pd-ssd (${m[1]}$${m[2]}/month; the file then ${fmtMoney(file, 'USD')}/month)`);
  });

  it("of a disk that has no price today (a size out of range) is what its VM then costs, where the file's total is partial", () => {
    const t = titled(spec(TOO_SMALL, UNPRICED), 'size-out-of-range');
    const m = /^Set size to 10GiB \('db' then \$([\d,.]+)\/month\)$/.exec(t.title);
    assert.ok(m, t.title);
    const after = fileReport('x', analyze(textWithFix(t.a, t.fix))).vms[0];
    assert.equal(after.monthly_cost_complete, true);
    assert.equal(Math.round(after.monthly_cost! * 100), Math.round(money(m[1]) * 100));
  });
});
