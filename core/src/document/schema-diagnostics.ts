/**
 * The JSON schema's verdict on a spec as diagnostics: ajv's errors grouped by the value they are about, the most
 * telling one kept per value (a composite anyOf/oneOf failure also fails its branches), and each written as a
 * message a person can act on, with quick fixes for unknown keys. Values the converter already reported on are
 * skipped.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import specSchema from '../../../schemas/storage-perf.schema.json';
import { diag } from '../checks/registry';
import type { Diagnostic } from '../diagnostics';
import type { Span } from '../text';
import * as compiled from './spec-validator.generated';
import { nearest, suggest } from './suggest';
import { escapePointer, keySpan, valueSpan, type YamlTree } from './yaml-tree';
import { withoutInheritance } from '../own-keys';

// Compiled ahead of time (scripts/write-spec-validator.mjs): compiling the schema costs more than validating a
// spec, which matters to a short-lived process. When the compiled code is not of this schema (the schema was
// changed and the script not run again), the schema is compiled here on first use, with the same options.
let validator: ValidateFunction | undefined;
function validate(): ValidateFunction {
  if (!validator) {
    if (compiled.SCHEMA_TEXT === JSON.stringify(specSchema)) validator = compiled.validate as ValidateFunction;
    else validator = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(specSchema as object);
  }
  return validator;
}

/** Which of several errors on one value to show: the one that says most plainly what to change. */
const KEYWORD_RANK: Record<string, number> = withoutInheritance({
  additionalProperties: 0,
  required: 1,
  const: 2,
  enum: 3,
  type: 4,
  pattern: 5,
  minimum: 6,
  maximum: 6,
  exclusiveMinimum: 6,
  exclusiveMaximum: 6,
  minItems: 7,
  minProperties: 7,
  anyOf: 9,
  oneOf: 9,
});

/** `v` is the spec's validator unless another schema built on it is given (the Terraform sidecar's). */
export function schemaDiagnostics(tree: YamlTree, reported: Set<string>, v: ValidateFunction = validate()): Diagnostic[] {
  // Read once: a parsed tree makes its plain value on each read (see YamlTree.value).
  const value = tree.value;
  if (v(value)) return [];
  const errors = (v.errors ?? []) as ErrorObject[];
  const out: Diagnostic[] = [];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    // additionalProperties / required are about a child key: give each its own path.
    let path = e.instancePath;
    if (e.keyword === 'additionalProperties') path += '/' + escapePointer(String(e.params.additionalProperty));
    if (e.keyword === 'required') path += '#' + String(e.params.missingProperty);
    const list = byPath.get(path) ?? [];
    list.push(e);
    byPath.set(path, list);
  }
  // A composite (anyOf/oneOf) failure also fails its branches; prefer a simple keyword at the same path.
  // A required key that an unknown key of the same object is a misspelling or synonym of is one mistake: the
  // unknown key's rename says it; "missing" would be a second diagnostic for it.
  const renamed = new Set(errors.filter((e) => e.keyword === 'additionalProperties').map((e) => `${e.instancePath}#${keyHint(e)}`));
  for (const [path, list] of byPath) {
    if (renamed.has(path)) continue;
    const basePath = path.split('#')[0];
    // Reported on the value or on one that holds it: each of its ancestors looked up (a scan of every reported
    // path for each error was quadratic in a file of many of both).
    if (reportedAtOrAbove(reported, basePath)) continue;
    list.sort((a, b) => (KEYWORD_RANK[a.keyword] ?? 8) - (KEYWORD_RANK[b.keyword] ?? 8));
    let e = list[0];
    // For "number or quantity string" values, the pattern error says more than "must be number".
    const pattern = list.find((x) => x.keyword === 'pattern');
    if (e.keyword === 'type' && pattern) e = pattern;
    // An enum left to a check that reads text (a disk type, see below) is not that check's when the value is
    // no text at all (`type:`, `type: [a]`): then the type error is the one finding.
    const typeError = list.find((x) => x.keyword === 'type');
    if (e.keyword === 'enum' && typeError && !isText(tree, basePath)) e = typeError;
    const d = errorToDiagnostic(tree, value, e, path);
    if (d) out.push(d);
  }
  return out;
}

