/**
 * The fuzzing model of the whole pipeline, shared by the short mocha run (test/robustness/fuzz.test.ts) and the
 * time-budgeted `npm run fuzz` (test/fuzz/run.ts): input generators (specs from the JSON schema, byte and token
 * mutations of the seed corpus, edit sequences) and the invariants every analysis must keep.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import specSchema from '../../schemas/storage-perf.schema.json';
import {
  analyze,
  applyEdits,
  builtinRegistry,
  complete,
  DIAGNOSTIC_CODES,
  EvaluationCache,
  fileReport,
  fixEdits,
  hover,
  inlayHints,
  limitValue,
  LineIndex,
  METRICS,
  symbols,
  vmLimitRow,
  type Analysis,
  type Catalog,
  knownFigure,
} from '../../core/src';

/** The seed corpus lives in the source tree (this file runs from out/). */
export const CORPUS_DIR = resolve(__dirname, '../../../test/fuzz-corpus');

export interface Seed {
  name: string;
  text: string;
}

export function loadCorpus(): Seed[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(CORPUS_DIR, f), 'utf8') }));
}

/** Edit sequences saved by the fuzzer (found-*.edits.json), each against a seed of the corpus. */
export function loadEditSequences(): Array<{ name: string; seed: Seed; edits: Edit[] }> {
  const seeds = loadCorpus();
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.edits.json'))
    .sort()
    .map((f) => {
      const data = JSON.parse(readFileSync(join(CORPUS_DIR, f), 'utf8')) as { seed: string; edits: Edit[] };
      const seed = seeds.find((s) => s.name === data.seed);
      if (!seed) throw new Error(`${f}: no seed ${data.seed} in the corpus`);
      return { name: f, seed, edits: data.edits };
    });
}

// ---- specs from the schema ------------------------------------------------------------------------------

type Schema = { [k: string]: unknown } & {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  minLength?: number;
};
const definitions = (specSchema as unknown as { definitions: Record<string, Schema> }).definitions;

const catalogs = builtinRegistry.editions().map((e) => builtinRegistry.get(e)!);
function machineNames(c: Catalog): string[] {
  const out: string[] = [];
  for (const [series, info] of Object.entries(c.machine_series)) {
    for (const [family, list] of Object.entries(info.families ?? {})) for (const v of list) out.push(`${series}-${family}-${v}`);
    out.push(...Object.keys(info.shapes ?? {}));
  }
  return out;
}

/** Values the schema alone would never produce but a catalog knows: they take the analysis past the parser. */
const HINTS: Record<string, fc.Arbitrary<unknown>> = {
  machine_type: fc.constantFrom(...new Set(catalogs.flatMap(machineNames)), 'n2-standard-7', 'x9-huge-1'),
  series: fc.constantFrom(...new Set(catalogs.flatMap((c) => Object.keys(c.machine_series))), 'nope'),
  vcpus: fc.constantFrom(1, 2, 4, 8, 16, 32, 64, 96, 3, 1024),
  catalog: fc.constantFrom(...builtinRegistry.editions(), 'gcp-1999'),
  region: fc.constantFrom(...new Set(catalogs.flatMap((c) => c.regions)), 'mars-north1'),
  name: fc.constantFrom('a', 'b', 'data', 'wal', 'db'),
  disk: fc.constantFrom('a', 'b', 'data', 'missing'),
  size: fc.oneof(fc.integer({ min: 1, max: 70000 }), fc.constantFrom('500GiB', '1TB', '2TiB', '10GB', '0.5TiB', '375GiB', '93GiB')),
};

