/**
 * `storage-perf diff`: two analyses of a configuration (the base and the head of a change) compared VM by VM.
 * VMs and their disks and workloads are matched by name (a Terraform address for Terraform input); what changed
 * is stated as the reports state it: delivered figures with the limit that binds each, target verdicts, prices
 * (unknown kept unknown) and the findings that appeared or went away. Unchanged VMs are counted, not listed.
 */
import type { Analysis } from '../analyze';
import type { VmEval } from '../model/types';
import { unattachedDiskReports, vmFiguresReport, type VmReport } from '../report';
import { contentOrigin } from '../vm-cache';
import { diffFindings, placeFindings, type PlacedFindings } from './findings';
import { change, diskDiff, matchByName, money, moneyChange, moneyChanged, unattachedDiff, vmMoney, workloadDiff } from './items';
import { diffSummary } from './summary';
import type { DiffCounts, DiffFinding, DiffRecord, DiffSide, FindingsDiff, MoneyChange, UnreadModule, VmDiff } from './types';

export interface DiffInput {
  /**
   * Absent where the file is not on that side: the change adds it (the base) or deletes it (the head). Then every
   * VM of the other side is added or removed.
   */
  analysis?: Analysis;
  /** The file as the user named it. */
  path: string;
  /** The git revision it was read from (`--base-ref`). */
  ref?: string;
  /** The module calls this side could not read (the base's, with `--base-ref`): the other side's VMs of them are not added. */
  unread?: UnreadModule[];
}

/** A resource's configuration address: its address without instance keys (`module.web[0].x` → `module.web.x`). */
const configAddress = (address: string) => address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]"]*)\]/g, '');

/** "module.web: why", where `name` (a Terraform address) is of a module call the base could not read. */
function unreadOf(name: string, unread: UnreadModule[] | undefined): string | undefined {
  const at = unread?.length ? configAddress(name) : '';
  const u = unread?.find((m) => at.startsWith(`${m.module}.`));
  return u && `${u.module}: ${u.why}`;
}

/**
 * An item added in the head, said to be of a module the base could not read (`base_unread` after its `change`), as
 * `marked` (its cost change unknown: the base's is); `plain` where it is not of one.
 */
function markUnread<T extends { name: string; change: string; base_unread?: string }>(marked: T, unread: string | undefined, plain: T): T {
  if (unread === undefined) return plain;
  const { name, change, ...rest } = marked;
  return { name, change, base_unread: unread, ...rest } as T;
}

const unknownDelta = (m: MoneyChange): MoneyChange => ({ ...m, delta: null });

/** A VM added in the head, of a module the base could not read: marked so, its cost changes and its disks' unknown. */
function unreadVm(d: VmDiff, unread: string | undefined): VmDiff {
  const c = d.monthly_cost;
  const monthly_cost = { machine: unknownDelta(c.machine), disks: unknownDelta(c.disks), total: unknownDelta(c.total) };
  const disks = d.disks.map((x) => ({ ...x, monthly_cost: unknownDelta(x.monthly_cost) }));
  return markUnread({ ...d, monthly_cost, disks }, unread, d);
}

/**
 * The diff of two analyses. Analysed with one `EvaluationCache`, a VM the change left alone has one evaluation
 * on both sides and is compared by its findings alone; any other pair is compared through its reports.
 */
export function diffAnalyses(base: DiffInput, head: DiffInput): DiffRecord {
  const b = sideOf(base.analysis),
    h = sideOf(head.analysis);
  const bf = b.findings,
    hf = h.findings;
  const reports = { base: b.report, head: h.report };
  const pending = new Map<string, number[]>();
  b.vms.forEach((v, i) => pending.set(v.spec.name, [...(pending.get(v.spec.name) ?? []), i]));
  const vms: VmDiff[] = [];
  let unchanged = 0;
  h.vms.forEach((hv, i) => {
    const j = pending.get(hv.spec.name)?.shift();
    if (j === undefined) {
      const d = vmDiff(undefined, reports.head(hv), diffFindings([], hf.byVm[i]))!;
      vms.push(unreadVm(d, unreadOf(d.name, base.unread)));
      return;
    }
    const bv = b.vms[j];
    const findings = diffFindings(bf.byVm[j], hf.byVm[i]);
    // One evaluation for both: the same figures, limits, verdicts and prices; only the findings may differ.
    const same = contentOrigin(bv) === contentOrigin(hv) && !findings.appeared.length && !findings.gone.length;
    const d = same ? undefined : vmDiff(reports.base(bv), reports.head(hv), findings);
    if (d) vms.push(d);
    else unchanged++;
  });
  // The base's removed VMs after the head's, in the base's order.
  const removed = [...pending.values()].flat().sort((x, y) => x - y);
  for (const j of removed) vms.push(vmDiff(reports.base(b.vms[j]), undefined, diffFindings(bf.byVm[j], []))!);
  const findings = diffFindings(bf.file, hf.file);
  const unattached = matchByName(unattachedDiskReports(b), unattachedDiskReports(h), unattachedDiff).map((d) =>
    markUnread({ ...d, monthly_cost: unknownDelta(d.monthly_cost) }, d.change === 'added' ? unreadOf(d.name, base.unread) : undefined, d),
  );
  const counts = countChanges(vms, findings, unchanged, unattached.length);
  const record: Omit<DiffRecord, 'summary'> = {
    base: side(base),
    head: side(head),
    currency: head.analysis?.catalog?.currency ?? base.analysis?.catalog?.currency ?? null,
    counts,
    monthly_cost: moneyChange(side(base).monthly_cost, side(head).monthly_cost),
    vms,
    unattached_disks: unattached,
    findings,
  };
  return { summary: diffSummary(record), ...record };
}

