/**
 * Targets and headroom: each workload against its target, and what stands between them — the configuration
 * as a whole, the queue depth, the vCPUs that drive the I/O, the block size.
 */
import { withVcpus } from '../catalog';
import { boughtText, targetFixes } from '../advice/fixes';
import { ADVICE_WORK, type WorkloadSuggestions } from '../advice';
import type { WorkloadEval } from '../model/types';
import { fmt, formatBlock, plural, sizeText } from '../units';
import type { CheckModule, VmContext } from './types';
import { diskSpecsNamed } from '../model/lookups';
import { MESSAGE_LENGTH } from '../diagnostics';

export const targets: CheckModule = {
  id: 'targets',
  title: 'Targets and headroom',
  about:
    'Each workload against its target, and what stands between them: the configuration, the queue depth, the vCPUs that drive the I/O, the block size.',
  codes: {
    'target-unreachable': {
      severity: 'error',
      summary: "The workload's target cannot be met by this configuration.",
      docs:
        "The fixes, searched by the model: the disk's own change (a resize, or more provisioned IOPS and throughput on a type sold by them), a larger machine of the series, another disk type on this machine, or a larger machine with the cheapest disk of any type it attaches that meets the target there (with the queue depth it needs there, where the workload's own would hold it short) — each with its cost; and, of type `workload`, a larger block size or a deeper queue where that alone meets the target. They are listed cheapest first, by what the VM then costs a month (ties: the fewest values changed), and the cheapest of each kind is preferred: `--fix-type sizing` applies the cheapest change of machine and disks, `--fix-type workload` the cheapest change of the workload, both together the cheapest of all (a fix that changes the machine and the queue depth needs both). Where the catalog lacks a price of the disk's own change (Hyperdisk Balanced's provisioned IOPS), that change is ranked by the part it prices, its price said unknown, with the cheapest priced type beside it. The message names each way of the machine and disks while it stays one line (240 characters), else the first; each is a fix. Past the file's cap on findings of one code (more-findings), the finding states the shortfall alone, without the search; so does it once the VM's searches have evaluated " +
        fmt(ADVICE_WORK) +
        ' disks (each candidate is the whole VM: only a VM of hundreds of disks comes near), and it says so.',
      fixType: 'sizing',
    },
    'queue-depth-too-low': {
      severity: 'warning',
      summary: "The queue depth is too low to reach the target (Little's law).",
      docs: "IOPS ≤ outstanding I/Os ÷ latency. The fix sets a depth in the guidance's range for the demand, offered only where the model says the target is then met; it is one of target-unreachable's fixes too, which ranks it with the others, so it is not preferred here. Where the disks or the machine cap the workload below the target anyway, no depth is offered: the message says what they cap it at and the depth that reaches that (and no finding at all where the queue is not what holds the workload).",
      fixType: 'workload',
    },
    'cpu-insufficient': {
      severity: 'warning',
      summary: 'Not enough vCPUs to drive the target IOPS.',
      docs: "From the catalog's IOPS per vCPU for reads and writes. Where the edition's provider states no CPU cost of disk I/O and the catalog reuses another provider's rule (`cpu.borrowed_from`: AWS and Yandex editions reuse Google's), the message names whose rule it is and the finding is information only.",
      fixType: 'sizing',
    },
    'block-size-too-small': {
      severity: 'warning',
      summary: 'The block size is too small to reach the throughput target.',
      docs: "At small blocks the IOPS limit binds first. The fix sets the smallest larger block size (a power of two) at which the model, evaluating the workload at it, says the target is met; when none up to the size the throughput figures assume does, no fix, and the message says what the largest reaches. It is one of target-unreachable's fixes too, which ranks it with the others, so it is not preferred here.",
      fixType: 'workload',
    },
    'sequential-merge': {
      severity: 'hint',
      summary: 'Small sequential I/O may be merged by the kernel; measured IOPS may exceed the disk limit.',
      docs: 'A note for reading fio results, not a problem of the spec.',
    },
    'headroom-below-policy': {
      severity: 'warning',
      summary: "A workload meets its target with less room to spare than the spec's policy asks (policy: min_headroom).",
      docs: 'Without a policy, only a missed target is a finding (target-unreachable).',
    },
  },
  vm: (ctx) => {
    for (const w of ctx.evaluation.workloads) {
      if (w.meets_target === false) targetUnreachable(ctx, w);
      headroom(ctx, w);
      queueDepth(ctx, w);
      const m = ctx.machine;
      const c = ctx.catalog;
      const wp = w.spec.path;
      if (m && w.cpu_vcpus_needed > m.vcpus) {
        // A rule the edition borrows from another provider is guidance, said as whose it is, not a warning.
        const rule = `1 per ${fmt(c.cpu.read_iops_per_vcpu)} reads, 1 per ${fmt(c.cpu.write_iops_per_vcpu)} writes`;
        // A machine given by series and vCPUs is named by them: its count is not said twice.
        const has =
          withVcpus(m) === m.name ? `the VM has ${plural(m.vcpus, 'vCPU')} (${m.series})` : `${m.name} has ${plural(m.vcpus, 'vCPU')}`;
        const whose = c.cpu.borrowed_from ? ` by ${c.cpu.borrowed_from}'s rule (${rule}; ${c.edition} has none of its own)` : ` (${rule})`;
        ctx.report(
          'cpu-insufficient',
          `workload '${w.spec.name}' needs about ${fmt(w.cpu_vcpus_needed)} free vCPUs to drive ${fmt(w.demand_iops)} IOPS${whose}; ${has}`,
          ctx.machineSpan(),
          { path: `${ctx.vm.path}/machine_type`, ...(c.cpu.borrowed_from ? { severity: 'information' as const } : {}) },
        );
      }
      if (w.limited_by === 'block_size') blockSize(ctx, w);
      if (w.spec.pattern === 'sequential' && w.spec.block_kib < 64) {
        ctx.report(
          'sequential-merge',
          "small sequential I/O is often merged by the kernel: fio may report more IOPS than the disk's limit while the disk sees fewer, larger operations",
          ctx.at(`${wp}/pattern`),
          { path: `${wp}/pattern` },
        );
      }
    }
  },
};

