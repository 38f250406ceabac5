/**
 * The workload sidecar: a `*.perf.yaml` with `terraform: plan.json` whose workloads name the plan's VMs and
 * disks by Terraform address. Analysing it evaluates the VMs it names, as the plan gives them, with its
 * workloads. Its findings stay in it: a workload's at its own lines, a VM's or disk's on the `vm:` address that
 * first names the VM (the plan's own lint places those on the plan).
 */
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import { Converter } from '../document/convert';
import { markInvalidWorkloads, type ParsedSpec } from '../document/parse';
import { suggest } from '../document/suggest';
import { withSpan, type NodeEntry, type SeqNode, type YamlNode, type YamlTree } from '../document/yaml-nodes';
import { buildTree } from '../document/yaml-tree';
import type { Span } from '../text';
import { schemaDiagnostics } from '../document/schema-diagnostics';
import { markLeftOut, parseTerraformPlan } from './plan';
import { sidecarValidator } from './sidecar-schema';

/** The plan a sidecar names (its top-level `terraform:` value), if the text is one; read before any parse. */
export function sidecarPlanPath(text: string): string | undefined {
  const m = /^terraform:[ \t]*(["']?)([^"'#\r\n]+?)\1[ \t]*(?:#.*)?$/m.exec(text);
  return m?.[2];
}

/** The front end of a sidecar, given its plan's text (or why it could not be read). */
/** What a sidecar's `terraform:` names: a plan's text, Terraform files already read (`parsed`), or why neither. */
export type SidecarSource = { text: string } | { parsed: () => ParsedSpec } | { error: string };

export function sidecarFrontEnd(plan: SidecarSource): (text: string) => ParsedSpec {
  return (text) => parseSidecar(text, plan);
}

function parseSidecar(text: string, plan: SidecarSource): ParsedSpec {
  const own = buildTree(text);
  const diagnostics: Diagnostic[] = own.problems.map((p) => diag(p.code, p.message, p.span));
  const result: ParsedSpec = { text, tree: own, diagnostics };
  const at = own.nodes.get('/terraform');
  if (!at || own.problems.some((p) => p.code === 'yaml-syntax' || p.code === 'yaml-alias-limit')) return result;
  const parsed = 'text' in plan ? parseTerraformPlan(plan.text) : 'parsed' in plan ? plan.parsed() : undefined;
  if (!parsed?.spec) {
    const why = 'error' in plan ? plan.error : (parsed?.diagnostics[0]?.message ?? 'it has no VM');
    diagnostics.push(diag('terraform-sidecar-plan', `the plan cannot be used: ${why}; lint the plan itself for where`, at.value));
    return result;
  }
  const moved = new Map<string, string>();
  result.tree = merged(own, parsed, diagnostics, moved);
  const conv = new Converter(result.tree, diagnostics);
  result.spec = conv.spec();
  // The plan's VMs keep their own regions (a region's prices are a fact of where each runs).
  const regions = new Map(parsed.spec.vms.map((v) => [v.name, v]));
  for (const vm of result.spec.vms) {
    vm.region = regions.get(vm.name)?.region;
    if (regions.get(vm.name)?.region_unknown) vm.region_unknown = true;
  }
  markLeftOut(result.spec, result.tree);
  checkKeys(own, result.tree, conv.reported, moved, diagnostics);
  markInvalidWorkloads(result.spec, diagnostics);
  return result;
}

/**
 * The sidecar's own keys checked against its schema, at their paths in the sidecar; values the converter already
 * reported on (at their merged paths) are skipped, and fixes are moved to the merged paths they edit.
 */
function checkKeys(own: YamlTree, tree: YamlTree, reported: Set<string>, moved: Map<string, string>, out: Diagnostic[]): void {
  const back = new Map([...moved].map(([from, to]) => [to, from]));
  const ownPath = (p: string) => swap(p, back) ?? (p.startsWith('/vms') ? undefined : p);
  const seen = new Set([...reported].map(ownPath).filter((p): p is string => p !== undefined));
  const mine = new Set([...own.nodes.keys()].filter((p) => !p.startsWith('/workloads')));
  for (const p of tree.nodes.keys()) if (swap(p, back)) mine.add(p);
  tree.generated = true;
  tree.editable = (p) => mine.has(p);
  for (const d of schemaDiagnostics(own, seen, sidecarValidator())) {
    for (const f of d.fixes ?? []) if ('path' in f) f.path = swap(f.path, moved) ?? f.path;
    if (d.path) d.path = swap(d.path, moved) ?? d.path;
    out.push(d);
  }
}

/** A path moved by a prefix of `by` (the longest that matches), or undefined when none does. */
function swap(p: string, by: Map<string, string>): string | undefined {
  for (const [from, to] of by) if (p === from || p.startsWith(`${from}/`)) return to + p.slice(from.length);
  return undefined;
}

/** The sidecar's own nodes, and under /vms the plan's VMs it names, each with its workloads. */
function merged(own: YamlTree, plan: ParsedSpec, out: Diagnostic[], moved: Map<string, string>): YamlTree {
  const nodes = new Map<string, NodeEntry>();
  for (const [p, n] of own.nodes) if (!p.startsWith('/workloads')) nodes.set(p, n);
  const addresses = plan.spec!.vms.map((v) => v.name);
  const named = new Map<number, YamlNode[]>();
  const seq = own.nodes.get('/workloads')?.value;
  (seq?.kind === 'seq' ? seq.items : []).forEach((item, j) => {
    const vm = own.nodes.get(`/workloads/${j}/vm`)?.value;
    const address = vm?.kind === 'scalar' ? String(vm.value) : undefined;
    const i = address === undefined ? -1 : addresses.indexOf(address);
    if (i < 0) {
      const near = address && suggest(address, addresses);
      const message = address
        ? `the plan has no VM ${address}${near ? `: did you mean ${near}?` : ''}`
        : 'a workload names its VM by Terraform address: vm: <address>';
      out.push(diag('terraform-unknown-address', message, vm ?? own.nodes.get(`/workloads/${j}`)!.value));
      return;
    }
    if (!named.has(i)) named.set(i, []);
    const k = named.get(i)!.push(item) - 1;
    const to = `/vms/${named.size - 1}/workloads/${k}`;
    moved.set(`/workloads/${j}`, to);
    for (const [p, n] of own.nodes)
      if (p === `/workloads/${j}` || p.startsWith(`/workloads/${j}/`)) nodes.set(to + p.slice(`/workloads/${j}`.length), n);
    if (k === 0) copyVm(plan.tree, plan.spec!.vms[i].path, `/vms/${named.size - 1}`, vm!, nodes);
  });
  for (const key of ['/version', '/provider', '/region', '/catalog'])
    if (!nodes.has(key) && plan.tree.nodes.has(key)) nodes.set(key, placed(plan.tree.nodes.get(key)!, own.nodes.get('/terraform')!.value));
  const vmsAt = own.nodes.get('/terraform')!.value;
  const items = [...named.values()].map((_, n) => nodes.get(`/vms/${n}`)!.value);
  nodes.set('/vms', { value: { kind: 'seq', start: vmsAt.start, end: vmsAt.end, items, flow: true } });
  [...named.values()].forEach((ws, n) => {
    const s: SeqNode = { kind: 'seq', start: ws[0].start, end: ws[ws.length - 1].end, items: ws, flow: false };
    nodes.set(`/vms/${n}/workloads`, { value: s });
  });
  return { root: own.root, problems: own.problems, nodes, value: undefined };
}

/** A VM of the plan and its disks, placed on the address that names it. */
function copyVm(plan: YamlTree, from: string, to: string, at: Span, nodes: Map<string, NodeEntry>): void {
  for (const [p, n] of plan.nodes)
    if ((p === from || p.startsWith(`${from}/`)) && !p.startsWith(`${from}/workloads`)) nodes.set(to + p.slice(from.length), placed(n, at));
}

function placed(n: { key?: YamlNode; value: YamlNode }, at: Span): { key?: YamlNode; value: YamlNode } {
  return { key: n.key && withSpan(n.key, at.start, at.end), value: withSpan(n.value, at.start, at.end) };
}
