/**
 * Findings on a plan placed on the Terraform source it was planned from: a place in the plan's
 * `planned_values` is a resource (by its address) and a path in its `values`; the same address read from the
 * .tf files (./tf.ts) has the same `values` shape with HCL places, so the path leads to the attribute's line
 * there, or to the resource block when the attribute is not written (a default, a computed value).
 */
import { parseTree, type Node } from 'jsonc-parser';
import type { Span } from '../text';
import type { HclParse } from './hcl-values';
import { blockAddress } from './finding-addresses';
import { at, items, str } from './json';
import type { PlanResource } from './plan-model';
import { readTfResources, type TfFile } from './tf-front-end';
import type { ModuleDirs } from './tf-module-sources';

/** A place in one of the .tf files: its path (as given) and a span of that file's own text. */
export interface SourcePlace {
  path: string;
  span: Span;
}

interface PlannedResource {
  address: string;
  node: Node;
  values?: Node;
}

/**
 * Where a span of the plan was written in the .tf files, or undefined (not in a resource, a resource the files
 * do not have). Undefined as a whole when the plan is not JSON or the files do not parse. `modules`: where the
 * module calls' folders are (`moduleFilesIn`'s).
 */
export function planSourceMap(
  planText: string,
  parse: HclParse,
  files: TfFile[],
  modules: ModuleDirs = {},
): ((s: Span) => SourcePlace | undefined) | undefined {
  const root = parseTree(planText);
  const read = root && readTfResources(parse, files, modules);
  if (!root || !read) return undefined;
  const planned: PlannedResource[] = [];
  walk(at(root, 'planned_values', 'root_module'), planned);
  const byAddress = new Map<string, PlanResource>(read.resources.map((r) => [r.address, r]));
  // A plan's instance the files do not read as such (a `count = var.x ? 1 : 0`, an index past the files' own
  // count) is placed on its block: every instance of a block was written there.
  const byBlock = new Map<string, PlanResource>();
  for (const r of [...read.unexpanded, ...read.resources])
    if (!byBlock.has(blockAddress(r.address))) byBlock.set(blockAddress(r.address), r);
  return (s) => {
    const r = planned.find((p) => s.start >= p.node.offset && s.start < p.node.offset + p.node.length);
    const tf = r && (byAddress.get(r.address) ?? byBlock.get(blockAddress(r.address)));
    if (!r || !tf) return undefined;
    const path = r.values ? pathTo(r.values, s.start) : [];
    let place: Span = tf.addressSpan;
    let node = tf.values;
    for (const seg of path) {
      node = at(node, seg);
      if (!node) break;
      place = { start: node.offset, end: node.offset + node.length };
    }
    const source = read.sources.find((f) => place.start >= f.start && place.start <= f.end)!;
    return { path: source.path, span: { start: place.start - source.start, end: place.end - source.start } };
  };
}

function walk(module: Node | undefined, out: PlannedResource[]): void {
  for (const r of items(at(module, 'resources'))) {
    const address = str(at(r, 'address'));
    if (address && str(at(r, 'mode')) !== 'data') out.push({ address, node: r, values: at(r, 'values') });
  }
  for (const child of items(at(module, 'child_modules'))) walk(child, out);
}

/** The keys and indexes from `values` to the deepest node holding the offset. */
function pathTo(values: Node, offset: number): Array<string | number> {
  const path: Array<string | number> = [];
  let n: Node | undefined = values;
  while (n && (n.type === 'object' || n.type === 'array')) {
    const holds = (c: Node) => offset >= c.offset && offset < c.offset + c.length;
    const children: Node[] = n.children ?? [];
    const i = children.findIndex(holds);
    if (i < 0) break;
    if (n.type === 'array') {
      path.push(i);
      n = children[i];
    } else {
      const prop = children[i];
      path.push(String(prop.children?.[0]?.value));
      n = prop.children?.[1];
    }
  }
  return path;
}
