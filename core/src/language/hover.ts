/**
 * Hover text: the computed figures of the VM, disk or workload under the cursor, the limit that binds and
 * where it comes from; on a value, what the value means. Markdown whose tables are padded so that they
 * also read well as plain text.
 */
import { adviceFor } from '../advice';
import type { Analysis } from '../analyze';
import {
  describeRow,
  INSTANCE_STORE,
  instanceStoreOf,
  unstatedInstanceStoreOf,
  vmLimitRow,
  withVcpus,
  type Catalog,
  type VmRow,
} from '../catalog';
import { boughtText } from '../advice/fixes';
import { burstEndText, diskBurstTexts, workloadBurstText } from '../model/burst';
import { metricLabel } from '../model/disks';
import {
  knownFigure,
  gapTexts,
  METRICS,
  upperBound,
  vmCosts,
  type Cost,
  type DiskEval,
  type SharedLimit,
  type UnmodelledDisk,
  type VmEval,
  type WorkloadEval,
} from '../model/types';
import { sharedLimitPhrases } from '../shared-limits';
import type { DiskSpec } from '../document/types';
import type { Span } from '../text';
import {
  costText,
  fmt,
  fmtHeadroom,
  fmtMoney,
  fmtPrice,
  formatBlock,
  parseBlockSize,
  parseSize,
  parseThroughput,
  plural,
  targetVerdict,
} from '../units';
import { locate, scopeOf } from './locate';
import { diskOptionNote, machineExtras } from './option-notes';
import { describeKey } from './schema-info';

export interface HoverResult {
  markdown: string;
  span: Span;
}

/** A markdown table with padded cells: aligned in a monospace font, rendered as a table by markdown. */
export function mdTable(header: string[], rows: string[][], numeric: boolean[] = []): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i].length)));
  const cell = (c: string, i: number) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function hover(a: Analysis, offset: number): HoverResult | undefined {
  const loc = locate(a.parsed.tree, offset);
  if (!loc) return undefined;
  const span = loc.onKey && loc.key ? loc.key : loc.node;
  const scope = scopeOf(loc.path);
  const c = a.catalog;
  const vm = scope.vm !== undefined ? a.vms.find((v) => v.spec.path === `/vms/${scope.vm}`) : undefined;
  const field = loc.path.split('/').pop() ?? '';
  const keyDoc = describeKey(loc.path);
  const parts: string[] = [];

  if (vm?.unavailable !== undefined) {
    parts.push(`**VM ${vm.spec.name}** — no figures: ${vm.unavailable}.`);
  } else if (vm && c && scope.disk !== undefined) {
    const d = vm.disks.find((x) => x.spec.path === `/vms/${scope.vm}/disks/${scope.disk}`);
    if (d) {
      const value = loc.node.kind === 'scalar' ? loc.node.value : undefined;
      if (scope.rest.length === 1) parts.push(valueNote(c, field, value, d, vm) ?? diskOptionNote(c, field, value, d, vm) ?? '');
      parts.push(diskHover(c, vm, d));
    }
    const u = vm.unmodelled?.find((x) => x.spec.path === `/vms/${scope.vm}/disks/${scope.disk}`);
    if (u) parts.push(unmodelledDiskHover(c, vm, u));
    const spec = vm.spec.disks.find((x) => x.path === `/vms/${scope.vm}/disks/${scope.disk}`);
    if (!d && !u && spec?.type === INSTANCE_STORE) parts.push(instanceStoreHover(c, vm, spec));
    const x = vm.unevaluated?.find((e) => e.spec === spec);
    if (x) parts.push(`**disk ${x.spec.name}** — no figures and no price: ${x.why}.`);
  } else if (vm && c && scope.workload !== undefined) {
    const w = vm.workloads.find((x) => x.spec.path === `/vms/${scope.vm}/workloads/${scope.workload}`);
    if (w) {
      if (scope.rest.length >= 1)
        parts.push(valueNote(c, field, loc.node.kind === 'scalar' ? loc.node.value : undefined, undefined, vm) ?? '');
      parts.push(workloadHover(c, vm, w, vm.spec.region ?? a.region ?? c.default_region, a.spec?.min_headroom));
    }
  } else if (vm && c) {
    if (scope.rest.length === 1)
      parts.push(valueNote(c, field, loc.node.kind === 'scalar' ? loc.node.value : undefined, undefined, vm) ?? '');
    parts.push(vmHover(c, vm));
  } else if (c && loc.path === '/catalog') {
    parts.push(
      `**${c.edition}** — ${c.title} (as of ${c.as_of}).\n\nSources:\n${Object.values(c.sources)
        .map((s) => `- ${s.title} (${s.date}) <${s.url}>`)
        .join('\n')}`,
    );
  } else if (c && (loc.path === '' || loc.path === '/vms')) {
    const total = costText(a.monthly_cost, a.monthly_cost_complete, a.monthly_cost_missing, c.currency, '/month');
    parts.push(`**${plural(a.vms.length, 'VM')}**, ${total} for machines and disks (${c.edition}, ${a.region}).`);
  }
  if (keyDoc && (loc.onKey || !parts.some(Boolean))) parts.unshift(keyDoc);
  const markdown = parts.filter(Boolean).join('\n\n---\n\n');
  return markdown ? { markdown, span: { start: span.start, end: span.end } } : undefined;
}

