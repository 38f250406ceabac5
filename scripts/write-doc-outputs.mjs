#!/usr/bin/env node
// The outputs the README and docs/ show, written from a run of the commands they name, so that what a reader
// sees is what the command prints. A block to keep current is a fenced block right after a marker line:
//
//   <!-- output of: npx storage-perf lint examples/ -->            the whole output
//   <!-- output of: npx storage-perf evaluate plan.json | head 9 -->  its first 9 lines
//   <!-- contents of: examples/storage.perf.yaml -->                 a file of the repository, as it is
//
// The command runs from the repository root with the project's own executable (`npx storage-perf` is
// cli/bin/storage-perf.js after `npm ci`), stdout and stderr together as a terminal shows them.
//
//   node scripts/write-doc-outputs.mjs           rewrites the blocks
//   node scripts/write-doc-outputs.mjs --check   exits 1 naming each block that is not what its command prints
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(root, 'cli/bin/storage-perf.js');
const MARKER = /^<!-- output of: npx storage-perf (.+?)(?: \| head (\d+))? -->$/;
const FILE_MARKER = /^<!-- contents of: (\S+) -->$/;

/** What the command prints (no colours: not a terminal), trailing blank lines dropped. */
function run(args, head) {
  const r = spawnSync(process.execPath, [BIN, ...args.split(' ')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (r.error) throw r.error;
  let lines = (r.stdout + r.stderr).replace(/\s+$/, '').split('\n');
  if (head) lines = lines.slice(0, Number(head));
  return lines.join('\n');
}

/** The file with each marked block replaced by its command's output; the commands whose block differed. */
function rewrite(text) {
  const lines = text.split('\n');
  const stale = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]);
    const file = FILE_MARKER.exec(lines[i]);
    if (!m && !file) continue;
    const open = i + 1;
    if (!/^```/.test(lines[open] ?? '')) throw new Error(`line ${i + 1}: a fenced block must follow the marker`);
    let close = open + 1;
    while (close < lines.length && lines[close] !== '```') close++;
    const shown = lines.slice(open + 1, close).join('\n');
    const printed = m ? run(m[1], m[2]) : readFileSync(join(root, file[1]), 'utf8').replace(/\s+$/, '');
    if (shown !== printed) stale.push(m ? `npx storage-perf ${m[1]}` : file[1]);
    lines.splice(open + 1, close - open - 1, ...printed.split('\n'));
    i = open;
  }
  return { text: lines.join('\n'), stale };
}

const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const check = process.argv.includes('--check');
let failed = false;
for (const f of files) {
  const path = join(root, f);
  const before = readFileSync(path, 'utf8');
  if (!/<!-- (output|contents) of:/.test(before)) continue;
  const { text, stale } = rewrite(before);
  if (check) {
    for (const s of stale) process.stderr.write(`${f}: what is shown for '${s}' is not what it is now: run node scripts/write-doc-outputs.mjs\n`);
    failed ||= stale.length > 0;
  } else if (text !== before) writeFileSync(path, text);
}
process.exit(failed ? 1 : 0);
