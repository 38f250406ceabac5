/** The output formats of `storage-perf lint`, one module each. */
import type { LintResult } from '../types';
import { compact } from './compact';
import { github } from './github';
import { json } from './json';
import { junit } from './junit';
import { sarif } from './sarif';
import { stylish } from './stylish';

export interface FormatContext {
  cwd: string;
  /** ANSI colours (stylish only). */
  color: boolean;
  version: string;
  /** Absolute URI of the storage-perf docs/ folder, for SARIF help URIs. */
  docsBaseUri?: string;
  fixMode?: 'fix' | 'dry-run';
}

export type Formatter = (result: LintResult, ctx: FormatContext) => string;

export const FORMATS: Record<string, { format: Formatter; machine: boolean }> = {
  stylish: { format: stylish, machine: false },
  compact: { format: compact, machine: false },
  json: { format: json, machine: true },
  sarif: { format: sarif, machine: true },
  github: { format: github, machine: false },
  junit: { format: junit, machine: true },
};
