/**
 * A plan joined through the .tf files it was made from, when they are beside it. A plan's `configuration` gives an
 * attribute's references, not its expression: `instance = google_compute_instance.vm[floor(count.index /
 * var.per_vm)].id` lists `google_compute_instance.vm`, `count.index` and `var.per_vm`, and the instance is not known
 * until apply. The .tf files, read with the plan's variables as the root module's values, evaluate the index for each
 * instance through the same evaluator the .tf reading uses (./tf-targets.ts), so the plan joins each attachment to
 * the instance Terraform will; where it cannot be evaluated, to none, and the finding says which input.
 */
import type { Node } from 'jsonc-parser';
import type { ParsedSpec } from '../document/parse';
import { toValue } from './hcl-convert';
import type { HclParse } from './hcl-values';
import { at } from './json';
import { parseTerraformPlan } from './plan';
import type { PlanResource } from './plan-model';
import type { Diagnostic } from '../diagnostics';
import { readTfResources, type TfFile } from './tf-front-end';
import type { ModuleDirs } from './tf-module-sources';
import type { TfVar } from './tfvars';

/** The .tf files beside a plan: its root module's, and where its module calls' folders are. */
export interface PlanSources {
  parse: HclParse;
  files: TfFile[];
  modules?: ModuleDirs;
}

/** The plan front end that joins through the .tf files beside the plan. */
export function planFrontEndWithSources(beside: PlanSources): (text: string) => ParsedSpec {
  return (text) => parseTerraformPlan(text, (root, resources) => joinThroughSources(root, resources, beside));
}

/** The plan's root variables as values given on the command line (`-var name=value`, HCL of a known value). */
function planVariables(root: Node): TfVar[] {
  const vars = at(root, 'variables');
  const out: TfVar[] = [];
  for (const p of vars?.type === 'object' ? (vars.children ?? []) : []) {
    const [k, v] = p.children ?? [];
    const value = at(v, 'value');
    const plain = value && toValue(value);
    if (k && plain !== undefined) out.push({ name: String(k.value), value: JSON.stringify(plain) });
  }
  return out;
}

function joinThroughSources(root: Node, resources: PlanResource[], beside: PlanSources): void {
  const said: Diagnostic[] = [];
  const read = readTfResources(beside.parse, beside.files, beside.modules, planVariables(root), said);
  if (!read) return;
  const byAddress = new Map(read.resources.map((r) => [r.address, r]));
  for (const r of resources) {
    const target = byAddress.get(r.address)?.target;
    if (!target) continue;
    r.target = target;
    // What the .tf reading says of an unknown target (./tf.ts), said of the plan: "run on the plan JSON" is not advice here.
    r.unjoined = (path) => {
      const prefix = `${r.address}'s ${attributeText(path)}: the instance it names `;
      return said.find((d) => d.message.startsWith(prefix))?.message.replace(', or run on the plan JSON', '');
    };
  }
}

const attributeText = (path: Array<string | number>) =>
  path
    .map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`))
    .join('')
    .slice(1);
