/**
 * The settings the linter gives the server: what VS Code would send for the workspace (its
 * `.vscode/settings.json`, `storagePerf.*` keys), overridden by command-line flags. The repository's own settings
 * file found by default does not give `catalogPath`: in CI that file comes with the pull request, which would pick
 * the catalog (VS Code withholds the setting in an untrusted workspace alike). `--settings FILE` takes it.
 */
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { SETTING_KEYS, SETTINGS_SECTION, type Settings } from '../../../protocol/src/settings';
import { UsageError } from '../args';
import { ioReason, readBounded } from '../../../protocol/src/file-io';

/** The largest settings file read: VS Code's own are a few kilobytes. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** `storagePerf.*` from a VS Code settings file (JSON with comments), whether written flat or nested. */
export function editorSettings(file: string): Settings {
  const errors: ParseError[] = [];
  let text: string;
  try {
    text = readBounded(file, { maxBytes: MAX_SETTINGS_BYTES });
  } catch (e) {
    throw new UsageError(`cannot read the settings in ${file}: ${ioReason(e)}`);
  }
  const data = parseJsonc(text, errors, { allowTrailingComma: true }) as Record<string, unknown> | undefined;
  if (errors.length || !data || typeof data !== 'object') throw new UsageError(`cannot read the settings in ${file}: not valid JSON`);
  const nested = (data[SETTINGS_SECTION] ?? {}) as Record<string, unknown>;
  const out: Settings = {};
  for (const k of SETTING_KEYS) {
    const v = data[`${SETTINGS_SECTION}.${k}`] ?? nested[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

/**
 * The settings: `settingsFile` (`--settings`) whole, else the working directory's `.vscode/settings.json` without
 * its `catalogPath` (`note` says it was ignored), then the flags.
 */
export function resolveSettings(cwd: string, flags: Settings, settingsFile?: string, note: (text: string) => void = () => {}): Settings {
  const file = settingsFile ? resolve(cwd, settingsFile) : join(cwd, '.vscode', 'settings.json');
  if (settingsFile && !existsSync(file)) throw new UsageError(`cannot read ${settingsFile}: ENOENT`);
  const fromEditor = existsSync(file) ? editorSettings(file) : {};
  if (!settingsFile && fromEditor.catalogPath !== undefined) {
    if (flags.catalogPath === undefined)
      note(
        `the catalogPath of .vscode/settings.json (${JSON.stringify(fromEditor.catalogPath)}) is ignored: a repository's settings do not pick the catalog; to use it, pass --settings .vscode/settings.json or --catalog-file`,
      );
    delete fromEditor.catalogPath;
  }
  const s: Settings = { ...fromEditor };
  for (const k of SETTING_KEYS) if (flags[k] !== undefined) s[k] = flags[k];
  // The server runs with its own working directory: give it an absolute path, resolved as the editor would
  // (against the workspace folder).
  if (s.catalogPath && !isAbsolute(s.catalogPath)) s.catalogPath = resolve(cwd, s.catalogPath.replace(/^\$\{workspaceFolder\}[\\/]?/, ''));
  else if (s.catalogPath) s.catalogPath = s.catalogPath.replace(/^\$\{workspaceFolder\}/, cwd);
  return s;
}
