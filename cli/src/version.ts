/** The version of this installation, from its package.json (two folders above the compiled cli/src). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function version(): string {
  try {
    return (JSON.parse(readFileSync(resolve(__dirname, '../../../package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
