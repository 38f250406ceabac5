/** User catalogs: JSON files in the catalog format, validated before use. */
import { readFileSync } from 'node:fs';
import { CatalogRegistry, parseCatalogText } from '../../core/src';
import { UsageError } from './args';

export function loadRegistry(paths: string[]): CatalogRegistry {
  const registry = new CatalogRegistry();
  for (const p of paths) {
    let text: string;
    try {
      text = readFileSync(p, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot load catalog ${p}: ${(e as Error).message}`);
    }
    const { catalog, problems } = parseCatalogText(text);
    // file:line:column first, so terminals and CI annotations jump to the offending value.
    if (!catalog)
      throw new UsageError(
        `catalog ${p} is invalid:\n${problems.map((x) => `  ${p}:${x.line}:${x.column}: ${x.path ? `${x.path}: ` : ''}${x.message}`).join('\n')}`,
      );
    registry.add(catalog);
  }
  return registry;
}
