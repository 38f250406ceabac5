/**
 * The rules every analysis keeps, whatever the spec: each a function that throws (node:assert) with what broke.
 * Used by ./invariants.test.ts on specs generated from the catalogs (./generate.ts), and by `npm run invariants`
 * for a longer run.
 */
import * as assert from 'node:assert/strict';
import { load } from 'js-yaml';
import {
  analyze,
  applyEdits,
  DIAGNOSTIC_CODES,
  diffAnalyses,
  EvaluationCache,
  fileReport,
  fixEdits,
  fixTypeOf,
  fixTypesOf,
  hover,
  inlayHints,
  limitValue,
  METRICS,
  textWithFix,
  titleWithCost,
  vmLimitGroup,
  vmLimitRow,
  type Analysis,
  type Diagnostic,
  type DiffRecord,
  type FileReport,
  type FixData,
  type FixType,
} from '../../core/src';
import { MESSAGE_LENGTH } from '../../core/src/diagnostics';

/** The longest message a finding may have: a fact and what to do; the rest belongs in the hover. */
export const MAX_MESSAGE = MESSAGE_LENGTH;

const cents = (n: number) => Math.round(n * 100);

/** 1. Nothing vanishes, and totals are complete only when every part is priced, and add up to the cent as shown. */
export function nothingVanishes(text: string, a: Analysis, r: FileReport): void {
  const spec = loadSpec(text) as { vms: Array<{ name: string; disks: Array<{ name: string }>; workloads?: Array<{ name: string }> }> };
  assert.deepEqual(
    r.vms.map((v) => v.name),
    spec.vms.map((v) => v.name),
    'every VM of the spec is in the report',
  );
  spec.vms.forEach((vm, i) => {
    const rv = r.vms[i];
    assert.deepEqual(
      rv.disks.map((d) => d.name),
      vm.disks.map((d) => d.name),
      `every disk of ${vm.name} is in the report`,
    );
    assert.deepEqual(
      rv.workloads.map((w) => w.name),
      (vm.workloads ?? []).map((w) => w.name),
      `every workload of ${vm.name} is in the report`,
    );
    const diskSum = rv.disks.reduce((s, d) => s + (d.monthly_cost ?? 0), 0);
    if (rv.disks_monthly_cost !== null)
      assert.equal(cents(rv.disks_monthly_cost), cents(diskSum), `${vm.name}: disks_monthly_cost is the sum of its disks as shown`);
    if (rv.monthly_cost !== null)
      assert.equal(
        cents(rv.monthly_cost),
        cents((rv.machine_monthly_cost ?? 0) + (rv.disks_monthly_cost ?? 0)),
        `${vm.name}: monthly_cost is machine plus disks as shown`,
      );
    if (rv.monthly_cost_complete) {
      assert.ok(rv.machine_monthly_cost !== null, `${vm.name}: complete total with no machine price`);
      for (const d of rv.disks)
        assert.ok(d.monthly_cost_complete && d.monthly_cost !== null, `${vm.name}: complete total, ${d.name} not priced`);
    }
  });
  totalsAddUp(r);
  assert.ok(a.vms.length <= r.vms.length);
}

/**
 * 1. A file's total is the sum of its VMs' and its unattached disks' (Terraform) as shown, to the cent; it is complete
 * only when each of them is, and a partial one names what it lacks: every phrase a partial VM or disk names.
 */
export function totalsAddUp(r: FileReport): void {
  const loose = r.unattached_disks ?? [];
  const shown = (x: { monthly_cost: number | null }) => x.monthly_cost ?? 0;
  if (r.monthly_cost !== null)
    assert.equal(
      cents(r.monthly_cost),
      cents(r.vms.reduce((s, v) => s + shown(v), 0) + loose.reduce((s, d) => s + shown(d), 0)),
      'the file total is the sum of its VMs and its unattached disks as shown',
    );
  const parts = [
    ...r.vms.map((v) => ({ what: `VM ${v.name}`, complete: v.monthly_cost_complete, missing: v.monthly_cost_missing })),
    ...loose.map((d) => ({ what: `unattached disk ${d.name}`, complete: d.monthly_cost_complete, missing: d.monthly_cost_missing })),
  ];
  for (const p of parts) {
    if (r.monthly_cost_complete) assert.ok(p.complete, `complete file total, ${p.what} partial`);
    if (p.complete) continue;
    assert.ok(p.missing.length, `${p.what}: a partial total that names nothing it lacks`);
    for (const m of p.missing) assert.ok(r.monthly_cost_missing.includes(m), `the file total does not name what ${p.what} lacks: ${m}`);
  }
  if (!r.monthly_cost_complete) assert.ok(r.monthly_cost_missing.length, 'a partial file total that names nothing it lacks');
}

