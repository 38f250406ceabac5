/**
 * The .tf front end: a module's Terraform files (and the local modules it calls, `source = "./x"`) read as the
 * same resource records a plan gives (`PlanResource`: address, type, `values` as JSON nodes placed on the HCL
 * text, and the `configuration` references that join disks to instances), so that each provider's mapper
 * reads both. The files are analysed as one text, the entry file first (its offsets are its own); `sources`
 * tells which file each span is in. What is known only after plan is an information finding, never a guess.
 */
import type { Node } from 'jsonc-parser';
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import type { ParsedSpec } from '../document/parse';
import type { Span } from '../text';
import { arrayNode, evaluate, named, objectNode, type HclParse, type HclSyntaxNode, type Scope, zeroedExponents } from './hcl-values';
import { readsAsVm, resourcesToSpec } from './plan';
import type { PlanResource } from './plan-model';
import { isTfJsonPath, jsonBody } from './tf-json';
import { instancesOf, MAX_EXPANDED, type Instance, type KeysOf } from './tf-instances';
import { cliVarValue, isTfVarsJsonPath, isTfVarsPath, tfVarsJsonValues, tfVarsValues, type TfVar } from './tfvars';
import { attributeIn, bodyOf, expressions, exprOf, isOverridePath, labelsOf, nameOf, overridden, partsOf, type Part } from './tf-body';
import { providerOf, providersForCall, readProviderBlock, type Providers } from './tf-providers';
import { memoised, type TfParseMemo } from './tf-parse-memo';

/** One Terraform file: its path relative to the root module's folder, `/`-separated. */
export interface TfFile {
  path: string;
  text: string;
}

/** Where one file's text sits in the analysed text. */
export interface TfSource {
  path: string;
  start: number;
  end: number;
}

const UNKNOWN = 'unknown until plan: run on the plan JSON';
/** Blocks that are Terraform's own, not the provider's attributes. */
const META = new Set(['count', 'for_each', 'depends_on', 'lifecycle', 'provider', 'provisioner', 'connection']);
const MAX_DEPTH = 16;

/** The text the files are analysed as: each file's text in order, a line break between two. */
export function joinTfFiles(files: TfFile[]): { text: string; sources: TfSource[] } {
  let at = 0;
  const sources = files.map((f) => {
    const s = { path: f.path, start: at, end: at + f.text.length };
    at = s.end + 1;
    return s;
  });
  return { text: files.map((f) => f.text).join('\n'), sources };
}

