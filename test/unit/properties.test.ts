/** Property tests: evaluation never throws, never exceeds a cap, and never gets worse with more size or vCPUs. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  analyze,
  builtinRegistry,
  condition,
  largerMachines,
  limitValue,
  METRICS,
  resolveMachine,
  smallestSizeMeeting,
  vmLimitRow,
  type Catalog,
  type VmEval,
} from '../../core/src';
import { specText, type DiskInput } from '../helpers';

const gcp = builtinRegistry.get('gcp-2024')!;
const old = builtinRegistry.get('gcp-2020')!;
const yc = builtinRegistry.get('yandex-2025')!;

function machines(c: Catalog): string[] {
  const out: string[] = [];
  for (const [series, info] of Object.entries(c.machine_series)) {
    for (const [family, list] of Object.entries(info.families ?? {})) for (const v of list) out.push(`${series}-${family}-${v}`);
  }
  return out;
}

const scaledTypes = (c: Catalog) =>
  Object.entries(c.disk_types)
    .filter(([, t]) => t.model === 'scaled')
    .map(([n]) => n);

const gcpSpec = (c: Catalog) =>
  fc.record({
    machine: fc.constantFrom(...machines(c)),
    disks: fc.array(
      fc.record({
        type: fc.constantFrom(...Object.keys(c.disk_types)),
        size: fc.integer({ min: 1, max: 70000 }),
        replication: fc.constantFrom('zonal', 'regional'),
        count: fc.integer({ min: 1, max: 32 }),
        provisioned_iops: fc.integer({ min: 1, max: 400000 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    other: fc.integer({ min: 0, max: 50000 }),
    block: fc.constantFrom('512', '4k', '8k', '16k', '64k', '256k', '1m', '4m'),
    ratio: fc.double({ min: 0, max: 1, noNaN: true }),
    qd: fc.option(fc.integer({ min: 1, max: 1024 })),
    iops: fc.integer({ min: 0, max: 500000 }),
  });

function toText(
  c: Catalog,
  s: {
    machine: string;
    disks: Array<{ type: string; size: number; replication: string; count: number; provisioned_iops: number }>;
    other: number;
    block: string;
    ratio: number;
    qd: number | null;
    iops: number;
  },
): string {
  const disks: DiskInput[] = s.disks.map((d, i) => {
    const t = c.disk_types[d.type];
    const base: DiskInput = { name: `d${i}`, type: d.type };
    if (t.model === 'devices') return { ...base, count: d.count };
    return {
      ...base,
      size: d.size,
      replication: d.replication,
      ...(t.model === 'provisioned' ? { provisioned_iops: d.provisioned_iops } : {}),
    };
  });
  return specText({
    catalog: c.edition,
    machine: s.machine,
    other_egress: `${s.other}MiB/s`,
    disks,
    workloads: [
      { block_size: s.block, read_ratio: Math.round(s.ratio * 100) / 100, queue_depth: s.qd ?? undefined, target: { iops: s.iops } },
    ],
  });
}

describe('properties', function () {
  this.timeout(120000);

  it('evaluation never throws and never exceeds a disk maximum or a per-VM limit', () => {
    for (const c of [gcp, old]) {
      fc.assert(
        fc.property(gcpSpec(c), (s) => {
          const a = analyze(toText(c, s));
          for (const vm of a.vms) {
            const m = vm.machine;
            for (const d of vm.disks) {
              for (const k of METRICS) {
                const v = d.figures[k];
                assert.ok(Number.isFinite(v) && v >= 0, `${k} = ${v}`);
                const t = d.type;
                const cap = t.model === 'devices' ? undefined : (t.disk_max as unknown as Record<string, unknown>)[k];
                if (typeof cap === 'number') assert.ok(v <= cap + 1e-6, `${d.typeName} ${k} ${v} > disk max ${cap}`);
                if (m && t.model !== 'devices') {
                  const row = vmLimitRow(c, m, d.typeName);
                  const vmCap = row ? limitValue(row.row[k], m.vcpus) : undefined;
                  if (vmCap !== undefined) assert.ok(v <= vmCap + 1e-6, `${d.typeName} ${k} ${v} > VM cap ${vmCap} on ${m.name}`);
                }
              }
            }
            for (const w of vm.workloads) {
              for (const v of [w.read_iops, w.write_iops, w.read_mibps, w.write_mibps]) assert.ok(Number.isFinite(v) && v >= 0);
              const total = vm.disks.reduce((acc, d) => acc + Math.max(d.figures.read_iops, d.figures.write_iops), 0);
              assert.ok(w.read_iops + w.write_iops <= total + 1e-6, 'a workload never beats its disks');
            }
          }
        }),
        { numRuns: 150 },
      );
    }
  });

  it('figures never decrease as a disk grows', () => {
    for (const c of [gcp, old]) {
      fc.assert(
        fc.property(
          fc.constantFrom(...machines(c)),
          fc.constantFrom(...scaledTypes(c)),
          fc.integer({ min: 10, max: 60000 }),
          fc.integer({ min: 1, max: 5000 }),
          (machine, type, size, extra) => {
            const at = (gib: number) => analyze(specText({ catalog: c.edition, machine, disks: [{ type, size: gib }] })).vms[0]?.disks[0];
            const a = at(size);
            const b = at(size + extra);
            if (!a || !b) return;
            for (const k of METRICS)
              assert.ok(b.figures[k] >= a.figures[k] - 1e-6, `${type} ${k}: ${size} → ${size + extra} GiB on ${machine}`);
          },
        ),
        { numRuns: 150 },
      );
    }
  });

  it("a memoised size search answers as a fresh one, whatever the disk's current size and the bounds", () => {
    // The memo keeps the least size over the type's whole range and clamps it to each call's bounds: that is the
    // answer of a search within those bounds only because figures never decrease with size (the property above).
    fc.assert(
      fc.property(
        fc.constantFrom(...machines(gcp)),
        fc.constantFrom(...scaledTypes(gcp)),
        fc.integer({ min: 10, max: 60000 }),
        fc.integer({ min: 100, max: 200000 }),
        fc.integer({ min: 0, max: 20000 }),
        fc.option(fc.integer({ min: 10, max: 70000 })),
        (machine, type, size, iops, minSize, maxSize) => {
          const e = analyze(
            specText({
              catalog: gcp.edition,
              machine,
              disks: [{ name: 'data', type, size }],
              workloads: [{ name: 'db', disk: 'data', block_size: '8k', read_ratio: 0.7, target: { iops } }],
            }),
          ).vms[0];
          if (!e?.machine) return;
          const holds = (x: VmEval) => x.workloads[0]?.meets_target === true;
          const fresh = smallestSizeMeeting(gcp, e.spec, e.machine, 'us-central1', e.spec.disks[0], holds, maxSize ?? Infinity, minSize);
          const keyed = condition('workload db meets its target', holds);
          // Twice: the first call may search, the second answers from the memo.
          for (let i = 0; i < 2; i++)
            assert.equal(
              smallestSizeMeeting(gcp, e.spec, e.machine, 'us-central1', e.spec.disks[0], keyed, maxSize ?? Infinity, minSize),
              fresh,
              `${type} on ${machine}, ${iops} IOPS, sizes ${minSize}..${maxSize}`,
            );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('figures never decrease on a larger machine of the same series', () => {
    for (const c of [gcp, old]) {
      fc.assert(
        fc.property(
          fc.constantFrom(...machines(c)),
          fc.constantFrom(...scaledTypes(c)),
          fc.integer({ min: 10, max: 65536 }),
          (machine, type, size) => {
            const r = resolveMachine(c, { machine_type: machine });
            if (!r.ok) return;
            const bigger = largerMachines(r.machine)[0];
            if (!bigger) return;
            const at = (mt: string) => analyze(specText({ catalog: c.edition, machine: mt, disks: [{ type, size }] })).vms[0]?.disks[0];
            const a = at(machine);
            const b = at(bigger.name);
            if (!a || !b) return;
            for (const k of METRICS) assert.ok(b.figures[k] >= a.figures[k] - 1e-6, `${type} ${k}: ${machine} → ${bigger.name}`);
          },
        ),
        { numRuns: 200 },
      );
    }
  });

  it('Yandex: never throws, never exceeds per-disk caps, grows with size', () => {
    const types = Object.keys(yc.disk_types);
    const series = Object.keys(yc.machine_series);
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.constantFrom(...series),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 30000 }),
        (type, s, vIdx, size) => {
          const vcpus = yc.machine_series[s].vcpus!;
          const v = vcpus[vIdx % vcpus.length];
          const at = (gib: number) =>
            analyze(
              specText({
                provider: 'yandex',
                series: s,
                vcpus: v,
                disks: [{ type, size: gib }],
                workloads: [{ block_size: '16k', read_ratio: 0.5 }],
              }),
            ).vms[0]?.disks[0];
          const a = at(size);
          const b = at(size + 93);
          if (!a || !b) return;
          const t = yc.disk_types[type];
          for (const k of METRICS) {
            if (t.model === 'allocation-units') assert.ok(a.figures[k] <= t.disk_max[k]);
            assert.ok(b.figures[k] >= a.figures[k] - 1e-6);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('analysis never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        analyze(s);
      }),
      { numRuns: 300 },
    );
    const base = specText({
      catalog: 'gcp-2024',
      machine: 'n2-standard-8',
      disks: [{ type: 'pd-ssd', size: 500 }],
      workloads: [{ block_size: '8k', read_ratio: 0.7, target: { iops: 10000 } }],
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: base.length }),
        fc.integer({ min: 0, max: 20 }),
        fc.string({ maxLength: 8 }),
        (at, del, ins) => {
          const a = analyze(base.slice(0, at) + ins + base.slice(at + del));
          for (const d of a.diagnostics) assert.ok(d.span.start >= 0 && d.span.end <= a.parsed.text.length && d.span.start <= d.span.end);
        },
      ),
      { numRuns: 300 },
    );
  });
});
