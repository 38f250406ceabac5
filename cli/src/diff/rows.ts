/** What `storage-perf diff` shows of a changed VM, as rows (item, before, after, note) every text format lays out. */
import {
  changeText,
  deltaText,
  fmt,
  moneyText,
  type DiffFinding,
  type DiffRecord,
  type UnattachedDiskDiff,
  type VmDiff,
} from '../../../core/src';
import { vmRows as rowsOf, type Row, type RowStyle } from '../../../protocol/src/diff-rows';

export type { Row } from '../../../protocol/src/diff-rows';

/** The terminal and markdown style of the rows: "-" where nothing is, limits as the report names them. */
const CLI_STYLE: RowStyle = { none: '-', limit: (by) => by, money: moneyText, delta: deltaText };

/** How names the spec wrote are shown: as they are (a terminal), or inert in Markdown (markdown.ts). */
export type Names = Pick<RowStyle, 'name' | 'prose'>;
const asIs = (s: string) => s;

/** A changed VM's rows: its machine, prices, disks and workloads (money in the record's currency). */
export const vmRows = (v: VmDiff, currency: string | null, names: Names = {}): Row[] => rowsOf(v, currency, { ...CLI_STYLE, ...names });

/** "+ error target-unreachable (disk data): message". */
export function findingLine(sign: '+' | '-', f: DiffFinding): string {
  const where = f.disk ? ` (disk ${f.disk})` : '';
  return `${sign} ${f.severity} ${f.code}${where}: ${f.message}`;
}

/** A VM's headline: "db: changed — n2-standard-8 → n2-standard-32, +$849.78/month". */
export function vmHeadline(v: VmDiff, currency: string | null, name: (s: string) => string = asIs): string {
  const m = { before: v.machine_type.before && name(v.machine_type.before), after: v.machine_type.after && name(v.machine_type.after) };
  const machine =
    v.change === 'changed'
      ? m.before === m.after
        ? (m.after ?? '?')
        : `${m.before ?? '?'} → ${m.after ?? '?'}`
      : (m.after ?? m.before ?? '?');
  const t = v.monthly_cost.total;
  const cost = t.delta === null ? 'monthly cost change unknown' : `${deltaText(t, currency)}/month`;
  const missed = v.workloads.filter((w) => w.verdict === 'now missed').length;
  return `${name(v.name)}: ${changeText(v)} — ${machine}, ${cost}${missed ? `, ${missed} target${missed === 1 ? '' : 's'} now missed` : ''}`;
}

/** A disk attached to no VM: "aws_ebs_volume.archive: added — st1, 16,000 GiB, $720.00/month (+$720.00)". */
export function unattachedLine(d: UnattachedDiskDiff, currency: string | null, name: (s: string) => string = asIs): string {
  const side = <T>(c: { before: T | null; after: T | null }) => (d.change === 'removed' ? c.before : c.after);
  const what = (c: { before: string | number | null; after: string | number | null }, show: (x: string | number) => string) =>
    d.change === 'changed' && c.before !== c.after
      ? `${c.before === null ? '?' : show(c.before)} → ${c.after === null ? '?' : show(c.after)}`
      : side(c) === null
        ? '?'
        : show(side(c)!);
  const price = moneyText(side(d.monthly_cost), currency);
  return `${name(d.name)}: ${changeText(d)} — ${what(d.type, (x) => name(String(x)))}, ${what(d.size_gib, (x) => `${fmt(Number(x))} GiB`)}, ${price}/month (${deltaText(d.monthly_cost, currency)})`;
}

/** "base a.perf.yaml (gcp-2024, us-central1) → head b.perf.yaml (gcp-2024, us-central1)"; "(not there)" for a file added or deleted. */
export function sidesLine(r: DiffRecord, name: (s: string) => string = asIs): string {
  const side = (s: DiffRecord['base'], which: string) =>
    `${which} ${name(s.path)}${s.ref !== undefined ? ` at ${name(s.ref)}` : ''} (${s.exists ? `${s.catalog ?? '?'}, ${s.region ?? '?'}` : 'not there'})`;
  return `${side(r.base, 'base')} → ${side(r.head, 'head')}`;
}
