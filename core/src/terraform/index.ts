/**
 * Terraform as input: front ends that give the analysis the same input a YAML spec gives. A Terraform plan
 * (`terraform show -json PLANFILE`) is read by `parseTerraformPlan`.
 */
import type { ParsedSpec } from '../document/parse';
import { parseTerraformPlan } from './plan';

export { parseTerraformPlan };
export { sidecarFrontEnd, sidecarPlanPath } from './sidecar';
export { joinTfFiles, moduleFolder, terraformFilesFrontEnd, type TfFile, type TfSource } from './tf-front-end';
export { isLocalSource, localKey, type InstalledModule, type ModuleDirs } from './tf-module-sources';
export { remoteModuleCalls, type ModuleCallSource } from './tf-module-calls';
export type { TfParseMemo, TfParsed } from './tf-parse-memo';
export type { HclParse, HclSyntaxNode } from './hcl-values';
export { isTfVarsPath, type TfVar } from './tfvars';
export { planSourceMap, type SourcePlace } from './plan-sources';
export { planFrontEndWithSources, type PlanSources } from './plan-sources-join';
export { blockAddress, mergeInstances } from './finding-addresses';

/** Whether a file is Terraform source, read by the .tf front end: `.tf`, or `.tf.json` (Terraform's JSON syntax). */
export function isTerraformSourcePath(path: string): boolean {
  return /\.tf(?:\.json)?$/i.test(path);
}

/** Whether a file is read as a Terraform plan: a `.json` file (specs are `*.perf.yaml`). */
export function isTerraformPlanPath(path: string): boolean {
  return /\.json$/i.test(path) && !isTerraformSourcePath(path);
}

/** The front end for a file, by its name: a Terraform plan's for `.json`, else the YAML spec's (undefined). */
export function frontEndFor(path: string): ((text: string) => ParsedSpec) | undefined {
  return isTerraformPlanPath(path) ? parseTerraformPlan : undefined;
}
