/** `storage-perf evaluate FILE... --format json|table`: the contract's JSON report, or tables for a terminal. */
import { readFileSync } from 'node:fs';
import { analyze, costText, fileReport, fmt, fmtMoney, plural, targetVerdict, type FileReport, type Report } from '../../core/src';
import { loadRegistry } from './catalog-file';
import { catalogFiles, parseCommand, UsageError } from './args';
import { ioReason } from '../../protocol/src/file-io';

const EVALUATE_USAGE = `usage: storage-perf evaluate FILE... [--format table|json] [--catalog-file PATH]...

exit status: 0 no finding at error level, 1 one is (a YAML error, an unknown machine...; the report is still
printed whole), 2 a file cannot be read or the usage is wrong`;

export async function evaluateCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(args, { format: { type: 'string', default: 'table' } }, EVALUATE_USAGE);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = values.format as string;
  if (format !== 'json' && format !== 'table') throw new UsageError(`unknown format '${format}' (json or table)`);
  if (!positionals.length) throw new UsageError('no FILE given');
  const registry = loadRegistry(catalogFiles(values));

  const report: Report = { files: [] };
  let unreadable = false;
  for (const path of positionals) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      process.stderr.write(`storage-perf evaluate: cannot read ${path}: ${ioReason(e)}\n`);
      unreadable = true;
      continue;
    }
    report.files.push(fileReport(path, analyze(text, { registry })));
  }
  process.stdout.write(format === 'json' ? JSON.stringify(report, null, 2) + '\n' : report.files.map(renderFile).join('\n'));
  // The report is always whole; the exit status says whether to trust it (the contract, section 1).
  if (unreadable) return 2;
  return report.files.some((f) => f.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

const TARGET_UNITS: Array<[keyof FileReport['vms'][number]['workloads'][number]['target'], string]> = [
  ['iops', 'IOPS'],
  ['read_iops', 'read IOPS'],
  ['write_iops', 'write IOPS'],
  ['mibps', 'MiB/s'],
  ['read_mibps', 'read MiB/s'],
  ['write_mibps', 'write MiB/s'],
];

/** The targets as parsed (throughput in MiB/s, whatever unit the spec used), then the verdict. */
function targetCell(w: FileReport['vms'][number]['workloads'][number]): string {
  const parsed = TARGET_UNITS.filter(([k]) => w.target[k] !== undefined).map(([k, unit]) => `${fmt(w.target[k]!)} ${unit}`);
  if (!parsed.length) return '-';
  const verdict = targetVerdict(w.meets_target, w.headroom);
  return `${parsed.join(', ')}${verdict ? `: ${verdict}` : ''}`;
}

/** Plain-text tables: columns padded to width, numbers right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+$₽0-9.,% ]*$/.test(r[i]) && r[i] !== ''));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function renderFile(f: FileReport): string {
  const cur = f.currency ?? 'USD';
  const money = (x: number | null) => (x === null ? '?' : fmtMoney(x, cur));
  // Null figures belong to a VM whose figures are unavailable; such a VM prints its reason, not tables.
  const num = (x: number | null, digits = 0) => (x === null ? '-' : fmt(x, digits));
  // A partial sum is said as one: "at least $138.00 (IOPS price unknown in europe-west4)".
  const total = (x: { monthly_cost: number | null; monthly_cost_complete: boolean; monthly_cost_missing: string[] }) =>
    costText(x.monthly_cost ?? undefined, x.monthly_cost_complete, x.monthly_cost_missing, cur, '/month');
  const out: string[] = [`${f.path}  (catalog ${f.catalog ?? '?'}, region ${f.region ?? '?'})`, ''];
  for (const vm of f.vms) {
    out.push(
      `VM ${vm.name}: ${vm.machine_type ?? '?'}${vm.vcpus && !vm.machine_type?.includes('vCPU') ? `, ${plural(vm.vcpus, 'vCPU')}` : ''} — ${total(vm)} · machine ${money(vm.machine_monthly_cost)}, disks ${money(vm.disks_monthly_cost)}`,
    );
    if (vm.figures_unavailable !== null) {
      out.push(`  no figures: ${vm.figures_unavailable}`, '');
      continue;
    }
    out.push(
      table(
        ['disk', 'type', 'GiB', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'limited by (r/w IOPS, r/w MiB/s)', 'per month'],
        vm.disks.map((d) => [
          d.name,
          d.type,
          num(d.size_gib),
          num(d.read_iops),
          num(d.write_iops),
          num(d.read_mibps, 1),
          num(d.write_mibps, 1),
          d.limited_by
            ? `${d.limited_by.read_iops}/${d.limited_by.write_iops}, ${d.limited_by.read_mibps}/${d.limited_by.write_mibps}`
            : '-',
          `${d.monthly_cost_complete || d.monthly_cost === null ? '' : '>= '}${money(d.monthly_cost)}`,
        ]),
      ),
    );
    if (vm.workloads.length) {
      out.push('');
      out.push(
        table(
          ['workload', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'limited by', 'target'],
          vm.workloads.map((w) => [
            w.name,
            num(w.read_iops),
            num(w.write_iops),
            num(w.read_mibps, 1),
            num(w.write_mibps, 1),
            w.limited_by ?? '-',
            targetCell(w),
          ]),
        ),
      );
    }
    out.push('');
  }
  if (f.monthly_cost !== null && f.vms.length > 1) out.push(`file total: ${total(f)}`, '');
  for (const d of f.diagnostics) out.push(`${f.path}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`);
  return out.join('\n') + '\n';
}
