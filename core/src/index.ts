/** The analysis core: spec parsing with source ranges, the limits model, evaluation and cost. No LSP, no I/O. */
export { analyze, type Analysis, type AnalyzeOptions } from './analyze';
export { parseSpec, keySpan, valueSpan, suggest, type ParsedSpec } from './spec/parse';
export type { Spec, VmSpec, DiskSpec, WorkloadSpec, Target } from './spec/types';
export type { YamlNode, YamlTree, MapNode, SeqNode, ScalarNode } from './spec/yaml-tree';
export * from './catalog';
export * from './diagnostics';
export * from './model/types';
export { evaluateVm, smallestSizeMeeting, smallestMachineMeeting } from './model/evaluate';
export { evaluateDisks, metricLabel, metricUnit, allocationUnits } from './model/disks';
export { evaluateWorkload, harmonicIops, demandIops } from './model/workload';
export { fileReport, reportDiagnostics, type Report, type FileReport } from './report';
export * from './units';
export * from './text';
