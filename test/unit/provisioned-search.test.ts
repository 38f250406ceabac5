/**
 * The search for a disk's own provisioned IOPS and throughput (core/src/advice/provisioned.ts, `ownProvisioned`)
 * probes a few amounts, aimed by the figures, where a grid would evaluate hundreds: its answer is checked here
 * against such a grid over the seeded fleets. Where the disks share a limit split by what each asks (AWS's
 * per-instance EBS limit, Azure's uncached limit), more throughput can take another disk's share from its workloads,
 * so the amounts that meet the condition need not include the most of both: the search used to miss them.
 */
import * as assert from 'node:assert/strict';
import { streamedAnalysis } from '../../core/src/analyze';
import { cheapestProvisionedMeeting, ownProvisioned } from '../../core/src/advice/provisioned';
import { withDisk } from '../../core/src/advice/search';
import { attaches } from '../../core/src/catalog';
import { keepingOthers } from '../../core/src/advice/workload';
import { evaluateSustained } from '../../core/src/model/evaluate';
import { provisionedBounds } from '../../core/src/model/provisioned';
import type { VmEval } from '../../core/src/model/types';
import { distinctFleet, type FleetEdition } from '../../bench/fleet';

/** Amounts from `lo` to `hi`, denser near `lo` (where the least lies): `steps` + 1 of them, whole. */
function grid(r: { lo: number; hi: number } | undefined, steps: number): Array<number | undefined> {
  if (!r) return [undefined];
  const out = new Set<number>();
  for (let k = 0; k <= steps; k++) out.add(Math.round(r.lo + (r.hi - r.lo) * (k / steps) ** 2));
  return [...out];
}

describe("advice: a disk's own provisioned amounts, against a grid", () => {
  // aws-2025 seed 11: the search before it tried the own figures' least missed a gp3 (vm1782) that 3,000 IOPS and
  // 519 MiB/s make meet its target.
  for (const [edition, n, seed] of [
    ['aws-2025', 1900, 11],
    ['azure-2026', 1500, 3],
  ] as const)
    it(`${edition}: where some amounts of the disk's type meet the condition, the search finds amounts that cost no more`, function () {
      this.timeout(300_000);
      let asked = 0;
      let met = 0;
      for (const e of streamedAnalysis(distinctFleet(edition as FleetEdition, n, seed).text).vms() as Iterable<VmEval>) {
        if (!e.machine) continue;
        for (const r of e.workloads) {
          const on = e.spec.disks.filter((d) => r.spec.disk === undefined || d.name === r.spec.disk);
          const t = on.length === 1 ? e.catalog.disk_types[on[0].type] : undefined;
          if (r.meets_target !== false || t?.model !== 'provisioned') continue;
          const disk = on[0];
          const region = e.spec.region ?? e.catalog.default_region;
          const ok = keepingOthers(e, r.spec.name, { minHeadroom: 0, memoSizes: false });
          const found = ownProvisioned(e.catalog, e.spec, e.machine, region, disk, ok);
          asked++;
          // The disk at its size, as the search's first try is: every pair of amounts on the grid.
          const size = disk.size_gib ?? t.size_gib.default ?? t.size_gib.min;
          const p = t.provisioned;
          let cheapest: { iops?: number; mibps?: number; monthly: number } | undefined;
          for (const iops of grid(p.iops && provisionedBounds(p.iops, size), 24))
            for (const mibps of grid(p.mibps && provisionedBounds(p.mibps, size), 24)) {
              const d = { ...disk, size_gib: size, provisioned_iops: iops, provisioned_mibps: mibps };
              const x = evaluateSustained(
                e.catalog,
                { ...e.spec, disks: e.spec.disks.map((y) => (y === disk ? d : y)) },
                e.machine,
                region,
              );
              const monthly = x.disks.find((y) => y.spec.name === disk.name)?.cost.monthly;
              if (ok(x) && monthly !== undefined && (!cheapest || monthly < cheapest.monthly)) cheapest = { iops, mibps, monthly };
            }
          if (!cheapest) continue;
          met++;
          const what = `${e.spec.name} '${r.spec.name}' on ${disk.type}: the grid meets it with ${JSON.stringify(cheapest)}`;
          assert.ok(found, `${what}; the search found nothing`);
          assert.ok(found.monthly <= cheapest.monthly + 0.005, `${what}; the search found ${JSON.stringify(found)}`);
        }
      }
      assert.ok(met > 0 && asked > met, `${asked} workloads asked, ${met} met on the grid`);
    });
});

describe('advice: the cheapest provisioned type, against each type searched alone', () => {
  // A type whose least amounts the disk's own figures allow cost no less than a cheaper type found already is not
  // searched (`cheapestProvisionedMeeting`): the answer's price must be the least of every type searched in full.
  for (const [edition, n, seed] of [
    ['aws-2025', 600, 5],
    ['azure-2026', 600, 5],
  ] as const)
    it(`${edition}: the cheapest type found costs what the cheapest of every type, each searched, costs`, function () {
      this.timeout(300_000);
      let compared = 0;
      for (const e of streamedAnalysis(distinctFleet(edition as FleetEdition, n, seed).text).vms() as Iterable<VmEval>) {
        if (!e.machine) continue;
        for (const r of e.workloads) {
          const on = e.spec.disks.filter((d) => r.spec.disk === undefined || d.name === r.spec.disk);
          const disk = on.length === 1 ? on[0] : undefined;
          const size = disk?.size_gib;
          if (r.meets_target !== false || !disk || size === undefined) continue;
          const region = e.spec.region ?? e.catalog.default_region;
          const ok = keepingOthers(e, r.spec.name, { minHeadroom: 0, memoSizes: false });
          const redundant = e.catalog.disk_types[disk.type]?.replicated !== false;
          const cheapest = (below?: number) =>
            cheapestProvisionedMeeting(e.catalog, e.spec, e.machine!, region, disk, ok, {
              sizeGib: size,
              throughput: true,
              redundant,
              below,
            });
          // Each provisioned type the machine attaches, searched as the disk's own, priced only where wholly priced.
          let least: number | undefined;
          for (const [name, t] of Object.entries(e.catalog.disk_types)) {
            if (t.model !== 'provisioned' || !attaches(e.machine, name) || (redundant && t.replicated === false)) continue;
            if (disk.replication === 'regional' && !(t.replication ?? []).includes('regional')) continue;
            const vm = withDisk(e.spec, disk, { type: name, provisioned_iops: undefined, provisioned_mibps: undefined });
            const as = vm.disks[e.spec.disks.indexOf(disk)];
            const alone = ownProvisioned(e.catalog, vm, e.machine, region, as, ok);
            if (alone && !alone.unpriced && (least === undefined || alone.monthly < least)) least = alone.monthly;
          }
          compared++;
          const found = cheapest();
          const at = `${e.spec.name} '${r.spec.name}'`;
          assert.equal(found?.monthly, least, `${at}: ${found?.type} $${found?.monthly}, searched alone $${least}`);
          if (least === undefined) continue;
          // Asked for one below a price: found where the least is below it, not where the least is that price.
          assert.equal(cheapest(least + 0.01)?.monthly, least, `${at}: none found below $${least + 0.01}`);
          assert.equal(cheapest(least), undefined, `${at}: one found at $${least}, asked below it`);
        }
      }
      assert.ok(compared > 100, `${compared} workloads compared`);
    });
});
