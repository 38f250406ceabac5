#!/usr/bin/env node
// Writes what the commands print for every shipped example and fuzz-corpus spec into one folder, so that a
// refactoring can be checked for unchanged behaviour:
//
//   node scripts/snapshot-outputs.mjs /tmp/before     # on the old commit (after `npm run build`)
//   node scripts/snapshot-outputs.mjs /tmp/after      # on the new one
//   diff -r /tmp/before /tmp/after                    # nothing, unless a difference is intended
//
// Per spec: `evaluate --format json`, `evaluate --format table`, `lint --format json` (through the language
// server, as CI runs it) and the preferred fixes as `lint --fix-dry-run` prints them, with each exit code.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node scripts/snapshot-outputs.mjs OUT_DIR\n');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const cli = join('cli', 'bin', 'storage-perf.js');
const inputs = [
  ...readdirSync('examples').filter((f) => /\.ya?ml$/.test(f)).map((f) => join('examples', f)),
  ...readdirSync(join('test', 'fuzz-corpus')).filter((f) => /\.ya?ml$/.test(f)).map((f) => join('test', 'fuzz-corpus', f)),
];
const runs = [
  ['evaluate.json', ['evaluate', '--format', 'json']],
  ['evaluate.txt', ['evaluate', '--format', 'table']],
  ['lint.json', ['lint', '--format', 'json']],
  ['fix.diff', ['lint', '--fix-dry-run', '--format', 'compact']],
];
for (const input of inputs) {
  for (const [suffix, args] of runs) {
    const r = spawnSync(process.execPath, [cli, ...args, input], { encoding: 'utf8' });
    writeFileSync(join(out, `${basename(input)}.${suffix}`), `exit ${r.status}\n${r.stdout}${r.stderr ? `--- stderr\n${r.stderr}` : ''}`);
  }
}
// Every diagnostic with all of its fixes, straight from the core (lint prints only the preferred ones).
const core = createRequire(import.meta.url)(join(process.cwd(), 'out', 'core', 'src', 'index.js'));
for (const input of inputs) {
  const a = core.analyze(readFileSync(input, 'utf8'));
  const rows = a.diagnostics.map((d) => ({ code: d.code, span: d.span, message: d.message, fixes: core.fixesOf ? core.fixesOf(a, d) : d.fixes }));
  writeFileSync(join(out, `${basename(input)}.fixes.json`), JSON.stringify(rows, null, 1) + '\n');
}
process.stdout.write(`${inputs.length} specs, ${inputs.length * (runs.length + 1)} outputs in ${out}\n`);
