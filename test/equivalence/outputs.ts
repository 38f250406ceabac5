/**
 * What one analysis shows a user, written out as text to compare two cores by: the JSON report, every finding
 * with its range and fixes (and the edits each fix makes), the inlay hints, and the hovers on every VM, disk,
 * workload and machine key. Two cores are equivalent on an input when these texts are byte-identical.
 */
import { createHash } from 'node:crypto';
import { analyze, fileReport, fixEdits, hover, inlayHints, parseTerraformPlan, type Analysis } from '../../core/src';

/** The parts compared, in the order they are written. */
export const PARTS = ['report', 'findings', 'hints', 'hovers'] as const;
export type Part = (typeof PARTS)[number];
export type Outputs = Record<Part, string>;

/** Keys whose hover a user reads: a VM's, a disk's or a workload's name, a machine and a disk type. */
const HOVERED = /^\/vms\/\d+(?:\/(?:disks|workloads)\/\d+)?\/name$|^\/vms\/\d+\/machine_type$|^\/vms\/\d+\/disks\/\d+\/type$/;

export function analyseInput(name: string, text: string): Analysis {
  return name.endsWith('.json') ? analyze(text, { frontEnd: parseTerraformPlan }) : analyze(text);
}

export function outputsOf(name: string, text: string): Outputs {
  const a = analyseInput(name, text);
  const findings = a.diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    span: d.span,
    path: d.path,
    fixes: (d.fixes ?? []).map((f) => ({ fix: f, edits: fixEdits(text, a.parsed.tree, f) })),
  }));
  const hovers: string[] = [];
  for (const [path, n] of a.parsed.tree.nodes) {
    if (!HOVERED.test(path) || !n.value) continue;
    const h = hover(a, n.value.start);
    hovers.push(`${path} ${h ? `${h.span.start}-${h.span.end}\n${h.markdown}` : '(none)'}`);
  }
  return {
    report: JSON.stringify(fileReport(name, a), null, 1),
    findings: findings.map((f) => JSON.stringify(f)).join('\n'),
    hints: inlayHints(a)
      .map((h) => JSON.stringify(h))
      .join('\n'),
    hovers: hovers.join('\n'),
  };
}

export const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** One line of a record: the input's name and each part's digest. */
export interface RecordLine {
  input: string;
  parts: Record<Part, string>;
}

export function recordOf(name: string, o: Outputs): RecordLine {
  const parts = {} as Record<Part, string>;
  for (const p of PARTS) parts[p] = digest(o[p]);
  return { input: name, parts };
}
