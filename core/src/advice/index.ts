/**
 * Advice: what would change a configuration's figures for the better, found by searching over
 * configurations the model evaluates. The figures themselves (../model) never wait for these searches: a
 * check, a code action, `--fix` or the report asks for advice when it needs it, and each answer is memoised
 * with the VM's evaluation, so that it is searched for once per configuration.
 */
import { Attached } from '../attached';
import { type Catalog, type Machine } from '../catalog';
import { vmContent } from '../document/vm-content';
import { contentOrigin } from '../vm-cache';
import { evaluationWork } from '../model/evaluate';
import { METRICS, upperBound, type VmEval, type WorkloadEval } from '../model/types';
import { cheaperDisk, largerSizes, onMachine, targetsKept, type CheaperDisk } from './search';
import { recall } from './recall';
import { heldOn } from './rows';
import { queueSuggestions, suggestForWorkload, type QueueSuggestions, type SearchPolicy, type WorkloadSuggestions } from './workload';

export {
  cheaperDisk,
  cheapestDiskMeeting,
  condition,
  meetsWithHeadroom,
  smallestMachineMeeting,
  smallestSizeMeeting,
  type CheaperDisk,
  type Condition,
} from './search';
export type { WorkloadSuggestions } from './workload';

/**
 * How many disks one VM's workload searches may evaluate in all (each candidate is the whole VM, evaluated): a VM
 * of thousands of disks whose workloads miss their targets would otherwise take minutes. A VM of a few disks never
 * comes near it (a search evaluates some tens of candidates). Past it, a workload's answer says it was not searched.
 */
export const ADVICE_WORK = 50_000;

export class VmAdvice {
  /** The disks the workload searches of this VM have evaluated so far (`ADVICE_WORK`). */
  private spent = 0;
  private liftMemo?: { machine?: Machine };
  private readonly cheaperMemo = new Map<string, CheaperDisk | undefined>();
  private readonly workloadMemo = new Map<string, WorkloadSuggestions>();
  private readonly queueMemo = new Map<string, QueueSuggestions>();
  private readonly machineMemo = new Map<string, VmEval>();

  constructor(
    /** The evaluation searched from: this VM's, or that of a VM of the same content (only its figures are read). */
    readonly evaluation: VmEval,
    readonly region: string,
    /** The spec's policy: the least share above its target a workload must reach (min_headroom); 0 without one. */
    readonly minHeadroom = 0,
    /** Whether its size searches are memoised: not where no other VM of the run can ask the same (../analyze.ts). */
    readonly memoSizes = true,
  ) {}

  private get policy(): SearchPolicy {
    return { minHeadroom: this.minHeadroom, memoSizes: this.memoSizes };
  }

  /** What would make the named workload meet its target (nothing when it meets it or has none). */
  workload(name: string): WorkloadSuggestions {
    // The queue's part is the one `queue(name)` found, where it was asked first (a finding past the file's cap).
    const queue = this.queueMemo.get(name);
    return this.ofWorkload(this.workloadMemo, name, (e, region, r, policy) => suggestForWorkload(e, region, r, policy, queue));
  }

  /**
   * What a deeper queue does for the named workload: `workload(name)`'s queue depth or reach, searched for alone
   * when the rest of that answer was not asked for (a finding past the file's cap does not ask for it).
   */
  queue(name: string): QueueSuggestions {
    return this.workloadMemo.get(name) ?? this.ofWorkload(this.queueMemo, name, queueSuggestions);
  }

  /** A search's answer for the named workload, memoised in `memo`; nothing for a workload the VM does not have. */
  private ofWorkload<T extends object>(
    memo: Map<string, T>,
    name: string,
    search: (e: VmEval, region: string, r: WorkloadEval, policy: SearchPolicy) => T,
  ): T {
    let s = memo.get(name);
    if (!s) {
      const r = this.evaluation.workloads.find((w) => w.spec.name === name);
      const before = evaluationWork();
      if (!r) s = {} as T;
      else if (this.spent >= ADVICE_WORK) s = { unsearched: ADVICE_WORK } as T;
      else s = search(this.evaluation, this.region, r, this.policy);
      this.spent += evaluationWork() - before;
      memo.set(name, s);
    }
    return s;
  }