/** A YAML document as a YAML 1.1 reader with merge keys gives it: `<<: *base` brings the anchored mapping's keys in. */
export function loadSpec(text: string): unknown {
  const merged = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(merged);
    if (!v || typeof v !== 'object') return v;
    const own = Object.entries(v as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const [k, x] of own) if (k === '<<') for (const src of [x].flat()) Object.assign(out, merged(src));
    for (const [k, x] of own) if (k !== '<<') out[k] = merged(x);
    return out;
  };
  return merged(load(text));
}

/** The JSON pointers of a document's scalars, with their values (merge keys resolved as YAML reads them). */
function leaves(text: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (v: unknown, p: string) => {
    if (v && typeof v === 'object') {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${p}/${i}`));
      else for (const [k, x] of Object.entries(v)) walk(x, `${p}/${k}`);
      if (Array.isArray(v) ? !v.length : !Object.keys(v).length) out.set(p, v);
    } else out.set(p, v);
  };
  walk(loadSpec(text), '');
  return out;
}

/**
 * The pointers a fix says it changes: what it sets, adds, renames or removes (and what is under them); where it
 * edits text that other VMs share through a merge key, its title names those VMs and the same place in each.
 */
function namedPaths(fix: FixData, vmNames: string[]): string[] {
  const own = ownPaths(fix);
  const shared = /shared text: changes VMs ([^)]*)\)/.exec(fix.title);
  if (!shared) return own;
  const names = [...shared[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  const indexes = vmNames.flatMap((n, i) => (names.includes(n) ? [i] : []));
  return own.flatMap((p) => indexes.map((i) => p.replace(/^\/vms\/\d+/, `/vms/${i}`)));
}

function ownPaths(fix: FixData): string[] {
  switch (fix.kind) {
    case 'set-value':
    case 'remove-key':
      return [fix.path];
    case 'add-key':
      return [`${fix.path}/${fix.key}`];
    case 'rename-key':
      return [fix.path, `${fix.path.slice(0, fix.path.lastIndexOf('/'))}/${fix.key}`];
    case 'set-values':
      return fix.values.map((v) => ('key' in v && v.key ? `${v.path}/${v.key}` : v.path));
  }
}

const vmIndexOf = (path: string | undefined) => (path ? Number(/^\/vms\/(\d+)/.exec(path)?.[1] ?? NaN) : NaN);
const num = (s: string) => Number(s.replace(/,/g, ''));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 2. A fix does what its title says: its finding goes, its promised figures and costs hold, nothing else changes. */
export function fixesDoWhatTheySay(a: Analysis, analyzeText: (t: string) => Analysis = (t) => analyze(t)): void {
  const text = a.parsed.text;
  const before = leaves(text);
  const reportBefore = fileReport('spec.perf.yaml', a);
  for (const d of a.diagnostics) {
    for (const fix of d.fixes ?? []) {
      const edits = fixEdits(text, a.parsed.tree, fix);
      if (!edits.length) continue;
      const after = applyEdits(text, edits);
      const b = analyzeText(after);
      const what = `fix '${fix.title}' of ${d.code} (${d.message})\n--- after:\n${after}`;
      assert.ok(!b.diagnostics.some((x) => x.code.startsWith('yaml-')), `${what}\nbreaks the YAML`);
      // The finding it fixes is gone from where it was (one fewer of its code there: a place may hold several).
      const here = (x: Diagnostic) => x.code === d.code && (d.path ? x.path === d.path : vmIndexOf(x.path) === vmIndexOf(d.path));
      const left = b.diagnostics.filter(here);
      assert.ok(
        left.length < a.diagnostics.filter(here).length,
        `${what}\nleaves ${d.code} ${d.path ? `at ${d.path}` : 'in its VM'}: ${left.map((x) => x.message).join(' | ')}`,
      );
      // Nothing it does not name has changed or gone.
      const named = namedPaths(
        fix,
        reportBefore.vms.map((v) => v.name),
      );
      const touches = (p: string) => named.some((n) => p === n || p.startsWith(`${n}/`));
      const now = leaves(after);
      for (const [p, v] of before) if (!touches(p)) assert.deepEqual(now.get(p), v, `${what}\nchanges ${p}, which its title does not name`);
      for (const p of now.keys()) if (!touches(p)) assert.ok(before.has(p), `${what}\nadds ${p}, which its title does not name`);
      promisesHold(fix, d, reportBefore, fileReport('spec.perf.yaml', b), what);
      const titled = titleWithCost(a, fix, analyzeText);
      const file = /the file then \$([\d,.]+)\/month/.exec(titled);
      if (file) assert.equal(cents(b.monthly_cost!), cents(num(file[1])), `${what}\ntitle '${titled}': the file's total`);
      // Where the file's total is partial: what the VM it changes then costs, and the change, which the VMs it
      // leaves alone (priced or not) do not move.
      const vmThen = / \('([^']+)' then \$([\d,.]+)\/month\)$|; '([^']+)' then \$([\d,.]+)\/month\)$/.exec(titled);
      if (vmThen) {
        const [name, total] = vmThen[1] !== undefined ? [vmThen[1], vmThen[2]] : [vmThen[3], vmThen[4]];
        const vm = b.vms.find((v) => v.spec.name === name);
        assert.ok(vm?.monthly_cost_complete, `${what}\ntitle '${titled}': '${name}' has a partial total`);
        assert.equal(cents(vm.monthly_cost!), cents(num(total)), `${what}\ntitle '${titled}': the VM's total`);
      }
      const change = new RegExp(`^${escape(fix.title)} \\(([+−])\\$([\\d,.]+)/month; `).exec(titled);
      if (change)
        assert.equal(
          cents(b.monthly_cost! - a.monthly_cost!),
          cents((change[1] === '+' ? 1 : -1) * num(change[2])),
          `${what}\ntitle '${titled}': the cost change`,
        );
      // (Not where a disk has no figures before: a fix that makes it valid brings it into the limits it shares.)
      const complete = a.vms.every((v) => !v.unevaluated?.length);
      if (complete && fixTypeOf(d.code, fix) !== 'problem')
        targetsStayMet(reportBefore, fileReport('spec.perf.yaml', b), a.spec?.min_headroom, what);
    }
  }
}