/** Scalars that are wrong in some way: types, ranges, YAML's special floats, spellings. */
export const HOSTILE_SCALARS = [
  null,
  -1,
  0,
  // Numbers past the double range on purpose: YAML reads them as ±Infinity.
  1e400, // eslint-disable-line no-loss-of-precision
  -1e400, // eslint-disable-line no-loss-of-precision
  NaN,
  1e21,
  2 ** 53 + 1,
  0.1,
  '',
  ' ',
  '~',
  '.nan',
  '.inf',
  '-.inf',
  'NaN',
  'Infinity',
  '1e999',
  '0x10',
  '0o17',
  '1_000',
  '99999999999999999999999GiB',
  '-5GiB',
  '5 GiB',
  '5gib',
  'GiB',
  '\u00a0',
  'true',
  'yes',
  '[]',
  '{}',
  '*a',
  '&a',
  '<<',
  '#',
  'ü',
  '😀',
  // Names every object inherits: a lookup by one in an ordinary object finds Object's own (core/src/own-keys.ts).
  'constructor',
  '__proto__',
  'toString',
] as const;

function patternString(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return fc.constantFrom('/data', '/mnt/x'); // lookaheads are beyond fast-check's regex support
  }
}

function fromSchema(s: Schema, key?: string): fc.Arbitrary<unknown> {
  if (s.$ref) return fromSchema(definitions[s.$ref.split('/').pop()!], key);
  const hint = key !== undefined ? HINTS[key] : undefined;
  const valid = hint ?? plain(s);
  return fc.oneof({ weight: 19, arbitrary: valid }, { weight: 1, arbitrary: fc.constantFrom<unknown>(...HOSTILE_SCALARS) });
}

function plain(s: Schema): fc.Arbitrary<unknown> {
  if (s.oneOf) return fc.oneof(...s.oneOf.map((x) => fromSchema(x)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  switch (s.type) {
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) model[k] = fromSchema(v, k);
      // Required keys are dropped only now and then: a spec without them stops at the first check.
      const required = s.required ?? [];
      const drop = required.length ? fc.option(fc.constantFrom(...required), { freq: 20 }) : fc.constant(null);
      return fc
        .tuple(
          fc.record(model, { requiredKeys: required }),
          fc.option(fc.constantFrom('unknown_key', 'Name', 'disks '), { freq: 15 }),
          drop,
        )
        .map(([o, extra, dropped]) => {
          const out: Record<string, unknown> = extra ? { ...o, [extra]: 1 } : { ...o };
          if (dropped) delete out[dropped];
          return out;
        });
    }
    case 'array':
      return fc.array(fromSchema(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: 3 });
    case 'string':
      return s.pattern ? patternString(s.pattern) : fc.string({ minLength: s.minLength ?? 0, maxLength: 12 });
    case 'integer':
      return fc.integer({
        min: s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -10),
        max: Math.min(s.maximum ?? 1_000_000, 1_000_000),
      });
    case 'number':
      return fc.double({ min: s.minimum ?? s.exclusiveMinimum ?? 0, max: s.maximum ?? 1_000_000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constantFrom<unknown>(...HOSTILE_SCALARS);
  }
}

/** A spec object drawn from schemas/storage-perf.schema.json, mostly valid, sometimes not. */
export const specValue: fc.Arbitrary<unknown> = plain(specSchema as unknown as Schema);

/** A spec as YAML text, in block or flow style, LF or CRLF, with or without a BOM. */
export const generatedSpec: fc.Arbitrary<string> = fc
  .record({
    value: specValue,
    flowLevel: fc.constantFrom(-1, -1, 1, 2, 3),
    crlf: fc.boolean(),
    bom: fc.boolean(),
  })
  .map(({ value, flowLevel, crlf, bom }) => {
    let text = dump(value, { flowLevel, lineWidth: 200 });
    if (crlf) text = text.replace(/\n/g, '\r\n');
    return (bom ? '\uFEFF' : '') + text;
  });

// ---- mutations of the corpus ----------------------------------------------------------------------------

const HOSTILE_CHARS = [
  ':',
  ': ',
  '-',
  '- ',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '#',
  '&a ',
  '*a',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '|',
  '>',
  '!',
  '!!str ',
  '%',
  '@',
  '`',
  '?',
  '\uFEFF',
  '\u0000',
  '\uFFFD',
  '\u2028',
  '\u0085',
  '\uD800',
  '😀',
  'é',
  '---\n',
  '...\n',
  '<<: *a\n',
];

export type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'token'; at: number; text: string }
  | { kind: 'line'; op: 'dup' | 'drop' | 'swap' | 'indent' | 'dedent'; at: number; other: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...HOSTILE_CHARS), fc.string({ maxLength: 4, unit: 'binary' })),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    kind: fc.constant('token' as const),
    at: fc.nat(),
    text: fc.constantFrom(...HOSTILE_SCALARS.map((v) => (typeof v === 'number' ? String(v) : v === null ? 'null' : v))),
  }),
  fc.record({
    kind: fc.constant('line' as const),
    op: fc.constantFrom('dup' as const, 'drop' as const, 'swap' as const, 'indent' as const, 'dedent' as const),
    at: fc.nat(),
    other: fc.nat(),
  }),
);

