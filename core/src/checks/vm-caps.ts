/**
 * Per-VM caps: the machine's limits for a disk type (by vCPU count) bind below what the disks could deliver,
 * disks of one type share one baseline, or the catalog has no such limits for the machine.
 */
import { attaches, vmLimitRow, withVcpus } from '../catalog';
import { gainText, setMachine } from '../advice/fixes';
import { METRICS, type DiskEval, type Metric, type SharedLimit } from '../model/types';
import { sharedLimitPhrases } from '../shared-limits';
import { firstAndMore, fmt, plural, sizeText } from '../units';
import type { CheckModule, VmContext } from './types';

export const vmCaps: CheckModule = {
  id: 'vm-caps',
  title: 'Per-VM caps',
  about: "The machine's per-VM limits for each disk type (by series and vCPU count), shared between all disks of the type on the VM.",
  codes: {
    'capped-by-vcpu': {
      severity: 'warning',
      summary: "The machine's per-VM limit (by vCPU count, or per machine type) caps the disk below what it could deliver.",
      docs: "Each disk's figures are what it delivers while the VM's other disks are idle, so a disk is capped only where the machine's limit holds it below its own figures even alone: you pay for what the VM cannot use. The finding also fires where the workloads' targets together ask more of a limit their disks share than it gives (the VM's shared limits, stated once in `evaluate`, the machine's hover and the report's `shared_limits`). A warning when the cap takes at least 5 % of a figure, a workload on a capped disk misses its target, or the targets together exceed a shared limit; information otherwise. For one disk the message gives the capped figures and its own; for several it names them. Where the catalog's rows are per machine type (AWS's per-instance EBS limits, Google's M-series rows) the limit is named by the instance, not by its vCPUs. The fix names the smallest larger machine of the series on which no disk is capped and no shared limit is short of the targets, with what it gains: larger sizes of the machine's own kind first, then the series' other sizes with at least its vCPUs (Azure's isolated and NVMe-only sizes), each only where it attaches every disk type the machine attaches, takes as many data disks and offers the disk controller the spec asks for; past the file's cap on findings of one code (more-findings), the finding is counted without that search. What a host-cached disk's workloads ask of the VM's uncached limit leaves out their cache hits.",
      fixType: 'sizing',
    },
    'shared-baseline': {
      severity: 'information',
      summary: 'Disks of the same type on one VM share one baseline.',
      docs: 'Together they perform like one disk of their total size (gcp-2024 and later).',
    },
    'machine-limits-unknown': {
      severity: 'information',
      summary: 'The catalog has no per-VM limits for this machine and disk type.',
      docs: "Only the disk's own limits apply to its figures, which are upper bounds: a target they reach is not judged (meets_target null, the hover says why), one they miss is missed. Where the catalog says why it has none (AWS T2, which is not EBS-optimized; previous-generation families such as M3, EBS-optimized only when launched so, which a spec does not say), the message gives that reason. For Hyperdisk types, whose per-instance limits Google documents for every machine type, the finding is vm-limit-unknown instead.",
    },
    'vm-limit-unknown': {
      // A gap of the catalog, not of the configuration: information, so that `--fail-on warning` does not fail
      // every modern machine's Hyperdisk; the figures say they are upper bounds.
      severity: 'information',
      summary: "Google caps this Hyperdisk type per instance, but the catalog has no row for this machine: the VM's limit is unknown.",
      docs: "The disk's figures are its own provisioned ones and are not presented as capped; the VM may deliver less. The JSON report marks the disk with vm_limit_known: false and the hover says so; a target reached only at these figures is not judged (meets_target null), and advice never offers such a disk as meeting one. Rows come from https://cloud.google.com/compute/docs/disks/hyperdisk-perf-limits as far as they could be found (docs/model.md lists which).",
    },
    'hyperdisk-shared-limit-unknown': {
      severity: 'warning',
      summary: 'Hyperdisk volumes of several types share one instance limit, which the catalog does not have.',
      docs: 'Google\'s per-instance Hyperdisk limit is "shared among all Hyperdisk and, if supported, Persistent Disk volumes". The catalog holds per-type rows only, so each type is capped by its own row and the VM\'s total may be lower than the sum of the figures.',
    },
  },
  vm: (ctx) => {
    cappedByVcpu(ctx);
    const groups = baselineGroups(ctx.evaluation.disks);
    for (const d of ctx.evaluation.disks) {
      const group = groups.get(d.baselineGroup);
      const others = group ? d.baselineGroup.length - group.named.get(d.spec.name)! : 0;
      if (group && others > 0 && d.type.model === 'scaled') {
        const r = d.type.rates;
        // The first two others are all the message names (firstAndMore): found without listing them all.
        const named: string[] = [];
        for (const n of d.baselineGroup) if (n !== d.spec.name && named.push(`'${n}'`) === 2) break;
        const list = others <= 2 ? named.join(', ') : `${named[0]} and ${plural(others - 1, 'more disk')}`;
        ctx.report(
          'shared-baseline',
          `'${d.spec.name}' shares one ${fmt(r.baseline_iops ?? 0)} IOPS / ${fmt(r.baseline_mibps ?? 0)} MiB/s ${d.typeName} baseline with ${list}: together they perform like one ${sizeText(group.size)} disk`,
          ctx.at(`${d.spec.path}/type`),
          { path: `${d.spec.path}/type` },
        );
      }
      limitsUnknown(ctx, d);
    }
    sharedHyperdiskLimit(ctx);
  },
};

