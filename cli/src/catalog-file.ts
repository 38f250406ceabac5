/** User catalogs: JSON files in the catalog format, validated before use. */
import { CatalogRegistry, parseCatalogText } from '../../core/src';
import { MAX_CATALOG_BYTES, readRegularFile } from '../../protocol/src/file-io';
import { UsageError } from './args';

export function loadRegistry(paths: string[]): CatalogRegistry {
  const registry = new CatalogRegistry();
  for (const p of paths) {
    let text: string;
    try {
      text = readRegularFile(p, MAX_CATALOG_BYTES);
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