/** What the diff reads of one side: its VMs, their findings placed, and their reports; its disks attached to no VM. */
interface Side {
  vms: VmEval[];
  unattached: Analysis['unattached'];
  findings: PlacedFindings;
  report: (v: VmEval) => VmReport;
}

/** A side; one that is not there has no VM and no finding. */
function sideOf(a: Analysis | undefined): Side {
  if (a) return { vms: a.vms, unattached: a.unattached, findings: placeFindings(a), report: reportMemo(a) };
  return {
    vms: [],
    unattached: [],
    findings: { byVm: [], file: [] },
    report: () => {
      throw new Error('a side that is not there has no VM');
    },
  };
}

/** Each VM's report (without suggestions), made once for the VMs that share an evaluation. */
function reportMemo(a: Analysis): (v: VmEval) => VmReport {
  const made = new Map<VmEval, VmReport>();
  return (v) => {
    const origin = contentOrigin(v);
    let r = made.get(origin);
    if (!r) made.set(origin, (r = vmFiguresReport(a, v)));
    return r.name === v.spec.name ? r : { ...r, name: v.spec.name };
  };
}

function side(s: DiffInput): DiffSide {
  const a = s.analysis;
  const at = { path: s.path, ...(s.ref !== undefined ? { ref: s.ref } : {}), ...(s.unread?.length ? { unread_modules: s.unread } : {}) };
  // A file that is not there has nothing, which costs nothing: its VMs' whole cost is the change.
  if (!a) return { ...at, exists: false, catalog: null, region: null, currency: null, vms: 0, monthly_cost: money(0, true) };
  return {
    ...at,
    exists: true,
    catalog: a.catalog?.edition ?? null,
    region: a.region ?? null,
    currency: a.catalog?.currency ?? null,
    vms: a.vms.length,
    monthly_cost: money(a.monthly_cost ?? null, a.monthly_cost_complete, a.monthly_cost_missing),
  };
}

/** A VM's change; undefined when nothing its report shows changed and no finding appeared or went away. */
function vmDiff(b: VmReport | undefined, a: VmReport | undefined, findings: FindingsDiff): VmDiff | undefined {
  const mb = vmMoney(b),
    ma = vmMoney(a);
  const out: VmDiff = {
    name: (a ?? b)!.name,
    change: !b ? 'added' : !a ? 'removed' : 'changed',
    machine_type: change(b?.machine_type, a?.machine_type),
    vcpus: change(b?.vcpus, a?.vcpus),
    figures_unavailable: change(b?.figures_unavailable, a?.figures_unavailable),
    monthly_cost: {
      machine: moneyChange(mb.machine, ma.machine),
      disks: moneyChange(mb.disks, ma.disks),
      total: moneyChange(mb.total, ma.total),
    },
    disks: matchByName(b?.disks ?? [], a?.disks ?? [], diskDiff),
    workloads: matchByName(b?.workloads ?? [], a?.workloads ?? [], workloadDiff),
    findings,
  };
  if (out.change !== 'changed') return out;
  const same =
    out.machine_type.before === out.machine_type.after &&
    out.vcpus.before === out.vcpus.after &&
    out.figures_unavailable.before === out.figures_unavailable.after &&
    !Object.values(out.monthly_cost).some(moneyChanged) &&
    !out.disks.length &&
    !out.workloads.length &&
    !findings.appeared.length &&
    !findings.gone.length;
  return same ? undefined : out;
}

function countChanges(vms: VmDiff[], file: FindingsDiff, unchanged: number, unattached: number): DiffCounts {
  const appeared: DiffFinding[] = [...file.appeared, ...vms.flatMap((v) => v.findings.appeared)];
  const workloads = vms.flatMap((v) => v.workloads);
  return {
    vms_changed: vms.filter((v) => v.change === 'changed').length,
    vms_added: vms.filter((v) => v.change === 'added' && v.base_unread === undefined).length,
    vms_base_unread: vms.filter((v) => v.base_unread !== undefined).length,
    vms_removed: vms.filter((v) => v.change === 'removed').length,
    vms_unchanged: unchanged,
    targets_now_missed: workloads.filter((w) => w.verdict === 'now missed').length,
    targets_now_met: workloads.filter((w) => w.verdict === 'now met').length,
    findings_appeared: appeared.length,
    findings_gone: file.gone.length + vms.reduce((n, v) => n + v.findings.gone.length, 0),
    errors_appeared: appeared.filter((f) => f.severity === 'error').length,
    unattached_disks_changed: unattached,
  };
}
