/**
 * The invariant suite: specs generated from every built-in catalog (./generate.ts), and the rules of
 * ./invariants.ts checked on each. Seeded and bounded here; `npm run invariants -- --runs N` runs longer. A
 * failure prints the shrunk spec as YAML.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import fc from 'fast-check';
import specSchema from '../../schemas/storage-perf.schema.json';
import {
  analyze,
  attaches,
  fileReport,
  INSTANCE_STORE,
  largerMachines,
  parseTerraformPlan,
  METRICS,
  resolveMachine,
  textWithFix,
  sizeRange,
  unmodelledOn,
  type Analysis,
  type FileReport,
} from '../../core/src';
import { CATALOGS, hasOutOfRange, specArb, toYaml, type GenSpec } from './generate';
import {
  budgetsHold,
  cheapestFixApplied,
  diffFromNothingIsAllAdded,
  diffWithItselfIsEmpty,
  fixesDoWhatTheySay,
  judgedOnDeliveredFigures,
  loadSpec,
  messagesRead,
  nothingShownIsNotANumber,
  nothingVanishes,
  totalsAddUp,
} from './invariants';
import { planArb, toPlan, type GenPlan } from './generate-plan';

/** Runs per edition and property; `INVARIANT_RUNS` (set by `npm run invariants`) makes it longer. */
export const RUNS = Number(process.env.INVARIANT_RUNS ?? 100);
const SEED = Number(process.env.INVARIANT_SEED ?? 20261126);
const ROOT = resolve(__dirname, '../../..');

/** The property over generated specs, with the spec's YAML in the message of whatever fails. */
function holds(check: (text: string, a: Analysis, s: GenSpec) => void, runs = RUNS) {
  for (const c of CATALOGS) {
    fc.assert(
      fc.property(specArb(c), (s) => {
        const text = toYaml(s);
        try {
          check(text, analyze(text), s);
        } catch (e) {
          (e as Error).message += `\n--- spec (${c.edition}):\n${text}`;
          throw e;
        }
      }),
      { numRuns: runs, seed: SEED, endOnFailure: false },
    );
  }
}

/** The property over Terraform plans generated from the catalogs (./generate-plan.ts), each read with its edition. */
function holdsOnPlans(check: (text: string, a: Analysis, p: GenPlan) => void, runs = RUNS) {
  for (const c of CATALOGS) {
    const arb = planArb(c);
    if (!arb) continue;
    fc.assert(
      fc.property(arb, (p) => {
        const text = toPlan(p, c);
        try {
          check(text, analyze(text, { frontEnd: parseTerraformPlan, defaultCatalog: c.edition }), p);
        } catch (e) {
          (e as Error).message += `\n--- plan (${c.edition}):\n${text}`;
          throw e;
        }
      }),
      { numRuns: runs, seed: SEED, endOnFailure: false },
    );
  }
}

