#!/usr/bin/env node
// Writes the "Diagnostic codes" section of docs/lint.md from the check registry (core/src/checks), between its
// two marker comments. Run after `npm run build`; test/checks/registry.test.ts fails when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const { codeTableMarkdown, CODES_BEGIN, CODES_END } = createRequire(import.meta.url)(join(root, 'out', 'core', 'src', 'checks', 'docs.js'));
const path = join(root, 'docs', 'lint.md');
const text = readFileSync(path, 'utf8');
const start = text.indexOf(CODES_BEGIN);
const end = text.indexOf(CODES_END);
if (start < 0 || end < start) {
  process.stderr.write(`docs/lint.md has no generated code table (markers ${CODES_BEGIN} … ${CODES_END})\n`);
  process.exit(1);
}
writeFileSync(path, text.slice(0, start) + codeTableMarkdown() + text.slice(end + CODES_END.length));
process.stdout.write('docs/lint.md: diagnostic codes written\n');