/** Each baseline group of the VM's disks: their total size, and how many of them bear each name. */
function baselineGroups(disks: readonly DiskEval[]): Map<readonly string[], { size: number; named: Map<string, number> }> {
  const out = new Map<readonly string[], { size: number; named: Map<string, number> }>();
  for (const d of disks) {
    if (!d.baselineGroup.length) continue;
    let g = out.get(d.baselineGroup);
    if (!g) out.set(d.baselineGroup, (g = { size: 0, named: new Map() }));
    g.size += d.size_gib;
    g.named.set(d.spec.name, (g.named.get(d.spec.name) ?? 0) + 1);
  }
  return out;
}

function limitsUnknown(ctx: VmContext, d: DiskEval): void {
  const m = ctx.machine;
  // A type the machine cannot attach has its own finding (attach); no second one here.
  const row = m && vmLimitRow(ctx.catalog, m, d.typeName)?.row;
  if (!m || d.type.model === 'devices' || !attaches(m, d.typeName) || (row && !row.upper_bound_of)) return;
  const at = ctx.at(`${d.spec.path}/type`);
  if (row?.upper_bound_of) {
    ctx.report(
      'machine-limits-unknown',
      `${ctx.catalog.edition} has no per-VM ${d.typeName} limits for ${m.name}: its figures are held to ${row.upper_bound_of}'s row at most, and the VM may deliver less`,
      at,
      { path: `${d.spec.path}/type` },
    );
    return;
  }
  if (d.type.model === 'provisioned' && d.type.vm_limits_documented) {
    ctx.report(
      'vm-limit-unknown',
      `${ctx.catalog.edition} has no per-VM ${d.typeName} limit for ${m.name}: Google caps it per instance, so the VM may deliver less than these figures (the volume's own)`,
      at,
      { path: `${d.spec.path}/type` },
    );
    return;
  }
  // Why, where the catalog says (AWS T2: not EBS-optimized), never in words of this module's own.
  const why = m.info.vm_limits_note?.why;
  ctx.report(
    'machine-limits-unknown',
    `${ctx.catalog.edition} has no per-VM ${d.typeName} limits for ${m.name}${why ? ` (${why})` : ''}; only the disk's own limits apply`,
    at,
    {
      path: `${d.spec.path}/type`,
    },
  );
}

/** Said once per VM, on the first disk of the second Hyperdisk type. */
function sharedHyperdiskLimit(ctx: VmContext): void {
  if (!ctx.machine) return;
  const seen: string[] = [];
  let second: DiskEval | undefined;
  for (const d of ctx.evaluation.disks) {
    if (d.type.model !== 'provisioned' || !d.type.vm_limits_documented || seen.includes(d.typeName)) continue;
    if (!attaches(ctx.machine, d.typeName)) continue;
    seen.push(d.typeName);
    if (seen.length === 2) second = d;
  }
  if (!second) return;
  ctx.report(
    'hyperdisk-shared-limit-unknown',
    `${seen.length > 2 ? `${seen.length} Hyperdisk types` : seen.join(' and ')} on ${ctx.machine.name} share one instance limit, which ${ctx.catalog.edition} does not have: each is capped by its own type's row only, so the total may be lower`,
    ctx.at(`${second.spec.path}/type`),
    { path: `${second.spec.path}/type` },
  );
}

/** The disks the machine holds below their own figures even alone: what the VM cannot use of what is paid for. */
function cappedDisks(ctx: VmContext): DiskEval[] {
  return ctx.evaluation.disks.filter((d) => METRICS.some((k) => d.figures.by(k) === 'vm'));
}

/** The machine's limits that the workloads' targets together ask more of than it gives. */
function reachedLimits(ctx: VmContext): SharedLimit[] {
  return (ctx.evaluation.sharedLimits ?? []).filter((l) => l.by === 'vm' && l.reached);
}

/** A cap worth a warning: it takes away at least 5 % of a figure, or a workload on a capped disk misses its target. */
function capMatters(ctx: VmContext, capped: DiskEval[]): boolean {
  const e = ctx.evaluation;
  const loss = Math.max(
    ...capped.flatMap((d) => METRICS.filter((k) => d.figures.by(k) === 'vm').map((k) => 1 - d.figures[k] / d.diskOnly[k])),
  );
  const cappedNames = new Set(capped.map((d) => d.spec.name));
  const missed = e.workloads.some((w) => w.meets_target === false && w.disks.some((n) => cappedNames.has(n)));
  return loss >= 0.05 || missed;
}

