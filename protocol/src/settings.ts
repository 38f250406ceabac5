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
  /** Terraform: `.tfvars` files (absolute paths) read after those beside a root module, in order (lint's --var-file). */
  terraformVarFiles?: string[];
  /** Terraform: root module variables' values as `NAME=VALUE`, after every file (lint's --var). */
  terraformVars?: string[];
  /**
   * Workload sidecars (absolute paths) linted in one run with the Terraform module they name: the module's lint
   * reports their VMs' and disks' own findings, so theirs are only what their workloads bring.
   */
  sidecarsWithModule?: string[];
  /**
   * Read files that content names (a sidecar's plan, a module's files) through links out of the repository or
   * workspace (lint's --follow-links). Off by default: such a read is refused with a finding.
   */
  followLinks?: boolean;
  /**
   * Terraform: the folder (absolute) that module sources are read in, in place of the repository or workspace
   * (lint's --root).
   */
  terraformRoot?: string;
}

/** Every key of Settings an editor's settings give (strings), for code that copies them one by one. */
export const SETTING_KEYS: ReadonlyArray<'catalog' | 'region' | 'catalogPath'> = ['catalog', 'region', 'catalogPath'];