/** A price as a table cell: the known part is never shown as the whole ("≥ $138.00"). */
function money(c: Catalog, x: Cost): string {
  if (x.monthly === undefined) return 'unknown';
  return `${x.complete ? '' : '≥ '}${fmtMoney(x.monthly, c.currency)}`;
}

const shown = (v: number | undefined) => (v === undefined ? 'unknown' : fmt(v));

function diskTable(c: Catalog, disks: DiskEval[]): string {
  return mdTable(
    ['disk', 'type', 'size', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'per month'],
    disks.map((d) => [
      d.spec.name,
      d.typeName,
      `${fmt(d.size_gib)} GiB`,
      fmt(d.figures.read_iops),
      fmt(d.figures.write_iops),
      shown(knownFigure(d, 'read_mibps')),
      shown(knownFigure(d, 'write_mibps')),
      money(c, d.cost),
    ]),
    [false, false, true, true, true, true, true, true],
  );
}

export function vmHover(c: Catalog, vm: VmEval): string {
  const m = vm.machine;
  const total = costText(vm.monthly_cost, vm.monthly_cost_complete, gapTexts(vmCosts(vm)), c.currency, '/month');
  const head = `**VM ${vm.spec.name}** — ${m ? withVcpus(m) : 'machine unknown'} · ${total} · ${c.edition}`;
  const lines = [head, '', `Machine ${money(c, vm.machine_cost)}/month — ${vm.machine_cost.why}`, '', diskTable(c, vm.disks)];
  lines.push(...sharedLimitLines(vm.sharedLimits ?? []));
  if (vm.egress) {
    const e = vm.egress;
    lines.push(
      '',
      `Network egress ${fmt(e.cap_gbps)} Gbit/s (${fmt(e.cap_mibps)} MiB/s)${e.other_mibps ? `, other egress ${fmt(e.other_mibps)} MiB/s` : ''}: ${fmt(e.budget_mibps)} MiB/s of network for disk writes, ÷ ${e.multiplier.zonal} zonal / ${e.multiplier.regional} regional${e.binds ? ' — **limits writes**' : ''}.`,
    );
  }
  if (vm.workloads.length) {
    lines.push(
      '',
      mdTable(
        ['workload', 'read IOPS', 'write IOPS', 'MiB/s', 'limited by', 'target'],
        vm.workloads.map((w) => [
          w.spec.name,
          fmt(w.read_iops),
          fmt(w.write_iops),
          fmt(w.read_mibps + w.write_mibps),
          w.limited_by,
          targetText(w),
        ]),
        [false, true, true, true, false, false],
      ),
    );
  }
  return lines.join('\n');
}

