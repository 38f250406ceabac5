/**
 * A workload sidecar linted beside the Terraform module it names: the module's own lint reports what its VMs
 * and disks are (a shared baseline, a machine that caps its disks), at the .tf lines that say so. The sidecar then
 * keeps only what its workloads bring, so that one mistake is one finding in the run, not one in each file.
 *
 * What the workloads bring is found by difference: the sidecar analysed again without its workloads gives the
 * findings its VMs have by themselves (the module's), and those on a VM or disk are left out. A VM finding that
 * a workload changes or causes (a machine too small for the workloads' vCPUs) differs, and stays.
 */
import type { Diagnostic } from './diagnostics';
import { parseSpec, type ParsedSpec } from './document/parse';

/** The front end of the analysis without the spec's workloads: the same input, its VMs emptied of workloads. */
export function withoutWorkloads(frontEnd: (text: string) => ParsedSpec = parseSpec): (text: string) => ParsedSpec {
  return (text) => {
    const parsed = frontEnd(text);
    return parsed.spec ? { ...parsed, spec: { ...parsed.spec, vms: parsed.spec.vms.map((vm) => ({ ...vm, workloads: [] })) } } : parsed;
  };
}

/**
 * The findings less those on a VM or disk (a path under /vms that is not a workload's) that the analysis without
 * workloads has too, alike in code, place and words.
 */
export function workloadFindings(found: readonly Diagnostic[], vmsAlone: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.code}\u0000${d.path}\u0000${d.span.start}\u0000${d.span.end}\u0000${d.message}`;
  const theirs = new Set(vmsAlone.filter(onVm).map(key));
  return found.filter((d) => !(onVm(d) && theirs.has(key(d))));
}

function onVm(d: Diagnostic): boolean {
  return d.path !== undefined && /^\/vms\/\d+(\/|$)/.test(d.path) && !/^\/vms\/\d+\/workloads(\/|$)/.test(d.path);
}
