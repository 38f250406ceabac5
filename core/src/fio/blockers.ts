/**
 * Which findings stop a VM's fio jobs. Jobs are for measuring, and a VM whose workload misses its target is the
 * one a user most wants measured: a missed target never stops them, nor does a disk too small for the data it is
 * meant to hold (the disk itself is what the jobs measure). Every other error on the VM does: jobs for a machine
 * the catalog does not know, a disk without a size or figures, a configuration the provider would refuse (a size
 * or provisioned value out of range, a type the machine does not attach) or a rejected mount point would measure
 * something other than what the spec means, or write where they must not. An error outside every VM (the
 * catalog, the file's structure) concerns them all.
 */
import type { Analysis } from '../analyze';
import type { Diagnostic } from '../diagnostics';
import { scopeOf } from '../language/locate';

/** Errors about what the configuration reaches or holds, not about what the jobs would measure. */
const MEASURABLE = new Set(['target-unreachable', 'capacity-short']);

/** The error findings that stop the fio jobs of the VM at `vmIndex` in the spec's list. */
export function fioBlockers(analysis: Analysis, vmIndex: number): Diagnostic[] {
  return analysis.diagnostics.filter((d) => {
    if (d.severity !== 'error' || MEASURABLE.has(d.code)) return false;
    const at = scopeOf(d.path ?? '').vm;
    return at === undefined || at === vmIndex;
  });
}