/**
 * The limits the VM's disks share, each once: the disk figures above are each disk's alone. A phrase per limit,
 * its source beside it.
 */
function sharedLimitLines(limits: readonly SharedLimit[]): string[] {
  if (!limits.length) return [];
  const out = ['', "**Shared limits** (each disk's figures above are what it delivers while the others are idle):", ''];
  for (const l of limits) {
    const [phrase] = sharedLimitPhrases([l]);
    out.push(`- ${phrase} — ${l.why}`);
  }
  return out;
}

function targetText(w: WorkloadEval): string {
  return targetVerdict(w.meets_target, w.headroom) ?? '—';
}

/** A disk the edition does not model on this machine: why there are no figures (and where that is said), and its price. */
function unmodelledDiskHover(c: Catalog, vm: VmEval, u: UnmodelledDisk): string {
  const why = u.unmodelled;
  return [
    `**disk ${u.spec.name}** — ${u.spec.type} on ${vm.machine?.name ?? '?'}: no figures in ${c.edition}. ${why.why}.`,
    `(${c.edition}: ${why.table}; ${c.sources[why.source]?.title ?? why.source}, ${why.date})`,
    `Price: ${money(c, u.cost)}/month — ${u.cost.why}`,
  ].join('\n\n');
}

/** What an instance store's IOPS figures let the model judge, and what they do not. */
function instanceStoreNote(c: Catalog): string {
  const block = c.instance_store?.block_kib;
  if (!block)
    return `**No throughput**: AWS gives none for instance store, and ${c.edition} does not say at what block size these IOPS hold: no workload on it is evaluated.`;
  return (
    `**No throughput**: AWS gives none for instance store. A workload on it is evaluated only at blocks of at most ${fmt(block)} KiB, ` +
    'where AWS states these IOPS, on this disk alone and without a throughput target; the others are not evaluated. ' +
    '`storage-perf fio` writes jobs that measure the IOPS above.'
  );
}

/** An instance store: what AWS documents of it, why that gives no figures, and that the instance's price includes it. */
function instanceStoreHover(c: Catalog, vm: VmEval, d: DiskSpec): string {
  const store = instanceStoreOf(c, vm.machine);
  const unstated = !store && unstatedInstanceStoreOf(c, vm.machine);
  if (unstated)
    return [
      `**disk ${d.name}** — the instance store of ${vm.machine!.name}: ${unstated.row.devices} × ${fmt(unstated.row.device_gb)} GB ${unstated.row.media} (${fmt(unstated.sizeGib)} GiB).`,
      `AWS states no IOPS and no throughput for it (${unstated.cited}): no figures, and the workloads on it are not evaluated.`,
      `Price: part of ${vm.machine!.name}'s.`,
    ].join('\n\n');
  if (!store) return `**disk ${d.name}** — ${vm.machine?.name ?? 'the machine'} has no instance store in ${c.edition}.`;
  const { row: s } = store;
  const table = c.instance_store!;
  return [
    `**disk ${d.name}** — the instance store of ${vm.machine!.name}: ${s.devices} × ${fmt(s.device_gb)} GB ${s.media} (${fmt(store.sizeGib)} GiB), ` +
      `${fmt(s.read_iops)} random read and ${fmt(s.write_iops)} random write IOPS${store.blockKib ? ` at ${fmt(store.blockKib)} KiB` : ''}, all volumes together.`,
    `(${c.edition}: ${table.table}; ${c.sources[table.source]?.title ?? table.source}, ${table.date})`,
    'AWS gives no throughput for it: no figures, and the workloads on it are not evaluated.' +
      // fio's jobs need the block size the IOPS are stated at (./fio/instance-store.ts).
      (store.blockKib ? ' `storage-perf fio` writes jobs that measure the IOPS above.' : ''),
    `Price: part of ${vm.machine!.name}'s.`,
  ].join('\n\n');
}

