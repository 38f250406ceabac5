/** The report view's HTML, from the server's report of the shipped example and of hand-made specs. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyze, fmt, parseTerraformPlan } from '../../core/src';
import { specReport } from '../../server/src/features/report';
import { chartBars, messageHtml, reportHtml } from '../../client/src/report-html';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/storage.perf.yaml');
const reportOf = (text: string) => specReport(pathToFileURL(EXAMPLE).href, analyze(text), (t) => analyze(t));
const opts = { nonce: 'n0nce', title: 'storage.perf.yaml' };

describe('report view HTML', () => {
  const report = reportOf(readFileSync(EXAMPLE, 'utf8'));
  const html = reportHtml(report, opts);

  it("has a table of disks and one of workloads per VM, with the server's figures", () => {
    assert.equal((html.match(/<h2>VM /g) ?? []).length, report.vms.length);
    for (const vm of report.vms) {
      assert.ok(html.includes(`<h2>VM ${vm.name}`));
      for (const d of vm.disks) assert.match(html, new RegExp(`<td>${d.name}</td><td>${d.type}</td>.*?${fmt(d.read_iops!)}`));
      for (const w of vm.workloads) assert.ok(html.includes(`<td>${w.name}</td>`));
    }
    assert.ok(report.monthly_cost_text && html.includes(report.monthly_cost_text));
  });

  it('charts IOPS and throughput, with a target mark for every target the workloads set', () => {
    const targets = report.vms.flatMap((vm) => vm.workloads.flatMap((w) => Object.values(w.target))).length;
    assert.ok(targets >= 2);
    assert.equal((html.match(/<svg class="chart"/g) ?? []).length, 2);
    assert.equal((html.match(/<line class="target"/g) ?? []).length, targets);
    const iops = chartBars(report, 'iops');
    const oltp = report.vms[0].workloads.find((w) => w.name === 'oltp')!;
    assert.deepEqual(
      iops.find((b) => b.label === 'oltp IOPS'),
      { label: 'oltp IOPS', achieved: oltp.read_iops! + oltp.write_iops!, target: oltp.target.iops },
    );
  });

  it("is static: no script, and a CSP that allows only its own nonce'd stylesheet", () => {
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /content="default-src 'none'; style-src 'nonce-n0nce';"/);
    assert.match(html, /<style nonce="n0nce">/);
  });

  it('escapes what comes from the spec', () => {
    const text = readFileSync(EXAMPLE, 'utf8').replace('- name: db', '- name: "<img src=x onerror=alert(1)>"');
    const h = reportHtml(reportOf(text), { ...opts, title: '<b>t</b>' });
    assert.doesNotMatch(h, /<img|<b>t/);
    assert.ok(h.includes('&#60;img src=x onerror=alert(1)&#62;'));
    assert.doesNotMatch(messageHtml('<i>x</i>', opts), /<i>x/);
  });

  it('lists the alternatives the advice found, each evaluated as if applied', () => {
    // The example's n2-standard-8 caps 'data' at 15,000 IOPS; n2-standard-16 lifts it (21,000, the disk's own).
    const alt = report.alternatives.find((a) => a.change.startsWith('Change machine to n2-standard-16'));
    assert.ok(alt, JSON.stringify(report.alternatives.map((a) => a.change)));
    assert.equal(alt.vm, 'db');
    const before = report.vms[0].monthly_cost!;
    assert.ok(alt.monthly_cost! > before);
    // The report's costs are rounded to cents; the alternative's change is to the unrounded cost.
    assert.ok(Math.abs(alt.monthly_cost! - before - alt.monthly_cost_change!) < 0.01);
    const oltp = alt.workloads.find((w) => w.name === 'oltp')!;
    assert.equal(Math.round(oltp.iops), 21000);
    assert.notEqual(oltp.limited_by, 'vm');
    assert.match(html, /<h2>Alternatives<\/h2>/);
    assert.match(html, /<td>Change machine to n2-standard-16<\/td>/);
    assert.match(html, /oltp: 21,000 IOPS/);
  });

  it('lists the disks a Terraform configuration attaches to no VM, with their price, after the VMs', () => {
    const planText = JSON.stringify({
      format_version: '1.2',
      planned_values: {
        root_module: {
          resources: [
            {
              address: 'aws_ebs_volume.archive',
              mode: 'managed',
              type: 'aws_ebs_volume',
              name: 'archive',
              values: { availability_zone: 'us-east-1a', type: 'st1', size: 16000 },
            },
          ],
        },
      },
      configuration: { root_module: { resources: [] } },
    });
    const a = analyze(planText, { frontEnd: parseTerraformPlan });
    const html = reportHtml(
      specReport('file:///plan.json', a, (t) => analyze(t, { frontEnd: parseTerraformPlan })),
      opts,
    );
    assert.match(html, /<h2>Disks attached to no VM<\/h2>/);
    assert.match(
      html,
      /<td>aws_ebs_volume\.archive<\/td><td>st1<\/td><td class="n">16,000<\/td><td>us-east-1<\/td><td class="n"><span title="[^"]*">\$720\.00<\/span><\/td>/,
    );
  });
});