export function mutate(text: string, m: Mutation): string {
  const at = text.length ? (m.kind === 'line' ? m.at : m.at % (text.length + 1)) : 0;
  switch (m.kind) {
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'token': {
      // Replace the plain token (run of non-space, non-indicator characters) around the offset.
      const re = /[^\s:#,[\]{}]+/g;
      let hit: RegExpExecArray | null;
      while ((hit = re.exec(text))) {
        if (hit.index + hit[0].length >= at) return text.slice(0, hit.index) + m.text + text.slice(hit.index + hit[0].length);
      }
      return text + m.text;
    }
    case 'line': {
      const lines = text.split('\n');
      const i = at % lines.length;
      const j = m.other % lines.length;
      if (m.op === 'dup') lines.splice(i, 0, lines[i]);
      else if (m.op === 'drop') lines.splice(i, 1);
      else if (m.op === 'swap') [lines[i], lines[j]] = [lines[j], lines[i]];
      else if (m.op === 'indent') lines[i] = '  ' + lines[i];
      else lines[i] = lines[i].replace(/^ {1,2}/, '');
      return lines.join('\n');
    }
  }
}

export function mutatedSpec(seeds: Seed[]): fc.Arbitrary<{ seed: string; text: string }> {
  return fc
    .record({ seed: fc.constantFrom(...seeds), mutations: fc.array(mutation, { minLength: 1, maxLength: 8 }) })
    .map(({ seed, mutations }) => ({ seed: seed.name, text: mutations.reduce(mutate, seed.text) }));
}

// ---- edit sequences -------------------------------------------------------------------------------------

/** One editor edit: replace [start, start+length) by text, offsets taken modulo the document length. */
export interface Edit {
  start: number;
  length: number;
  text: string;
}

export const edit: fc.Arbitrary<Edit> = fc.record({
  start: fc.nat(),
  length: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 200 })),
  text: fc.oneof(
    fc.constantFrom(...HOSTILE_CHARS, '', 'size: 1TiB\n', '      - name: x\n        type: pd-ssd\n', '0', '9'),
    fc.string({ maxLength: 6 }),
  ),
});

export function editSequence(seeds: Seed[]): fc.Arbitrary<{ seed: Seed; edits: Edit[] }> {
  return fc.record({ seed: fc.constantFrom(...seeds), edits: fc.array(edit, { minLength: 1, maxLength: 25 }) });
}

/** The offsets of an edit on a text, as an editor would send them. */
export function editRange(text: string, e: Edit): { start: number; end: number } {
  const start = text.length ? e.start % (text.length + 1) : 0;
  return { start, end: Math.min(text.length, start + e.length) };
}

// ---- invariants -----------------------------------------------------------------------------------------