/** The IOPS limit holds the throughput down: the smallest larger block size the model says meets the target, or what the largest reaches. */
function blockSize(ctx: VmContext, w: WorkloadEval): void {
  const wp = w.spec.path;
  const at = ctx.at(`${wp}/block_size`);
  const capped = `at ${formatBlock(w.spec.block_kib)} per I/O the IOPS limit caps throughput at ${fmt(w.read_mibps + w.write_mibps)} MiB/s`;
  // Past the file's cap the finding is counted, not listed: what meets the target is not searched for.
  if (!ctx.listed('block-size-too-small', at)) return ctx.report('block-size-too-small', capped, at, { path: `${wp}/block_size` });
  const s = ctx.advice.workload(w.spec.name);
  const b = s.block_kib;
  const then = b ? `; ${formatBlock(b)} blocks would reach the target (${fmt(s.block_mibps ?? 0)} MiB/s)` : '';
  const none = s.block_reach
    ? `; no larger block size reaches the target: at ${formatBlock(s.block_reach.block_kib)} it reaches ${fmt(s.block_reach.mibps)} MiB/s`
    : '';
  ctx.report('block-size-too-small', `${capped}${then || none}`, at, {
    path: `${wp}/block_size`,
    fixes: b
      ? [
          {
            kind: 'set-value',
            path: `${wp}/block_size`,
            value: formatBlock(b),
            title: `Use ${formatBlock(b)} blocks ('${w.spec.name}' then reaches ${fmt(s.block_mibps ?? 0)} MiB/s)`,
            preferred: false,
          },
        ]
      : [],
  });
}

const BOUND_BY: Record<WorkloadEval['limited_by'], string> = {
  size: 'the disk size',
  disk: "the disk type's maximum",
  vm: "the machine's per-VM limit",
  egress: 'network egress',
  provisioned: 'the provisioned performance',
  block_size: 'the block size',
  mix: 'the read/write mix',
  queue_depth: 'the queue depth',
  devices: 'the device count',
};

/** `value` with as many decimals as it takes to read below `limit` (9.95, not "10", under a policy of 10). */
function shownBelow(value: number, limit: number): string {
  for (let digits = 1; digits < 6; digits++) {
    const shown = fmt(value, digits);
    if (Number(shown.replace(/,/g, '')) < limit) return shown;
  }
  return fmt(value, 6);
}

function headroom(ctx: VmContext, w: WorkloadEval): void {
  const want = ctx.spec.min_headroom;
  if (want === undefined || w.meets_target !== true || w.headroom === undefined || w.headroom >= want - 1e-9) return;
  ctx.report(
    'headroom-below-policy',
    `workload '${w.spec.name}' meets its target with ${shownBelow(w.headroom * 100, want * 100)}% to spare; the policy asks for ${fmt(want * 100)}%`,
    ctx.key(`${w.spec.path}/target`) ?? ctx.key(`${w.spec.path}/name`),
    { path: `${w.spec.path}/target` },
  );
}

