/**
 * `streamedAnalysis` (core/src/analyze.ts) hands out each VM as it is checked and keeps none, with the cost totals
 * known before the first: the JSON report of a large spec is written VM by VM from it. It must give what `analyze`
 * gives: the same totals, the same VMs' reports in the same order, the same findings, with and without a cache.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze, CatalogRegistry, EvaluationCache, fileReport, reportDiagnostics, streamedAnalysis, vmReportParts } from '../../core/src';
import { sizeSearchesMemoised } from '../../core/src/advice/search';
import { distinctFleet, FLEET_EDITIONS } from '../../bench/fleet';
import { specWithVms } from '../../bench/evaluate';
import { vmContent } from '../../core/src/document/vm-content';

/** What a report says of a spec, from the streamed analysis, in the order a writer reads it. */
function streamedReport(text: string, cache?: EvaluationCache) {
  const s = streamedAnalysis(text, { cache });
  const head = { ...s.analysis };
  const totals = [head.monthly_cost, head.monthly_cost_complete, head.monthly_cost_missing];
  const vms = [...vmReportParts(s.analysis, s.vms())].map(({ name, report }) => ({ ...report, name }));
  assert.equal(s.analysis.vms.length, 0, 'a streamed analysis keeps no VM');
  return { totals, vms, diagnostics: reportDiagnostics(s.analysis) };
}

function wholeReport(text: string, cache?: EvaluationCache) {
  const r = fileReport('spec', analyze(text, { cache }));
  return {
    totals: [r.monthly_cost === null ? undefined : r.monthly_cost, r.monthly_cost_complete, r.monthly_cost_missing],
    vms: r.vms,
    diagnostics: r.diagnostics,
  };
}

/** Totals compared as the report writes them (to the cent). */
function sameReport(text: string, cache: () => EvaluationCache | undefined): void {
  const a = streamedReport(text, cache());
  const b = wholeReport(text, cache());
  const cents = (x: unknown) => (typeof x === 'number' ? Math.round(x * 100) : x);
  assert.deepEqual(a.totals.map(cents), b.totals.map(cents));
  assert.deepEqual(JSON.parse(JSON.stringify(a.vms)), JSON.parse(JSON.stringify(b.vms)));
  assert.deepEqual(a.diagnostics, b.diagnostics);
}

