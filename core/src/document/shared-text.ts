/**
 * Findings and fixes on text that several VMs share: an anchored node that aliases or merge keys reuse
 * (`disks: *std`, `<<: *base`). Each VM's finding there names its VM, so that two findings on one range do not
 * read as a contradiction; a fix there edits the anchor, so it is offered once, saying which VMs it changes, and
 * only when every VM sharing the text asks for the same edit (otherwise it would silently change the others).
 */
import type { Diagnostic, FixData } from '../diagnostics';
import type { Spec } from './types';
import type { YamlNode, YamlTree } from './yaml-nodes';

const VM_PATH = /^\/vms\/(\d+)(?=\/|$)/;

/** Whether any text may be shared: shared nodes come only from aliases. Without, `scopeSharedFindings` changes nothing. */
export const mayShareText = (text: string) => text.includes('*');

export function scopeSharedFindings(text: string, tree: YamlTree, spec: Spec | undefined, diagnostics: Diagnostic[]): Diagnostic[] {
  if (!spec || !mayShareText(text)) return diagnostics;
  const owners = vmOwners(tree);
  if (!owners.size) return diagnostics;
  const byPath = new Map(spec.vms.map((v) => [v.path, v.name]));
  const name = (vm: number) => byPath.get(`/vms/${vm}`) ?? `vm #${vm + 1}`;
  const names = (vms: number[]) => vms.map((v) => `'${name(v)}'`).join(', ');
  const nodeOf = (path: string, onKey: boolean): YamlNode | undefined => {
    const n = tree.nodes.get(path);
    return onKey ? (n?.key ?? n?.value) : n?.value;
  };
  // Who asks for which edit of shared text: a fix's kind and content on one node.
  const askedBy = new Map<string, Set<number>>();
  const signature = (f: FixData): { key: string; node: YamlNode } | undefined => {
    if (f.kind === 'set-values') return undefined;
    const node = nodeOf(f.path, f.kind === 'remove-key' || f.kind === 'rename-key');
    if (!node || (ownersOf(node)?.size ?? 0) < 2) return undefined;
    return { key: `${f.kind}\u0000${'value' in f ? f.value : ''}\u0000${'key' in f ? f.key : ''}\u0000${nodeId(node)}`, node };
  };
  // A mapping that merge keys bring into other VMs: a key added to it reaches them all (its entries are theirs).
  // Gathered once per mapping: every VM that merges it has findings on it, and each would gather its VMs again.
  const mapOwners = new Map<YamlNode, Set<number> | undefined>();
  const ownersOf = (node: YamlNode): Set<number> | undefined => {
    const own = owners.get(node);
    if (own || node.kind !== 'map') return own;
    if (mapOwners.has(node)) return mapOwners.get(node);
    const all = new Set<number>();
    for (const e of node.entries) if (!e.merged) for (const v of owners.get(e.key) ?? []) all.add(v);
    mapOwners.set(node, all.size > 1 ? all : undefined);
    return mapOwners.get(node);
  };
  const ids = new Map<YamlNode, number>();
  const nodeId = (n: YamlNode) => ids.get(n) ?? (ids.set(n, ids.size), ids.size - 1);
  for (const d of diagnostics) {
    const vm = vmOf(d.path);
    if (vm === undefined) continue;
    for (const f of d.fixes ?? []) {
      const s = signature(f);
      if (!s) continue;
      const set = askedBy.get(s.key) ?? new Set<number>();
      set.add(vm);
      askedBy.set(s.key, set);
    }
  }
  // Each edit's answer, decided once: the VMs sharing its text number as many as the findings asking for it.
  const offered = new Set<string>();
  const decided = new Map<string, string | undefined>();
  const sharedTitle = (key: string, node: YamlNode): string | undefined => {
    if (decided.has(key)) return decided.get(key);
    const sharing = [...ownersOf(node)!].sort((a, b) => a - b);
    const asking = askedBy.get(key)!;
    // Every VM that shares the text asks for this edit: offer it once, naming them; otherwise not at all.
    const title = sharing.every((v) => asking.has(v)) ? ` (shared text: changes VMs ${names(sharing)})` : undefined;
    decided.set(key, title);
    return title;
  };
  return diagnostics.map((d) => {
    const vm = vmOf(d.path);
    if (vm === undefined || !d.path) return d;
    const node = nodeOf(d.path, d.span.start === tree.nodes.get(d.path)?.key?.start);
    const sharedFinding = node && (owners.get(node)?.size ?? 0) > 1;
    const fixes = (d.fixes ?? []).flatMap((f): FixData[] => {
      if (f.kind === 'set-values')
        return f.values.some((v) => {
          const n = nodeOf(v.path, false);
          return !!n && (ownersOf(n)?.size ?? 0) > 1;
        })
          ? []
          : [f];
      const s = signature(f);
      if (!s) return [f];
      if (offered.has(s.key)) return [];
      const title = sharedTitle(s.key, s.node);
      if (title === undefined) return [];
      offered.add(s.key);
      return [{ ...f, title: `${f.title}${title}` }];
    });
    const before = d.fixes ?? [];
    if (!sharedFinding && fixes.length === before.length && fixes.every((f, i) => f === before[i])) return d;
    const message = sharedFinding ? `VM '${name(vm)}': ${d.message}` : d.message;
    return { ...d, message, fixes };
  });
}

function vmOf(path: string | undefined): number | undefined {
  const m = path ? VM_PATH.exec(path) : null;
  return m ? Number(m[1]) : undefined;
}

/** For each node reached from more than one VM (through an alias or a merge key), those VMs. */
function vmOwners(tree: YamlTree): Map<YamlNode, Set<number>> {
  const all = new Map<YamlNode, Set<number>>();
  for (const [path, n] of tree.nodes) {
    const vm = vmOf(path);
    if (vm === undefined) continue;
    for (const node of [n.key, n.value]) {
      if (!node) continue;
      const set = all.get(node) ?? new Set<number>();
      set.add(vm);
      all.set(node, set);
    }
  }
  for (const [node, set] of all) if (set.size < 2) all.delete(node);
  return all;
}