/** The figures and costs a fix's title states hold in the analysis of the fixed spec. */
function promisesHold(fix: FixData, d: Diagnostic, rBefore: FileReport, rAfter: FileReport, what: string): void {
  const vi = vmIndexOf(d.path);
  const vm = Number.isNaN(vi) ? undefined : rAfter.vms[vi];
  const vmBefore = Number.isNaN(vi) ? undefined : rBefore.vms[vi];
  if (!vm || !vmBefore) return;
  const reach = /'([^']+)' then reaches ([\d,.]+) IOPS, ([\d,.]+) MiB\/s/.exec(fix.title);
  if (reach) {
    const w = vm.workloads.find((x) => x.name === reach[1]);
    assert.ok(w && w.read_iops !== null, `${what}\nno figures for '${reach[1]}'`);
    const iops = w.read_iops! + w.write_iops!;
    const mibps = w.read_mibps! + w.write_mibps!;
    // As shown: within half of the last digit the title gives ("123" from 122.6, "30.6" from 30.64).
    // The report rounds reads and writes apart (IOPS to units, MiB/s to tenths): their sum may be off by one of each.
    const shownAs = (shown: string, actual: number, parts: number) =>
      Math.abs(actual - num(shown)) <= (shown.includes('.') ? 0.05 : 0.5) + parts + 1e-9;
    assert.ok(shownAs(reach[2], iops, 1), `${what}\npromises ${reach[2]} IOPS, gives ${iops}`);
    assert.ok(shownAs(reach[3], mibps, 0.1), `${what}\npromises ${reach[3]} MiB/s, gives ${mibps}`);
  }
  const all = /\$([\d,.]+)\/month in all/.exec(fix.title);
  if (all && vm.monthly_cost !== null) assert.equal(cents(vm.monthly_cost), cents(num(all[1])), `${what}\nthe VM's total`);
  const delta = /([+−])\$([\d,.]+)\/month,/.exec(fix.title);
  if (delta && vm.monthly_cost !== null && vmBefore.monthly_cost !== null) {
    const change = (delta[1] === '+' ? 1 : -1) * num(delta[2]);
    assert.ok(Math.abs(vm.monthly_cost - vmBefore.monthly_cost - change) <= 0.011, `${what}\nthe VM's cost change`);
  }
  // Each part the title names is what the spec then says, and was not already (no part of a title is no change).
  const machine = /Change machine to (.+?)(?: and |, | \()/.exec(fix.title);
  if (machine) {
    assert.equal(vm.machine_type, machine[1], `${what}\nthe machine`);
    assert.notEqual(vmBefore.machine_type, machine[1], `${what}\nthe machine it already has`);
  }
  const resize = /[Rr]esize '([^']+)' to ([\d.]+)(GiB|TiB)/.exec(fix.title);
  if (resize) {
    const disk = vm.disks.find((x) => x.name === resize[1]);
    const size = num(resize[2]) * (resize[3] === 'TiB' ? 1024 : 1);
    assert.equal(disk?.size_gib, size, `${what}\nthe size`);
    assert.notEqual(vmBefore.disks.find((x) => x.name === resize[1])?.size_gib, size, `${what}\nthe size it already has`);
  }
  const sw = /Switch '([^']+)' to ([a-z0-9-]+)/.exec(fix.title);
  if (sw) {
    assert.equal(vm.disks.find((x) => x.name === sw[1])?.type, sw[2], `${what}\nthe disk type`);
    assert.notEqual(vmBefore.disks.find((x) => x.name === sw[1])?.type, sw[2], `${what}\nthe type it already has`);
  }
}