function reportedAtOrAbove(reported: Set<string>, path: string): boolean {
  if (!reported.size) return false;
  for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) if (reported.has(path.slice(0, end))) return true;
  return false;
}

function errorToDiagnostic(tree: YamlTree, value: unknown, e: ErrorObject, path: string): Diagnostic | undefined {
  const where = e.instancePath;
  const label = where.split('/').pop() || 'spec';
  switch (e.keyword) {
    case 'additionalProperties':
      return unknownKey(tree, e, path);
    case 'required': {
      const missing = String(e.params.missingProperty);
      if (missing === 'machine_type' || missing === 'series' || missing === 'vcpus') return undefined; // the anyOf error says it better
      const span = keySpan(tree, where) ?? { start: 0, end: 0 };
      return diag('missing-key', `missing required key '${missing}' in ${describe(where)}`, firstLine(tree, where, span), { path: where });
    }
    case 'anyOf': {
      if (/\/vms\/\d+$/.test(where)) {
        return diag(
          'missing-machine',
          'a VM needs `machine_type`, or both `series` and `vcpus`',
          firstLine(tree, where, keySpan(tree, where) ?? { start: 0, end: 0 }),
          { path: where },
        );
      }
      break;
    }
    case 'const':
      if (where === '/version') return versionDiagnostic(tree, value, where);
      break;
    case 'enum':
      return enumDiagnostic(tree, value, e, where, label);
    case 'type': {
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      return diag('wrong-type', `${label} must be ${article(String(e.params.type))}`, span, { path: where });
    }
    case 'pattern': {
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      if (label === 'name' || label === 'disk')
        return diag(
          'invalid-value',
          `'${String(nodeAt(tree, where))}' is not a valid name: 1 to 63 ASCII letters, digits, '_', '.', '-', starting with a letter or digit`,
          span,
          { path: where },
        );
      return diag('bad-quantity', `'${String(nodeAt(tree, where))}' is not a valid ${label.replace(/_/g, ' ')}`, span, { path: where });
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const span = valueSpan(tree, where);
      if (!span) return undefined;
      return diag('out-of-range', `${label} ${e.message ?? 'is out of range'}`, span, { path: where });
    }
    case 'minItems':
    case 'minProperties': {
      const span = keySpan(tree, where) ?? valueSpan(tree, where);
      if (!span) return undefined;
      return diag('missing-key', `${label} must not be empty`, span, { path: where });
    }
  }
  const span = valueSpan(tree, where) ?? { start: 0, end: 0 };
  return diag('invalid-value', `${label}: ${e.message ?? 'invalid'}`, span, { path: where });
}

/** An unknown key, with the allowed key it was probably meant to be and the fixes that rename or remove it. */
function unknownKey(tree: YamlTree, e: ErrorObject, path: string): Diagnostic | undefined {
  const span = keySpan(tree, path);
  if (!span) return undefined;
  const key = String(e.params.additionalProperty);
  const allowed = allowedKeys(e);
  const hint = keyHint(e, allowed);
  // Renaming onto a key the mapping already has would only make a duplicate key. Removing a key is what a
  // user may choose, never what `lint --fix` does on its own (it would lose what they wrote), unless the
  // key only repeats, misspelt, the value the mapping already has under the right name.
  const existing = hint ? tree.nodes.get(`${path.slice(0, path.lastIndexOf('/'))}/${hint}`)?.value : undefined;
  const rename = hint && !existing;
  const own = tree.nodes.get(path)?.value;
  const repeats = existing?.kind === 'scalar' && own?.kind === 'scalar' && existing.text === own.text;
  return diag('unknown-key', `unknown key '${key}'${hint ? ` — did you mean '${hint}'?` : ''}`, span, {
    path,
    fixes: [
      ...(rename ? [{ kind: 'rename-key' as const, path, key: hint, title: `Rename '${key}' to '${hint}'`, preferred: true }] : []),
      { kind: 'remove-key' as const, path, title: `Remove unknown key '${key}'`, preferred: repeats },
    ],
  });
}

/** The allowed key an unknown one most likely means: a synonym, else the nearest spelling. */
function keyHint(e: ErrorObject, allowed = allowedKeys(e)): string | undefined {
  const key = String(e.params.additionalProperty);
  const synonym = SYNONYMS[key.toLowerCase()];
  return synonym && allowed.includes(synonym) ? synonym : suggest(key, allowed);
}

