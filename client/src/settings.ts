/**
 * The settings the language server gets, from the `storagePerf` configuration section. Pure (no `vscode`
 * import), so the trust rule is tested with the rest of the project.
 */
import type { SETTING_KEYS, Settings } from '../../protocol/src/settings';

/**
 * A user catalog is a file the server reads and trusts: it is withheld while the workspace is not trusted,
 * whichever scope (user, workspace, folder) sets it — a cloned repository must not be able to point the
 * server at a file of its choosing before the user trusts it.
 */
export function serverSettings(
  section: Readonly<Record<string, unknown>>,
  trusted: boolean,
): Required<Pick<Settings, (typeof SETTING_KEYS)[number]>> {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    catalog: str(section.catalog),
    region: str(section.region),
    catalogPath: trusted ? str(section.catalogPath) : '',
  };
}
