/** What every output format is given besides the result. Its own module: the formats import it, and index.ts imports the formats. */
import type { LintResult } from '../types';

export interface FormatContext {
  cwd: string;
  /** ANSI colours (stylish only). */
  color: boolean;
  version: string;
  /** Absolute URI of the storage-perf docs/ folder, for SARIF help URIs. */
  docsBaseUri?: string;
  fixMode?: 'fix' | 'dry-run';
  /** The catalogs not built in that the run used (`--catalog-file`, or `--settings`' catalogPath): path and edition. */
  catalogFiles?: Array<{ path: string; edition: string }>;
}

export type Formatter = (result: LintResult, ctx: FormatContext) => string;