/**
 * 7. A design change the product proposes never turns a met target into a missed one, nor takes a workload that
 * kept the spec's own headroom (policy: min_headroom) below it.
 */
function targetsStayMet(rBefore: FileReport, rAfter: FileReport, minHeadroom: number | undefined, what: string): void {
  rBefore.vms.forEach((v, i) =>
    v.workloads.forEach((w, j) => {
      if (w.meets_target !== true) return;
      const now = rAfter.vms[i]?.workloads[j];
      assert.ok(now?.meets_target === true, `${what}\n'${w.name}' of ${v.name} met its target and no longer does`);
      // Kept before: the report's headroom (rounded to 0.001) says so beyond its rounding; just under the policy,
      // 0.0995 shows as 0.1, and the product (rightly) judged it below.
      if (minHeadroom !== undefined && w.headroom !== null && w.headroom >= minHeadroom + 5e-4)
        assert.ok(
          now.headroom !== null && now.headroom >= minHeadroom - 1e-3,
          `${what}\n'${w.name}' of ${v.name} kept the policy's ${minHeadroom * 100}% headroom and then has ${now.headroom}`,
        );
    }),
  );
}

/** The fix types `lint --fix-type` can be asked for, alone and together, that design changes are of. */
const ASKED: FixType[][] = [['sizing'], ['workload'], ['sizing', 'workload']];

/**
 * 8. For a missed target, `lint --fix` applies the cheapest fix of the types it is asked for: the first preferred
 * fix of target-unreachable whose types are all asked for meets the target when applied, and no other fix the
 * model offers for that workload (target-unreachable's, block-size-too-small's, queue-depth-too-low's) of those
 * types meets it for less, nor for as much with fewer values set. Where none is preferred, none of them meets it.
 * (`skipVm`: VMs whose text others share, where a fix of the shared text is offered only when they all ask for it.)
 */
