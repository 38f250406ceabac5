#!/usr/bin/env node
// docs/diff-example.md: the pull-request comment `storage-perf diff --format markdown` writes for the worked
// example of docs/diff.md (docs/diff/base.perf.yaml → docs/diff/head.perf.yaml), as the command prints it.
// test/cli/diff-markdown.test.ts checks that it is current and that it renders as it should.
//
//   node scripts/write-diff-example.mjs           rewrites it
//   node scripts/write-diff-example.mjs --check   exits 1 when it is not what the command prints
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ARGS = ['diff', 'docs/diff/base.perf.yaml', 'docs/diff/head.perf.yaml', '--format', 'markdown'];
const r = spawnSync(process.execPath, [join(root, 'cli/bin/storage-perf.js'), ...ARGS], { cwd: root, encoding: 'utf8' });
if (r.error) throw r.error;
// Exit 1 is the example's point: the change misses a target.
if (r.status !== 0 && r.status !== 1) {
  process.stderr.write(r.stderr);
  process.exit(2);
}
const path = join(root, 'docs/diff-example.md');
if (process.argv.includes('--check')) {
  if (readFileSync(path, 'utf8') !== r.stdout) {
    process.stderr.write('docs/diff-example.md is not what storage-perf diff prints: run node scripts/write-diff-example.mjs\n');
    process.exit(1);
  }
} else writeFileSync(path, r.stdout);