/** What must hold for any text: nothing throws, every range lies inside the document, figures stay within caps. */
export function checkText(text: string, opts: { probes?: number[] } = {}): Analysis {
  const a = analyze(text);
  const doc = TextDocument.create('file:///fuzz.perf.yaml', 'storage-perf', 1, text);
  const idx = new LineIndex(text);
  for (const d of a.diagnostics) {
    assert.ok(DIAGNOSTIC_CODES[d.code], `unregistered code ${d.code}`);
    assert.ok(typeof d.message === 'string' && d.message.length > 0, `${d.code} without a message`);
    // Internal values leaking into a message: only a fault when the user did not write them.
    for (const leak of ['undefined', '[object Object]', 'e+,', 'NaN']) {
      if (d.message.includes(leak) && !(leak === 'NaN' ? /nan/i : new RegExp(leak.replace(/[[\]+]/g, '\\$&'))).test(text))
        assert.fail(`${d.code} message: ${d.message}`);
    }
    assertSpanInside(text, d.span, d.code);
    // The server converts spans with LineIndex, the editor reads them with its own line table: they must agree.
    const r = idx.range(d.span);
    assert.equal(
      doc.offsetAt(r.start),
      d.span.start,
      `${d.code} start ${d.span.start} → ${JSON.stringify(r.start)} reads back as ${doc.offsetAt(r.start)}`,
    );
    assert.equal(
      doc.offsetAt(r.end),
      d.span.end,
      `${d.code} end ${d.span.end} → ${JSON.stringify(r.end)} reads back as ${doc.offsetAt(r.end)}`,
    );
    for (const fix of d.fixes ?? []) checkFix(a, fix, d.code);
  }
  checkCaps(a);
  const report = JSON.stringify(fileReport('fuzz.perf.yaml', a));
  assert.ok(!/NaN|Infinity/.test(report.replace(/"(?:[^"\\]|\\.)*"/g, '""')), 'the JSON report holds no non-finite number');
  // Editor features at a few offsets: they run on every hover and keystroke.
  const probes = opts.probes ?? [0, text.length, text.length >> 1, (text.length / 3) | 0, text.indexOf(':'), text.lastIndexOf('-')];
  for (const p of probes) {
    const at = Math.max(0, Math.min(text.length, p));
    const h = hover(a, at);
    if (h) assertSpanInside(text, h.span, 'hover');
    for (const c of complete(text, at, a)) assertSpanInside(text, c.replace, 'completion');
  }
  const walk = (s: ReturnType<typeof symbols>): void => {
    for (const x of s) {
      assertSpanInside(text, x.span, 'symbol');
      assertSpanInside(text, x.selection, 'symbol selection');
      walk(x.children);
    }
  };
  walk(symbols(a));
  for (const h of inlayHints(a)) assert.ok(h.offset >= 0 && h.offset <= text.length, 'inlay hint offset');
  return a;
}

function assertSpanInside(text: string, s: { start: number; end: number }, what: string): void {
  assert.ok(
    Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start <= s.end && s.end <= text.length,
    `${what} span ${s.start}-${s.end} outside 0-${text.length}`,
  );
}

/** A quick fix edits inside the document, without overlapping edits, and never breaks YAML that parsed. */
function checkFix(a: Analysis, fix: NonNullable<Analysis['diagnostics'][number]['fixes']>[number], code: string): void {
  const text = a.parsed.text;
  const edits = fixEdits(text, a.parsed.tree, fix);
  const sorted = [...edits].sort((x, y) => x.start - y.start);
  sorted.forEach((e, i) => {
    assertSpanInside(text, e, `fix '${fix.title}' for ${code}`);
    if (i) assert.ok(sorted[i - 1].end <= e.start, `fix '${fix.title}' has overlapping edits`);
  });
  if (!edits.length) return;
  const after = applyEdits(text, edits);
  const syntaxBefore = a.diagnostics.some((d) => d.code.startsWith('yaml-'));
  const b = analyze(after);
  if (!syntaxBefore) {
    const broken = b.diagnostics.filter((d) => d.code === 'yaml-syntax' || d.code === 'yaml-duplicate-key');
    assert.deepEqual(
      broken.map((d) => d.message),
      [],
      `fix '${fix.title}' for ${code} breaks the YAML:\n${after}`,
    );
  }
}

/** Evaluation stays within the catalog's caps: finite, non-negative, at most the disk's and the VM's maximum. */
export function checkCaps(a: Analysis): void {
  const c = a.catalog;
  for (const vm of a.vms) {
    const m = vm.machine;
    for (const d of vm.disks) {
      for (const k of METRICS) {
        // A figure the provider does not give (instance store's throughput) is none, not a number to check.
        const v = knownFigure(d, k);
        if (v === undefined) continue;
        assert.ok(Number.isFinite(v) && v >= 0, `${d.spec.name} ${k} = ${v}`);
        if (d.type.model !== 'devices') {
          const cap = (d.type.disk_max as unknown as Record<string, unknown>)[k];
          if (typeof cap === 'number') assert.ok(v <= cap + 1e-6, `${d.typeName} ${k} ${v} > disk max ${cap}`);
          if (m && c) {
            const row = vmLimitRow(c, m, d.typeName);
            const vmCap = row ? limitValue(row.row[k], m.vcpus) : undefined;
            if (vmCap !== undefined) assert.ok(v <= vmCap + 1e-6, `${d.typeName} ${k} ${v} > VM cap ${vmCap} on ${m.name}`);
          }
        }
      }
      if (d.cost.monthly !== undefined)
        assert.ok(Number.isFinite(d.cost.monthly) && d.cost.monthly >= 0, `${d.spec.name} cost ${d.cost.monthly}`);
    }
    const total = vm.disks.reduce((s, d) => s + Math.max(d.figures.read_iops, d.figures.write_iops), 0);
    for (const w of vm.workloads) {
      for (const v of [w.read_iops, w.write_iops, w.read_mibps, w.write_mibps])
        assert.ok(Number.isFinite(v) && v >= 0, `workload ${w.spec.name}: ${v}`);
      assert.ok(w.read_iops + w.write_iops <= total + 1e-6, `workload ${w.spec.name} beats its disks`);
    }
  }
  if (a.monthly_cost !== undefined) assert.ok(Number.isFinite(a.monthly_cost) && a.monthly_cost >= 0);
}

/** The parts of an analysis an editor sees, for comparing an incremental session with a fresh analysis. */
export function visible(a: Analysis): unknown {
  return {
    diagnostics: a.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message, span: d.span, fixes: d.fixes })),
    vms: JSON.parse(
      JSON.stringify(
        a.vms.map((v) => ({
          disks: v.disks.map((d) => ({ figures: d.figures, cost: d.cost.monthly })),
          workloads: v.workloads.map((w) => [w.read_iops, w.write_iops, w.read_mibps, w.write_mibps]),
        })),
      ),
    ),
    cost: a.monthly_cost,
  };
}

/**
 * Replays edits as the server does (a TextDocument updated by ranges, one EvaluationCache across analyses) and
 * checks each step against a fresh analysis of the plain text.
 */
export function checkEditSequence(seed: Seed, edits: Edit[]): void {
  let text = seed.text;
  let doc = TextDocument.create('file:///fuzz.perf.yaml', 'storage-perf', 1, text);
  const cache = new EvaluationCache();
  analyze(text, { cache });
  edits.forEach((e, i) => {
    const { start, end } = editRange(text, e);
    doc = TextDocument.update(doc, [{ range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: e.text }], i + 2);
    text = text.slice(0, start) + e.text + text.slice(end);
    // positionAt clamps an offset inside a CRLF pair to the line end; the edit then lands one character early.
    if (doc.getText() !== text) text = doc.getText();
    const incremental = analyze(doc.getText(), { cache });
    assert.deepEqual(visible(incremental), visible(analyze(text)), `after edit ${i + 1} the cached analysis differs from a fresh one`);
  });
  checkText(text);
}