export function diskHover(c: Catalog, vm: VmEval, d: DiskEval): string {
  // Figures that are only upper bounds say so on each figure: "≤ 50,000 IOPS (VM limit unknown)".
  const ceiling = upperBound(d);
  const lines = [
    `**Disk ${d.spec.name}** — ${typeText(d.type.label, d.typeName)}, ${fmt(d.size_gib)} GiB on ${vm.machine?.name ?? 'an unknown machine'} · ${c.edition}`,
    '',
  ];
  lines.push(
    mdTable(
      ['', 'value', 'limited by', 'its own'],
      METRICS.map((k) =>
        d.throughputUnknown && k.endsWith('mibps')
          ? [metricLabel(k), 'unknown', '', '']
          : [
              metricLabel(k),
              `${ceiling ? '≤ ' : ''}${fmt(d.figures[k])} ${k.endsWith('iops') ? 'IOPS' : 'MiB/s'}${ceiling ? ` (${ceiling})` : ''}`,
              d.figures.by(k),
              d.diskOnly[k] > d.figures[k] * 1.001 ? fmt(d.diskOnly[k]) : '',
            ],
      ),
      [false, true, false, true],
    ),
  );
  if (!d.vmLimitKnown)
    lines.push(
      '',
      `**Per-VM limit unknown**: ${c.edition} has no ${d.typeName} row for ${vm.machine?.name ?? 'an unknown machine'}; these figures are the disk's own, and the VM may deliver less.`,
    );
  if (d.throughputUnknown) lines.push('', instanceStoreNote(c));
  const bursts = diskBurstTexts(d);
  if (bursts.length) lines.push('', '**Burst** (the figures above are sustained):', '', ...bursts.map((x) => `- ${x}`));
  lines.push('', '**Why**', '');
  // Reads and writes usually come from the same row: say it once.
  for (const [r, w, what] of [
    ['read_iops', 'write_iops', 'IOPS'],
    ['read_mibps', 'write_mibps', 'throughput'],
  ] as const) {
    const [read, write] = [d.figures.why(r), d.figures.why(w)];
    if (read === write) lines.push(`- read and write ${what}: ${read}`);
    else lines.push(`- ${metricLabel(r)}: ${read}`, `- ${metricLabel(w)}: ${write}`);
  }
  const perIops =
    d.cost.complete && d.cost.monthly !== undefined && d.figures.read_iops > 0 ? d.cost.monthly / d.figures.read_iops : undefined;
  lines.push(
    '',
    `**Cost** ${costText(d.cost.monthly, d.cost.complete, gapTexts([d.cost]), c.currency, '/month')}${perIops !== undefined ? ` · ${fmtPrice(perIops, c.currency)} per read IOPS` : ''} — ${d.cost.why}`,
  );
  const others = d.baselineGroup.filter((n) => n !== d.spec.name);
  if (others.length) lines.push('', `Shares one baseline with ${others.map((n) => `\`${n}\``).join(', ')} (same type on this VM).`);
  const shared = (vm.sharedLimits ?? []).filter((l) => l.disks.includes(d.spec.name));
  if (shared.length) lines.push('', `These are its figures while the VM's other disks are idle. ${sharedLimitPhrases(shared).join('; ')}.`);
  const onIt = vm.workloads.filter((w) => w.disks.includes(d.spec.name));
  if (onIt.length) lines.push('', `Workloads: ${onIt.map((w) => `\`${w.spec.name}\` ${targetText(w)}`).join(', ')}.`);
  return lines.join('\n');
}

export function workloadHover(c: Catalog, vm: VmEval, w: WorkloadEval, region: string, minHeadroom?: number): string {
  const s = w.spec;
  const lines = [
    `**Workload ${s.name}** — ${s.pattern} ${formatBlock(s.block_kib)}, ${fmt(s.read_ratio * 100)}% reads${s.queue_depth ? `, queue depth ${s.queue_depth}` : ''} on ${w.disks.map((d) => `\`${d}\``).join(', ')}`,
    '',
  ];
  // Figures on disks whose own are upper bounds are upper bounds too: the VM may deliver less, and a target they
  // reach can be neither met nor missed.
  // Its disks whose figures are upper bounds, or (as the workloads run together) its own figures' reason for being one.
  const bounds = vm.disks.filter((d) => w.disks.includes(d.spec.name) && upperBound(d));
  const le = w.upperBound !== undefined ? '≤ ' : '';
  const at = (x: number) => `${x > 0 ? le : ''}${fmt(x)}`;
  lines.push(
    mdTable(
      ['', 'read', 'write', 'total'],
      [
        ['IOPS', at(w.read_iops), at(w.write_iops), at(w.read_iops + w.write_iops)],
        ['MiB/s', at(w.read_mibps), at(w.write_mibps), at(w.read_mibps + w.write_mibps)],
      ],
      [false, true, true, true],
    ),
  );
  lines.push('', `**Limited by ${w.limited_by}**: ${w.why}`);
  const burst = workloadBurstText(w);
  if (burst && w.burst) {
    const until = burstEndText(w.burst.ends, 'the');
    lines.push('', `**Burst**: ${burst} (${until}); the target is judged on the sustained figure.`);
  }
  if (w.meets_target !== undefined) {
    lines.push(
      '',
      w.meets_target ? `**Target met**, headroom ${fmtHeadroom(w.headroom ?? 0)}.` : `**Target missed**: ${w.shortfalls.join('; ')}.`,
    );
  }
  if (w.upperBound !== undefined) {
    const which = bounds.length ? bounds.map((d) => `\`${d.spec.name}\`: ${upperBound(d)}`).join('; ') : w.upperBound;
    const judged = w.meets_target === undefined && Object.values(s.target).some((x) => x !== undefined);
    lines.push(
      '',
      judged
        ? `**Target not judged**: it is reached only at upper bounds (${which}); the VM may deliver less.`
        : `**Upper bounds**: these figures are at most what the VM delivers (${which}).`,
    );
  }
  const sug = adviceFor(vm, region, minHeadroom).workload(w.spec.name);
  const fixes = [
    sug.instead
      ? `a ${fmt(sug.instead.disk_size_gib)} GiB ${sug.instead.disk_type} for \`${sug.disk}\`${boughtText(sug.instead, ' with ')} (cheaper than the resize)`
      : '',
    sug.disk_type && sug.disk_size_gib !== undefined
      ? `a ${fmt(sug.disk_size_gib)} GiB ${sug.disk_type} for \`${sug.disk}\`${boughtText(sug, ' with ')}${sug.price_unknown ? ' (price unknown)' : ''}`
      : '',
    sug.alternative
      ? `a ${fmt(sug.alternative.disk_size_gib)} GiB ${sug.alternative.disk_type} for \`${sug.disk}\`${boughtText(sug.alternative, ' with ')}`
      : '',
    sug.disk_size_gib !== undefined && !sug.disk_type ? `resize \`${sug.disk}\` to ${fmt(sug.disk_size_gib)} GiB` : '',
    sug.machine_type ? `use ${sug.machine_type}` : '',
    sug.block_kib ? `use ${formatBlock(sug.block_kib)} blocks` : '',
    sug.queue_depth ? `queue depth ${sug.queue_depth}` : '',
  ].filter(Boolean);
  if (fixes.length) lines.push('', `To meet it: ${fixes.join(', or ')}.`);
  if (w.cpu_vcpus_needed > 0) {
    lines.push(
      '',
      `Needs about ${fmt(w.cpu_vcpus_needed)} free vCPUs for ${fmt(w.demand_iops)} IOPS${vm.machine ? ` (${vm.machine.name} has ${vm.machine.vcpus})` : ''}; queue depth ${w.queue_depth_needed.low}–${w.queue_depth_needed.high} (${c.edition}: ${c.queue.table}).`,
    );
  }
  return lines.join('\n');
}