export function cheapestFixApplied(a: Analysis, skipVm: (vm: number) => boolean = () => false): void {
  for (const d of a.diagnostics) {
    if (d.code !== 'target-unreachable' || !d.fixes?.length || !d.path || skipVm(vmIndexOf(d.path))) continue;
    const wp = d.path.replace(/\/target$/, '');
    const vi = vmIndexOf(d.path);
    const wi = Number(/\/workloads\/(\d+)$/.exec(wp)?.[1]);
    const same = a.diagnostics.filter((x) => x.code === 'block-size-too-small' || x.code === 'queue-depth-too-low');
    const offered = [d, ...same.filter((x) => x.path?.startsWith(`${wp}/`))].flatMap((x) =>
      (x.fixes ?? []).map((fix) => ({ code: x.code, fix })),
    );
    const outcomes = new Map<FixData, { meets: boolean; monthly?: number; values: number; types: FixType[]; after: string }>();
    for (const { code, fix } of offered) {
      const after = textWithFix(a, fix);
      const vm = fileReport('spec.perf.yaml', analyze(after)).vms[vi];
      outcomes.set(fix, {
        meets: vm?.workloads[wi]?.meets_target === true,
        monthly: vm?.monthly_cost_complete && vm.monthly_cost !== null ? vm.monthly_cost : undefined,
        values: fix.kind === 'set-values' ? fix.values.length : 1,
        types: fixTypesOf(code, fix),
        after,
      });
    }
    for (const asked of ASKED) {
      const within = (f: FixData) => outcomes.get(f)!.types.every((t) => asked.includes(t));
      const applied = d.fixes.find((f) => f.preferred && within(f));
      const meeting = offered.filter(({ fix }) => within(fix) && outcomes.get(fix)!.meets).map(({ fix }) => fix);
      const what: string = `--fix-type ${asked.join()} on ${d.code} (${d.message})`;
      if (!applied) {
        assert.deepEqual(
          meeting.map((f) => f.title),
          [],
          `${what}: no fix is preferred, yet these meet the target`,
        );
        continue;
      }
      const chosen = outcomes.get(applied)!;
      assert.ok(chosen.meets, `${what}: '${applied.title}' does not meet the target\n--- after:\n${chosen.after}`);
      if (chosen.monthly === undefined) continue;
      for (const f of meeting) {
        const other = outcomes.get(f)!;
        if (other.monthly === undefined || f === applied) continue;
        assert.ok(
          cents(chosen.monthly) < cents(other.monthly) || (cents(chosen.monthly) === cents(other.monthly) && chosen.values <= other.values),
          `${what}: '${applied.title}' ($${chosen.monthly}/month, ${chosen.values} values) is applied where '${f.title}' meets the target ($${other.monthly}/month, ${other.values} values)`,
        );
      }
    }
  }
}

/**
 * 4. A limit holds each disk alone and the busy disks together: every disk's figure is at most the limit, and the
 * busy disks' shares of it (each disk's largest workload figure on it: its workloads run at once on that share) add
 * up to at most the limit. A limit several disks exceed together is stated once, with all of them.
 */
