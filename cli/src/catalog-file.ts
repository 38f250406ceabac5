/** User catalogs: JSON files in the catalog format, validated before use. */
import { CatalogRegistry, parseCatalogText } from '../../core/src';
import { MAX_CATALOG_BYTES, readRegularFile } from '../../protocol/src/file-io';
import { UsageError } from './args';

/** A catalog that is not built in: the file it was read from and the edition it holds. */
export interface CatalogFile {
  path: string;
  edition: string;
}

/** The catalogs `loadRegistry` read from files into a registry, for the reports to name them. */
const FROM_FILES = new WeakMap<CatalogRegistry, CatalogFile[]>();

export function catalogFilesOf(registry: CatalogRegistry): CatalogFile[] {
  return FROM_FILES.get(registry) ?? [];
}

export function loadRegistry(paths: string[]): CatalogRegistry {
  const registry = new CatalogRegistry();
  const files: CatalogFile[] = [];
  FROM_FILES.set(registry, files);
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
    files.push({ path: p, edition: catalog.edition });
  }
  return registry;
}
