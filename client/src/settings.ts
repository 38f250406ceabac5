/**
 * The settings the language server gets, from the `storagePerf` configuration section. Pure (no `vscode`
 * import), so the trust rule is tested with the rest of the project.
 */
import type { SETTING_KEYS, Settings } from '../../protocol/src/settings';

/**
 * A user catalog is a file the server reads and trusts: it is withheld while the workspace is not trusted,
 * whichever scope (user, workspace, folder) sets it — a cloned repository must not be able to point the
 * server at a file of its choosing before the user trusts it. So is `followLinks`: a cloned repository must not
 * be able to have its links out of it followed (to read a file of the user's through a module's link).
 */
export function serverSettings(
  section: Readonly<Record<string, unknown>>,
  trusted: boolean,
): Required<Pick<Settings, (typeof SETTING_KEYS)[number] | 'followLinks'>> {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    catalog: str(section.catalog),
    region: str(section.region),
    catalogPath: trusted ? str(section.catalogPath) : '',
    followLinks: trusted && section.followLinks === true,
  };
}