export function budgetsHold(a: Analysis): void {
  const c = a.catalog;
  if (!c) return;
  for (const vm of a.vms) {
    const m = vm.machine;
    if (!m) continue;
    const groups = new Map<string, typeof vm.disks>();
    for (const d of vm.disks) {
      if (d.type.model === 'devices' || !vmLimitRow(c, m, d.typeName)) continue;
      const g = vmLimitGroup(c, m, d.typeName);
      groups.set(g, [...(groups.get(g) ?? []), d]);
    }
    for (const [g, disks] of groups) {
      const row = vmLimitRow(c, m, disks[0].typeName)!.row;
      const names = new Set(disks.map((d) => d.spec.name));
      // Workloads on disks of this group only (a workload spread wider shares other limits too).
      const inside = vm.workloads.filter((w) => w.disks.every((n) => names.has(n)));
      for (const k of METRICS) {
        const cap = limitValue(row[k], m.vcpus);
        if (cap === undefined) continue;
        for (const d of disks) assert.ok(d.figures[k] <= cap * (1 + 1e-9) + 1e-6, `${vm.spec.name}: ${d.spec.name} alone ${k} over ${cap}`);
        // Each disk's share: the most any of its single-disk workloads reaches on it.
        let sum = 0;
        for (const d of disks) {
          const on = inside.filter((w) => w.disks.length === 1 && w.disks[0] === d.spec.name);
          sum += Math.max(0, ...on.map((w) => w[k]));
        }
        assert.ok(sum <= cap * (1 + 1e-9) + 1e-6, `${vm.spec.name} on ${m.name}: ${g} workloads together ${k} ${sum} > ${cap}`);
        const alone = disks.reduce((s, d) => s + d.figures[k], 0);
        if (disks.length > 1 && alone > cap * (1 + 1e-9) + 1e-6)
          assert.ok(
            vm.sharedLimits?.some((l) => l.metric === k && l.value === cap && disks.every((d) => l.disks.includes(d.spec.name))),
            `${vm.spec.name}: ${g} disks exceed ${k} ${cap} together (${alone}), and no shared limit says so`,
          );
      }
    }
  }
}

/**
 * 3. A target is judged met only on figures the VM delivers: where a disk's figures are upper bounds (a per-VM
 * limit the edition lacks, local SSD on fewer vCPUs than measured, a limit shared with a disk of unknown size),
 * the VM may deliver less, so a target they reach is not judged (null), and one they miss is missed.
 */
export function judgedOnDeliveredFigures(r: FileReport): void {
  for (const vm of r.vms) {
    const bound = new Map(vm.disks.map((d) => [d.name, d.upper_bound]));
    for (const w of vm.workloads) {
      if (w.meets_target !== true) continue;
      for (const name of w.disks)
        assert.equal(
          bound.get(name) ?? null,
          null,
          `${vm.name}/${w.name}: target met on '${name}', whose figures are upper bounds (${bound.get(name)})`,
        );
      assert.notEqual(w.headroom, null, `${vm.name}/${w.name}: met without a headroom`);
    }
  }
}

/** 6. Messages: short, registered, and never the same words twice in a row ("no prediction — no prediction"). */
export function messagesRead(a: Analysis): void {
  for (const d of a.diagnostics) {
    assert.ok(DIAGNOSTIC_CODES[d.code], `unregistered code ${d.code}`);
    assert.ok(d.message.length <= MAX_MESSAGE, `${d.code}: ${d.message.length} characters (at most ${MAX_MESSAGE}): ${d.message}`);
    const repeated = saidTwice(d.message);
    assert.ok(!repeated, `${d.code} says '${repeated}' twice: ${d.message}`);
  }
}

/** A run of two or more words (one with a letter) that comes again right after itself, or after one word or sign. */
export function saidTwice(message: string): string | undefined {
  const words = message.split(/[\s()]+/).filter(Boolean);
  for (let n = 2; n <= 6; n++) {
    for (let i = 0; i + 2 * n <= words.length + 1; i++) {
      const run = words.slice(i, i + n).join(' ');
      if (!/[A-Za-z]/.test(run)) continue;
      for (const gap of [0, 1]) {
        const next = words.slice(i + n + gap, i + 2 * n + gap).join(' ');
        if (next === run && words.slice(i + n + gap, i + 2 * n + gap).length === n) return run;
      }
    }
  }
  return undefined;
}

