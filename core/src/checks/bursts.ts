/**
 * Targets met only while something bursts: a volume's credit bucket (AWS gp2) or an instance's burst window
 * (AWS: an instance's EBS maximum for 30 minutes a day). The spec gives no duration for a workload, so its
 * target is taken as one to hold for as long as it runs: a workload that meets it only on a burst figure and
 * misses it on the sustained one gets a finding on what bursts, with the change that sustains it.
 */
import { vmLimitRow, type Machine } from '../catalog';
import { vmCostChange, provisionedValues, boughtText, removedText } from '../advice/fixes';
import { diskWorkloadsMet } from '../advice/least';
import { meetsWithHeadroom, smallestMachineMeeting, targetsKept } from '../advice/search';
import { cheapestProvisionedMeeting } from '../advice/provisioned';
import { MESSAGE_LENGTH, type FixData } from '../diagnostics';
import { bucketSeconds, workloadBurstText } from '../model/burst';
import { judgeTargets } from '../model/targets';
import type { DiskEval, VmEval, WorkloadEval } from '../model/types';
import { fmt, fmtMoney, plural } from '../units';
import type { CheckModule, VmContext } from './types';
import { disksNamed } from '../model/lookups';

export const bursts: CheckModule = {
  id: 'bursts',
  title: 'Targets met only while bursting',
  about:
    "A workload that meets its target only on a burst figure — a volume's burst credits, an instance's burst window — and misses it on the sustained one. The spec has no duration for a workload: its target is one to hold for as long as it runs.",
  codes: {
    'gp2-out-of-burst': {
      severity: 'warning',
      summary: "The volume meets a workload's target only on its burst credits, which run out; its sustained figure misses it.",
      docs: "AWS gp2 under 1 TiB bursts to 3,000 IOPS while its I/O credits last: credits ÷ (burst IOPS − baseline IOPS) seconds from a full bucket of 5.4 million (AWS's formula; 2,000 s at 100 GiB, less at the workload's own rate). Raised on the volume's `type` when a workload on it alone misses its target on the baseline (3 IOPS per GiB) and meets it on the burst. The fix changes the type to the cheapest type that sustains the target (gp3: 3,000 IOPS at any size), with `provisioned_iops` where more are needed, and says what it adds to or saves on the volume's monthly price. Past the file's cap on findings of this code (`more-findings`), the finding is counted without the search its fix needs.",
      fixType: 'sizing',
    },
    'instance-limit-only-in-window': {
      severity: 'warning',
      summary:
        "The instance's EBS limit meets a workload's target only in its burst window (30 minutes a day); its sustained limit misses it.",
      docs: "Smaller AWS instance sizes reach their EBS maximum for 30 minutes at least once every 24 hours and hold their baseline otherwise (AWS's EBS-optimized instance table, sizes marked *). Raised once on `machine_type` when workloads bound by the instance's limit miss their targets on the baseline and meet them in the window: the message names them (two in full, or the first and how many more) with the first one's figures. The fix changes the machine to the smallest size of its family whose baseline meets all their targets, on which every target met stays met and no workload is met only in that size's window (one that misses its target even in this window may meet it in a larger size's, and no more), with the change in the VM's monthly price (or, where the edition has no instance price, the price said to be unknown). Past the file's cap on findings of this code (`more-findings`), the finding is counted without the search its fix needs.",
      fixType: 'sizing',
    },
  },
  vm: (ctx) => {
    const ev = ctx.evaluation;
    const told = new Set<string>();
    for (const w of ev.workloads) {
      if (!missedButBurstMeets(w)) continue;
      if (w.limited_by === 'size' && w.disks.length === 1) {
        const d = disksNamed(ev, w.disks[0])[0];
        if (d && d.type.model === 'scaled' && d.type.credits && !told.has(d.spec.name)) {
          told.add(d.spec.name);
          outOfBurst(ctx, d, w);
        }
      } else if (w.limited_by === 'vm' && !told.has('')) {
        // One mistake, one finding: the machine's baseline, for every workload it holds below its target.
        told.add('');
        onlyInWindow(ctx, ev, ev.workloads.filter(onlyInWindowOf));
      }
    }
  },
};

/** Whether the workload misses its target on its sustained figures and meets it on its burst figures. */
function missedButBurstMeets(w: WorkloadEval): boolean {
  // On-demand bursting has no time limit and is billed per transaction: not a burst that runs out.
  if (w.meets_target !== false || !w.burst || w.burst.ends === 'on-demand') return false;
  const b = w.burst;
  const got = { ...b, iops: b.read_iops + b.write_iops, mibps: b.read_mibps + b.write_mibps };
  return judgeTargets(w.spec.target, got).shortfalls.length === 0;
}

/** Whether the workload is one instance-limit-only-in-window names: met only in the instance's burst window. */
function onlyInWindowOf(w: WorkloadEval): boolean {
  return w.limited_by === 'vm' && missedButBurstMeets(w);
}

