/** Document symbols (VMs, their disks and workloads) and inlay hints (each disk's and workload's figures). */
import type { Analysis } from '../analyze';
import type { Span } from '../text';
import { fmt, fmtMoney, targetVerdict } from '../units';
import { knownFigure, upperBound, type DiskEval } from '../model/types';

export interface SymbolEntry {
  name: string;
  detail: string;
  kind: 'vm' | 'disk' | 'workload';
  span: Span;
  selection: Span;
  children: SymbolEntry[];
}

export function symbols(a: Analysis): SymbolEntry[] {
  const tree = a.parsed.tree;
  const spans = (path: string) => {
    const n = tree.nodes.get(path);
    if (!n) return undefined;
    const name = tree.nodes.get(`${path}/name`)?.value ?? n.value;
    return { span: { start: n.value.start, end: n.value.end }, selection: { start: name.start, end: name.end } };
  };
  /**
   * A disk's or workload's spans, inside its VM's. One that comes from an alias (`disks: *std`) stands in
   * another VM's text: this VM's symbol for it is its own `disks:` key, the text that brings it in (an editor
   * nests symbols by range, and would show it under the VM that holds the anchor).
   */
  const childSpans = (vmSpan: Span, path: string, list: 'disks' | 'workloads') => {
    const s = spans(path);
    if (!s || (s.span.start >= vmSpan.start && s.span.end <= vmSpan.end)) return s;
    const key = tree.nodes.get(path.slice(0, path.lastIndexOf(`/${list}/`) + list.length + 1))?.key;
    return key && key.start >= vmSpan.start && key.end <= vmSpan.end
      ? { span: { start: key.start, end: key.end }, selection: { start: key.start, end: key.end } }
      : s;
  };
  const out: SymbolEntry[] = [];
  const evaluations = new Map<string, (typeof a.vms)[number]>();
  for (const v of a.vms) if (!evaluations.has(v.spec.path)) evaluations.set(v.spec.path, v);
  for (const [i, vm] of (a.spec?.vms ?? []).entries()) {
    const s = spans(vm.path);
    if (!s) continue;
    const ev = evaluations.get(vm.path);
    const children: SymbolEntry[] = [];
    for (const [j, d] of vm.disks.entries()) {
      const ds = childSpans(s.span, d.path, 'disks');
      if (ds) children.push({ name: shown(d.name, `disk #${j + 1}`), detail: d.type, kind: 'disk', ...ds, children: [] });
    }
    for (const [j, w] of vm.workloads.entries()) {
      const ws = childSpans(s.span, w.path, 'workloads');
      if (ws)
        children.push({
          name: shown(w.name, `workload #${j + 1}`),
          detail: `${w.pattern}, ${fmt(w.read_ratio * 100)}% reads`,
          kind: 'workload',
          ...ws,
          children: [],
        });
    }
    out.push({ name: shown(vm.name, `vm #${i + 1}`), detail: ev?.machine?.name ?? vm.machine_type ?? '', kind: 'vm', ...s, children });
  }
  return out;
}

/**
 * A symbol's name as an editor can show it: VS Code refuses a document symbol whose name is empty or blank, and
 * would drop the whole outline. The placeholder is the converter's own for a missing name (`vm #2`, which no valid
 * name can be); an empty or blank name has its own finding (the schema's name pattern).
 */
function shown(name: string, placeholder: string): string {
  return name.trim() ? name : placeholder;
}

export interface InlayEntry {
  offset: number;
  label: string;
  tooltip: string;
}

/** One hint at the end of each disk's and workload's `name` line. */
export function inlayHints(a: Analysis, range?: Span): InlayEntry[] {
  const c = a.catalog;
  if (!c) return [];
  const tree = a.parsed.tree;
  const text = a.parsed.text;
  const lineEndAfter = (off: number) => {
    let i = off;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    return i;
  };
  const out: InlayEntry[] = [];
  const inRange = (o: number) => !range || (o >= range.start && o <= range.end);
  for (const vm of a.vms) {
    for (const d of vm.disks) {
      const name = tree.nodes.get(`${d.spec.path}/name`)?.value;
      if (!name) continue;
      const at = lineEndAfter(name.end);
      if (!inRange(at)) continue;
      const f = d.figures;
      // A partial price is a lower bound, and says so.
      const cost = d.cost.monthly !== undefined ? ` · ${d.cost.complete ? '' : '≥ '}${fmtMoney(d.cost.monthly, c.currency)}/mo` : '';
      // Figures that are only upper bounds say so: "≤ 50,000/50,000 IOPS · ≤ 1,200/1,200 MiB/s (VM limit unknown)".
      const ceiling = upperBound(d);
      const le = ceiling ? '≤ ' : '';
      out.push({
        offset: at,
        label: ` ${le}${fmt(f.read_iops)}/${fmt(f.write_iops)} IOPS · ${mibps(d, le)}${ceiling ? ` (${ceiling})` : ''}${cost}`,
        tooltip: `read/write IOPS limited by ${f.by('read_iops')}/${f.by('write_iops')}; read/write MiB/s limited by ${f.by('read_mibps')}/${f.by('write_mibps')} (${c.edition})`,
      });
    }
    for (const w of vm.workloads) {
      const name = tree.nodes.get(`${w.spec.path}/name`)?.value;
      if (!name) continue;
      const at = lineEndAfter(name.end);
      if (!inRange(at)) continue;
      // On figures that are upper bounds the workload's are too, and a target they reach is not judged.
      const ceiling = w.upperBound;
      const le = ceiling ? '≤ ' : '';
      const verdict = targetVerdict(w.meets_target, w.headroom) ?? (ceiling && hasTarget(w.spec.target) ? 'not judged' : undefined);
      const target = verdict ? ` · target ${verdict}` : '';
      out.push({
        offset: at,
        label: ` ${le}${fmt(w.read_iops + w.write_iops)} IOPS · ${le}${fmt(w.read_mibps + w.write_mibps)} MiB/s${ceiling ? ` (${ceiling})` : ''}${target}`,
        tooltip: `limited by ${w.limited_by}: ${w.why}`,
      });
    }
  }
  return out;
}

/** "≤ 1,200/1,200 MiB/s", or "? MiB/s" where the provider gives no throughput (instance store). */
function mibps(d: DiskEval, le: string): string {
  const r = knownFigure(d, 'read_mibps');
  const w = knownFigure(d, 'write_mibps');
  return r === undefined || w === undefined ? '? MiB/s' : `${le}${fmt(r)}/${fmt(w)} MiB/s`;
}

/** Whether a workload asks for any figure. */
function hasTarget(t: object): boolean {
  return Object.values(t).some((x) => x !== undefined);
}
