/**
 * `lint DIR` holds the specs it finds in DIR to the repository (or working directory) they are in: a link found
 * there that leads out of it is not read, and said, unless `--follow-links`; a link inside it is read. A file named
 * on the command line is read wherever it is.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { lint, tree, WARN } from '../fixtures/lint-cli';

describe('lint DIR: links found in the folder', function () {
  this.timeout(60000);
  let dir: string;
  let repo: string;
  let outside: string;
  before(() => {
    dir = realpathSync(tree({ 'outside/secret.perf.yaml': WARN, 'repo/specs/own.perf.yaml': WARN }));
    repo = join(dir, 'repo');
    outside = join(dir, 'outside/secret.perf.yaml');
    mkdirSync(join(repo, '.git'));
    symlinkSync(outside, join(repo, 'specs/out.perf.yaml'));
    symlinkSync(join(repo, 'specs/own.perf.yaml'), join(repo, 'specs/in.perf.yaml'));
  });

  it('a link out of the repository is refused with the reason, exit 2; a link inside it is linted', async () => {
    const r = await lint(['-f', 'compact', 'specs'], { cwd: repo });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`cannot read specs/out\\.perf\\.yaml: its real path ${outside.replace(/[.\\/]/g, '\\$&')} is outside .*--follow-links`),
    );
    assert.doesNotMatch(r.stdout, /^specs\/out\.perf\.yaml:/m, 'the file out of the repository was read');
    assert.match(r.stdout, /^specs\/in\.perf\.yaml:\d+:\d+: warning capped-by-vcpu/m);
    assert.match(r.stdout, /^specs\/own\.perf\.yaml:\d+:\d+: warning capped-by-vcpu/m);
  });

  it('--follow-links reads it; so does naming the file itself', async () => {
    const r = await lint(['-f', 'compact', '--follow-links', 'specs'], { cwd: repo });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^specs\/out\.perf\.yaml:\d+:\d+: warning capped-by-vcpu/m);
    const named = await lint(['-f', 'compact', 'specs/out.perf.yaml'], { cwd: repo });
    assert.equal(named.code, 0, named.stdout + named.stderr);
    assert.match(named.stdout, /warning capped-by-vcpu/);
  });
});
