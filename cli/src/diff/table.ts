/** `storage-perf diff --format table`: the summary, then each changed VM's rows and findings, for a terminal. */
import { unreadLines, type DiffRecord } from '../../../core/src';
import { findingLine, sidesLine, unattachedLine, vmHeadline, vmRows } from './rows';
import { table } from '../table';

export function renderTable(r: DiffRecord): string {
  const out = [r.summary, sidesLine(r), ...unreadLines(r), ''];
  for (const v of r.vms) {
    out.push(`VM ${vmHeadline(v, r.currency)}`);
    const rows = vmRows(v, r.currency);
    if (rows.length) out.push(indent(table(['', 'before', 'after', ''], rows)));
    for (const f of v.findings.appeared) out.push(`  ${findingLine('+', f)}`);
    for (const f of v.findings.gone) out.push(`  ${findingLine('-', f)}`);
    out.push('');
  }
  if (r.unattached_disks.length) {
    out.push('disks attached to no VM (priced apart, in the file total):');
    for (const d of r.unattached_disks) out.push(`  ${unattachedLine(d, r.currency)}`);
    out.push('');
  }
  if (r.findings.appeared.length || r.findings.gone.length) {
    out.push('findings on no VM:');
    for (const f of r.findings.appeared) out.push(`  ${findingLine('+', f)}`);
    for (const f of r.findings.gone) out.push(`  ${findingLine('-', f)}`);
    out.push('');
  }
  return out.join('\n');
}

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