function targetUnreachable(ctx: VmContext, w: WorkloadEval): void {
  const wp = w.spec.path;
  const at = ctx.key(`${wp}/target`) ?? ctx.key(`${wp}/name`);
  const reaches = `workload '${w.spec.name}' reaches ${w.shortfalls.join(', ')}`;
  // Past the file's cap this finding is counted, not listed: what would meet the target is not searched for it.
  if (!ctx.listed('target-unreachable', at)) return ctx.report('target-unreachable', reaches, at, { path: `${wp}/target` });
  const s = ctx.advice.workload(w.spec.name);
  if (s.unsearched !== undefined)
    return ctx.report(
      'target-unreachable',
      `${reaches}, bound by ${BOUND_BY[w.limited_by]} — not searched for a fix: this VM's searches had evaluated ${fmt(s.unsearched)} disks already`,
      at,
      { path: `${wp}/target` },
    );
  const fixes = targetFixes({ c: ctx.catalog, region: ctx.region, e: ctx.evaluation, has: ctx.has, workload: w.spec.name }, s);
  const ways = [
    s.instead ? `a ${sizeText(s.instead.disk_size_gib)} ${s.instead.disk_type} disk${boughtText(s.instead, ' with ')} for '${s.disk}'` : '',
    s.disk_type && s.disk_size_gib !== undefined ? diskText(ctx, s) : '',
    !s.disk_type && s.disk_size_gib !== undefined && resizes(ctx, s) ? `resize '${s.disk}' to ${sizeText(s.disk_size_gib)}` : '',
    s.machine_type ? `use ${s.machine_type}` : '',
    s.caching ? `caching: read-only on '${s.caching.disk}' (${fmt(s.caching.iops)} IOPS at its hit ratio)` : '',
    s.together && s.together_queue_depth !== undefined ? `queue depth ${s.together_queue_depth}` : '',
    s.alternative
      ? `a ${sizeText(s.alternative.disk_size_gib)} ${s.alternative.disk_type} disk${boughtText(s.alternative, ' with ')} for '${s.disk}'`
      : '',
  ].filter(Boolean);
  // The binding limit by name only (the queue depth and the block size too: their own findings say how much they
  // allow); the formula behind it is the hover's (and the report's explanation).
  const limitedBy = `, bound by ${BOUND_BY[w.limited_by]}`;
  const said = (how: string) => `${reaches}${limitedBy}${how ? ` — ${how}` : ''}`;
  // One line: where the ways to meet the target make it longer than a message is, the first is said and each
  // is a fix of the finding. Ways that go together (a machine and a disk) are one change, said whole.
  const all = said(ways.join(s.together ? ' and ' : ' or '));
  const message = s.together || ways.length < 2 || all.length <= MESSAGE_LENGTH ? all : said(ways[0]);
  ctx.report('target-unreachable', message, at, { path: `${wp}/target`, fixes });
}

/** Whether the suggestion's size is another than the disk's (a machine change may leave the disk as it is). */
function resizes(ctx: VmContext, s: WorkloadSuggestions): boolean {
  const now = ctx.evaluation.disks.find((d) => d.spec.name === s.disk)?.size_gib;
  return now === undefined || Math.abs(s.disk_size_gib! - now) > 1e-9;
}

/**
 * The disk a suggestion gives: another type, or the disk's own with more provisioned (its price maybe unknown), said
 * by the amounts it changes; nothing where it changes none (a machine change that leaves the disk as it is).
 */
function diskText(ctx: VmContext, s: WorkloadSuggestions): string {
  const disk = s.disk === undefined ? undefined : diskSpecsNamed(ctx.vm, s.disk)[0];
  if (disk?.type !== s.disk_type)
    return `a ${sizeText(s.disk_size_gib!)} ${s.disk_type} disk${boughtText(s, ' with ').replace(/ provisioned$/, '')} for '${s.disk}'`;
  const amounts = boughtText(
    {
      provisioned_iops: s.provisioned_iops !== disk?.provisioned_iops ? s.provisioned_iops : undefined,
      provisioned_mibps: s.provisioned_mibps !== disk?.provisioned_mibps ? s.provisioned_mibps : undefined,
    },
    '',
  ).replace(/ provisioned$/, '');
  if (!amounts) return resizes(ctx, s) ? `resize '${s.disk}' to ${sizeText(s.disk_size_gib!)}` : '';
  return `provision ${amounts} on '${s.disk}'${s.price_unknown ? ' (price unknown)' : ''}`;
}

function queueDepth(ctx: VmContext, w: WorkloadEval): void {
  const c = ctx.catalog;
  const qd = w.spec.queue_depth;
  const perIo = c.queue.iops_per_outstanding_io.high;
  if (qd === undefined || w.meets_target !== false) return;
  // The advice evaluates what a deeper queue gives: a depth that meets the target, or, where the hardware misses
  // it anyway, the depth at which the queue stops binding. Neither: the queue is not what holds the workload.
  const s = ctx.advice.queue(w.spec.name);
  const want = s.queue_depth;
  const reach = s.queue_reach;
  if (want === undefined && !reach) return;
  const wp = w.spec.path;
  // Where no depth meets the target, what the hardware caps it at instead of the guidance's table (the hover's).
  const message = reach
    ? `queue depth ${qd} allows at most ${fmt(qd * perIo)} IOPS (${perIo} per outstanding I/O, ${c.edition}); a depth of ${reach.queue_depth} reaches the ${fmt(reach.iops)} IOPS the disks and machine cap it at, still short of the target`
    : `queue depth ${qd} allows at most ${fmt(qd * perIo)} IOPS (${perIo} per outstanding I/O); ${fmt(w.demand_iops)} IOPS needs ${w.queue_depth_needed.low}–${w.queue_depth_needed.high} (${c.edition}: ${c.queue.table})`;
  ctx.report('queue-depth-too-low', message, ctx.at(`${wp}/queue_depth`), {
    path: `${wp}/queue_depth`,
    fixes:
      want !== undefined
        ? [{ kind: 'set-value', path: `${wp}/queue_depth`, value: want, title: `Set queue depth to ${want}`, preferred: false }]
        : [],
  });
}
