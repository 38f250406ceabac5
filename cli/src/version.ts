/** The version of this installation: from the package.json above the compiled cli/src, or above a packed CLI's dist/. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function version(): string {
  try {
    // A packed CLI's dist/ first: above the source tree's out/ there may be another project's package.json.
    const file = [resolve(__dirname, '../package.json'), resolve(__dirname, '../../../package.json')].find((p) => existsSync(p))!;
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
