/**
 * `lint plan.json --format sarif|github`: a finding on a Terraform plan is placed on the .tf line it was planned
 * from when the module's .tf files are beside the plan (the plan's resource address and attribute path,
 * followed in the .tf files: core's `planSourceMap`), so that code scanning and pull-request annotations point
 * at the code a reviewer changes. Findings that have no such place stay on the plan.
 */
import { dirname, join } from 'node:path';
import { LineIndex, mergeInstances, planSourceMap, type ModuleDirs } from '../../../core/src';
import { loadHclParser } from '../../../protocol/src/hcl-parser';
import { moduleFilesIn } from '../../../protocol/src/terraform-input';
import { displayPath } from './files';
import { summarize, type FileResult, type Finding, type LintResult } from './types';

/** The result with each plan's findings moved to the .tf files beside it, where they have a place there. */
export async function placeOnTerraform(result: LintResult, cwd: string): Promise<LintResult> {
  const plans = result.files.filter((f) => f.file && /\.json$/i.test(f.file) && !f.error && f.findings.length);
  if (!plans.length) return result;
  const files: FileResult[] = [];
  for (const f of result.files) files.push(...(plans.includes(f) ? await placed(f, cwd) : [f]));
  return { ...result, files, summary: summarize(files) };
}

async function placed(plan: FileResult, cwd: string): Promise<FileResult[]> {
  const folder = dirname(plan.file!);
  const dirs: ModuleDirs = {};
  const sources = moduleFilesIn(folder, dirs);
  if (!sources.length) return [plan];
  const map = planSourceMap(plan.text, await loadHclParser(), sources, dirs);
  if (!map) return [plan];
  const planIndex = new LineIndex(plan.text);
  const byFile = new Map<string, FileResult>();
  const kept: Finding[] = [];
  for (const x of plan.findings) {
    const place = map({ start: planIndex.offset(x.range.start), end: planIndex.offset(x.range.end) });
    const source = place && sources.find((s) => s.path === place.path);
    if (!place || !source) {
      kept.push(x);
      continue;
    }
    const file = join(folder, place.path);
    let out = byFile.get(file);
    if (!out) byFile.set(file, (out = { path: displayPath(file, cwd), file, text: source.text, findings: [] }));
    const r = new LineIndex(source.text).range(place.span);
    out.findings.push({
      ...x,
      line: r.start.line + 1,
      column: r.start.character + 1,
      endLine: r.end.line + 1,
      endColumn: r.end.character + 1,
      range: r,
    });
  }
  // The instances of a `count` block are one finding on the line they were all written on.
  const at = (x: Finding) => `${x.line}:${x.column}:${x.endLine}:${x.endColumn}`;
  for (const out of byFile.values()) out.findings = mergeInstances(out.findings, at);
  return [{ ...plan, findings: kept }, ...byFile.values()];
}
