#!/usr/bin/env node
// Packs the storage-perf command for use outside a clone: the CLI and the language server bundled by esbuild
// (catalogs and schemas inlined, no dependencies to install), docs/lint.md for the servers' help links, and a
// package.json with both commands as bins. Writes storage-perf-cli-<version>.tgz (npm pack) into OUT_DIR.
//
//   node scripts/pack-cli.mjs [OUT_DIR]        default: the repository root
//   npm install -g ./storage-perf-cli-0.1.0.tgz && storage-perf lint specs/
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? root);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const stage = mkdtempSync(join(tmpdir(), 'storage-perf-cli-'));
try {
  await bundleCli(join(stage, 'dist'), { codeCache: false });
  mkdirSync(join(stage, 'bin'));
  mkdirSync(join(stage, 'docs'));
  copyFileSync(join(root, 'docs/lint.md'), join(stage, 'docs/lint.md'));
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  const bin = (name, body) => {
    writeFileSync(join(stage, 'bin', name), `#!/usr/bin/env node\n'use strict';\n${body}\n`);
    chmodSync(join(stage, 'bin', name), 0o755);
  };
  bin(
    'storage-perf.js',
    "for (const s of [process.stdout, process.stderr]) s.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });\n" +
      // lint's server starts while the CLI loads, as in a clone (cli/bin/storage-perf.js).
      "const args = process.argv.slice(2);\n" +
      "const server = args[0] === 'lint' && !args.some((a) => a === '-h' || a === '--help' || a.startsWith('--server-command'))\n" +
      "  ? require('node:child_process').spawn(process.execPath, [require('node:path').join(__dirname, '../dist/server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] })\n" +
      "  : undefined;\n" +
      "require('../dist/storage-perf.js').main(args, { server }).then((code) => {\n" +
      "  process.exitCode = code;\n" +
      "  if (server && server.exitCode === null && server.signalCode === null) server.kill();\n" +
      "});",
  );
  bin('storage-perf-language-server.js', "require('../dist/server.js').main();");
  writeFileSync(
    join(stage, 'package.json'),
    JSON.stringify(
      {
        name: 'storage-perf-cli',
        version: pkg.version,
        description: 'storage-perf: evaluate, lint, fio and compare for *.perf.yaml specs, and the language server.',
        license: pkg.license,
        engines: { node: pkg.engines?.node ?? '>=20' },
        bin: { 'storage-perf': 'bin/storage-perf.js', 'storage-perf-language-server': 'bin/storage-perf-language-server.js' },
        files: ['bin', 'dist', 'docs', 'LICENSE'],
      },
      null,
      2,
    ) + '\n',
  );
  const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`pack-cli: npm pack failed\n${r.stderr}`);
    process.exit(1);
  }
  process.stdout.write(join(out, r.stdout.trim().split('\n').pop()) + '\n');
} finally {
  rmSync(stage, { recursive: true, force: true });
}
