/**
 * The settings the language server reads: what VS Code sends from its `storagePerf` configuration section,
 * what the linter reads from `.vscode/settings.json` and its flags, and what the server keeps. One shape for
 * all three, so that a new setting cannot be forgotten by one of them.
 */

/** The configuration section, in workspace/configuration requests and in VS Code's settings. */
export const SETTINGS_SECTION = 'storagePerf';

export interface Settings {
  /** Edition used when a spec names none. */
  catalog?: string;
  /** Region used for prices when a spec names none. */
  region?: string;
  /** A user catalog file (JSON in the catalog format). */
  catalogPath?: string;
}

/** Every key of Settings, for code that copies them one by one. */
export const SETTING_KEYS: ReadonlyArray<keyof Settings> = ['catalog', 'region', 'catalogPath'];
