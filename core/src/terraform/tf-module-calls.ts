/**
 * The module calls of a root module whose source is not local (a registry address, a git URL), as written: each
 * call's key (the key `.terraform/modules/modules.json` records it by: `web`, `app.db`), its `source` and its
 * `version` constraint. The root module's calls and those of the local modules it calls, at any depth, are read;
 * a downloaded module's own calls are not (they are in its files, not in the configuration). `storage-perf diff
 * --base-ref` compares the calls of two revisions with it, to know which downloaded modules both read alike.
 */
import type { Diagnostic } from '../diagnostics';
import { evaluate, type HclParse, type HclSyntaxNode, type Scope } from './hcl-values';
import { attributeIn, blocksOf, bodyOf, exprOf, isOverridePath, labelsOf, nameOf, partsOf } from './tf-body';
import { folderOf, joinTfFiles, type TfFile } from './tf-files';
import { isLocalSource, moduleFolder } from './tf-module-sources';
import { parseFile, varsOf } from './tf-parse';

/** A call's `source` and `version` as written: a string value, or undefined where it is none (not a literal, not given). */
export interface ModuleCallSource {
  source?: string;
  version?: string;
}

/** Local modules are followed this deep, as the module reader does (./tf.ts). */
const MAX_DEPTH = 16;

const EMPTY: Scope = { vars: new Map(), locals: new Map(), base: 0, localBase: new Map() };

/** The string an attribute's expression is, written as a literal (Terraform takes no other `source` or `version`). */
function literal(body: HclSyntaxNode | undefined, name: string): string | undefined {
  const a = attributeIn(partsOf(body, 0), name);
  const e = a && exprOf(a.node);
  const v = e && evaluate(e, { ...EMPTY, functions: false });
  return v?.type === 'string' ? String(v.value) : undefined;
}

/**
 * The calls of other than local sources by key, or undefined where a file does not parse (its calls cannot be
 * known). The first file's folder is the root module's; an override file's `source` or `version` replaces the
 * original's, as Terraform merges them.
 */
export function remoteModuleCalls(parse: HclParse, files: TfFile[]): Map<string, ModuleCallSource> | undefined {
  const { text, sources } = joinTfFiles(files);
  const said: Diagnostic[] = [];
  const trees: Array<{ delete?(): void }> = [];
  try {
    const byFolder = new Map<string, Array<{ path: string; body: HclSyntaxNode }>>();
    for (const s of sources) {
      if (varsOf(s)) continue;
      const body = parseFile(parse, text.slice(s.start, s.end), s, said, trees, new Map());
      if (!body) return undefined;
      const list = byFolder.get(folderOf(s.path)) ?? [];
      list.push({ path: s.path, body });
      byFolder.set(folderOf(s.path), list);
    }
    const out = new Map<string, ModuleCallSource>();
    const read = (folder: string, keys: string[], callers: string[]): void => {
      const files = byFolder.get(folder) ?? [];
      // Override files last: what they set replaces what the others wrote.
      const ordered = [...files.filter((f) => !isOverridePath(f.path)), ...files.filter((f) => isOverridePath(f.path))];
      const calls = new Map<string, ModuleCallSource>();
      for (const f of ordered)
        for (const b of blocksOf(f.body).filter((x) => nameOf(x) === 'module')) {
          const name = labelsOf(b)[0];
          if (!name) continue;
          const over = isOverridePath(f.path) ? calls.get(name) : undefined;
          if (isOverridePath(f.path) && !over) continue;
          const body = bodyOf(b);
          const has = (attr: string) => !!attributeIn(partsOf(body, 0), attr);
          calls.set(name, {
            ...over,
            ...(!over || has('source') ? { source: literal(body, 'source') } : {}),
            ...(!over || has('version') ? { version: literal(body, 'version') } : {}),
          });
        }
      for (const [name, call] of calls) {
        const key = [...keys, name];
        if (call.source === undefined || !isLocalSource(call.source)) {
          out.set(key.join('.'), call);
          continue;
        }
        const target = moduleFolder(folder, call.source);
        if (key.length < MAX_DEPTH && !callers.includes(target)) read(target, key, [...callers, folder]);
      }
    };
    read(folderOf(sources.find((s) => !varsOf(s))?.path ?? ''), [], []);
    return out;
  } finally {
    for (const t of trees) t.delete?.();
  }
}
