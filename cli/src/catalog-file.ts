/** User catalogs: JSON files in the catalog format, validated before use. */
import { readFileSync } from 'node:fs';
import { CatalogRegistry, validateCatalog } from '../../core/src';
import { UsageError } from './main';

export function loadRegistry(paths: string[]): CatalogRegistry {
  const registry = new CatalogRegistry();
  for (const p of paths) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(p, 'utf8'));
    } catch (e) {
      throw new UsageError(`cannot load catalog ${p}: ${(e as Error).message}`);
    }
    const { catalog, problems } = validateCatalog(data);
    if (!catalog) throw new UsageError(`catalog ${p} is invalid:\n${problems.map((x) => `  ${x.path}: ${x.message}`).join('\n')}`);
    registry.add(catalog);
  }
  return registry;
}