/** A line about the value under the cursor: its unit conversion, or what the catalog says of it. */
function valueNote(c: Catalog, field: string, value: unknown, d: DiskEval | undefined, vm: VmEval): string | undefined {
  switch (field) {
    case 'size': {
      const r = parseSize(value);
      return r.ok ? `\`${String(value)}\` = ${fmt(r.value, 2)} GiB (${fmt((r.value * 2 ** 30) / 1e9, 2)} GB)` : undefined;
    }
    case 'block_size': {
      const r = parseBlockSize(value);
      return r.ok ? `\`${String(value)}\` = ${formatBlock(r.value)} (${fmt(r.value * 1024)} bytes)` : undefined;
    }
    case 'other_egress':
    case 'provisioned_throughput':
    case 'throughput':
    case 'read_throughput':
    case 'write_throughput': {
      const r = parseThroughput(value);
      return r.ok ? `\`${String(value)}\` = ${fmt(r.value, 1)} MiB/s (${fmt((r.value * 2 ** 20 * 8) / 1e9, 2)} Gbit/s)` : undefined;
    }
    case 'type': {
      if (!d) return undefined;
      const t = d.type;
      if (t.model === 'scaled') {
        const r = t.rates;
        return `**${t.label}**: ${r.read_iops_per_gib}/${r.write_iops_per_gib} IOPS and ${r.read_mibps_per_gib}/${r.write_mibps_per_gib} MiB/s per GiB (read/write)${r.baseline_iops ? `, plus ${fmt(r.baseline_iops)} IOPS / ${fmt(r.baseline_mibps ?? 0)} MiB/s baseline per VM` : ''} (${c.edition}: ${r.table})`;
      }
      return `**${t.label}**`;
    }
    case 'machine_type':
    case 'series':
    case 'vcpus': {
      const m = vm.machine;
      if (!m) return undefined;
      const types = [...new Set(vm.disks.map((x) => x.typeName))];
      const rows = types.map((t) => ({ t, r: vmLimitRow(c, m, t) })).filter((x) => x.r);
      const unknown = vm.disks.filter((x) => !x.vmLimitKnown).map((x) => x.typeName);
      const none = unknown.length ? `\n\nPer-VM limit unknown (no row in ${c.edition}) for ${[...new Set(unknown)].join(', ')}.` : '';
      if (!rows.length) return `**${m.name}**: ${plural(m.vcpus, 'vCPU')}${none}`;
      return (
        `**${m.name}**, ${plural(m.vcpus, 'vCPU')} — per-VM limits:\n\n` +
        mdTable(
          ['type', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'row'],
          rows.map(({ t, r }) => [
            t,
            lim(r!.row.read_iops, m.vcpus),
            lim(r!.row.write_iops, m.vcpus),
            lim(r!.row.read_mibps, m.vcpus),
            lim(r!.row.write_mibps, m.vcpus),
            describeRow(r!.row),
          ]),
          [false, true, true, true, true, false],
        ) +
        `\n\n(${c.edition}: ${rows[0].r!.table.table})` +
        machineExtras(c, m, rows as Array<{ t: string; r: VmRow }>) +
        none
      );
    }
  }
  return undefined;
}

function lim(l: number | { per_vcpu: number; max?: number } | undefined, vcpus: number): string {
  if (l === undefined) return '—';
  if (typeof l === 'number') return fmt(l);
  const v = l.per_vcpu * vcpus;
  return fmt(l.max !== undefined ? Math.min(v, l.max) : v);
}

/** A disk type as the hover names it: its label and its spec name, once (AWS labels hold it: "General Purpose SSD (gp3)"). */
const typeText = (label: string, name: string) =>
  label.includes(`(${name})`) || label.includes(`(${name},`) ? label : `${label} (${name})`;
