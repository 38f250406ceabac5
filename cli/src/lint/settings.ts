/**
 * The settings the linter gives the server: what VS Code would send for the workspace (its
 * `.vscode/settings.json`, `storagePerf.*` keys), overridden by command-line flags.
 */
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { SETTING_KEYS, SETTINGS_SECTION, type Settings } from '../../../protocol/src/settings';
import { UsageError } from '../args';

/** `storagePerf.*` from a VS Code settings file (JSON with comments), whether written flat or nested. */
export function editorSettings(file: string): Settings {
  const errors: ParseError[] = [];
  const data = parseJsonc(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true }) as Record<string, unknown> | undefined;
  if (errors.length || !data || typeof data !== 'object') throw new UsageError(`cannot read the settings in ${file}: not valid JSON`);
  const nested = (data[SETTINGS_SECTION] ?? {}) as Record<string, unknown>;
  const out: Settings = {};
  for (const k of SETTING_KEYS) {
    const v = data[`${SETTINGS_SECTION}.${k}`] ?? nested[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

export function resolveSettings(cwd: string, flags: Settings, settingsFile?: string): Settings {
  const file = settingsFile ? resolve(cwd, settingsFile) : join(cwd, '.vscode', 'settings.json');
  if (settingsFile && !existsSync(file)) throw new UsageError(`cannot read ${settingsFile}: ENOENT`);
  const fromEditor = existsSync(file) ? editorSettings(file) : {};
  const s: Settings = { ...fromEditor };
  for (const k of SETTING_KEYS) if (flags[k] !== undefined) s[k] = flags[k];
  // The server runs with its own working directory: give it an absolute path, resolved as the editor would
  // (against the workspace folder).
  if (s.catalogPath && !isAbsolute(s.catalogPath)) s.catalogPath = resolve(cwd, s.catalogPath.replace(/^\$\{workspaceFolder\}[\\/]?/, ''));
  else if (s.catalogPath) s.catalogPath = s.catalogPath.replace(/^\$\{workspaceFolder\}/, cwd);
  return s;
}
