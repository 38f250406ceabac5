/** `storagePerf/report`: the JSON report of an open spec, for the extension's status bar and report view. */
import { alternatives, costText, fileReport, type Analysis, type Target } from '../../../core/src';
import { ReportRequest, type SpecReport, type UriParams } from '../../../protocol/src/requests';
import type { ServerContext } from '../context';
import { pathOf } from '../uri';

/** The report of an open spec; `analyzeText` analyses an alternative as the server analyses documents. */
export function specReport(uri: string, analysis: Analysis, analyzeText: (text: string) => Analysis): SpecReport {
  const report = fileReport(pathOf(uri), analysis);
  const targets = new Map<string, Target>();
  for (const vm of analysis.vms) for (const w of vm.workloads) targets.set(`${vm.spec.name}\u0000${w.spec.name}`, w.spec.target);
  return {
    ...report,
    monthly_cost_text:
      report.monthly_cost === null || !report.currency
        ? null
        : costText(report.monthly_cost, report.monthly_cost_complete, report.monthly_cost_missing, report.currency),
    alternatives: alternatives(analysis, analyzeText),
    vms: report.vms.map((vm) => ({
      ...vm,
      workloads: vm.workloads.map((w) => ({ ...w, target: targets.get(`${vm.name}\u0000${w.name}`) ?? {} })),
    })),
  };
}

export function registerReport({ connection, documents, lifecycle }: ServerContext): void {
  connection.onRequest(
    ReportRequest,
    lifecycle.guardRequest(ReportRequest, (p: UriParams): SpecReport | null => {
      const doc = documents.get(p.uri);
      return doc ? specReport(p.uri, documents.analysisOf(doc).analysis, (t) => documents.analyzeText(p.uri, t)) : null;
    }),
  );
}