  /**
   * The smallest larger machine of the series on which no disk alone is capped by the machine's per-VM limits, and
   * no limit the disks share is short of what their workloads' targets ask together.
   */
  liftingMachine(): Machine | undefined {
    const e = this.evaluation;
    if (!this.liftMemo) {
      // A disk whose figures the VM delivers here: on a machine whose per-VM limit for it is unknown, no cap binds
      // only as far as anyone knows, so such a machine does not lift the cap.
      const delivered = new Set(e.disks.filter((d) => upperBound(d) === undefined).map((d) => d.spec.name));
      const uncapped = (x: VmEval) =>
        // Not capped at all: capped-by-vcpu reports any cap, so a machine that leaves 0.1% of one does not lift it;
        // nor a machine whose limit the workloads' targets together still ask more of.
        !x.sharedLimits?.some((l) => l.by === 'vm' && l.reached) &&
        x.disks.every(
          (d) =>
            (!delivered.has(d.spec.name) || upperBound(d) === undefined) &&
            METRICS.every((k) => d.figures.by(k) !== 'vm' || d.figures[k] >= d.diskOnly[k] * (1 - 1e-9)),
        );
      // A machine whose rows hold a disk below its own figures is passed over unevaluated (./rows).
      const found = e.machine && largerSizes(e.catalog, e.spec, e.machine).find((m) => !heldOn(e, m) && uncapped(this.onMachine(m)));
      this.liftMemo = { machine: found || undefined };
    }
    return this.liftMemo.machine;
  }

  /** A cheaper disk on which every workload of the named disk still meets its target. */
  cheaperDisk(name: string): CheaperDisk | undefined {
    if (!this.cheaperMemo.has(name)) {
      const e = this.evaluation;
      const current = e.disks.find((d) => d.spec.name === name);
      this.cheaperMemo.set(
        name,
        current && e.machine && cheaperDisk(e.catalog, e.spec, e.machine, this.region, current, this.minHeadroom, this.memoSizes),
      );
    }
    return this.cheaperMemo.get(name);
  }

  /** Whether every target met today is still met on machine `m` (`targetsKept`). */
  keepsTargetsOn(m: Machine): boolean {
    return targetsKept(this.evaluation, this.onMachine(m));
  }

  /** The VM's figures on another machine (for the gain a machine change brings). */
  onMachine(m: Machine): VmEval {
    let e = this.machineMemo.get(m.name);
    if (!e) this.machineMemo.set(m.name, (e = onMachine(this.evaluation.catalog, this.evaluation.spec, m, this.region)));
    return e;
  }
}

// Kept on the evaluation first made for a content (vm-cache's contentOrigin): the language server's evaluation
// cache hands back that object, or one moved from it, for an unchanged VM, so its advice is searched for once
// across keystrokes. On the object, not in a WeakMap (../attached): the advice holds its evaluation.
const memo = new Attached<VmEval, Map<string, VmAdvice>>('advice by region');

// And by content: VMs written alike (a fleet of replicas) differ only in their names and places in the text,
// which no search reads, so they share one advice. Bounded, least recently used first out, so that a long
// editing session or a spec of many distinct VMs keeps only the advice it is likely to ask for again.
const CONTENT_MEMO_LIMIT = 1024;
const byContent = new WeakMap<Catalog, Map<string, VmAdvice>>();

function sharedAdvice(e: VmEval, region: string, minHeadroom: number, memoSizes: boolean, content?: string): VmAdvice {
  let shared = byContent.get(e.catalog);
  if (!shared) byContent.set(e.catalog, (shared = new Map()));
  return recall(
    shared,
    `${region}\u0000${minHeadroom}\u0000${memoSizes}\u0000${content ?? vmContent(e.spec)}`,
    CONTENT_MEMO_LIMIT,
    () => new VmAdvice(e, region, minHeadroom, memoSizes),
  );
}

/** How the advice for a VM is kept (by default: shared by content, its size searches memoised). */
export interface AdviceMemo {
  /** Also shared with VMs of the same content that have another evaluation (replicas analysed without a cache). */
  byContent?: boolean;
  /** Its size searches memoised (for VMs that differ from it in their disk sizes only). */
  memoSizes?: boolean;
  /** The VM's content as the caller has it written out already (the evaluation cache's key), for `byContent`. */
  content?: string;
}

/**
 * The advice for an evaluated VM, priced in `region`. `minHeadroom` is the spec's policy (min_headroom): every
 * configuration the advice suggests meets each target it keeps with at least that share to spare.
 */
export function adviceFor(e: VmEval, region: string, minHeadroom = 0, kept: AdviceMemo = {}): VmAdvice {
  const { byContent = true, memoSizes = true } = kept;
  // An evaluation the cache moved onto a VM of the same content (replicas named apart) shares the advice of the
  // one first made for that content, without a content key of its own.
  const origin = contentOrigin(e);
  let byRegion = memo.get(origin);
  if (!byRegion) memo.set(origin, (byRegion = new Map()));
  const key = `${region}\u0000${minHeadroom}`;
  let a = byRegion.get(key);
  if (!a)
    byRegion.set(
      key,
      (a = byContent ? sharedAdvice(e, region, minHeadroom, memoSizes, kept.content) : new VmAdvice(e, region, minHeadroom, memoSizes)),
    );
  return a;
}
