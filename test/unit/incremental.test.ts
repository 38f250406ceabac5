/**
 * The evaluation cache is keyed by a VM's content, not its place: VMs moved by an edit above them keep their
 * evaluation, and their findings are moved with them. Every cached analysis must equal a fresh one.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { analyze, EvaluationCache, type Analysis } from '../../core/src';
import { SPEC_HEAD, vmLines } from '../../bench/specs';
import { distinctSizes } from '../fixtures/diff-specs';
import { CHECKS } from '../../core/src/checks/registry';
import { vmContent } from '../../core/src/document/vm-content';
import type { CheckModule } from '../../core/src/checks/types';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLES = ['storage.perf.yaml', 'local-ssd-raid0.perf.yaml', 'yandex-app.perf.yaml'].map((f) =>
  readFileSync(join(ROOT, 'examples', f), 'utf8'),
);

/** Everything an analysis shows: findings with their spans, paths and fixes, and each VM's figures and place. */
function shown(a: Analysis): unknown {
  return {
    diagnostics: a.diagnostics,
    vms: a.vms.map((v) => ({
      path: v.spec.path,
      name: v.spec.name,
      disks: v.disks.map((d) => [d.spec.path, JSON.stringify(d.figures), d.cost.monthly]),
      workloads: v.workloads.map((w) => [w.spec.path, w.read_iops, w.write_iops]),
    })),
    cost: a.monthly_cost,
    missing: a.monthly_cost_missing,
  };
}

/** The text with a new VM (a copy of the first, renamed) inserted before the first VM. */
function withVmOnTop(text: string): string {
  const first = text.indexOf('\n  - name:') + 1;
  const end = text.indexOf('\n  - name:', first + 1);
  const vm = text.slice(first, end < 0 ? text.length : end + 1).replace(/name: (\S+)/, 'name: $1-copy');
  return text.slice(0, first) + vm + (vm.endsWith('\n') ? '' : '\n') + text.slice(first);
}

/**
 * The analysis with a new cache, equal to a fresh one, and how often the first check module's VM hook ran for it
 * (once per VM whose findings were not memoised).
 */
function checkedWithCache(text: string): { analysis: Analysis; calls: number } {
  const m = CHECKS.find((x) => x.vm) as CheckModule & { vm: NonNullable<CheckModule['vm']> };
  const original = m.vm;
  let calls = 0;
  m.vm = (ctx) => {
    calls++;
    original(ctx);
  };
  let analysis: Analysis;
  try {
    analysis = analyze(text, { cache: new EvaluationCache() });
  } finally {
    m.vm = original;
  }
  assert.deepEqual(shown(analysis), shown(analyze(text)));
  return { analysis, calls };
}

function sameAsFresh(text: string, cache: EvaluationCache): Analysis {
  const cached = analyze(text, { cache });
  assert.deepEqual(shown(cached), shown(analyze(text)));
  return cached;
}

describe('incremental analysis keyed by content', () => {
  it('a VM inserted at the top: every analysis equals a fresh one, in every example', () => {
    for (const text of EXAMPLES) {
      const cache = new EvaluationCache();
      sameAsFresh(text, cache);
      const inserted = withVmOnTop(text);
      sameAsFresh(inserted, cache);
      // And back: the VMs move up again.
      sameAsFresh(text, cache);
    }
  });

  it('a VM inserted at the top keeps the evaluations of the VMs it moves down', () => {
    const lines = [...SPEC_HEAD];
    for (let i = 0; i < 20; i++) lines.push(...vmLines(`vm${i}`, i));
    const text = lines.join('\n') + '\n';
    const cache = new EvaluationCache();
    const before = sameAsFresh(text, cache);
    const after = sameAsFresh(withVmOnTop(text), cache);
    assert.equal(after.vms.length, before.vms.length + 1);
    before.vms.forEach((v, i) => {
      const moved = after.vms[i + 1];
      assert.equal(moved.spec.path, `/vms/${i + 1}`);
      // The same figures object: moved, not evaluated again.
      assert.equal(moved.disks[0].figures, v.disks[0].figures);
    });
  });

  it('replicas named apart share one evaluation, each on its own spec; a renamed VM shows its new name', () => {
    const text = [...SPEC_HEAD, ...vmLines('db-a', 1), ...vmLines('db-b', 1)].join('\n') + '\n';
    const cache = new EvaluationCache();
    const a = sameAsFresh(text, cache);
    assert.deepEqual(
      a.vms.map((v) => v.spec.name),
      ['db-a', 'db-b'],
    );
    assert.equal(a.vms[1].disks[0].figures, a.vms[0].disks[0].figures);
    const renamed = sameAsFresh(text.replace('name: db-a', 'name: db-c'), cache);
    assert.equal(renamed.vms[0].spec.name, 'db-c');
    assert.equal(renamed.vms[0].disks[0].figures, a.vms[0].disks[0].figures);
  });

  it('replicas named apart share their findings: checked once, moved to each with the spans after the name shifted', () => {
    const names = ['db-x', 'replica-with-a-much-longer-name', 'db-yz'];
    const text = [...SPEC_HEAD, ...names.flatMap((n) => vmLines(n, 0))].join('\n') + '\n';
    const { analysis: a, calls } = checkedWithCache(text);
    assert.equal(calls, 1, 'the VM hooks ran for the first replica only');
    // Each replica has its findings, inside its own text.
    for (const [i, v] of a.vms.entries()) {
      const mine = a.diagnostics.filter((d) => d.path?.startsWith(`${v.spec.path}/`) || d.path === v.spec.path);
      assert.ok(mine.length > 0, names[i]);
      const start = text.indexOf(`name: ${names[i]}\n`);
      const end = i + 1 < names.length ? text.indexOf(`name: ${names[i + 1]}\n`) : text.length;
      for (const d of mine) assert.ok(d.span.start > start && d.span.end <= end, `${names[i]}: ${d.code} at ${JSON.stringify(d.span)}`);
    }
  });

  it("findings that quote the VM's name are not shared with a replica named apart", () => {
    // The VM is named like its disk, which the findings quote: moved to 'other', they would name the wrong thing.
    const text = [...SPEC_HEAD, ...vmLines('data', 0), ...vmLines('other', 0)].join('\n') + '\n';
    assert.equal(checkedWithCache(text).calls, 2);
  });

  it('a cache far smaller than the spec still gives the fresh analysis', () => {
    const cache = new EvaluationCache(1);
    for (const text of EXAMPLES) {
      sameAsFresh(text, cache);
      sameAsFresh(withVmOnTop(text), cache);
    }
  });
});

