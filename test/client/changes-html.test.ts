/**
 * The report view's "Changes since last commit" section: the server's diff of a committed text against the open
 * one (server/src/features/diff.ts, the core's diffAnalyses) rendered as HTML. The expected figures come from the
 * record itself, never written here.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyze, EvaluationCache, fmt, fmtMoney, type DiffRecord } from '../../core/src';
import { diffWithBase } from '../../server/src/features/diff';
import { specReport } from '../../server/src/features/report';
import { changesHtml, deltaCell } from '../../client/src/changes-html';
import { limitWord, reportHtml } from '../../client/src/report-html';
import { fleet } from '../fixtures/diff-specs';

const ROOT = resolve(__dirname, '../../..');
const BASE = readFileSync(join(ROOT, 'docs/diff/base.perf.yaml'), 'utf8');
const HEAD = readFileSync(join(ROOT, 'docs/diff/head.perf.yaml'), 'utf8');
const URI = pathToFileURL(join(ROOT, 'docs/diff/storage.perf.yaml')).href;

/** As the server answers: the base analysed with the open document's evaluation cache. */
function diff(base: string, head: string, uri = URI) {
  const cache = new EvaluationCache();
  const analyzeText = (t: string) => analyze(t, { cache });
  return diffWithBase(uri, { text: head, analysis: analyzeText(head) }, { text: base, ref: 'abc1234' }, analyzeText);
}
function record(base: string, head: string): DiffRecord {
  const r = diff(base, head);
  assert.ok('record' in r, 'unavailable' in r ? r.unavailable : '');
  return r.record;
}
/** The table rows of the section as text: cells joined by " | ". */
const rows = (html: string) =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1].replace(/&#39;/g, "'").replace(/&#62;/g, '>')).join(' | '),
  );
const spec = (disk: string, region = 'us-central1') =>
  [
    'version: 1',
    'provider: gcp',
    'catalog: gcp-2024',
    `region: ${region}`,
    'vms:',
    '  - name: db',
    '    machine_type: n2-standard-64',
    '    disks:',
    '      - name: data',
    ...disk.split('\n').map((l) => `        ${l}`),
    '',
  ].join('\n');