describe('streamed analysis', () => {
  it("gives analyze's totals, VM reports and findings for distinct fleets of every edition, with and without a cache", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FLEET_EDITIONS), fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), (edition, seed, cached) => {
        sameReport(distinctFleet(edition, 12, seed).text, () => (cached ? new EvaluationCache() : undefined));
      }),
      { numRuns: 12, seed: 26 },
    );
  });

  it('gives the same for replicas (VMs written alike share a cached evaluation) and for a cache shared with an earlier file', () => {
    const text = specWithVms(60);
    sameReport(text, () => new EvaluationCache());
    const shared = new EvaluationCache();
    analyze(text, { cache: shared });
    sameReport(text, () => shared);
  });

  it('says which VMs share their content with another (their report but for the name is kept for it), and none without a cache', () => {
    // The replica fleet: VMs written alike but for their names, each sharing its report with another.
    const text = specWithVms(900);
    const s = streamedAnalysis(text, { cache: new EvaluationCache() });
    const vms = s.analysis.spec!.vms;
    const count = new Map<string, number>();
    for (const vm of vms) count.set(vmContent(vm), (count.get(vmContent(vm)) ?? 0) + 1);
    const alike = vms.filter((vm) => s.alike(vm));
    assert.ok(alike.length > 100 && alike.length < vms.length, `${alike.length} of ${vms.length}`);
    assert.deepEqual(
      alike,
      vms.filter((vm) => count.get(vmContent(vm))! > 1),
    );
    const reports = fileReport('spec', analyze(text, { cache: new EvaluationCache() })).vms.map(({ name: _, ...rest }) =>
      JSON.stringify(rest),
    );
    for (const vm of alike) {
      const i = vms.indexOf(vm);
      assert.ok(
        reports.some((r, j) => j !== i && r === reports[i]),
        `${vm.name} shares its report with another VM`,
      );
    }
    const distinct = streamedAnalysis(distinctFleet('gcp-2024', 50, 5).text, { cache: new EvaluationCache() });
    assert.ok(distinct.analysis.spec!.vms.every((vm) => !distinct.alike(vm)));
    const uncached = streamedAnalysis(text);
    assert.ok(uncached.analysis.spec!.vms.every((vm) => !uncached.alike(vm)));
  });

  it('keeps in the cache only the contents another VM of the spec shares: a distinct VM is evaluated and let go', () => {
    const distinct = distinctFleet('gcp-2024', 40, 7).text;
    const cache = new EvaluationCache();
    for (const _ of streamedAnalysis(distinct, { cache }).vms());
    assert.equal(cache.size, 0);
    assert.equal(cache.misses, 40);
    // The replica fleet: each content that repeats is evaluated once and then found, as before.
    const replicas = specWithVms(300);
    const vms = analyze(replicas).spec!.vms;
    const contents = new Set(vms.map((vm) => vmContent(vm)));
    const kept = new EvaluationCache();
    for (const _ of streamedAnalysis(replicas, { cache: kept }).vms());
    assert.equal(kept.misses, contents.size);
    assert.equal(kept.hits, vms.length - contents.size);
    const repeated = [...contents].filter((c) => vms.filter((vm) => vmContent(vm) === c).length > 1);
    assert.equal(kept.size, repeated.length);
  });

  it('memoises the size searches only of VMs that another VM of the spec resembles but for disk sizes', () => {
    // A catalog object of its own: the memo is kept by catalog, and other tests fill the built-in ones'.
    const fresh = (edition: string) => {
      const registry = new CatalogRegistry();
      const c = structuredClone(registry.get(edition)!);
      registry.add(c);
      return { registry, c };
    };
    const distinct = distinctFleet('yandex-2025', 30, 3).text;
    const streamed = fresh('yandex-2025');
    for (const _ of streamedAnalysis(distinct, { cache: new EvaluationCache(), registry: streamed.registry }).vms());
    assert.equal(sizeSearchesMemoised(streamed.c), 0);
    // The same VMs analysed whole (an editor's analysis, which a later one may ask again) do search sizes.
    const whole = fresh('yandex-2025');
    analyze(distinct, { cache: new EvaluationCache(), registry: whole.registry });
    assert.ok(sizeSearchesMemoised(whole.c) > 0);
    // The replica fleet's VMs differ in their disk sizes, among other things: theirs are memoised.
    const replicas = fresh('gcp-2024');
    for (const _ of streamedAnalysis(specWithVms(300), { cache: new EvaluationCache(), registry: replicas.registry }).vms());
    assert.ok(sizeSearchesMemoised(replicas.c) > 0);
  });

  it("lets go of each VM's nodes once it is written, where nothing after the VMs reads the tree", () => {
    const text = distinctFleet('aws-2025', 30, 4).text;
    const s = streamedAnalysis(text);
    const nodes = s.analysis.parsed.tree.nodes;
    const vms = s.vms();
    vms.next();
    assert.ok(nodes.get('/vms/0/name'), 'the VM being written keeps its nodes');
    vms.next();
    assert.equal(nodes.get('/vms/0/name'), undefined);
    assert.ok(nodes.get('/vms/1/name'));
    for (const _ of vms);
    assert.equal(nodes.get('/vms/29/name'), undefined);
    // Text two VMs share through an anchor: its findings are scoped to their VMs from the tree, after the VMs.
    const shared = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: a
    machine_type: n2-standard-2
    disks:
      - &data {name: data, type: pd-ssd, size: 20000GiB}
  - name: b
    machine_type: n2-standard-4
    disks:
      - *data
`;
    const t = streamedAnalysis(shared);
    for (const _ of t.vms());
    assert.ok(t.analysis.parsed.tree.nodes.get('/vms/0/name'));
    assert.deepEqual(t.analysis.diagnostics, analyze(shared).diagnostics);
  });

  it('shows its findings only once whole, and checks its VMs once', () => {
    const text = distinctFleet('aws-2025', 40, 9).text;
    const s = streamedAnalysis(text);
    const vms = s.vms();
    vms.next();
    assert.deepEqual(s.analysis.diagnostics, [], 'no finding before every VM is checked');
    for (const _ of vms);
    assert.deepEqual(s.analysis.diagnostics, analyze(text).diagnostics);
    assert.throws(() => [...s.vms()], /checked once/);
  });

  it('says no total, and no VM, where the spec has no catalog to price it with, and keeps its findings', () => {
    for (const text of ['catalog: gcp-1999\nvms:\n  - name: a\n    machine_type: n2-standard-4\n', 'vms: [\n', ''])
      sameReport(text, () => undefined);
    const s = streamedAnalysis('catalog: gcp-1999\nvms:\n  - name: a\n    machine_type: n2-standard-4\n');
    assert.equal(s.analysis.monthly_cost, undefined);
    assert.deepEqual([...s.vms()], []);
    assert.ok(s.analysis.diagnostics.length > 0);
  });
});
