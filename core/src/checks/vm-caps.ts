/**
 * Per-VM caps: the machine's limits for a disk type (by vCPU count) bind below what the disks could deliver,
 * disks of one type share one baseline, or the catalog has no such limits for the machine.
 */
import { vmLimitRow } from '../catalog';
import { gainText, setMachine } from '../advice/fixes';
import type { DiskEval, Metric } from '../model/types';
import { fmt, formatSize, plural } from '../units';
import type { CheckModule, VmContext } from './types';

export const vmCaps: CheckModule = {
  id: 'vm-caps',
  title: 'Per-VM caps',
  about: "The machine's per-VM limits for each disk type (by series and vCPU count), shared between all disks of the type on the VM.",
  codes: {
    'capped-by-vcpu': {
      severity: 'warning',
      summary: "The machine's vCPU-based limit caps the disk below what it could deliver.",
      docs: 'The message gives the capped figures and what the disks would deliver alone; the fix names the smallest larger machine of the series that lifts the cap, with what it gains.',
    },
    'shared-baseline': {
      severity: 'information',
      summary: 'Disks of the same type on one VM share one baseline.',
      docs: 'Together they perform like one disk of their total size (gcp-2024 and later).',
    },
    'machine-limits-unknown': {
      severity: 'information',
      summary: 'The catalog has no per-VM limits for this machine and disk type.',
      docs: "Only the disk's own limits apply to its figures.",
    },
  },
  vm: (ctx) => {
    cappedByVcpu(ctx);
    for (const d of ctx.evaluation.disks) {
      if (d.sharesBaselineWith.length && d.type.model === 'scaled') {
        const r = d.type.rates;
        const total = [d, ...ctx.evaluation.disks.filter((x) => d.sharesBaselineWith.includes(x.spec.name))].reduce(
          (s, x) => s + x.size_gib,
          0,
        );
        ctx.report(
          'shared-baseline',
          `'${d.spec.name}' shares one ${fmt(r.baseline_iops ?? 0)} IOPS / ${fmt(r.baseline_mibps ?? 0)} MiB/s ${d.typeName} baseline with ${d.sharesBaselineWith.map((n) => `'${n}'`).join(', ')}: together they perform like one ${formatSize(total)} disk (${ctx.catalog.edition}: ${r.table})`,
          ctx.at(`${d.spec.path}/type`),
          { path: `${d.spec.path}/type` },
        );
      }
      const m = ctx.machine;
      if (m && d.type.model !== 'devices' && !vmLimitRow(ctx.catalog, m, d.typeName)) {
        ctx.report(
          'machine-limits-unknown',
          `${ctx.catalog.edition} has no per-VM ${d.typeName} limits for ${m.name}; only the disk's own limits apply`,
          ctx.at(`${d.spec.path}/type`),
          { path: `${d.spec.path}/type` },
        );
      }
    }
  },
};

function cappedByVcpu(ctx: VmContext): void {
  const m = ctx.machine;
  if (!m) return;
  const capped: string[] = [];
  for (const d of ctx.evaluation.disks) {
    const parts = cappedParts(d);
    if (parts.length) capped.push(`${d.spec.name} at ${parts.join(' and ')}`);
  }
  if (!capped.length) return;
  const lifts = ctx.advice.liftingMachine();
  const lift = lifts ? `; ${lifts.name} (${plural(lifts.vcpus, 'vCPU')}) lifts it` : '; no larger machine of the series lifts it';
  ctx.report('capped-by-vcpu', `${m.name} (${plural(m.vcpus, 'vCPU')}) caps ${capped.join(', ')}${lift}`, ctx.machineSpan(), {
    path: `${ctx.vm.path}/machine_type`,
    fixes: lifts ? [setMachine(ctx.vm, lifts, `Change machine to ${lifts.name}${gainText(ctx.advice, lifts)}`, false)] : [],
  });
}

/**
 * "15,000 IOPS read and write (the disk alone: 21,000)": the figures a VM limit caps on one disk, read and
 * write said once when the machine caps both at the same value.
 */
function cappedParts(d: DiskEval): string[] {
  const out: string[] = [];
  for (const [r, w, unit] of [
    ['read_iops', 'write_iops', 'IOPS'],
    ['read_mibps', 'write_mibps', 'MiB/s'],
  ] as const) {
    const cap = (k: Metric) => d.figures[k].by === 'vm' && d.diskOnly[k].value > d.figures[k].value * 1.001;
    const one = (k: Metric, dir: string) => `${fmt(d.figures[k].value)} ${unit} ${dir} (the disk alone: ${fmt(d.diskOnly[k].value)})`;
    if (cap(r) && cap(w) && d.figures[r].value === d.figures[w].value && d.diskOnly[r].value === d.diskOnly[w].value)
      out.push(one(r, 'read and write'));
    else {
      if (cap(r)) out.push(one(r, 'read'));
      if (cap(w)) out.push(one(w, 'write'));
    }
  }
  return out;
}
