/**
 * The one writer (protocol/src/file-write.ts) on real files: links, read-only files, hard links, a file changed
 * between its reading and the rename, a name that would leave its folder, and a signal between the temporary
 * write and the rename (a child process held there by a named pipe, never by a sleep).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getAttributeSync, listAttributesSync, setAttributeSync } from '@napi-rs/xattr';
import { stampOf, writeAllInside, writeAtomic, WriteRefused } from '../../protocol/src/file-write';
import { xattrsKept } from '../../protocol/src/xattrs';

const dirs: string[] = [];
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'storage-perf-write-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const temps = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

describe('the writer', () => {
  it('refuses to write a user file through a symbolic link, and leaves the file it points to alone', () => {
    const d = folder();
    const other = join(d, 'other.yaml');
    writeFileSync(other, 'theirs\n');
    symlinkSync(other, join(d, 'a.perf.yaml'));
    assert.throws(
      () => writeAtomic(join(d, 'a.perf.yaml'), 'ours\n'),
      (e: Error) => e instanceof WriteRefused && /symbolic link/.test(e.message),
    );
    assert.equal(readFileSync(other, 'utf8'), 'theirs\n');
    assert.ok(lstatSync(join(d, 'a.perf.yaml')).isSymbolicLink());
    assert.deepEqual(temps(d), []);
  });

  it('replaces a link at a generated output’s name with the file, never writing what it points to', () => {
    const d = folder();
    const keys = join(d, 'authorized_keys');
    writeFileSync(keys, 'ssh-ed25519 AAAA\n');
    symlinkSync(keys, join(d, 'report.sarif'));
    writeAtomic(join(d, 'report.sarif'), '{}\n', { kind: 'generated' });
    assert.equal(readFileSync(keys, 'utf8'), 'ssh-ed25519 AAAA\n');
    assert.ok(lstatSync(join(d, 'report.sarif')).isFile());
    assert.equal(readFileSync(join(d, 'report.sarif'), 'utf8'), '{}\n');
  });

  it('refuses a read-only file unless forced, and keeps its mode when forced', () => {
    const d = folder();
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    chmodSync(f, 0o444);
    assert.throws(() => writeAtomic(f, 'new\n'), /read-only; not written \(--force replaces it\)/);
    assert.equal(readFileSync(f, 'utf8'), 'old\n');
    writeAtomic(f, 'new\n', { force: true });
    assert.equal(readFileSync(f, 'utf8'), 'new\n');
    assert.equal(statSync(f).mode & 0o777, 0o444);
  });

  it('keeps the mode, owner and group of a replaced file', () => {
    const d = folder();
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    chmodSync(f, 0o640);
    const before = statSync(f);
    writeAtomic(f, 'new\n');
    const now = statSync(f);
    assert.notEqual(now.ino, before.ino, 'replaced by a rename');
    assert.deepEqual([now.mode & 0o7777, now.uid, now.gid], [0o640, before.uid, before.gid]);
  });

  it('as root, hands the replaced file back to its owner and group, not to root', function () {
    if (process.getuid?.() !== 0) this.skip();
    const d = folder();
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    chownSync(f, 4321, 4322);
    writeAtomic(f, 'new\n');
    const st = statSync(f);
    assert.deepEqual([st.uid, st.gid, readFileSync(f, 'utf8')], [4321, 4322, 'new\n']);
  });

  it('keeps the extended attributes of a replaced file', function () {
    const d = folder();
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    try {
      setAttributeSync(f, 'user.origin', 'reviewed by ops');
      setAttributeSync(f, 'user.empty', '');
    } catch (e) {
      // A file system without user attributes (some tmpfs) has nothing to keep.
      if (/not supported|ENOTSUP|EOPNOTSUPP/i.test((e as Error).message)) this.skip();
      throw e;
    }
    assert.ok(xattrsKept(), 'the native module loads on this platform');
    const before = statSync(f);
    writeAtomic(f, 'new\n');
    assert.notEqual(statSync(f).ino, before.ino, 'replaced by a rename');
    assert.deepEqual(listAttributesSync(f).sort(), ['user.empty', 'user.origin']);
    assert.equal(String(getAttributeSync(f, 'user.origin')), 'reviewed by ops');
    assert.equal(readFileSync(f, 'utf8'), 'new\n');
  });

  it('refuses a hard-linked file unless forced, and then writes it in place, keeping the link', () => {
    const d = folder();
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    linkSync(f, join(d, 'b.perf.yaml'));
    assert.throws(() => writeAtomic(f, 'new\n'), /has 2 hard links; a rename would split them/);
    writeAtomic(f, 'new text\n', { force: true });
    assert.equal(readFileSync(join(d, 'b.perf.yaml'), 'utf8'), 'new text\n');
    assert.equal(statSync(f).nlink, 2);
  });

  it('refuses when the file changed on disk since it was read', () => {
    const d = folder();
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    const expect = stampOf(statSync(f));
    writeFileSync(f, 'saved meanwhile\n');
    assert.throws(() => writeAtomic(f, 'fixed\n', { expect }), /changed on disk since it was read/);
    assert.equal(readFileSync(f, 'utf8'), 'saved meanwhile\n');
    assert.deepEqual(temps(d), []);
  });

  it('never writes outside the folder it was given, and writes nothing when one name is bad', () => {
    const d = folder();
    const out = join(d, 'out');
    execFileSync('mkdir', [out]);
    assert.throws(
      () =>
        writeAllInside(out, [
          { name: 'ok.fio', text: 'x' },
          { name: '../escape.fio', text: 'y' },
        ]),
      /not a plain file name/,
    );
    assert.deepEqual(readdirSync(d).sort(), ['out']);
    assert.deepEqual(readdirSync(out), []);
  });

  it('leaves the old files when a temporary write fails, and says nothing was written', () => {
    const d = folder();
    writeFileSync(join(d, 'a.fio'), 'old a');
    writeFileSync(join(d, 'b.fio'), 'old b');
    // A name too long for the file system fails at its temporary file, after the first one was written.
    const long = `${'x'.repeat(250)}.fio`;
    assert.throws(
      () =>
        writeAllInside(d, [
          { name: 'a.fio', text: 'new a' },
          { name: long, text: 'z' },
          { name: 'b.fio', text: 'new b' },
        ]),
      /nothing written/,
    );
    assert.deepEqual([readFileSync(join(d, 'a.fio'), 'utf8'), readFileSync(join(d, 'b.fio'), 'utf8')], ['old a', 'old b']);
    assert.deepEqual(temps(d), []);
  });

  it('removes its temporary file when SIGTERM arrives between the temporary write and the rename', async function () {
    const d = folder();
    const fifo = join(d, 'pause');
    execFileSync('mkfifo', [fifo]);
    const f = join(d, 'a.perf.yaml');
    writeFileSync(f, 'old\n');
    const writer = resolve(__dirname, '../../protocol/src/file-write.js');
    const child = spawn(
      process.execPath,
      ['-e', `require(${JSON.stringify(writer)}).writeAtomic(${JSON.stringify(f)}, 'new\\n'); setInterval(() => {}, 1000)`],
      {
        env: { ...process.env, STORAGE_PERF_TEST_PAUSE_BEFORE_RENAME: fifo },
        stdio: 'inherit',
      },
    );
    // The child stays alive after the write, as the CLI and the server do: the signal must still end it.
    const exited = new Promise<NodeJS.Signals | null>((res) => child.on('exit', (_code, signal) => res(signal)));
    // Opening the pipe for writing returns once the child opened it for reading: the temporary file is written.
    const pipe = await open(fifo, 'w');
    assert.equal(temps(d).length, 1, 'the child waits between the temporary write and the rename');
    child.kill('SIGTERM');
    await pipe.close();
    assert.equal(await exited, 'SIGTERM', 'the signal still ends the process');
    assert.deepEqual(temps(d), []);
    assert.ok(['old\n', 'new\n'].includes(readFileSync(f, 'utf8')), 'the file holds one text or the other');
  });
});
