/** cli/bin/load-bundle.js: a bundle loaded with the code cache the build writes beside it, or without one. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const LOADER = resolve(__dirname, '../../../cli/bin/load-bundle.js');

/** Runs `code` in a Node process of its own with the loader as `L`; gives what it prints. */
function node(code: string): string {
  const r = spawnSync(process.execPath, ['-e', `const L = require(${JSON.stringify(LOADER)}); ${code}`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

describe('loading a bundle with its code cache', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-perf-bundle-'));
    file = join(dir, 'b.js');
    // A bundle's shape: strict mode, its own exports, require of a built-in, its own folder.
    writeFileSync(
      file,
      `"use strict";\nconst { basename } = require('node:path');\nmodule.exports = { where: basename(__dirname), twice: (x) => 2 * x, main: require.main === module };\n`,
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const expected = (where: string) => JSON.stringify({ where, twice: 42, main: false });
  const load = () => node(`const b = L.loadBundle(${JSON.stringify(file)}); console.log(JSON.stringify({ ...b, twice: b.twice(21) }));`);

  it('with the cache the build wrote, the bundle runs as required, and V8 accepts the cache', () => {
    node(`L.writeCodeCache(${JSON.stringify(file)})`);
    assert.equal(load(), expected(join(dir).split('/').pop()!));
    const accepted = node(
      `const fs = require('node:fs'); const { Script } = require('node:vm');` +
        `const src = '(function (exports, require, module, __filename, __dirname) { ' + fs.readFileSync(${JSON.stringify(file)}, 'utf8') + '\\n});';` +
        `console.log(!new Script(src, { filename: ${JSON.stringify(file)}, cachedData: fs.readFileSync(${JSON.stringify(file)} + '.cache') }).cachedDataRejected)`,
    );
    assert.equal(accepted, 'true');
  });

  it('a cache of another text (a bundle rebuilt since) is rejected by V8 and the bundle still runs', () => {
    node(`L.writeCodeCache(${JSON.stringify(file)})`);
    writeFileSync(file, `"use strict";\nmodule.exports = { where: 'rebuilt', twice: (x) => 2 * x, main: require.main === module };\n`);
    assert.equal(load(), expected('rebuilt'));
  });

  it('without a cache, the bundle is required as usual', () => {
    assert.equal(load(), expected(join(dir).split('/').pop()!));
  });
});
