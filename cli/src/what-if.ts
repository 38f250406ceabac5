/**
 * `evaluate --set PATH=VALUE`: the spec with values changed, named as a user names them (vms.db.machine_type,
 * vms.db.disks.data.size, region), and a table of what changes: cost and figures before and after.
 */
import { analyze, applyEdits, fixEdits, fmt, fmtMoney, suggest, targetVerdict, type FileReport, type FixData } from '../../core/src';
import type { AnalysisInput } from '../../protocol/src/terraform-input';
import { UsageError } from './args';
import { setOnTerraform } from './what-if-terraform';
import { table } from './table';

/**
 * The input with every `--set` applied in order: a spec's values by the core's own edit of a value, Terraform's by
 * address (./what-if-terraform.ts).
 */
export function applySets(input: AnalysisInput, sets: string[]): AnalysisInput {
  let current = input;
  for (const set of sets) {
    const eq = set.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set '${set}': write PATH=VALUE, e.g. vms.db.machine_type=n2-standard-16`);
    const a = analyze(current.text, { frontEnd: current.frontEnd });
    if (!a.spec)
      throw new UsageError(
        a.parsed.terraform ? '--set needs a configuration with a VM storage-perf reads' : '--set needs a spec that parses',
      );
    if (a.parsed.terraform) {
      current = setOnTerraform(current, a, set, set.slice(0, eq), set.slice(eq + 1));
      continue;
    }
    const pointer = pointerOf(a.spec, set.slice(0, eq).split('.'), set);
    const raw = set.slice(eq + 1);
    const value: string | number = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    const parent = pointer.slice(0, pointer.lastIndexOf('/'));
    const key = pointer.slice(pointer.lastIndexOf('/') + 1);
    const fix: FixData = a.parsed.tree.nodes.has(pointer)
      ? { kind: 'set-value', path: pointer, value, title: set }
      : { kind: 'add-key', path: parent, key, value, title: set };
    const edits = fixEdits(current.text, a.parsed.tree, fix);
    if (!edits.length) throw new UsageError(`--set '${set}': cannot write that value there`);
    current = { ...current, text: applyEdits(current.text, edits) };
  }
  return current;
}

/** vms.db.disks.data.size → /vms/0/disks/0/size: VMs, disks and workloads by name, then one key. */
function pointerOf(spec: NonNullable<ReturnType<typeof analyze>['spec']>, parts: string[], set: string): string {
  const byName = <T extends { name: string; path: string }>(list: T[], name: string | undefined, what: string): T => {
    const found = list.find((x) => x.name === name);
    if (found) return found;
    const near =
      name === undefined
        ? undefined
        : suggest(
            name,
            list.map((x) => x.name),
          );
    throw new UsageError(`--set '${set}': no ${what} '${name ?? ''}'${near ? `; did you mean '${near}'?` : ''}`);
  };
  if (parts.length === 1) return `/${parts[0]}`;
  if (parts[0] !== 'vms' || parts.length < 3)
    throw new UsageError(`--set '${set}': a path is region, or vms.VM.KEY, vms.VM.disks.DISK.KEY, vms.VM.workloads.WORKLOAD.KEY`);
  const vm = byName(spec.vms, parts[1], 'VM');
  if (parts.length === 3) return `${vm.path}/${parts[2]}`;
  if (parts.length === 5 && parts[2] === 'disks') return `${byName(vm.disks, parts[3], 'disk').path}/${parts[4]}`;
  if (parts.length === 5 && parts[2] === 'workloads') return `${byName(vm.workloads, parts[3], 'workload').path}/${parts[4]}`;
  throw new UsageError(`--set '${set}': a path is region, or vms.VM.KEY, vms.VM.disks.DISK.KEY, vms.VM.workloads.WORKLOAD.KEY`);
}

/** Each VM's cost and each disk's and workload's figures, before and after, where either has them. */
export function renderWhatIf(sets: string[], before: FileReport, after: FileReport): string {
  const cur = after.currency ?? before.currency ?? 'USD';
  const money = (x: number | null, complete: boolean) => (x === null ? '?' : `${complete ? '' : '≥ '}${fmtMoney(x, cur)}`);
  const n = (x: number | null | undefined, d = 0) => (x === null || x === undefined ? '-' : fmt(x, d));
  const rows: string[][] = [];
  const row = (item: string, b: string, a: string) => rows.push([item, b, a, b === a ? '' : 'changed']);
  row(
    'monthly cost, file',
    money(before.monthly_cost, before.monthly_cost_complete),
    money(after.monthly_cost, after.monthly_cost_complete),
  );
  for (const va of after.vms) {
    const vb = before.vms.find((v) => v.name === va.name);
    row(`${va.name}: machine`, vb?.machine_type ?? '-', va.machine_type ?? '-');
    row(
      `${va.name}: monthly cost`,
      vb ? money(vb.monthly_cost, vb.monthly_cost_complete) : '-',
      money(va.monthly_cost, va.monthly_cost_complete),
    );
    for (const da of va.disks) {
      const db = vb?.disks.find((d) => d.name === da.name);
      row(
        `${va.name}/${da.name}: read / write IOPS`,
        `${n(db?.read_iops)} / ${n(db?.write_iops)}`,
        `${n(da.read_iops)} / ${n(da.write_iops)}`,
      );
      row(
        `${va.name}/${da.name}: read / write MiB/s`,
        `${n(db?.read_mibps, 1)} / ${n(db?.write_mibps, 1)}`,
        `${n(da.read_mibps, 1)} / ${n(da.write_mibps, 1)}`,
      );
    }
    for (const wa of va.workloads) {
      const wb = vb?.workloads.find((w) => w.name === wa.name);
      const fig = (w: typeof wa | undefined) =>
        w && w.read_iops !== null && w.write_iops !== null
          ? `${fmt(w.read_iops + w.write_iops)} IOPS${targetVerdict(w.meets_target, w.headroom) ? `, ${targetVerdict(w.meets_target, w.headroom)}` : ''}`
          : '-';
      row(`${va.name}/${wa.name}`, fig(wb), fig(wa));
    }
  }
  return [`what if: ${sets.join(', ')}`, '', table(['', 'before', 'after', ''], rows), ''].join('\n');
}