/** The folder a file is in ('' at the root). */
const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** A module's folder joined with a local source (`./disk`, `../shared`), or undefined when it leaves the root. */
export function moduleFolder(from: string, source: string): string | undefined {
  const parts = from ? from.split('/') : [];
  for (const seg of source.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

interface ParsedFile {
  source: TfSource;
  body: HclSyntaxNode;
}

/**
 * The front end for the files of `joinTfFiles(files)`; the first file's folder is the root module. Files named
 * `*.tfvars` set the root module's variables in their order, then `vars` (`-var NAME=VALUE`), later wins.
 */
export function terraformFilesFrontEnd(
  parse: HclParse,
  files: TfFile[],
  vars: TfVar[] = [],
  memo?: TfParseMemo,
): (text: string) => ParsedSpec {
  return (text) => {
    const { sources } = joinTfFiles(files);
    const diagnostics: Diagnostic[] = [];
    const result: ParsedSpec = { text, tree: { problems: [], nodes: new Map(), value: undefined }, diagnostics, sources };
    const reader = readModules(parse, text, sources, diagnostics, vars, memo);
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
        diagnostics.push(
          diag(code, code === 'terraform-unknown-value' ? message.replace(/known only after apply/g, UNKNOWN) : message, at),
        ),
      missing,
      'unknown until plan',
    );
    result.tree.scattered = true;
    return result;
  };
}

/** The resource records of the files (as `terraformFilesFrontEnd` reads them), or undefined when one does not parse. */
export function readTfResources(
  parse: HclParse,
  files: TfFile[],
): { resources: PlanResource[]; unexpanded: PlanResource[]; sources: TfSource[] } | undefined {
  const { text, sources } = joinTfFiles(files);
  const reader = readModules(parse, text, sources, []);
  return reader && { resources: reader.resources, unexpanded: reader.unexpanded, sources };
}

/** Every file parsed and the root module read from it (its trees freed after), or undefined on a syntax error. */
function readModules(
  parse: HclParse,
  text: string,
  sources: TfSource[],
  diagnostics: Diagnostic[],
  vars: TfVar[] = [],
  memo?: TfParseMemo,
): ModuleReader | undefined {
  const byFolder = new Map<string, ParsedFile[]>();
  const trees: Array<{ delete?(): void }> = [];
  const given = new Map<string, Node | undefined>();
  const numbers = new Map<number, number>();
  try {
    for (const s of sources) {
      if (isTfVarsJsonPath(s.path)) {
        const { error } = tfVarsJsonValues(text.slice(s.start, s.end), s.start, given);
        if (error !== undefined) jsonError(s, text.slice(s.start, s.end), error, diagnostics);
        continue;
      }
      const body = memoised(memo, s, text.slice(s.start, s.end), numbers, trees, (t, into) =>
        parseFile(parse, t, s, diagnostics, trees, into),
      );
      if (!body) continue;
      if (isTfVarsPath(s.path)) {
        tfVarsValues(body, s.start, given);
        continue;
      }
      const folder = folderOf(s.path);
      push(byFolder, folder, { source: s, body });
    }
    if (diagnostics.length) return undefined;
    const reader = new ModuleReader(byFolder, diagnostics, numbers);
    const cli = new Map(vars.map((v) => [v.name, v]));
    const root = folderOf(sources.find((s) => !isTfVarsPath(s.path))?.path ?? '');
    reader.read(root, '', '', given, 0, {
      typed: (name, at) => cliVarValue(parse, cli.get(name)!, at),
      typedNames: new Set(cli.keys()),
    });
    return reader;
  } finally {
    for (const t of trees) t.delete?.();
  }
}

function jsonError(s: TfSource, text: string, error: number, out: Diagnostic[]): void {
  const start = s.start + Math.min(error, Math.max(0, text.length - 1));
  out.push(
    diag('terraform-syntax', `JSON syntax error in ${s.path}; fix the file (terraform validate says more)`, { start, end: start + 1 }),
  );
}

/** The file's body, or undefined with the one error that says where its syntax breaks. */
function parseFile(
  parse: HclParse,
  text: string,
  s: TfSource,
  out: Diagnostic[],
  trees: Array<{ delete?(): void }>,
  numbers: Map<number, number>,
): HclSyntaxNode | undefined {
  if (isTfJsonPath(s.path)) {
    const { body, error } = jsonBody(parse, text);
    if (!body) jsonError(s, text, error ?? 0, out);
    return body;
  }
  const parsed = (t: string): HclSyntaxNode | undefined => {
    try {
      const tree = parse(t);
      if (tree) trees.push(tree);
      return tree?.rootNode;
    } catch {
      return undefined;
    }
  };
  let root = parsed(text);
  const zeroed = root?.hasError && !isTfVarsPath(s.path) ? zeroedExponents(root, text, s.start, numbers) : undefined;
  if (zeroed !== undefined) root = parsed(zeroed);
  const bad = !root ? undefined : firstError(root);
  if (!root || bad) {
    const start = s.start + Math.min(bad?.startIndex ?? 0, Math.max(0, text.trimEnd().length - 1));
    // The error's first line: an unclosed block's ERROR node runs to the end of the file.
    const lineEnd = text.indexOf('\n', start - s.start);
    const until = Math.min(s.start + (bad?.endIndex ?? 0), lineEnd < 0 ? s.end : s.start + lineEnd);
    const end = Math.min(s.end, Math.max(start + 1, until));
    const what = bad?.isMissing ? `'${bad.type}' is missing` : 'this is not valid HCL';
    out.push(
      diag('terraform-syntax', `HCL syntax error in ${s.path}: ${what}; fix the file (terraform validate says more)`, { start, end }),
    );
    return undefined;
  }
  return named(root).find((c) => c.type === 'body') ?? root;
}

function firstError(n: HclSyntaxNode): HclSyntaxNode | undefined {
  if (n.type === 'ERROR' || n.isMissing) return n;
  if (!n.hasError) return undefined;
  for (const c of named(n)) {
    const e = firstError(c);
    if (e) return e;
  }
  return n;
}

const blocksOf = (body: HclSyntaxNode) => named(body).filter((c) => c.type === 'block');
const attributesOf = (body: HclSyntaxNode | undefined) => (body ? named(body).filter((c) => c.type === 'attribute') : []);

/** What a module is called with beyond its inputs: values typed on the command line, provider configurations. */
interface ModuleCall {
  typed?: (name: string, at: { offset: number; length: number }) => Node;
  typedNames?: Set<string>;
  providers?: Providers;
}

class ModuleReader {
  readonly resources: PlanResource[] = [];
  /** Blocks whose `count` or `for_each` is known only at plan, read once without an instance key. */
  readonly unexpanded: PlanResource[] = [];
  readonly config = new Map<string, Node | undefined>();
  /** Modules whose resources are not read (a source not read here, a count unknown until plan): not in the total. */
  readonly missing: string[] = [];
  /** Instances expanded so far from count and for_each, against MAX_EXPANDED. */
  private expanded = 0;
  constructor(
    readonly folders: Map<string, ParsedFile[]>,
    readonly out: Diagnostic[],
    readonly numbers: ReadonlyMap<number, number> = new Map(),
  ) {}

  report(code: string, message: string, at: Span): void {
    this.out.push(diag(code, message, at));
  }

  /** A module: its variables (given or default), locals, resources and the modules it calls. */
  read(
    folder: string,
    address: string,
    configPrefix: string,
    inputs: Map<string, Node | undefined>,
    depth: number,
    call: ModuleCall = {},
  ): void {
    const { typed, typedNames = new Set<string>() } = call;
    // Override files (override.tf, *_override.tf) after the others, by name: merged into the blocks they name.
    const all = this.folders.get(folder) ?? [];
    const overrides = all.filter((f) => isOverridePath(f.source.path)).sort((a, b) => (a.source.path < b.source.path ? -1 : 1));
    const files = [...all.filter((f) => !isOverridePath(f.source.path)), ...overrides];
    const over = new Map<string, Part[][]>();
    for (const f of overrides)
      for (const b of blocksOf(f.body))
        if (nameOf(b) === 'resource') push(over, labelsOf(b).slice(0, 2).join('.'), partsOf(bodyOf(b), f.source.start));
    const scope: Scope = { vars: new Map(), locals: new Map(), base: 0, localBase: new Map(), numbers: this.numbers };
    const providers: Providers = new Map(call.providers);
    for (const f of files)
      for (const b of blocksOf(f.body)) {
        const kind = nameOf(b);
        if (kind === 'variable') {
          const name = labelsOf(b)[0];
          const def = attributesOf(bodyOf(b)).find((a) => nameOf(a) === 'default');
          const e = def && exprOf(def);
          const label = this.labelSpan(b, f.source.start);
          // An override of a variable's description or type keeps the value it had.
          if (isOverridePath(f.source.path) && !def) continue;
          if (typed && typedNames.has(name)) scope.vars.set(name, typed(name, { offset: label.start, length: label.end - label.start }));
          else scope.vars.set(name, inputs.has(name) ? inputs.get(name) : e && evaluate(e, { ...scope, base: f.source.start }));
        } else if (kind === 'locals')
          for (const a of attributesOf(bodyOf(b))) {
            const e = exprOf(a);
            if (!e) continue;
            scope.locals.set(nameOf(a), e);
            scope.localBase.set(nameOf(a), f.source.start);
          }
      }
    for (const f of files)
      for (const b of blocksOf(f.body))
        if (nameOf(b) === 'provider') readProviderBlock(b, { ...scope, base: f.source.start }, providers, isOverridePath(f.source.path));
    // Resources whose for_each is another resource's instances come after the others, which they read.
    const blocks = files.filter((f) => !isOverridePath(f.source.path)).flatMap((f) => blocksOf(f.body).map((b) => ({ b, f })));
    const later = (b: HclSyntaxNode) =>
      /^\s*for_each\s*=\s*(?!(?:var|local|module|data|each|count)\.)[a-z0-9_-]+\.[a-z0-9_-]+\s*$/im.test(bodyOf(b)?.text ?? '');
    for (const { b, f } of [...blocks.filter((x) => !later(x.b)), ...blocks.filter((x) => later(x.b))]) {
      const s = { ...scope, base: f.source.start };
      if (nameOf(b) === 'resource') this.resource(b, s, address, configPrefix, providers, over.get(labelsOf(b).slice(0, 2).join('.')));
      else if (nameOf(b) === 'module') this.module(b, s, folder, address, configPrefix, depth, providers);
    }
  }

  private labelSpan(b: HclSyntaxNode, base: number): Span {
    const labels = named(b)
      .slice(1)
      .filter((c) => c.type === 'string_lit' || c.type === 'identifier');
    const first = labels[0] ?? b;
    const last = labels[labels.length - 1] ?? b;
    return { start: base + first.startIndex, end: base + last.endIndex };
  }

  /** The instances of a `count` or `for_each`, or undefined (with why) when they are not read. */
  private instances(parts: Part[], scope: Scope, what: string, keysOf: KeysOf = () => undefined): Instance[] | undefined {
    const got = instancesOf(parts, scope, keysOf, MAX_EXPANDED - this.expanded);
    if (Array.isArray(got)) {
      this.expanded += got.length;
      return got;
    }
    this.report('terraform-unknown-value', `${what}'s ${got.why}`, {
      start: got.base + got.node.startIndex,
      end: got.base + got.node.endIndex,
    });
    return undefined;
  }

  private resource(
    b: HclSyntaxNode,
    scope: Scope,
    address: string,
    configPrefix: string,
    providers: Providers,
    overrides: Part[][] = [],
  ): void {
    const [type, name] = labelsOf(b);
    if (!type || !name) return;
    const body = bodyOf(b);
    const parts = overrides.reduce(overridden, partsOf(body, scope.base));
    const providerDefaults = providerOf(type, attributeIn(parts, 'provider')?.node, providers);
    const configAddress = `${configPrefix}${type}.${name}`;
    this.config.set(configAddress, body && expressions(parts, scope.base + body.startIndex));
    const keysOf = (ref: string) => {
      const of = this.resources.filter((r) => r.configAddress === `${configPrefix}${ref}` && r.address.startsWith(`${address}${ref}`));
      return of.length && of.every((r) => r.index !== undefined) ? of.map((r) => r.index!) : undefined;
    };
    const instances = this.instances(parts, scope, `${address}${type}.${name}`, keysOf);
    // A block whose instances are known only at plan still has a place, where a plan's instance of it is written.
    if (!instances)
      this.unexpanded.push({
        ...{ address: `${address}${type}.${name}`, configAddress, modulePrefix: configPrefix, type },
        ...{ values: body && this.values(parts, body, scope, `${address}${type}.${name}`), addressSpan: this.labelSpan(b, scope.base) },
      });
    for (const inst of instances ?? []) {
      const key = inst.index === undefined ? '' : typeof inst.index === 'number' ? `[${inst.index}]` : `[${JSON.stringify(inst.index)}]`;
      const s = { ...scope, ...inst };
      this.resources.push({
        address: `${address}${type}.${name}${key}`,
        configAddress,
        modulePrefix: configPrefix,
        type,
        index: inst.index,
        values: body && this.values(parts, body, s, `${address}${type}.${name}${key}`),
        addressSpan: this.labelSpan(b, scope.base),
        providerDefaults,
      });
    }
  }

  /** A block's body as a plan's `values`: attributes by name, nested blocks as lists. */
  private values(parts: Part[], body: HclSyntaxNode, place: Scope, owner: string): Node {
    const entries: Array<[string, Node, number]> = [];
    const blocks = new Map<string, { items: Node[]; at: number }>();
    for (const { node: c, base } of parts) {
      const scope = { ...place, base };
      const name = nameOf(c);
      if (META.has(name)) continue;
      if (c.type === 'attribute') {
        const v = exprOf(c) && evaluate(exprOf(c)!, scope);
        if (v) entries.push([name, v, scope.base + c.startIndex]);
      } else if (c.type === 'block' && name === 'dynamic')
        this.report(
          'terraform-unknown-value',
          `${owner}'s dynamic "${labelsOf(c)[0]}" blocks are ${UNKNOWN}`,
          this.labelSpan(c, scope.base),
        );
      else if (c.type === 'block') {
        const inner = bodyOf(c);
        const v = inner
          ? this.values(partsOf(inner, base), inner, scope, owner)
          : objectNode([], scope.base + c.startIndex, c.endIndex - c.startIndex);
        const list = blocks.get(name) ?? { items: [], at: scope.base + c.startIndex };
        list.items.push({ ...v, offset: scope.base + c.startIndex, length: c.endIndex - c.startIndex });
        blocks.set(name, list);
      }
    }
    for (const [name, { items, at }] of blocks) {
      const last = items[items.length - 1];
      entries.push([name, arrayNode(items, at, last.offset + last.length - at), at]);
    }
    return objectNode(entries, place.base + body.startIndex, body.endIndex - body.startIndex);
  }

  private module(
    b: HclSyntaxNode,
    scope: Scope,
    folder: string,
    address: string,
    configPrefix: string,
    depth: number,
    providers: Providers,
  ): void {
    const name = labelsOf(b)[0];
    const body = bodyOf(b);
    const attrs = attributesOf(body);
    const sourceAttr = attrs.find((a) => nameOf(a) === 'source');
    const source = sourceAttr && exprOf(sourceAttr) && evaluate(exprOf(sourceAttr)!, scope);
    const at = this.labelSpan(b, scope.base);
    const local = source?.type === 'string' && /^\.\.?\//.test(String(source.value));
    const target = local ? moduleFolder(folder, String(source!.value)) : undefined;
    if (!name || target === undefined || !this.folders.has(target) || depth >= MAX_DEPTH) {
      const why = !local
        ? 'only local sources (./path) are read here'
        : target === undefined
          ? `${String(source!.value)} is outside the root module, whose folder is all that is read`
          : depth >= MAX_DEPTH
            ? `modules are read ${MAX_DEPTH} calls deep`
            : `${String(source!.value)} has no .tf file`;
      this.report('terraform-unknown-value', `module.${name}'s resources are ${UNKNOWN} (${why})`, at);
      this.missing.push(`${address}module.${name}'s resources, not read`);
      return;
    }
    const instances = this.instances(partsOf(body, scope.base), scope, `module.${name}`);
    if (!instances) this.missing.push(`${address}module.${name}'s resources, unknown until plan`);
    for (const inst of instances ?? []) {
      const s = { ...scope, ...inst };
      const inputs = new Map<string, Node | undefined>();
      for (const a of attrs)
        if (!META.has(nameOf(a)) && nameOf(a) !== 'source' && nameOf(a) !== 'providers') inputs.set(nameOf(a), evaluate(exprOf(a)!, s));
      const key = inst.index === undefined ? '' : typeof inst.index === 'number' ? `[${inst.index}]` : `[${JSON.stringify(inst.index)}]`;
      this.read(target, `${address}module.${name}${key}.`, `${configPrefix}module.${name}.`, inputs, depth + 1, {
        providers: providersForCall(body, providers),
      });
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