function outOfBurst(ctx: VmContext, d: DiskEval, w: WorkloadEval): void {
  const m = ctx.machine;
  const p = d.spec.path;
  const fixes: FixData[] = [];
  const at = ctx.at(`${p}/type`);
  // Past the file's cap this finding is counted, not listed: the type its fix would offer is not searched for.
  const choice =
    m && ctx.listed('gp2-out-of-burst', at)
      ? cheapestProvisionedMeeting(ctx.catalog, ctx.evaluation.spec, m, ctx.region, d.spec, diskWorkloadsMet(d.spec.name), {
          sizeGib: d.size_gib,
          throughput: false,
          redundant: d.type.replicated !== false,
        })
      : undefined;
  // Only the type (and the IOPS it needs) changes: a choice that would also resize the volume is not this fix.
  if (choice && choice.size_gib === d.size_gib) {
    const now = d.cost.complete ? d.cost.monthly : undefined;
    const delta = now !== undefined ? choice.monthly - now : undefined;
    const money = (x: number) => fmtMoney(Math.abs(x), ctx.catalog.currency);
    const price =
      delta !== undefined
        ? `${delta >= 0 ? '+' : '−'}${money(delta)}/month`
        : `${money(choice.monthly)}/month; the ${d.typeName} price is unknown`;
    const values = [
      { path: `${p}/type`, value: choice.type },
      ...provisionedValues(d.spec, ctx.has, choice, ctx.catalog.disk_types[choice.type]),
    ];
    fixes.push({
      kind: 'set-values',
      values,
      title: `Switch '${d.spec.name}' to ${choice.type}${boughtText(choice)}${removedText(values)} (${price})`,
      preferred: true,
    });
  }
  const instead = fixes.length ? `; ${choice!.type} sustains it` : '';
  ctx.report(
    'gp2-out-of-burst',
    `'${w.spec.name}' meets its target on ${d.spec.name} only on burst credits: ${lasts(d, w)} (${fmt(d.size_gib)} GiB ${d.typeName})${instead}`,
    at,
    { path: `${p}/type`, fixes },
  );
}

/** "at 2,000 IOPS they last 52.9 min (5,400,000 ÷ (2,000 − 300) s), then 300 IOPS": AWS's formula at the rate the target asks. */
function lasts(d: DiskEval, w: WorkloadEval): string {
  const t = d.type;
  if (t.model !== 'scaled' || !t.credits) return workloadBurstText(w) ?? '';
  const base = d.diskOnly.read_iops;
  const rate = Math.min(w.demand_iops, t.credits.iops);
  const s = bucketSeconds(t.credits.bucket, rate, base);
  const dur = s >= 120 ? `${fmt(s / 60)} min` : `${fmt(s)} s`;
  return `at ${fmt(rate)} IOPS they last ${dur} (${fmt(t.credits.bucket)} ÷ (${fmt(rate)} − ${fmt(base)}) s), then ${fmt(base)} IOPS`;
}

/**
 * The workloads met only in the machine's burst window, judged together: the fix is the smallest larger size of
 * the family on which each of them meets its target (with the policy's headroom), every target met stays met, and
 * no workload is met only in that size's window (one that misses its target in this window can meet it in the
 * larger window and no more), so that the fix leaves no such finding behind.
 */
function onlyInWindow(ctx: VmContext, ev: VmEval, window: WorkloadEval[]): void {
  const m = ctx.machine;
  const w = window[0];
  const on = ev.disks.filter((d) => w.disks.includes(d.spec.name));
  const found = m && on[0] && vmLimitRow(ctx.catalog, m, on[0].typeName);
  if (!m || !found?.row.burst || found.table.burst_seconds === undefined) return;
  const names = window.map((x) => x.spec.name);
  const h = ctx.advice.minHeadroom;
  const sustained = (x: VmEval) =>
    names.every((n) => meetsWithHeadroom(x, n, h)) && targetsKept(ev, x) && !x.workloads.some(onlyInWindowOf);
  const at = ctx.machineSpan();
  // Past the file's cap this finding is counted, not listed: the larger size its fix would offer is not searched for.
  const bigger = ctx.listed('instance-limit-only-in-window', at)
    ? smallestMachineMeeting(ctx.catalog, ctx.advice.evaluation.spec, m, ctx.region, sustained)
    : undefined;
  const fixes: FixData[] = [];
  if (bigger) {
    // The search evaluated the VM on it already (the VM's advice keeps that evaluation).
    const cost = vmCostChange(ctx.catalog, ev, ctx.advice.onMachine(bigger));
    fixes.push(ctx.setMachine(bigger, `Change machine to ${bigger.name} (${cost})`));
  }
  ctx.report('instance-limit-only-in-window', windowMessage(m, found.table.burst_seconds, window, bigger, found.table.burst_window), at, {
    path: `${ctx.vm.path}/machine_type`,
    fixes,
  });
}

/**
 * "'oltp' meets its target only in m6i.xlarge's EBS burst window, 30 minutes a day (8,000 IOPS for 30 min, then
 * 6,000); m6i.2xlarge sustains it"; for several workloads their names (or the first and how many more) and the
 * first one's figures, within the length a message keeps to.
 */
function windowMessage(m: Machine, seconds: number, window: WorkloadEval[], bigger: Machine | undefined, named?: string): string {
  const one = window.length === 1;
  const names = window.map((x) => `'${x.spec.name}'`);
  const fact = (who: string, figures: string) =>
    `${who} ${one ? 'meets its target' : 'meet their targets'} only in ${m.name}'s ${named ?? `EBS burst window, ${fmt(seconds / 60)} minutes a day`} (${figures})`;
  const it = one ? 'it' : 'them';
  const todo = bigger ? `; ${bigger.name} sustains ${it}` : `; no larger size of ${m.series} sustains ${it}`;
  const figures = workloadBurstText(window[0]) ?? '';
  if (one) return fact(names[0], figures) + todo;
  const ways = [
    ...(names.length === 2 ? [`${names[0]} and ${names[1]}`] : []),
    `${names[0]} and ${plural(names.length - 1, 'more workload')}`,
  ];
  const said = ways.map((who) => fact(who, `${names[0]}: ${figures}`) + todo);
  return said.find((x) => x.length <= MESSAGE_LENGTH) ?? said[said.length - 1];
}
