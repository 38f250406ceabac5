/** The output formats of `storage-perf lint`, one module each. */
import type { Formatter } from './context';
import { compact } from './compact';
import { github } from './github';
import { json } from './json';
import { junit } from './junit';
import { sarif } from './sarif';
import { stylish } from './stylish';

export const FORMATS: Record<string, { format: Formatter; machine: boolean }> = {
  stylish: { format: stylish, machine: false },
  compact: { format: compact, machine: false },
  json: { format: json, machine: true },
  sarif: { format: sarif, machine: true },
  github: { format: github, machine: false },
  junit: { format: junit, machine: true },
};
