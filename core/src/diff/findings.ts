/**
 * The findings of one side of a diff, each placed on its VM and disk: by the JSON pointer of the value at fault
 * where it has one, else by the VM's and disk's text its span lies in. Matched across sides by code, VM, disk and
 * message, never by place: a VM moved down the file keeps its findings.
 */
import type { Analysis } from '../analyze';
import { valueSpan } from '../document/parse';
import { reportDiagnostics } from '../report';
import type { Span } from '../text';
import type { DiffFinding, FindingsDiff } from './types';

export interface PlacedFindings {
  /** Per VM of `a.vms` (same index), its findings. */
  byVm: DiffFinding[][];
  /** Findings on no VM. */
  file: DiffFinding[];
}

interface Place {
  vm: number;
  disk: string | null;
}

export function placeFindings(a: Analysis): PlacedFindings {
  const vms = a.spec ? a.vms.map((v) => v.spec) : [];
  const byVm: DiffFinding[][] = vms.map(() => []);
  const file: DiffFinding[] = [];
  if (!a.diagnostics.length) return { byVm, file };
  const byPath = new Map<string, Place>();
  vms.forEach((vm, i) => {
    byPath.set(vm.path, { vm: i, disk: null });
    for (const d of vm.disks) byPath.set(d.path, { vm: i, disk: d.name });
  });
  const spans = spanIndex(a, vms);
  const reported = reportDiagnostics(a);
  a.diagnostics.forEach((d, i) => {
    const place = (d.path !== undefined ? byPointer(byPath, d.path) : undefined) ?? bySpan(spans, d.span);
    const r = reported[i];
    const f: DiffFinding = {
      severity: d.severity,
      code: d.code,
      message: d.message,
      vm: place ? vms[place.vm].name : null,
      disk: place?.disk ?? null,
      line: r.line,
      column: r.column,
      ...(r.file !== undefined ? { file: r.file } : {}),
    };
    (place ? byVm[place.vm] : file).push(f);
  });
  return { byVm, file };
}

/** The longest prefix of a pointer that names a VM or one of its disks. */
function byPointer(byPath: Map<string, Place>, pointer: string): Place | undefined {
  for (let end = pointer.length; end > 0; end = pointer.lastIndexOf('/', end - 1)) {
    const hit = byPath.get(pointer.slice(0, end));
    if (hit) return hit;
  }
  return undefined;
}

interface SpanIndex {
  /** VMs' spans, by start. */
  vms: Array<{ span: Span; vm: number; disks: Array<{ span: Span; name: string }> }>;
}

function spanIndex(a: Analysis, vms: NonNullable<Analysis['spec']>['vms']): SpanIndex {
  const tree = a.parsed.tree;
  const out: SpanIndex['vms'] = [];
  vms.forEach((vm, i) => {
    const span = valueSpan(tree, vm.path);
    if (!span) return;
    const disks = vm.disks.flatMap((d) => {
      const s = valueSpan(tree, d.path);
      return s ? [{ span: s, name: d.name }] : [];
    });
    out.push({ span, vm: i, disks });
  });
  out.sort((x, y) => x.span.start - y.span.start);
  return { vms: out };
}

/** The VM (and disk) whose text holds the span: the last VM starting at or before it that also ends after it. */
function bySpan(index: SpanIndex, span: Span): Place | undefined {
  const list = index.vms;
  let lo = 0,
    hi = list.length - 1,
    at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].span.start <= span.start) [at, lo] = [mid, mid + 1];
    else hi = mid - 1;
  }
  if (at < 0 || span.end > list[at].span.end) return undefined;
  const hit = list[at];
  const disk = hit.disks.find((d) => d.span.start <= span.start && span.end <= d.span.end);
  return { vm: hit.vm, disk: disk?.name ?? null };
}

const keyOf = (f: DiffFinding) => `${f.code}\u0000${f.vm ?? ''}\u0000${f.disk ?? ''}\u0000${f.message}`;

/**
 * The findings of the head not in the base, and those of the base not in the head, as multisets of code, VM,
 * disk and message: a finding said twice before and once after has one gone.
 */
export function diffFindings(before: DiffFinding[], after: DiffFinding[]): FindingsDiff {
  const left = new Map<string, number>();
  for (const f of before) left.set(keyOf(f), (left.get(keyOf(f)) ?? 0) + 1);
  const appeared: DiffFinding[] = [];
  for (const f of after) {
    const n = left.get(keyOf(f)) ?? 0;
    if (n > 0) left.set(keyOf(f), n - 1);
    else appeared.push(f);
  }
  const gone: DiffFinding[] = [];
  for (const f of [...before].reverse()) {
    const n = left.get(keyOf(f)) ?? 0;
    if (n > 0) {
      left.set(keyOf(f), n - 1);
      gone.push(f);
    }
  }
  return { appeared, gone: gone.reverse() };
}