/**
 * The machine's per-VM limit holds a disk below its own figures even while the VM's other disks are idle (what is
 * paid for and cannot be used), or the workloads' targets together ask more of a limit their disks share. A disk
 * that alone fits under the limit is never said to be capped: the limit is stated once for the VM instead.
 */
function cappedByVcpu(ctx: VmContext): void {
  const m = ctx.machine;
  if (!m) return;
  const capped = cappedDisks(ctx);
  const reached = reachedLimits(ctx);
  if (!capped.length && !reached.length) return;
  // The catalog's rows say what the limit goes by: a vCPU range (Google's tables by vCPU count), or the machine
  // type itself (AWS's per-instance EBS limits, Google's M-series rows), where the vCPUs are not its cause.
  const names = [...capped.map((d) => d.typeName), ...reached.flatMap((l) => disksNamed(ctx, l.disks).map((d) => d.typeName))];
  const perType = names.every((t) => vmLimitRow(ctx.catalog, m, t)?.row.machine_types !== undefined);
  const named = (x: { name: string; vcpus: number }) => (perType ? x.name : withVcpus(x));
  const who = perType ? `${m.name}'s per-instance limit` : named(m);
  // One disk with its figures; several by name only (each one's figures are in its hover and the report).
  const parts: string[] = [];
  // With a shared limit to say too, the capped disks by name only: one message stays short.
  if (capped.length === 1 && !reached.length) parts.push(`caps ${capped[0].spec.name} at ${cappedParts(capped[0]).join(' and ')}`);
  else if (capped.length === 1) parts.push(`caps ${capped[0].spec.name} below its own figures`);
  else if (capped.length && reached.length) parts.push(`caps ${plural(capped.length, 'disk')} below their own figures`);
  else if (capped.length)
    parts.push(
      `caps ${plural(capped.length, 'disk')} below their own figures: ${firstAndMore(
        capped.map((d) => d.spec.name),
        'disk',
      )}`,
    );
  if (reached.length) parts.push(`holds ${sharedLimitPhrases(reached, true)[0]}`);
  const at = ctx.machineSpan();
  const found = {
    severity: reached.length || capMatters(ctx, capped) ? ('warning' as const) : ('information' as const),
    path: `${ctx.vm.path}/machine_type`,
  };
  // Past the file's cap this finding is counted, not listed: the machine that would lift the cap is not searched for
  // it (a search over the series' larger machines, each the whole VM evaluated). Its severity is what the count keeps.
  if (!ctx.listed('capped-by-vcpu', at)) return ctx.report('capped-by-vcpu', `${who} ${parts.join(', and ')}`, at, found);
  const lifts = ctx.advice.liftingMachine();
  const lift = lifts ? `; ${named(lifts)} lifts it` : '; no larger machine of the series lifts it';
  ctx.report('capped-by-vcpu', `${who} ${parts.join(', and ')}${lift}`, at, {
    ...found,
    fixes: lifts ? [setMachine(ctx.vm, lifts, `Change machine to ${lifts.name}${gainText(ctx.advice, lifts)}`, false)] : [],
  });
}

function disksNamed(ctx: VmContext, names: readonly string[]): DiskEval[] {
  return ctx.evaluation.disks.filter((d) => names.includes(d.spec.name));
}

/**
 * "15,000 IOPS read and write (its own: 21,000)": the figures a VM limit caps on one disk, read and
 * write said once when the machine caps both at the same value.
 */
function cappedParts(d: DiskEval): string[] {
  const out: string[] = [];
  for (const [r, w, unit] of [
    ['read_iops', 'write_iops', 'IOPS'],
    ['read_mibps', 'write_mibps', 'MiB/s'],
  ] as const) {
    const cap = (k: Metric) => d.figures.by(k) === 'vm' && d.diskOnly[k] > d.figures[k] * 1.001;
    const one = (k: Metric, dir: string) => `${fmt(d.figures[k])} ${unit} ${dir} (its own: ${fmt(d.diskOnly[k])})`;
    if (cap(r) && cap(w) && d.figures[r] === d.figures[w] && d.diskOnly[r] === d.diskOnly[w]) out.push(one(r, 'read and write'));
    else if (cap(r) && cap(w)) {
      // Read and write capped apart (a limit shared with other disks splits them differently): said as one pair.
      const alone = d.diskOnly[r] === d.diskOnly[w] ? fmt(d.diskOnly[r]) : `${fmt(d.diskOnly[r])}/${fmt(d.diskOnly[w])}`;
      out.push(`${fmt(d.figures[r])}/${fmt(d.figures[w])} ${unit} read/write (its own: ${alone})`);
    } else {
      if (cap(r)) out.push(one(r, 'read'));
      if (cap(w)) out.push(one(w, 'write'));
    }
  }
  return out;
}