const KNOWN_PROVIDERS = new Set(['gcp', 'yandex', 'aws']);

/** Other names people give a key: other tools' (fio's bs, iodepth, rwmixread) and units used as names. */
const SYNONYMS: Record<string, string> = withoutInheritance({
  mibps: 'throughput',
  mbps: 'throughput',
  bandwidth: 'throughput',
  bw: 'throughput',
  read_mibps: 'read_throughput',
  read_bw: 'read_throughput',
  write_mibps: 'write_throughput',
  write_bw: 'write_throughput',
  bs: 'block_size',
  blocksize: 'block_size',
  iodepth: 'queue_depth',
  rwmixread: 'read_ratio',
});

/** `version: "1"` is the right version in the wrong type: say so, and offer the number. */
function versionDiagnostic(tree: YamlTree, value: unknown, where: string): Diagnostic | undefined {
  const span = valueSpan(tree, where);
  if (!span) return undefined;
  const v = (value as { version?: unknown } | undefined)?.version;
  if (typeof v === 'string' && v.trim() === '1')
    return diag('unsupported-version', `version is the number 1, not the text '${v}': remove the quotes`, span, {
      path: where,
      fixes: [{ kind: 'set-value', path: where, value: 1, title: 'Write version: 1', preferred: true }],
    });
  return diag('unsupported-version', 'only `version: 1` is supported', span, { path: where });
}

/** A value not among the schema's: with the near spelling as the preferred fix where one is near. */
function enumDiagnostic(tree: YamlTree, value: unknown, e: ErrorObject, where: string, label: string): Diagnostic | undefined {
  const allowed = (e.params.allowedValues as unknown[]).map(String);
  const span = valueSpan(tree, where);
  if (!span) return undefined;
  // The schema lists every provider's disk types; the catalog check names the spec's own provider's, with a
  // did-you-mean from them. Reported here only when no provider could be read.
  if (
    label === 'type' &&
    /^\/vms\/\d+\/disks\/\d+\/type$/.test(where) &&
    KNOWN_PROVIDERS.has(String((value as { provider?: unknown } | undefined)?.provider))
  )
    return undefined;
  const code = label === 'type' ? 'unknown-disk-type' : 'invalid-value';
  const written = String(nodeAt(tree, where));
  const near = written ? nearest(written, allowed) : [];
  if (near.length)
    return diag(code, `'${written}' is not a valid ${label}; did you mean ${near.join(' or ')}?`, span, {
      path: where,
      fixes: near.map((n) => ({ kind: 'set-value' as const, path: where, value: n, title: `Use ${n}`, preferred: near.length === 1 })),
    });
  return diag(code, `'${written}' is not a valid ${label}; use one of: ${allowed.join(', ')}`, span, { path: where });
}

/** A scalar the converter reads as text: a string, or a number it writes as one. */
function isText(tree: YamlTree, path: string): boolean {
  const n = tree.nodes.get(path)?.value;
  return n?.kind === 'scalar' && (typeof n.value === 'string' || typeof n.value === 'number');
}

function nodeAt(tree: YamlTree, path: string): unknown {
  const n = tree.nodes.get(path)?.value;
  return n && n.kind === 'scalar' ? n.text : '';
}

function firstLine(tree: YamlTree, path: string, fallback: Span): Span {
  // For a missing key, point at the key that holds the object, or at the object's first key (a list item).
  const n = tree.nodes.get(path);
  if (n?.key) return n.key;
  if (n?.value.kind === 'map' && n.value.entries.length) return n.value.entries[0].key;
  return fallback;
}

function describe(path: string): string {
  if (path === '') return 'the spec';
  const m = /^\/vms\/(\d+)(?:\/(disks|workloads)\/(\d+))?(?:\/target)?$/.exec(path);
  if (!m) return path;
  if (path.endsWith('/target')) return 'the target';
  if (m[2] === 'disks') return 'this disk';
  if (m[2] === 'workloads') return 'this workload';
  return 'this VM';
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

function allowedKeys(e: ErrorObject): string[] {
  const props = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}
