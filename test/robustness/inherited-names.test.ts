/**
 * Names every JavaScript object inherits (`constructor`, `__proto__`, `toString`, ...) written where a spec or a
 * Terraform file names a disk type, a machine, a series, a resource type: each reads as any other unknown name.
 * A lookup by such a name in an object read from JSON found what the object inherits; a disk of type
 * `constructor` made every analysis of its file fail, and `series: constructor` resolved to a machine with
 * figures (core/src/own-keys.ts).
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze, BUILTIN_CATALOGS, CatalogRegistry, fileReport, validateCatalog, type Analysis, type Catalog } from '../../core/src';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';

const ROOT = resolve(__dirname, '../../..');
const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
/** A name of the same shape that no table has (its first letter a q): what an inherited name must read as. */
const unknownLike = (name: string) => name.replace(/[a-z]/, 'q');

/** The codes of a file's findings, with how often each comes, as one comparable text. */
function codes(a: Analysis): string {
  const n = new Map<string, number>();
  for (const d of a.diagnostics) n.set(d.code, (n.get(d.code) ?? 0) + 1);
  return [...n].sort(([x], [y]) => x.localeCompare(y)).join(' ');
}

/** Each value of a `key: value` line (not a list or a mapping) of `text`, as the line and its key. */
function valueLines(text: string): Array<{ at: number; key: string; head: string }> {
  const out: Array<{ at: number; key: string; head: string }> = [];
  text.split('\n').forEach((line, at) => {
    const m = /^(\s*(?:-\s+)?([a-z_]+):\s*)([^#{[\s]\S*)\s*$/.exec(line);
    if (m) out.push({ at, key: m[2], head: m[1] });
  });
  return out;
}

describe('names every object inherits, written as values', () => {
  const examples = readdirSync(join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.perf.yaml'))
    .map((f) => ({ name: f, text: readFileSync(join(ROOT, 'examples', f), 'utf8') }));

  it('in a spec, each reads as an unknown name: the same findings, and no failure', () => {
    let compared = 0;
    for (const { name, text } of examples) {
      const lines = text.split('\n');
      for (const { at, key, head } of valueLines(text)) {
        const as = (value: string) => lines.map((l, i) => (i === at ? head + value : l)).join('\n');
        for (const inherited of INHERITED) {
          const expected = codes(analyze(as(unknownLike(inherited)), { allFindings: true }));
          const a = analyze(as(inherited), { allFindings: true });
          assert.equal(codes(a), expected, `${name}:${at + 1} ${key}: ${inherited}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 400, `${compared} values`);
  });

  it('a VM, disk or workload so named (every reference to it too) has the report any other name gives it', () => {
    let compared = 0;
    for (const { name, text } of examples) {
      const names = new Set([...text.matchAll(/name: ([A-Za-z0-9][\w.-]*)/g)].map((m) => m[1]));
      for (const n of names) {
        // The name wherever it stands as a value of its own (`name: data`, `disk: data`, `[data, logs]`).
        const at = new RegExp(`(?<=[\\s:,[{])${n.replace(/\./g, '\\.')}(?=[\\s,\\]}]|$)`, 'gm');
        for (const inherited of ['constructor', 'toString', 'hasOwnProperty']) {
          const other = unknownLike(inherited);
          const report = (as: string) =>
            JSON.stringify(fileReport('a.perf.yaml', analyze(text.replace(at, as), { allFindings: true })))
              .split(as)
              .join('<name>');
          assert.equal(report(inherited), report(other), `${name}: '${n}' named ${inherited}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 60, `${compared} names`);
  });

  it('a machine found by such a series or type, or a disk of such a type, has no figures', () => {
    const spec = [
      'version: 1',
      'provider: gcp',
      'vms:',
      '  - {name: a, series: constructor, vcpus: 8, disks: [{name: d, type: pd-ssd, size: 100GiB}]}',
      '  - {name: b, machine_type: toString, disks: [{name: d, type: pd-ssd, size: 100GiB}]}',
      '  - {name: c, machine_type: n2-standard-8, disks: [{name: d, type: constructor, size: 100GiB}]}',
      '',
    ].join('\n');
    const a = analyze(spec);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['unknown-series', 'unknown-machine-type', 'unknown-disk-type'],
    );
    const [x, y, z] = a.vms;
    assert.ok(x.unavailable && y.unavailable, 'the machines are unknown');
    assert.equal(z.disks.length, 0, 'the disk of an unknown type has no figures');
  });

  it('in a Terraform module, each reads as an unknown name: resource types, disk types, machine types', async () => {
    await loadTfParser();
    let compared = 0;
    for (const file of ['public/main.tf', 'module/main.tf']) {
      const text = readFileSync(join(ROOT, 'test/fixtures/terraform', file), 'utf8');
      for (const m of text.matchAll(/"([a-z0-9_-]+)"/g)) {
        const as = (value: string) => text.slice(0, m.index) + `"${value}"` + text.slice(m.index + m[0].length);
        for (const inherited of INHERITED) {
          const expected = codes(runTf(as(unknownLike(inherited))).a);
          assert.equal(codes(runTf(as(inherited)).a), expected, `${file}: "${m[1]}" as "${inherited}"`);
          compared++;
        }
      }
    }
    assert.ok(compared > 100, `${compared} values`);
  });

  it("a catalog's records inherit nothing, a user's included: a source named constructor is not defined", () => {
    for (const c of BUILTIN_CATALOGS) {
      assert.equal(c.disk_types['constructor'], undefined, c.edition);
      assert.equal(c.machine_series['toString'], undefined, c.edition);
    }
    // A catalog as a host that embeds the core reads it: JSON.parse, whose objects inherit from Object.
    const text = readFileSync(join(ROOT, 'catalogs/gcp-2024.json'), 'utf8');
    const mine = validateCatalog(JSON.parse(text.replace('"edition": "gcp-2024"', '"edition": "mine"'))).catalog;
    assert.ok(mine);
    assert.equal(mine.disk_types['constructor'], undefined);
    // One made in memory and given to a registry, unvalidated.
    const registry = new CatalogRegistry();
    registry.add(JSON.parse(text.replace('"edition": "gcp-2024"', '"edition": "made"')) as Catalog);
    assert.equal(registry.get('made')!.machine_series['constructor'], undefined);
    const { catalog, problems } = validateCatalog(JSON.parse(text.replace(/"source": "[^"]+"/, '"source": "constructor"')));
    assert.equal(catalog, undefined);
    assert.ok(
      problems.some((p) => p.message === "source 'constructor' is not defined in sources"),
      problems.map((p) => p.message).join('; '),
    );
  });
});
