/**
 * Text → typed spec + source map + diagnostics. Structure is checked by the JSON schema (ajv); quantities,
 * names and references by hand, with messages that say what to write instead.
 *
 * The steps, one module each: the YAML tree with spans (`yaml-tree`), the typed spec and the hand checks
 * (`convert`), the schema's errors (`schema-diagnostics`). Here they run in order, and stop early where the
 * text is not a spec at all.
 */
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import { Converter } from './convert';
import { schemaDiagnostics } from './schema-diagnostics';
import type { Spec } from './types';
import { buildTree, type YamlTree } from './yaml-tree';

// Exported from this module before it was split; still offered here so that no import of it breaks.
export { suggest } from './suggest';
export { keySpan, valueSpan } from './yaml-tree';

export interface ParsedSpec {
  text: string;
  /** Undefined when the file is not a usable spec at all (syntax error, not a mapping...). */
  spec?: Spec;
  tree: YamlTree;
  diagnostics: Diagnostic[];
  /** Set by the Terraform front end: how many resources the plan has, and those of types it does not read. */
  terraform?: TerraformSummary;
  /** Set when the text is several files joined (a Terraform module's .tf files): where each file's text is. */
  sources?: Array<{ path: string; start: number; end: number }>;
  /** Set by a front end that words its findings its own way (Terraform: each names its resource), run last. */
  finishFindings?: (found: Diagnostic[]) => Diagnostic[];
}

export interface TerraformSummary {
  resources: number;
  /** Resource types that are neither VMs nor disks, with how many of each: counted, not analysed. */
  ignored: Record<string, number>;
  /**
   * What runs VMs but is not in the figures or the total: a VM resource not evaluated (its finding says why), the
   * instances of a block whose count is unknown until plan, a module not read. The total is partial while any is.
   */
  missing: string[];
  /**
   * The resources that run VMs whose `count` or `for_each` is known and zero (by configuration address): Terraform
   * creates none of them with these values, so they have no figures and nothing is missing.
   */
  none?: string[];
}

export function parseSpec(text: string): ParsedSpec {
  const tree = buildTree(text);
  const diagnostics: Diagnostic[] = tree.problems.map((p) => diag(p.code, p.message, p.span));
  const result: ParsedSpec = { text, tree, diagnostics };
  if (tree.problems.some((p) => p.code === 'yaml-syntax' || p.code === 'yaml-alias-limit')) return result;
  const root = tree.root;
  if (!root || (root.kind === 'scalar' && root.value === null)) {
    diagnostics.push(
      diag('empty-spec', 'the file is empty: a spec starts with `version: 1`, `provider:` and `vms:`', {
        start: 0,
        end: text.length && text[0] !== '\r' && text[0] !== '\n' ? 1 : 0,
      }),
    );
    return result;
  }
  if (root.kind !== 'map') {
    diagnostics.push(diag('wrong-type', 'a spec is a mapping with `version`, `provider` and `vms`', root));
    return result;
  }

  const conv = new Converter(tree, diagnostics);
  result.spec = conv.spec();
  const reported = conv.reported;
  for (const d of schemaDiagnostics(tree, reported)) diagnostics.push(d);
  markInvalidDisks(result.spec, diagnostics);
  markInvalidWorkloads(result.spec, diagnostics);
  return result;
}

/**
 * The keys of a disk its figures and price are read from. An error on one of them (a replication that is none, an
 * interface the type lacks, a count or provisioned amount that cannot be read, a size the schema refuses in a
 * spelling the units parser would still read) leaves the disk unevaluated: what was written is wrong, and the
 * converter's reading of it or a default in its place would look like its figures.
 */
const EVALUATED_KEYS = ['size', 'replication', 'provisioned_iops', 'provisioned_throughput', 'count', 'interface'];

/**
 * Marks the disks with an error on a value they are evaluated from (EVALUATED_KEYS). A size the converter could not
 * read is left to the model, which says the disk has no valid size.
 */
export function markInvalidDisks(spec: Spec, diagnostics: readonly Diagnostic[]): void {
  let keysAt: Map<string, string[]> | undefined;
  for (const d of diagnostics) {
    const m = d.severity === 'error' ? /^(\/vms\/\d+\/disks\/\d+)\/([^/]+)$/.exec(d.path ?? '') : null;
    if (!m || !EVALUATED_KEYS.includes(m[2])) continue;
    keysAt ??= new Map();
    keysAt.set(m[1], [...(keysAt.get(m[1]) ?? []), m[2]]);
  }
  if (!keysAt) return;
  for (const vm of spec.vms)
    for (const disk of vm.disks) {
      const keys = keysAt.get(disk.path)?.filter((k) => k !== 'size' || disk.size_gib !== undefined);
      if (keys?.length) disk.invalid = `disk '${disk.name}' has an error in its spec (${[...new Set(keys)].join(', ')})`;
    }
}

/**
 * A workload with an error in its spec (a read_ratio or block_size that cannot be read, a key misspelt or
 * missing) is not evaluated: figures from a default in place of what it says would look like its own.
 */
export function markInvalidWorkloads(spec: Spec, diagnostics: readonly Diagnostic[]): void {
  const errorPaths = diagnostics.filter((d) => d.severity === 'error' && d.path?.includes('/workloads/')).map((d) => d.path!);
  if (!errorPaths.length) return;
  // Each error's workload found by its path's prefixes, not each workload by a scan of every error (quadratic
  // in a file of many of both): the key under the workload that the error is about, '' for the workload itself.
  const workloads = new Map(spec.vms.flatMap((vm) => vm.workloads.map((w) => [w.path, w] as const)));
  const keysOf = new Map<string, string[]>();
  for (const p of errorPaths)
    for (let end = p.length; end > 0; end = p.lastIndexOf('/', end - 1)) {
      const w = workloads.get(p.slice(0, end));
      if (!w) continue;
      const keys = keysOf.get(w.path) ?? [];
      keys.push(p.slice(end + 1).split('/')[0]);
      keysOf.set(w.path, keys);
    }
  for (const vm of spec.vms)
    for (const w of vm.workloads) {
      const keys = keysOf.get(w.path);
      if (!keys) continue;
      const named = [...new Set(keys.filter(Boolean))];
      w.invalid = `workload '${w.name}' has an error in its spec${named.length ? ` (${named.join(', ')})` : ''}`;
    }
}