describe('report view: changes since last commit', () => {
  const r = record(BASE, HEAD);
  const html = changesHtml({ record: r, commit: 'abc1234def5678' });

  it('the summary line first, then each changed VM (added and removed too) with its headline', () => {
    assert.ok(html.indexOf(`<p class="summary"><strong>${r.summary}</strong></p>`) > 0, r.summary);
    assert.match(html, /Last commit abc1234 → the open text/);
    const vms = [...html.matchAll(/<h3 class="vm-change">VM (\S+) <span class="dim">— (\w+):/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(
      vms,
      r.vms.map((v) => [v.name, v.change]),
    );
    assert.ok(r.vms.some((v) => v.change === 'added') && r.vms.some((v) => v.change === 'removed'));
  });

  it('figures before → after with the limit that binds each, and the limit that changed', () => {
    const db = r.vms.find((v) => v.name === 'db')!;
    const f = db.disks.find((d) => d.name === 'data')!.figures.read_iops;
    assert.ok(f.limit_changed && f.before !== f.after);
    const want = [
      'disk data: read IOPS',
      `${fmt(f.before!)} (${limitWord(f.limited_by.before!)})`,
      `${fmt(f.after!)} (${limitWord(f.limited_by.after!)})`,
      `limit ${limitWord(f.limited_by.before!)} → ${limitWord(f.limited_by.after!)}`,
    ].join(' | ');
    assert.ok(rows(html).includes(want), `no row "${want}" in:\n${rows(html).join('\n')}`);
    assert.ok(rows(html).includes(`machine | ${db.machine_type.before} | ${db.machine_type.after} | `));
  });

  it('targets now missed and now met, with their headroom', () => {
    const w = r.vms.flatMap((v) => v.workloads).find((x) => x.verdict === 'now missed')!;
    assert.ok(w, 'the worked example misses a target');
    const row = rows(html).find((x) => x.startsWith(`workload ${w.name}: target`))!;
    assert.match(row, /\| met \(\+[\d.]+%\) \| missed \(-[\d.]+%\) \| now missed$/);
    assert.match(html, /1 target now missed/);
  });

  it('the cost change per VM and in total, in the record’s currency', () => {
    const db = r.vms.find((v) => v.name === 'db')!;
    const t = db.monthly_cost.total;
    assert.ok(t.delta! > 0);
    assert.ok(
      rows(html).includes(
        `total per month | ${fmtMoney(t.before!.amount!, 'USD')} | ${fmtMoney(t.after!.amount!, 'USD')} | +${fmtMoney(t.delta!, 'USD')}`,
      ),
    );
    assert.ok(html.includes(`(+${fmtMoney(r.monthly_cost.delta!, 'USD')})`));
  });

  it('findings that appeared and went away, by VM and disk', () => {
    const appeared = r.vms.flatMap((v) => v.findings.appeared);
    const gone = r.vms.flatMap((v) => v.findings.gone);
    assert.ok(appeared.length && gone.length);
    for (const f of appeared)
      assert.ok(html.includes(`<li class="${f.severity} appeared">+ ${f.severity} <span class="code">${f.code}</span>`));
    for (const f of gone) assert.ok(html.includes(`<li class="${f.severity} gone">− ${f.severity} <span class="code">${f.code}</span>`));
  });

  it('a price unknown on one side: "price unknown" with what is missing, never $0.00', () => {
    const extreme = record(
      spec('type: pd-ssd\nsize: 500GiB', 'europe-west4'),
      spec('type: pd-extreme\nsize: 1000GiB\nprovisioned_iops: 20000', 'europe-west4'),
    );
    assert.equal(extreme.monthly_cost.delta, null);
    const h = changesHtml({ record: extreme, commit: 'abc1234' });
    assert.ok(h.includes('price unknown (IOPS price unknown in europe-west4)'), h);
    const cost = rows(h).find((x) => x.startsWith('disk data: per month'))!;
    assert.match(cost, /^disk data: per month \| \$[\d,.]+ \| ≥ \$[\d,.]+ \| price unknown/);
    assert.ok(!/[+−±]\$0\.00/.test(h));
    assert.equal(deltaCell({ before: null, after: null, delta: 0 }, 'USD'), '±$0.00');
  });

  it('no change: the summary says so, and no VM is listed', () => {
    const same = record(BASE, BASE);
    const h = changesHtml({ record: same, commit: 'abc1234' });
    assert.match(h, /No change in figures, targets, cost or findings/);
    assert.ok(!h.includes('vm-change'));
  });

  it('why there is nothing to compare, escaped', () => {
    const h = changesHtml({ message: 'The spec is new: <not> in the last commit' });
    assert.ok(h.includes('Changes since last commit'));
    assert.ok(h.includes('The spec is new: &#60;not&#62; in the last commit'));
  });

  it('in the report view: the section above the report of the open text', () => {
    const report = specReport(URI, analyze(HEAD), (t) => analyze(t));
    const page = reportHtml(report, { nonce: 'n0nce', title: 'storage.perf.yaml', changes: html });
    assert.ok(page.indexOf('Changes since last commit') < page.indexOf('<h2>VM '));
    assert.ok(!reportHtml(report, { nonce: 'n0nce', title: 'x' }).includes('Changes since last commit'));
  });
});

describe('language server: the open spec against a committed text (diffWithBase)', () => {
  it("findings past the per-file cap are compared too: the open text's capped analysis is not what is compared", () => {
    // 221 targets missed at the commit, 117 in the open text: more than a file lists of one code, on both sides.
    const cache = new EvaluationCache();
    const head = fleet(221, 104);
    const open = analyze(head, { cache });
    assert.ok(
      open.diagnostics.some((d) => d.code === 'more-findings'),
      'the open analysis is capped',
    );
    const r = diffWithBase(URI, { text: head, analysis: open }, { text: fleet(221, 0), ref: 'abc1234' }, (t) =>
      analyze(t, { cache, allFindings: true }),
    );
    assert.ok('record' in r);
    assert.deepEqual([r.record.counts.findings_appeared, r.record.counts.targets_now_met], [0, 104]);
    assert.equal(r.record.vms.flatMap((v) => v.findings.gone).filter((f) => f.code === 'target-unreachable').length, 104);
  });

  it('a base that does not parse: unavailable, naming the commit, the line and the error', () => {
    const r = diff('version: 1\nprovider: gcp\nvms:\n  - name: [db\n', HEAD);
    assert.ok('unavailable' in r);
    assert.match(r.unavailable, /^storage\.perf\.yaml at abc1234 does not parse: line \d+: .+ \([a-z-]+\)$/);
  });

  it('an open text that does not parse: unavailable', () => {
    const r = diff(BASE, 'version: 1\nprovider: gcp\nvms:\n  - name: [db\n');
    assert.ok('unavailable' in r && /as it is open does not parse/.test(r.unavailable));
  });

  it('a workload sidecar or Terraform: unavailable, pointing at storage-perf diff --base-ref', () => {
    const sidecar = diff(BASE, `terraform: plan.json\n${HEAD}`);
    assert.ok('unavailable' in sidecar && /workload sidecar/.test(sidecar.unavailable));
    assert.match(sidecar.unavailable, /storage-perf diff --base-ref abc1234 storage\.perf\.yaml/);
    const tf = diff('', '', pathToFileURL('/project/main.tf').href);
    assert.ok('unavailable' in tf && /Terraform/.test(tf.unavailable));
  });

  it('VMs the change left alone are counted, not listed', () => {
    const r2 = record(BASE, BASE.replace('n2-standard-8', 'n2-standard-16'));
    assert.ok(r2.counts.vms_unchanged > 0);
  });
});
