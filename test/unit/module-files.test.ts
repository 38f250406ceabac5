/**
 * The module-file cache (protocol/src/module-files.ts) as `inputForFile` uses it: a module's other files read once
 * and parsed once while the open file is edited, read again when `stat` says they changed or (when the client
 * watches) when the client says so; an editor's buffer wins over the disk, and nothing goes around the reader.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { ModuleFiles } from '../../protocol/src/module-files';
import { inputForFile } from '../../protocol/src/terraform-input';

const DISK = `resource "google_compute_disk" "data" {
  name = "data"
  type = "hyperdisk-balanced"
  size = 100
  zone = "us-central1-a"
}
`;
const vm = (machine: string) => `resource "google_compute_instance" "vm" {
  name         = "vm"
  machine_type = "${machine}"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
  attached_disk {
    source = google_compute_disk.data.id
  }
}
`;

/** The codes of the entry's own findings when its module is read through `cache`. */
function codes(main: string, text: string, cache: ModuleFiles): string[] {
  const input = inputForFile(main, text, { cache });
  return analyze(input.text, { frontEnd: input.frontEnd })
    .diagnostics.filter((d) => d.span.start < text.length)
    .map((d) => d.code);
}

describe('module-file cache', () => {
  let dir: string;
  let main: string;
  let sibling: string;
  before(async () => {
    await loadHclParser();
  });
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'storage-perf-module-files-')));
    main = join(dir, 'main.tf');
    sibling = join(dir, 'vm.tf');
    writeFileSync(main, DISK);
    writeFileSync(sibling, vm('n2-standard-8'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a second edit of the open file reads and parses the sibling file no more', () => {
    const cache = new ModuleFiles();
    assert.ok(codes(main, DISK, cache).includes('disk-type-not-on-series'));
    assert.deepEqual(cache.counts, { hits: 0, reads: 1, parseHits: 0, parses: 2 });
    const edited = DISK.replace('size = 100', 'size = 200');
    assert.ok(codes(main, edited, cache).includes('disk-type-not-on-series'));
    // The sibling: held (no read), its parse kept (a hit); only the edited file is parsed again.
    assert.deepEqual(cache.counts, { hits: 1, reads: 1, parseHits: 1, parses: 3 });
  });

  it('without watching, a change on disk is seen at the next use (size, modification time, inode)', () => {
    const cache = new ModuleFiles();
    assert.ok(codes(main, DISK, cache).includes('disk-type-not-on-series'));
    writeFileSync(sibling, vm('c3-standard-22'));
    assert.ok(!codes(main, DISK, cache).includes('disk-type-not-on-series'));
    assert.equal(cache.counts.reads, 2);
    // Replaced by a file of the same size (renamed over it, as editors save): another inode.
    const again = join(dir, 'vm.tf.new');
    writeFileSync(again, vm('n2-standard-16'));
    assert.equal(vm('n2-standard-16').length, vm('c3-standard-22').length);
    renameSync(again, sibling);
    assert.ok(codes(main, DISK, cache).includes('disk-type-not-on-series'));
    assert.equal(cache.counts.reads, 3);
  });

  it('watching: a file held is trusted until the client names it, and a deleted file drops out', () => {
    const cache = new ModuleFiles();
    cache.watch(dir);
    assert.ok(codes(main, DISK, cache).includes('disk-type-not-on-series'));
    writeFileSync(sibling, vm('c3-standard-22'));
    assert.ok(codes(main, DISK, cache).includes('disk-type-not-on-series'), 'not read again before the client says so');
    assert.equal(cache.counts.reads, 1);
    cache.changed(sibling);
    assert.ok(!codes(main, DISK, cache).includes('disk-type-not-on-series'));
    assert.equal(cache.counts.reads, 2);
    unlinkSync(sibling);
    cache.changed(sibling);
    const input = inputForFile(main, DISK, { cache });
    assert.equal(input.text, DISK, 'the module is the open file alone');
  });

  it("an editor's buffer wins over the disk, and the reader still holds the file to the root", () => {
    const cache = new ModuleFiles();
    cache.setBuffer(sibling, vm('c3-standard-22'));
    assert.ok(!codes(main, DISK, cache).includes('disk-type-not-on-series'));
    cache.dropBuffer(sibling);
    assert.ok(codes(main, DISK, cache).includes('disk-type-not-on-series'));
    // A module file linked out of the root is refused, buffer or not.
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'storage-perf-module-files-out-')));
    try {
      writeFileSync(join(outside, 'vm.tf'), vm('c3-standard-22'));
      unlinkSync(sibling);
      symlinkSync(join(outside, 'vm.tf'), sibling);
      writeFileSync(join(dir, '.git'), '');
      cache.setBuffer(sibling, vm('c3-standard-22'));
      const input = inputForFile(main, DISK, { cache });
      const refused = analyze(input.text, { frontEnd: input.frontEnd }).diagnostics.find((d) => d.code === 'terraform-file-refused');
      assert.ok(refused, 'the link out of the root is refused');
      assert.match(refused.message, /outside/);
      assert.ok(!input.text.includes('c3-standard-22'), 'the buffer does not stand in for a refused file');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
