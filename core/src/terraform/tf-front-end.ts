/**
 * The .tf front end's entry: a module's files (joined by `joinTfFiles`) parsed, each folder's files grouped, the
 * root module read by the module reader (./tf.ts) with the variables given, and its resource records turned into
 * the analysis input (`resourcesToSpec`), as a plan's are.
 */
import type { Node } from 'jsonc-parser';
import type { Diagnostic } from '../diagnostics';
import type { ParsedSpec } from '../document/parse';
import { diag } from '../checks/registry';
import { whyText, type HclParse, type Why } from './hcl-values';
import { readsAsVm, resourcesToSpec } from './plan';
import type { PlanResource } from './plan-model';
import { push } from './plan-model';
import { ModuleReader, UNKNOWN, type ParsedFile } from './tf';
import { folderOf, joinTfFiles, type TfFile, type TfSource } from './tf-files';
import type { ModuleDirs } from './tf-module-sources';
import { jsonError, parseFile, varsOf } from './tf-parse';
import { memoised, type TfParseMemo } from './tf-parse-memo';
import { cliVarValue, tfVarsJsonValues, tfVarsValues, type TfVar } from './tfvars';

export { moduleFolder } from './tf-module-sources';
export { joinTfFiles, type TfFile, type TfSource } from './tf-files';

/**
 * The front end for the files of `joinTfFiles(files)`; the first file's folder is the root module. Files named
 * `*.tfvars` set the root module's variables in their order, then `vars` (`-var NAME=VALUE`), later wins. `modules`
 * says where calls of other than local sources are (`terraform init`'s record) and which folders were refused.
 */
export function terraformFilesFrontEnd(
  parse: HclParse,
  files: TfFile[],
  vars: TfVar[] = [],
  modules: ModuleDirs = {},
  memo?: TfParseMemo,
): (text: string) => ParsedSpec {
  return (text) => {
    const { sources } = joinTfFiles(files);
    const diagnostics: Diagnostic[] = [];
    const result: ParsedSpec = { text, tree: { problems: [], nodes: new Map(), value: undefined }, diagnostics, sources };
    const reader = readModules(parse, text, sources, diagnostics, vars, modules, memo);
    if (!reader) return result;
    const anchor = sources[0] ? { start: 0, end: Math.min(1, sources[0].end) } : { start: 0, end: 0 };
    const missing = [
      ...reader.unexpanded.filter((r) => readsAsVm(r.type)).map((r) => `${r.address}'s instances, unknown until plan`),
      ...reader.missing,
    ];
    resourcesToSpec(
      result,
      reader.resources,
      reader.config,
      anchor,
      (code, message, at) =>
        diagnostics.push(diag(code, code === 'terraform-unknown-value' ? unknownText(message, reader.whyAt(at.start)) : message, at)),
      missing,
      'unknown until plan',
      { unexpanded: reader.unexpanded, none: reader.none },
    );
    result.tree.scattered = true;
    return result;
  };
}

/**
 * A provider reader's finding about a value a plan knows only after apply, said of the .tf files: unknown until
 * plan, with the inputs that would make the attribute it is placed on known (`var.type has no value: set var.type
 * with -var or a .tfvars file`) where the module reader knows them. A value Terraform refuses has its own finding.
 */
function unknownText(message: string, why: Why[] | undefined): string {
  const at = message.indexOf('is known only after apply');
  const said = why && !why.some((w) => w.error) && at >= 0;
  // The inputs' own words are kept as they are ("x is known only after apply"): only the finding's is the .tf files'.
  if (!said) return message.replace(/known only after apply/g, UNKNOWN);
  const rest = message.slice(at + 'is known only after apply'.length).replace(/known only after apply/g, UNKNOWN);
  return `${message.slice(0, at).replace(/known only after apply/g, UNKNOWN)}${whyText(why)}${rest}`;
}

/**
 * The resource records of the files (as `terraformFilesFrontEnd` reads them, the root module's variables given
 * `vars`), or undefined when one does not parse; `said` gets the findings of the reading.
 */
export function readTfResources(
  parse: HclParse,
  files: TfFile[],
  modules: ModuleDirs = {},
  vars: TfVar[] = [],
  said: Diagnostic[] = [],
): { resources: PlanResource[]; unexpanded: PlanResource[]; sources: TfSource[] } | undefined {
  const { text, sources } = joinTfFiles(files);
  const reader = readModules(parse, text, sources, said, vars, modules);
  return reader && { resources: reader.resources, unexpanded: reader.unexpanded, sources };
}

/** Every file parsed and the root module read from it (its trees freed after), or undefined on a syntax error. */
function readModules(
  parse: HclParse,
  text: string,
  sources: TfSource[],
  diagnostics: Diagnostic[],
  vars: TfVar[] = [],
  modules: ModuleDirs = {},
  memo?: TfParseMemo,
): ModuleReader | undefined {
  const byFolder = new Map<string, ParsedFile[]>();
  const trees: Array<{ delete?(): void }> = [];
  const given = new Map<string, Node | undefined>();
  const numbers = new Map<number, number>();
  try {
    for (const s of sources) {
      if (varsOf(s) === 'json') {
        const { error } = tfVarsJsonValues(text.slice(s.start, s.end), s.start, given);
        if (error !== undefined) jsonError(s, text.slice(s.start, s.end), error, diagnostics);
        continue;
      }
      const body = memoised(memo, s, text.slice(s.start, s.end), numbers, trees, (t, into) =>
        parseFile(parse, t, s, diagnostics, trees, into),
      );
      if (!body) continue;
      if (varsOf(s)) {
        tfVarsValues(body, s.start, given);
        continue;
      }
      const folder = folderOf(s.path);
      push(byFolder, folder, { source: s, body });
    }
    if (diagnostics.length) return undefined;
    const reader = new ModuleReader(byFolder, diagnostics, numbers, modules);
    const cli = new Map(vars.map((v) => [v.name, v]));
    const root = folderOf(sources.find((s) => !varsOf(s))?.path ?? '');
    reader.read(root, '', '', given, 0, {
      typed: (name, at) => cliVarValue(parse, cli.get(name)!, at),
      typedNames: new Set(cli.keys()),
    });
    return reader;
  } finally {
    for (const t of trees) t.delete?.();
  }
}
