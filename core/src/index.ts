/** The analysis core: spec parsing with source ranges, the limits model, evaluation and cost. No LSP, no I/O. */
export {
  analysisSteps,
  analyze,
  EvaluationCache,
  finishSteps,
  streamedAnalysis,
  type Analysis,
  type AnalysisSteps,
  type AnalyzeOptions,
  type StreamedAnalysis,
} from './analyze';
export { parseSpec, keySpan, valueSpan, suggest, type ParsedSpec, type TerraformSummary } from './document/parse';
export { parseTerraformPlan, frontEndFor, isTerraformPlanPath, sidecarFrontEnd, sidecarPlanPath } from './terraform';
export {
  blockAddress,
  isTerraformSourcePath,
  isTfVarsPath,
  isLocalSource,
  localKey,
  joinTfFiles,
  moduleFolder,
  mergeInstances,
  planFrontEndWithSources,
  planSourceMap,
  remoteModuleCalls,
  terraformFilesFrontEnd,
} from './terraform';
export type { PlanSources, SourcePlace } from './terraform';
export type {
  HclParse,
  HclSyntaxNode,
  InstalledModule,
  ModuleCallSource,
  ModuleDirs,
  TfFile,
  TfParseMemo,
  TfParsed,
  TfSource,
  TfVar,
} from './terraform';
export type { Spec, VmSpec, DiskSpec, WorkloadSpec, Target } from './document/types';
export type { YamlNode, YamlTree, MapNode, SeqNode, ScalarNode } from './document/yaml-tree';
export * from './catalog';
export { parseCatalogText, type CatalogFileProblem } from './catalog/file';
export * from './diagnostics';
export { CHECKS, DIAGNOSTIC_CODES, diag, fixTypeOf, fixTypesOf, moduleOf } from './checks/registry';
export type { CheckModule, SpecContext, VmContext } from './checks/types';
export { codeTableMarkdown } from './checks/docs';
export { applySuppressions, findSuppressions, DISABLE_FILE, DISABLE_NEXT_LINE, type SuppressionDirective } from './suppress';
export * from './model/types';
export { evaluateVm, evaluateOn } from './model/evaluate';
export {
  adviceFor,
  VmAdvice,
  smallestSizeMeeting,
  smallestMachineMeeting,
  cheaperDisk,
  condition,
  type Condition,
  type WorkloadSuggestions,
  type CheaperDisk,
} from './advice';
export { evaluateDisks, metricLabel, metricUnit, allocationUnits } from './model/disks';
export { evaluateWorkload } from './model/workload';
export { harmonicIops } from './model/workload-limits';
export { demandIops } from './model/targets';
export {
  fileReport,
  reportDiagnostics,
  vmReportParts,
  vmReports,
  type Report,
  type FileReport,
  type ReportDiagnostic,
  type VmReport,
} from './report';
export * from './units';
export { namesText, sharedLimitPhrases, type SharedLimitFacts } from './shared-limits';
export * from './text';
export { hover, mdTable, type HoverResult } from './language/hover';
export { complete, contextPath, type CompletionEntry } from './language/completion';
export { fixEdits, applyEdits, textWithFix, yamlScalar, type TextEdit } from './language/fixes';
export { titleWithCost } from './language/fix-cost';
export { alternatives, type Alternative } from './language/alternatives';
export { symbols, inlayHints, type SymbolEntry, type InlayEntry } from './language/outline';
export { locate, scopeOf } from './language/locate';
export { describeKey, keysAt } from './language/schema-info';
export * from './fio';
export { changeText, diffAnalyses, deltaText, missingPrices, moneyText, unreadLines, type DiffInput } from './diff';
export type * from './diff/types';
