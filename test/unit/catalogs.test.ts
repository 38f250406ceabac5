import * as assert from 'node:assert/strict';
import { BUILTIN_CATALOGS, validateCatalog } from '../../core/src';

/** Walks a catalog and yields every object that carries a `table` (a cited table). */
function* cited(node: unknown, path = ''): Generator<[string, Record<string, unknown>]> {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node) && 'table' in node) yield [path, node as Record<string, unknown>];
  for (const [k, v] of Object.entries(node)) yield* cited(v, `${path}/${k}`);
}

describe('catalog editions', () => {
  it('gcp-2020, gcp-2024, yandex-2025, aws-2023, aws-2025 and azure-2026 exist', () => {
    assert.deepEqual(BUILTIN_CATALOGS.map((c) => c.edition).sort(), [
      'aws-2023',
      'aws-2025',
      'azure-2026',
      'gcp-2020',
      'gcp-2024',
      'yandex-2025',
    ]);
  });
  for (const c of BUILTIN_CATALOGS) {
    it(`${c.edition} is valid against schemas/catalog.schema.json`, () => {
      assert.deepEqual(validateCatalog(c).problems, []);
    });
    it(`${c.edition}: every table names a defined source and a date`, () => {
      let n = 0;
      for (const [path, t] of cited(c)) {
        n++;
        assert.ok(typeof t.source === 'string' && t.source in c.sources, `${path}: source ${String(t.source)}`);
        assert.match(String(t.date), /^\d{4}/, `${path}: date`);
      }
      assert.ok(n >= 10, `only ${n} cited tables`);
    });
  }
  it('a catalog with a negative limit is rejected with the path to it', () => {
    const bad = JSON.parse(JSON.stringify(BUILTIN_CATALOGS[0]));
    bad.disk_types['pd-ssd'].disk_max.read_iops = -1;
    const { catalog, problems } = validateCatalog(bad);
    assert.equal(catalog, undefined);
    assert.ok(
      problems.some((p) => p.path.includes('/disk_types/pd-ssd/disk_max')),
      JSON.stringify(problems),
    );
  });
});
