/**
 * The advice's searches skip or compute what the catalog's rows and the figures already say (core/src/advice/rows.ts
 * and its neighbours), and their answers stay those of evaluating every candidate: each shortcut is checked here
 * against the evaluation it saves, over the seeded fleets of every provider.
 */
import * as assert from 'node:assert/strict';
import { largerSizes, withDisk } from '../../core/src/advice/search';
import { heldOn, shortOn } from '../../core/src/advice/rows';
import { attaches, largerMachines } from '../../core/src/catalog';
import { streamedAnalysis } from '../../core/src/analyze';
import { evaluateOn } from '../../core/src/model/evaluate';
import { METRICS, type VmEval } from '../../core/src/model/types';
import { distinctFleet, type FleetEdition } from '../../bench/fleet';

const EDITIONS = ['gcp-2024', 'aws-2025', 'yandex-2025', 'azure-2026'] as const;

/** The evaluated VMs of a seeded fleet of `n` distinct VMs of the edition. */
function fleetVms(edition: string, n: number): VmEval[] {
  const out: VmEval[] = [];
  for (const e of streamedAnalysis(distinctFleet(edition as FleetEdition, n, 3).text).vms()) out.push(e);
  return out;
}

/** Whether some disk's figure is set by the machine's per-VM limit below what the disk does by itself. */
function heldBelowOwn(x: VmEval): boolean {
  return x.disks.some((d) => METRICS.some((k) => d.figures[k].by === 'vm' && d.figures[k].value < d.diskOnly[k].value * (1 - 1e-9)));
}

describe('advice by the catalog rows', () => {
  for (const edition of EDITIONS)
    it(`${edition}: a machine the rows say holds a disk does hold it, evaluated`, () => {
      let held = 0;
      let machines = 0;
      for (const e of fleetVms(edition, 150)) {
        if (!e.machine) continue;
        for (const m of largerSizes(e.catalog, e.spec, e.machine)) {
          machines++;
          if (!heldOn(e, m)) continue;
          held++;
          assert.ok(heldBelowOwn(evaluateOn(e.catalog, e.spec, m, 'r')), `${e.spec.name} on ${m.name}`);
        }
      }
      // The rows rule out some machines in every fleet (else nothing here is tested).
      assert.ok(held > 0 && held < machines, `${held} of ${machines} machines`);
    });
});

/** The largest disk of type `t` the catalog sells, with the most it provisions: the most the type gives on any machine. */
function largestOf(e: VmEval, t: string): { type: string; size_gib: number; provisioned_iops?: number; provisioned_mibps?: number } {
  const type = e.catalog.disk_types[t];
  const pr = type.model === 'provisioned' ? type.provisioned : undefined;
  return { type: t, size_gib: type.size_gib.max, provisioned_iops: pr?.iops?.max, provisioned_mibps: pr?.mibps?.max };
}

describe('advice: a workload surely short on a machine', () => {
  for (const edition of EDITIONS)
    it(`${edition}: where the disk's figures and the rows say a target is missed, the evaluation misses it`, () => {
      let short = 0;
      let anyType = 0;
      for (const e of fleetVms(edition, 150)) {
        if (!e.machine) continue;
        for (const r of e.workloads) {
          if (r.meets_target !== false || r.disks.length !== 1) continue;
          const disk = e.spec.disks.find((d) => d.name === r.disks[0])!;
          for (const m of largerMachines(e.machine)) {
            if (shortOn(e.spec, m, r.spec.name, e.catalog, [disk.type], e)) {
              short++;
              const on = evaluateOn(e.catalog, e.spec, m, 'r').workloads.find((x) => x.spec.name === r.spec.name);
              assert.notEqual(on?.meets_target, true, `${e.spec.name} '${r.spec.name}' on ${m.name}`);
            }
            const types = Object.keys(e.catalog.disk_types).filter((t) => e.catalog.disk_types[t].model !== 'devices' && attaches(m, t));
            if (!shortOn(e.spec, m, r.spec.name, e.catalog, types)) continue;
            anyType++;
            for (const t of types) {
              const x = evaluateOn(e.catalog, withDisk(e.spec, disk, largestOf(e, t)), m, 'r');
              const on = x.workloads.find((y) => y.spec.name === r.spec.name);
              assert.notEqual(on?.meets_target, true, `${e.spec.name} '${r.spec.name}' on ${m.name} with ${t}`);
            }
          }
        }
      }
      assert.ok(short > 0, 'some machine is ruled out by the disk and the rows');
      assert.ok(anyType > 0, 'some machine is ruled out for every type');
    });
});