describe('the evaluation cache after sweeps', () => {
  it('keeps what the last two analyses used, and gives the fresh analysis after dropping the rest', () => {
    const cache = EvaluationCache.forDocument();
    const [a, b] = EXAMPLES;
    sameAsFresh(a, cache);
    cache.sweep();
    sameAsFresh(b, cache);
    cache.sweep();
    const before = analyze(b, { cache });
    // b's VMs were used since the last sweep: still the same objects.
    cache.sweep();
    assert.equal(analyze(b, { cache }).vms[0], before.vms[0]);
    cache.sweep();
    cache.sweep();
    sameAsFresh(a, cache);
  });
});

describe("a document's cache on a large spec", () => {
  it('after an edit of one VM of 2,500 distinct ones, every other VM is found, and a sweep drops its old content', function () {
    this.timeout(120000);
    const n = 2500;
    const fleet = (edited: number) => distinctSizes(n, (i) => (i === edited ? 9999 : 100 + i));
    const before = fleet(-1);
    // The premise: a cache bounded by size (the evaluate command's) keeps fewer than this many VMs.
    const bySize = new EvaluationCache();
    analyze(before, { cache: bySize });
    assert.ok(bySize.size < n, `a cache bounded by size holds ${bySize.size} of ${n} VMs: the fleet must be larger`);

    const cache = EvaluationCache.forDocument();
    analyze(before, { cache });
    cache.sweep();
    const misses = cache.misses;
    analyze(fleet(7), { cache });
    cache.sweep();
    assert.deepEqual([cache.hits, cache.misses - misses], [n - 1, 1]);
    // The content vm7 had is what the analysis before used: kept for an undo until the next sweep, then dropped.
    assert.equal(cache.size, n + 1);
    cache.sweep();
    assert.equal(cache.size, n);
  });
});

describe('what the caches keep holds no version of the document', () => {
  it('after 40 edits to 40 VMs, the versions of a large text are collected (no cached string is a view into one)', () => {
    // V8 keeps a substring of 13 characters or more ('n2-standard-16', a VM's text) as a view into the string it
    // was cut from. Each edit here changes another VM, whose evaluation and findings the cache then keeps: were
    // any cached string such a view, each version of the text would stay alive. A text above 128 KiB lives in
    // V8's large-object space, alone, so what that space holds after a full collection counts the versions.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const lines = [...SPEC_HEAD];
    for (let v = 0; v < 600; v++) lines.push(`  # vm ${v}`, ...vmLines(`vm${v}`, v));
    let text = lines.join('\n') + '\n';
    assert.ok(text.length > 200 * 1024, `${text.length} characters`);
    // What the space held before (other tests run in this process): only the growth counts.
    gc();
    const large = () => getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space')!.space_used_size;
    const before = large();
    const cache = new EvaluationCache();
    analyze(text, { cache });
    cache.sweep();
    for (let i = 0; i < 40; i++) {
      // One digit of the data disk's size of VM i*7: new content for that VM only.
      const at = text.indexOf('size: ', text.indexOf(`- name: vm${i * 7}\n`)) + 6;
      text = text.slice(0, at) + String((i % 9) + 1) + text.slice(at + 1);
      analyze(text, { cache });
      cache.sweep();
    }
    gc();
    const grown = large() - before;
    // The current text, and room for a few other large objects; 40 versions would be 40 × 200 KiB and more.
    assert.ok(grown < 8 * text.length, `large objects: +${grown} bytes, text: ${text.length} characters`);
  });
});

describe("an evaluation's key", () => {
  it("gives back from an evaluation's key the VM's content as written, whatever the region holds", () => {
    // A disk whose name holds a NUL (YAML's "\0"), so that the content has one as JSON writes it.
    const text = EXAMPLES[0].replace(/(disks:\n\s+- name: )(\w+)/, '$1"$2\\0x"');
    const vms = [...EXAMPLES, text].flatMap((t) => analyze(t).vms.map((v) => v.spec));
    assert.ok(vms.some((vm) => vm.disks.some((d) => d.name.includes('\u0000'))));
    const cache = new EvaluationCache();
    const catalog = analyze(EXAMPLES[0]).catalog!;
    fc.assert(
      fc.property(fc.constantFrom(...vms), fc.string({ unit: fc.constantFrom('a', '-', '1', '\u0000', '\u0001', 'é') }), (vm, region) => {
        assert.equal(EvaluationCache.contentOf(cache.key(catalog, region, vm)), vmContent(vm));
      }),
    );
  });
});