/** 6. Nothing shown is a placeholder: no Infinity or NaN in the report, the inlay hints, or a VM's or disk's hover. */
export function nothingShownIsNotANumber(a: Analysis, r: FileReport): void {
  const bad = /Infinity|NaN/;
  assert.ok(!bad.test(JSON.stringify(r).replace(/"(?:[^"\\]|\\.)*"/g, '""')), 'a number in the report is not finite');
  for (const h of inlayHints(a)) assert.ok(!bad.test(h.label), `inlay hint: ${h.label}`);
  for (const [path, n] of a.parsed.tree.nodes) {
    if (!/^\/vms\/\d+(\/disks\/\d+)?\/name$/.test(path) || !n.value) continue;
    const h = hover(a, n.value.start);
    if (h) assert.ok(!bad.test(h.markdown), `hover on ${path}: ${h.markdown.split('\n').find((l) => bad.test(l))}`);
  }
}

/** A spec analysed as a diff analyses each side: every finding, past the per-file cap too. */
const forDiff = (text: string, cache?: EvaluationCache) => analyze(text, { allFindings: true, ...(cache ? { cache } : {}) });

/** 8. `diff(A, A)` is empty: no VM listed, no finding appeared or gone, every VM unchanged, no cost change. */
export function diffWithItselfIsEmpty(text: string): void {
  const shared = new EvaluationCache();
  // Apart (each VM compared through its reports) and with one cache (compared by its findings alone).
  for (const [how, cache] of [['apart', undefined] as const, ['with one cache', shared] as const]) {
    const a = forDiff(text, cache);
    const r = diffAnalyses({ analysis: a, path: 'a' }, { analysis: forDiff(text, cache), path: 'a' });
    const what = `diff(A, A) ${how}`;
    assert.deepEqual(
      r.vms.map((v) => `${v.name} ${v.change}`),
      [],
      `${what} lists VMs: ${JSON.stringify(r.vms).slice(0, 600)}`,
    );
    assert.deepEqual(r.findings, { appeared: [], gone: [] }, `${what}: findings on no VM`);
    const { vms_unchanged, ...rest } = r.counts;
    assert.equal(vms_unchanged, a.vms.length, `${what}: every VM unchanged`);
    assert.ok(
      Object.values(rest).every((n) => n === 0),
      `${what}: counts ${JSON.stringify(r.counts)}`,
    );
    assert.ok(r.monthly_cost.delta === 0 || (r.monthly_cost.delta === null && !a.monthly_cost_complete), `${what}: cost change`);
    assert.match(r.summary, /^No change in figures, targets, cost or findings/, what);
  }
}

/** 8. `diff(nothing, A)` is all of A added: every VM of A, in its order, added with its disks and workloads; nothing else. */
export function diffFromNothingIsAllAdded(text: string): void {
  const a = forDiff(text);
  const r: DiffRecord = diffAnalyses({ path: 'a' }, { analysis: a, path: 'a' });
  assert.deepEqual(
    r.vms.map((v) => `${v.name} ${v.change}`),
    a.vms.map((v) => `${v.spec.name} added`),
    'diff(nothing, A): every VM of A added, none removed or changed',
  );
  assert.deepEqual(
    [r.counts.vms_added, r.counts.vms_changed, r.counts.vms_removed, r.counts.vms_unchanged, r.counts.findings_gone],
    [a.vms.length, 0, 0, 0, 0],
    `diff(nothing, A): counts ${JSON.stringify(r.counts)}`,
  );
  a.vms.forEach((e, i) => {
    const v = r.vms[i];
    assert.deepEqual(
      v.disks.map((d) => `${d.name} ${d.change}`),
      e.spec.disks.map((d) => `${d.name} added`),
      `${v.name}: every disk added`,
    );
    assert.deepEqual(
      v.workloads.map((w) => `${w.name} ${w.change}`),
      e.spec.workloads.map((w) => `${w.name} added`),
      `${v.name}: every workload added`,
    );
    assert.equal(v.monthly_cost.total.before, null, `${v.name}: no price before`);
  });
  const appeared = [...r.findings.appeared, ...r.vms.flatMap((v) => v.findings.appeared)];
  assert.equal(appeared.length, a.diagnostics.length, "diff(nothing, A): every finding of A appeared, A's only");
  if (a.monthly_cost_complete) assert.equal(r.monthly_cost.delta, cents(a.monthly_cost!) / 100, "diff(nothing, A): A's cost is the change");
}
