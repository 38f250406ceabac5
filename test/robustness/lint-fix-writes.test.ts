/**
 * `lint --fix` and `lint -o` through the one writer, run as a user runs them on real files: a link to another
 * project's file, a spec beside a link to it, a read-only file, bytes that are not UTF-8, a write that fails.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAttributeSync, setAttributeSync } from '@napi-rs/xattr';
import { lint, STUB_SERVERS, tree, type CliRun } from '../fixtures/lint-cli';

const ok = (r: CliRun, code: number) =>
  assert.equal(r.code, code, `exit ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);

/** One fixable finding: `count` has no effect on pd-ssd, and its fix removes the line. */
const FIXABLE = `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
    machine_type: n2-standard-16
    disks:
      - name: data
        type: pd-ssd
        size: 500GiB
        count: 2
`;
const FIXED = FIXABLE.replace('        count: 2\n', '');

describe('lint --fix and -o write through the one writer', function () {
  this.timeout(60000);

  it('refuses to fix a spec that links to another project’s file, and fixes a link to a spec it fixes once', async () => {
    const other = tree({ 'compose.perf.yaml': FIXABLE });
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    symlinkSync(join(dir, 'a.perf.yaml'), join(dir, 'b.perf.yaml'));
    symlinkSync(join(other, 'compose.perf.yaml'), join(dir, 'c.perf.yaml'));
    const r = await lint(['.', '--fix'], { cwd: dir });
    ok(r, 2);
    // A link out of the repository is not even read (the one reader holds a folder's specs to its root)...
    assert.match(
      r.stderr,
      /cannot read c\.perf\.yaml: its real path .* is outside .*; links out of it are followed only when asked \(--follow-links\)/,
    );
    assert.doesNotMatch(r.stderr, /changed on disk/, 'a spec and a link to it are one file, fixed once');
    assert.equal(readFileSync(join(other, 'compose.perf.yaml'), 'utf8'), FIXABLE, 'the other project’s file is untouched');
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), FIXED);
    assert.ok(lstatSync(join(dir, 'b.perf.yaml')).isSymbolicLink());
    assert.match(r.stdout, /fixed 1 file/);
    // ...and read when asked, it is still never written through.
    const followed = await lint(['c.perf.yaml', '--fix', '--follow-links'], { cwd: dir });
    ok(followed, 2);
    assert.match(
      followed.stderr,
      /cannot write the fixes to c\.perf\.yaml: c\.perf\.yaml is a symbolic link; storage-perf does not write through links/,
    );
    assert.equal(readFileSync(join(other, 'compose.perf.yaml'), 'utf8'), FIXABLE, 'the other project’s file is untouched');
  });

  it('refuses a read-only spec unless --force, saying it failed and showing the findings of the file on disk', async () => {
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    chmodSync(join(dir, 'a.perf.yaml'), 0o444);
    const r = await lint(['a.perf.yaml', '--fix'], { cwd: dir });
    ok(r, 2);
    assert.match(
      r.stderr,
      /cannot write the fixes to a\.perf\.yaml: a\.perf\.yaml is read-only; not written \(--force replaces it\); the file was left unchanged/,
    );
    assert.match(r.stdout, /not-applicable/, 'the finding of the text on disk is listed');
    assert.match(r.stdout, /fixed 0 files/);
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), FIXABLE);
    const forced = await lint(['a.perf.yaml', '--fix', '--force'], { cwd: dir });
    ok(forced, 0);
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), FIXED);
    assert.equal(lstatSync(join(dir, 'a.perf.yaml')).mode & 0o777, 0o444);
  });

  it('keeps a fixed spec’s extended attributes (the bundled command loads the native module)', async function () {
    const dir = tree({ 'a.perf.yaml': FIXABLE });
    try {
      setAttributeSync(join(dir, 'a.perf.yaml'), 'user.origin', 'reviewed');
    } catch (e) {
      if (/not supported|ENOTSUP|EOPNOTSUPP/i.test((e as Error).message)) this.skip();
      throw e;
    }
    const r = await lint(['a.perf.yaml', '--fix'], { cwd: dir });
    ok(r, 0);
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), FIXED);
    assert.equal(String(getAttributeSync(join(dir, 'a.perf.yaml'), 'user.origin')), 'reviewed');
  });

  it('leaves a file that is not UTF-8 untouched: --fix and --fix-dry-run exit 2 with the reason', async () => {
    const bytes = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n' + FIXABLE)]);
    const dir = tree({});
    writeFileSync(join(dir, 'a.perf.yaml'), bytes);
    const [fix, dry] = await Promise.all([
      lint(['a.perf.yaml', '--fix'], { cwd: dir }),
      lint(['a.perf.yaml', '--fix-dry-run'], { cwd: dir }),
    ]);
    for (const r of [fix, dry]) {
      ok(r, 2);
      assert.match(r.stderr, /a\.perf\.yaml is not valid UTF-8 \(byte 5\); fixes were not applied and the file was left unchanged/);
    }
    assert.deepEqual(readFileSync(join(dir, 'a.perf.yaml')), bytes);
  });

  it('-o replaces a link at the report’s name, never writing the file it points to', async () => {
    const dir = tree({ 'a.perf.yaml': FIXED, authorized_keys: 'ssh-ed25519 AAAA\n' });
    symlinkSync(join(dir, 'authorized_keys'), join(dir, 'out.sarif'));
    const r = await lint(['a.perf.yaml', '-f', 'sarif', '-o', 'out.sarif'], { cwd: dir });
    ok(r, 0);
    assert.equal(readFileSync(join(dir, 'authorized_keys'), 'utf8'), 'ssh-ed25519 AAAA\n');
    assert.ok(lstatSync(join(dir, 'out.sarif')).isFile());
    assert.match(readFileSync(join(dir, 'out.sarif'), 'utf8'), /"version": "2\.1\.0"/);
  });
  it('thousands of fixable findings of one code settle, though a file lists only some of them a round', async () => {
    // The stub lists 2 findings a round (storage-perf lists 100): 300 take 150 rounds, past the 25 + findings listed
    // that bounded rounds that make no progress.
    const text = 'x\n'.repeat(300);
    const dir = tree({ 'a.perf.yaml': text });
    const server = ['--server-command', JSON.stringify([process.execPath, join(STUB_SERVERS, 'fix-capped.js')])];
    const r = await lint(['a.perf.yaml', '--fix', ...server], { cwd: dir });
    ok(r, 0);
    assert.equal(readFileSync(join(dir, 'a.perf.yaml'), 'utf8'), 'o\n'.repeat(300));
    assert.match(r.stdout, /fixed 1 file/);
  });
});
