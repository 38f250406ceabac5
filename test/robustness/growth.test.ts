/**
 * No quadratic corner: every kind of finding costs time linear in the input. Each case is analysed at 1×, 4× and
 * 16× its size, and the time at 16× must stay under 40× the time at 1× (linear work gives about 16×; work that
 * grows with the square gives 256×, so the bound leaves room for the noise of a loaded machine and still fails a
 * quadratic step by six times).
 *
 * Why times and not counts of work: the work that went quadratic was scattered (a scan of a mapping per key, of the
 * disks per workload, of the errors per workload), and no one counter sees all of it; a counter would guard only
 * the corners already found. Why this is still deterministic on a loaded 2-core machine: only ratios are asserted,
 * never an absolute time; the time is the process's CPU time, not the wall clock's, so that waiting for a core
 * another process holds does not count; the sizes are measured in rounds (1×, 4×, 16×, and again), so that a busy
 * spell falls on all of them, and each size's time is the least of its rounds; the smallest size is analysed
 * first to warm the JIT; and the sizes are large enough that the time at 1× is not start-up or timer noise.
 */
import * as assert from 'node:assert/strict';
import { analyze, joinTfFiles, terraformFilesFrontEnd, type AnalyzeOptions } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { tfWithInstances } from '../../bench/terraform';
import { aliasedDisks, duplicateKeys, longFlowSequence, manyDisks, manyVms, mergedVms, unknownKeys } from './hostile-inputs';

/** The CPU time (user and system, every thread of the process) of one analysis of the input, in ms. */
function timeOf(input: Input): number {
  const t0 = process.cpuUsage();
  analyze(input.text, input.opts);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

interface Growth {
  times: number[];
  /** How many findings each size has, and whether one was refused whole (aliases past their limit). */
  findings: number[];
  refused: boolean;
}

type Input = { text: string; opts?: AnalyzeOptions };

/**
 * `make(n)` gives an input of size `n`, called again for each analysis: an input may differ from every earlier one
 * (the advice memo outlives an analysis: a small input analysed again would find its VMs there, and a large one,
 * past the memo's bound, would not).
 */
function growth(make: (n: number) => Input, base: number): Growth {
  const at = (k: number) => make(base * k);
  // Warm-up: the JIT, the catalog, the schema; and the heap, grown once to what the largest size needs, so that
  // each size is measured with the same young generation (a small input alone would run in a smaller one, whose
  // collections are cheaper, and make the ratios of a linear analysis look superlinear).
  timeOf(at(1));
  timeOf(at(16));
  // Rounds of the three sizes, so that a busy spell of the machine falls on each alike; the least time of each.
  const times = [Infinity, Infinity, Infinity];
  for (let round = 0; round < 3; round++) [1, 4, 16].forEach((k, i) => (times[i] = Math.min(times[i], timeOf(at(k)))));
  const results = [1, 4, 16].map((k) => {
    const x = at(k);
    return analyze(x.text, x.opts).diagnostics;
  });
  return {
    times,
    findings: results.map((r) => r.length),
    refused: results.some((r) => r.some((d) => d.code === 'yaml-alias-limit')),
  };
}

function assertLinear(what: string, g: Growth): void {
  const [t1, t4, t16] = g.times;
  const shown = `${what}: ${g.times.map((t) => t.toFixed(1)).join(' / ')} ms at 1×, 4×, 16× (findings: ${g.findings.join(' / ')})`;
  assert.ok(t16 < 40 * t1, `16× the input took ${(t16 / t1).toFixed(1)}× the time; ${shown}`);
  assert.ok(t4 < 40 * t1, shown);
}

/**
 * VMs with disk sizes new in each analysis, from 2,000 GiB on (at most 24,000 sizes in a case, within pd-ssd's
 * 64 TiB): an analysis finds none of them in the advice memo that earlier ones filled.
 */
function freshSizes(make: (n: number, firstSize: number) => string): (n: number) => string {
  let next = 2000;
  return (n) => {
    next += n;
    return make(n, next - n);
  };
}

describe('no quadratic corner: each kind of finding grows linearly with the input', function () {
  this.timeout(180000);

  const cases: Array<[string, (n: number) => string, number]> = [
    ['unknown top-level keys', unknownKeys, 2000],
    ['duplicate keys (in one VM and at the top)', duplicateKeys, 2000],
    ['VMs aliasing one anchored list of disks', aliasedDisks, 150],
    ['VMs taking their machine and workload from a merge key', freshSizes(mergedVms), 150],
    ['distinct VMs', freshSizes((n, first) => manyVms(n, true, first)), 250],
    ['disks and workloads on one VM', (n) => manyDisks(n), 250],
    // Half the targets missed: each finding searches advice, and each search evaluates the whole VM again; the
    // VM's searches are bounded by the disks they evaluate (advice: ADVICE_WORK), not by the findings.
    ['disks and workloads on one VM, half the targets out of reach', freshSizes((n, first) => manyDisks(n, true, first)), 20],
    ['a long flow sequence of disks on one line', longFlowSequence, 1000],
  ];
  for (const [what, make, base] of cases)
    it(what, () => {
      const g = growth((n) => ({ text: make(n) }), base);
      // The inputs are what they say: analysed, with findings, none refused whole.
      assert.ok(!g.refused && g.findings.every((n) => n > 0), `findings: ${g.findings.join(' / ')}`);
      assertLinear(what, g);
    });

  it('a Terraform module of many resources (.tf)', async () => {
    const parse = await loadHclParser();
    const make = (n: number): Input => {
      const files = [{ path: 'main.tf', text: tfWithInstances(n) }];
      return { text: joinTfFiles(files).text, opts: { frontEnd: terraformFilesFrontEnd(parse, files) } };
    };
    const g = growth(make, 80);
    assert.ok(
      g.findings.every((n) => n > 0),
      `findings: ${g.findings.join(' / ')}`,
    );
    assertLinear('.tf resources', g);
  });
});