describe('invariants over specs generated from the catalogs', function () {
  this.timeout(600000);

  it('1. nothing vanishes: every VM, disk and workload is reported, and totals add up as shown', () => {
    holds((text, a) => nothingVanishes(text, a, fileReport('spec.perf.yaml', a)));
  });

  it("1. a Terraform configuration's total is the sum of its VMs and its unattached disks, or partial with each missing part named", () => {
    holdsOnPlans((_, a, p) => {
      const r = fileReport('plan.json', a);
      totalsAddUp(r);
      // Nothing vanishes: every instance is a VM of the report, every disk resource is on its VM or attached to none.
      const aws = a.spec?.provider === 'aws';
      const instance = aws ? 'aws_instance' : 'google_compute_instance';
      assert.deepEqual(
        r.vms.map((v) => v.name),
        p.spec.vms.map((v) => `${instance}.${v.name}`),
      );
      const onVms = new Set(r.vms.flatMap((v) => v.disks.map((d) => d.name)));
      const diskType = (d: { replication?: string }) =>
        aws ? 'aws_ebs_volume' : d.replication === 'regional' ? 'google_compute_region_disk' : 'google_compute_disk';
      p.spec.vms.forEach((vm) => {
        const volumes = vm.disks.filter((d) => d.type !== INSTANCE_STORE && d.count === undefined);
        volumes.forEach((d, i) => {
          const address = aws && i === 0 ? `aws_instance.${vm.name}.root_block_device` : `${diskType(d)}.${vm.name}_${d.name}`;
          assert.ok(onVms.has(address), `${address} is on its VM`);
        });
      });
      assert.deepEqual(
        (r.unattached_disks ?? []).map((d) => d.name),
        p.unattached.map((d) => `${diskType(d)}.${d.name}`),
        'every disk attached to no VM is priced apart',
      );
      // A disk whose size is known only after apply leaves the total partial, naming it.
      for (const key of p.sizeUnknown) {
        const [vm, disk] = key.includes('/') ? key.split('/') : [undefined, key];
        const spec =
          vm === undefined
            ? p.unattached.find((d) => d.name === disk)!
            : p.spec.vms.find((v) => v.name === vm)!.disks.find((d) => d.name === disk)!;
        const root =
          aws && vm !== undefined && p.spec.vms.find((v) => v.name === vm)!.disks.find((d) => d.type !== INSTANCE_STORE) === spec;
        const address = root ? `aws_instance.${vm}.root_block_device` : `${diskType(spec)}.${vm === undefined ? disk : `${vm}_${disk}`}`;
        assert.equal(r.monthly_cost_complete, false, `${address}'s size is unknown: the total is partial`);
        assert.ok(
          r.monthly_cost_missing.some((m) => m.startsWith(address)),
          `the total names ${address}: ${r.monthly_cost_missing.join(' | ')}`,
        );
      }
    });
  });

  it('1. a disk outside its allowed range is an error and has no figures', () => {
    holds((text, a, s) => {
      if (!hasOutOfRange(s)) return;
      // Where the edition models the type on the machine: elsewhere (io2 on Block Express in aws-2023) its range is
      // not the edition's to judge, and the disk has no figures anyway.
      const judged = s.vms.some((vm, i) =>
        vm.disks.some((d) => d.outOfRange && !a.vms[i]?.unmodelled?.some((u) => u.spec.name === d.name)),
      );
      if (judged)
        assert.ok(
          a.diagnostics.some((d) => d.severity === 'error'),
          'a value out of range is an error',
        );
      const r = fileReport('spec.perf.yaml', a);
      s.vms.forEach((vm, i) =>
        vm.disks.forEach((d, j) => {
          if (d.outOfRange) assert.equal(r.vms[i].disks[j].read_iops, null, `${vm.name}/${d.name}: ${d.outOfRange}, yet figures`);
        }),
      );
    });
  });

  it('2. a fix does what its title says, and nothing else', () => {
    holds((_, a) => fixesDoWhatTheySay(a), Math.ceil(RUNS / 2));
  });

  it('3. more size or a larger machine of the same series never lowers a figure; another disk never raises the others', () => {
    holds((_, a, s) => {
      const vm = s.vms[0];
      if (hasOutOfRange(s)) return;
      const evalOf = (spec: GenSpec) => analyze(toYaml(spec)).vms[0];
      const base = a.vms[0];
      if (!base?.machine) return;
      const figures = (e: typeof base | undefined, name: string) => e?.disks.find((d) => d.spec.name === name)?.figures;
      // A larger size of the first disk that has one.
      const sized = vm.disks.findIndex((d) => d.size !== undefined);
      if (sized >= 0) {
        const t = a.catalog!.disk_types[vm.disks[sized].type];
        const bigger = Math.min(t.size_gib.max, vm.disks[sized].size! * 2);
        const grown = structuredClone(s);
        grown.vms[0].disks[sized].size = bigger;
        grown.vms[0].disks[sized].sizeSpelling = 'GiB';
        delete grown.vms[0].mergedDisks;
        const name = vm.disks[sized].name;
        const x = figures(base, name);
        const y = figures(evalOf(grown), name);
        if (x && y) for (const k of METRICS) assert.ok(y[k] >= x[k] - 1e-6, `${name} ${k}: ${x[k]} → ${y[k]} at ${bigger} GiB`);
      }
      // A larger machine of the same series.
      const larger = largerMachines(base.machine)[0];
      if (larger && vm.machine_type) {
        const moved = structuredClone(s);
        moved.vms[0].machine_type = larger.name;
        const e = evalOf(moved);
        // Each disk's own figures, and the disks' figures together, never fall. (How a shared limit is split may
        // shift between disks: the targets' demand comes first, and on the larger machine another limit, such
        // as network egress counted with each disk's write multiplier, may be the one that binds. A figure under
        // a per-VM limit the edition lacks is an upper bound, "≤", which a known limit may undercut.)
        // (An instance store is the machine's own hardware, not a limit: a larger size may come with less of it, as
        // g5.16xlarge has one 1,900 GB NVMe device where g5.12xlarge has one of 3,800 GB.)
        const store = new Set(base.disks.filter((d) => d.typeName === INSTANCE_STORE).map((d) => d.spec.name));
        const known = base.disks.filter((d) => d.vmLimitKnown && !store.has(d.spec.name));
        const after = known.map((d) => e?.disks.find((x) => x.spec.name === d.spec.name));
        for (const k of METRICS) {
          known.forEach((d, i) => {
            const y = after[i];
            if (y) assert.ok(y.diskOnly[k] >= d.diskOnly[k] - 1e-6, `${d.spec.name} ${k} alone on ${larger.name}`);
          });
          // Writes counted as the network carries them (a regional disk's write counts 2.32 times, a zonal one's
          // 1.16): egress is shared in network MiB/s, so that is the total that cannot fall.
          const egress = a.catalog!.egress;
          const weight = (d: (typeof known)[number]) =>
            k.startsWith('write') && egress && d.type.network_writes
              ? egress.multiplier[d.type.replication?.length === 1 ? d.type.replication[0] : d.spec.replication]
              : 1;
          const before = known.reduce((sum, d) => sum + d.figures[k] * weight(d), 0);
          const now = after.reduce((sum, y, i) => sum + (y?.figures[k] ?? 0) * weight(known[i]), 0);
          if (after.every(Boolean))
            assert.ok(now >= before * (1 - 1e-9) - 1e-6, `the disks' ${k} together on ${larger.name}: ${before} → ${now}`);
        }
        const met = (r: FileReport['vms'][number]) => r.workloads.map((w) => w.meets_target);
        // (Where the larger machine takes the disks at all: n2d-highcpu-96 takes no 4 local SSDs, for one.)
        const on = analyze(toYaml(moved));
        if (!on.vms[0]?.unevaluated?.length) {
          const before = fileReport('x', a).vms[0];
          const was = met(before);
          const is = met(fileReport('x', on).vms[0]);
          // Met stays met, or is no longer judged where the larger machine's per-VM limit is unknown (its figures
          // are upper bounds): never missed.
          const onStore = before.workloads.map((w) => w.disks.some((n) => store.has(n)));
          was.forEach(
            (m, i) =>
              m === true && !onStore[i] && assert.notEqual(is[i], false, `workload ${i} no longer meets its target on ${larger.name}`),
          );
        }
      }
      // Another disk, a copy of the first: the other disks together never get more. (One of them alone may: a
      // shared limit is shared out by what each disk can use, and the new disk can take capability from one, as a
      // second pd-ssd does by sharing its baseline, so that another gets the part of the limit it leaves.)
      if (vm.disks.length < 4) {
        const more = structuredClone(s);
        more.vms[0].disks.push({ ...vm.disks[0], name: 'extra' });
        const e = evalOf(more);
        for (const k of METRICS) {
          const before = base.disks.reduce((sum, d) => sum + d.figures[k], 0);
          const after = base.disks.reduce((sum, d) => sum + (figures(e, d.spec.name)?.[k] ?? 0), 0);
          assert.ok(after <= before * (1 + 1e-9) + 1e-6, `the other disks' ${k} rises with another disk: ${before} → ${after}`);
        }
      }
    });
  });

  it('3. a target is judged met only on figures the VM delivers, never on upper bounds', () => {
    holds((_, a) => judgedOnDeliveredFigures(fileReport('spec.perf.yaml', a)));
  });

  it('4. each disk alone and the busy disks together stay within every per-VM limit, and a limit they exceed together is stated', () => {
    holds((_, a) => budgetsHold(a));
  });

  it("4. an idle disk changes no other disk's figures and no workload's", () => {
    holds((_, a, s) => {
      if (hasOutOfRange(s)) return;
      const vm = s.vms[0];
      const base = a.vms[0];
      // Idle: a disk no workload names, so only where every workload names its disk. A disk of a type that pools one
      // baseline per VM (gcp-2024's pd-balanced and pd-ssd) takes part of it whatever it does, as Google's sizes add
      // up: a copy of such a disk is not idle in that sense, and is left out.
      if (!base?.machine || vm.disks.length >= 4 || vm.workloads.some((w) => w.disk === undefined)) return;
      const first = base.disks.find((d) => d.spec.name === vm.disks[0].name);
      if (!first || first.baselineGroup.length || first.type.model === 'devices') return;
      const more = structuredClone(s);
      more.vms[0].disks.push({ ...vm.disks[0], name: 'idle' });
      delete more.vms[0].mergedDisks;
      const e = analyze(toYaml(more)).vms[0];
      for (const d of base.disks) {
        const x = e.disks.find((y) => y.spec.name === d.spec.name);
        if (!x) continue;
        for (const k of METRICS) assert.equal(x.figures[k], d.figures[k], `${d.spec.name} ${k} changes with an idle disk beside it`);
      }
      base.workloads.forEach((w, i) => {
        const y = e.workloads.find((x) => x.spec.name === w.spec.name)!;
        for (const k of METRICS) assert.equal(y[k], w[k], `workload ${w.spec.name} ${k} changes with an idle disk beside it (${i})`);
      });
    });
  });

  it('5. the schema accepts every shipped example and every generated spec', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(specSchema);
    const examples = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.perf.yaml'));
    assert.ok(examples.length > 0);
    for (const f of examples) {
      const ok = validate(loadSpec(readFileSync(join(ROOT, 'examples', f), 'utf8')));
      assert.ok(ok, `${f}: ${ajv.errorsText(validate.errors)}`);
    }
    holds((text) => {
      assert.ok(validate(loadSpec(text)), ajv.errorsText(validate.errors));
    });
  });

  it('5. the product reports as errors the mistakes the schema rejects, and none on what it accepts', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(specSchema);
    const SCHEMA_CODES = ['unknown-key', 'missing-key', 'wrong-type', 'invalid-value', 'out-of-range', 'bad-quantity', 'missing-machine'];
    // One mistake of a kind users make, written into the first VM: the schema rejects each.
    const mistakes: Array<[string, (t: string) => string]> = [
      ['an unknown key', (t) => t.replace('  - name: vm0\n', '  - name: vm0\n    colour: blue\n')],
      ['a block size that is no size', (t) => t.replace(/block_size: \S+/, 'block_size: fast')],
      ['a read ratio above 1', (t) => t.replace(/read_ratio: \S+/, 'read_ratio: 2')],
      ['a size that is no size', (t) => t.replace(/size: \S+/, 'size: -5GiB')],
      ['a disk without a name', (t) => t.replace(/\n(\s+)- name: d0\n\s+type:/, '\n$1- type:')],
    ];
    holds(
      (text, a) => {
        assert.deepEqual(
          a.diagnostics.filter((d) => SCHEMA_CODES.includes(d.code)).map((d) => `${d.code}: ${d.message}`),
          [],
          'a spec the schema accepts has no schema finding',
        );
        for (const [what, make] of mistakes) {
          const bad = make(text);
          if (bad === text) continue;
          assert.ok(!validate(loadSpec(bad)), `the schema accepts ${what}`);
          const errors = analyze(bad).diagnostics.filter((d) => d.severity === 'error');
          assert.ok(errors.length > 0, `${what}: no error\n${bad}`);
        }
      },
      Math.ceil(RUNS / 4),
    );
  });

  it("5. the schema's enumerations are the catalogs' own", () => {
    const s = specSchema as unknown as {
      properties: Record<string, { enum?: string[]; examples?: string[] }>;
      definitions: { disk: { properties: Record<string, { enum?: string[] }> } };
    };
    const providers = [...new Set(CATALOGS.map((c) => c.provider))].sort();
    assert.deepEqual([...(s.properties.provider.enum ?? [])].sort(), providers);
    const types = new Set<string>();
    for (const c of CATALOGS) for (const t of Object.keys(c.disk_types)) types.add(t);
    if (CATALOGS.some((c) => c.instance_store)) types.add('instance-store');
    assert.deepEqual([...(s.definitions.disk.properties.type.enum ?? [])].sort(), [...types].sort());
    const interfaces = new Set<string>();
    for (const c of CATALOGS)
      for (const t of Object.values(c.disk_types)) if (t.model === 'devices') Object.keys(t.interfaces).forEach((i) => interfaces.add(i));
    assert.deepEqual([...(s.definitions.disk.properties.interface.enum ?? [])].sort(), [...interfaces].sort());
  });

  it('7. the fix offered first for a missed target is never dearer than another disk type of the same size (at least its documented minimum) that meets it', () => {
    holds(
      (text, a, s) => {
        if (hasOutOfRange(s)) return;
        const c = a.catalog!;
        a.diagnostics.forEach((d) => {
          const fix = d.code === 'target-unreachable' ? d.fixes?.find((f) => f.preferred) : undefined;
          const vi = Number(/^\/vms\/(\d+)\/workloads\/(\d+)/.exec(d.path ?? '')?.[1] ?? NaN);
          const wi = Number(/^\/vms\/\d+\/workloads\/(\d+)/.exec(d.path ?? '')?.[1] ?? NaN);
          const vm = s.vms[vi];
          const w = vm?.workloads[wi];
          const diskAt = w?.disk === undefined ? -1 : vm.disks.findIndex((x) => x.name === w.disk);
          const e = a.vms[vi];
          if (!fix || !vm || diskAt < 0 || !e?.machine || vm.mergedDisks?.includes(diskAt)) return;
          const fixed = fileReport('x', analyze(textWithFix(a, fix))).vms[vi];
          if (fixed.monthly_cost === null || !fixed.monthly_cost_complete || fixed.workloads[wi]?.meets_target !== true) return;
          const disk = vm.disks[diskAt];
          for (const type of Object.keys(c.disk_types)) {
            const t = c.disk_types[type];
            if (type === disk.type || t.model === 'devices' || !attaches(e.machine, type) || disk.size === undefined) continue;
            // The same size, or the smallest advice proposes of that type where the size is below it (Google's
            // documented minimum, above what its API accepts): advice never proposes a smaller one.
            const range = sizeRange(t, disk.replication);
            const size = Math.max(disk.size, range.advised);
            if (size > range.max || unmodelledOn(t, e.machine)) continue;
            const alt = structuredClone(s);
            // The same replication (a regional disk stays regional), where the type offers it.
            if (disk.replication === 'regional' && !t.replication?.includes('regional')) continue;
            alt.vms[vi].disks[diskAt] = { name: disk.name, type, size, sizeSpelling: 'GiB', replication: disk.replication };
            const r = fileReport('x', analyze(toYaml(alt))).vms[vi];
            // It meets every target the fix meets, with the spec's headroom wherever the fix keeps it.
            const policy = a.spec?.min_headroom ?? 0;
            const meets = r.workloads.every((x, j) => {
              const f = fixed.workloads[j];
              if (f?.meets_target !== true) return true;
              return x.meets_target === true && (f.headroom === null || f.headroom < policy || (x.headroom ?? -1) >= policy - 1e-9);
            });
            if (!meets || r.monthly_cost === null || !r.monthly_cost_complete) continue;
            assert.ok(
              r.monthly_cost >= fixed.monthly_cost - 0.01,
              `'${fix.title}' makes ${vm.name} $${fixed.monthly_cost}/month; ${type} at ${size} GiB meets the same targets for $${r.monthly_cost}`,
            );
          }
        });
      },
      Math.ceil(RUNS / 2),
    );
  });

  it('8. for a missed target, lint --fix applies the cheapest fix of the types asked for, and it meets the target', () => {
    // (Not on a VM that shares a disk's text with another: a fix of that text is offered only where all of them ask
    // for it, so the cheapest may not be offered there.)
    const shares = (s: GenSpec, vm: number) => !!s.vms[vm]?.mergedDisks?.length || (vm === 0 && s.vms.some((v) => v.mergedDisks?.length));
    holds((_, a, s) => cheapestFixApplied(a, (vm) => shares(s, vm)), Math.ceil(RUNS / 2));
  });

  it('6. messages are short, registered and say nothing twice', () => {
    holds((_, a) => messagesRead(a));
  });

  it('6. nothing shown is Infinity or NaN (report, inlay hints, hovers)', () => {
    holds((_, a) => nothingShownIsNotANumber(a, fileReport('spec.perf.yaml', a)), Math.ceil(RUNS / 2));
  });

  it('8. diff(A, A) is empty: no VM listed, no finding appeared or gone, every VM unchanged', () => {
    holds((text) => diffWithItselfIsEmpty(text), Math.ceil(RUNS / 2));
  });

  it('8. diff(nothing, A) is all of A added: every VM with its disks and workloads, every finding; nothing removed or changed', () => {
    holds((text) => diffFromNothingIsAllAdded(text), Math.ceil(RUNS / 2));
  });

  it('the generator names machines the catalogs resolve', () => {
    for (const c of CATALOGS) {
      const s = fc.sample(specArb(c), { numRuns: 5, seed: SEED });
      for (const spec of s) for (const vm of spec.vms) assert.ok(resolveMachine(c, vm).ok, `${c.edition}: ${vm.machine_type ?? vm.series}`);
    }
  });
});
