/**
 * The language server reads a .tf document's module files once and again when they change: with a client that
 * registers file watchers, only when `workspace/didChangeWatchedFiles` names a file (and then the open documents
 * whose module read it are analysed again, unasked); with one that does not, when `stat` says the file changed.
 * An editor's buffer of a module file wins over the disk. main.tf holds a hyperdisk-balanced disk; vm.tf the VM
 * that attaches it, whose machine says whether it may (n2: disk-type-not-on-series on main.tf; c3: not).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient } from '../../cli/src/lsp-client';

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
const WATCHED = 'workspace/didChangeWatchedFiles';
const CREATED = 1,
  CHANGED = 2,
  DELETED = 3;
const refused = (ds: Diagnostic[]) => ds.some((d) => d.code === 'disk-type-not-on-series');

/** Waits for diagnostics of `uri` that `want` accepts (each push is looked at; none is waited out by time). */
async function pushedWhere(client: LspClient, uri: string, want: (ds: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  for (let p = client.lastPushed(uri); ; p = client.lastPushed(uri)) {
    if (p && want(p.diagnostics)) return p.diagnostics;
    await client.publishedAfter(uri, p ? p.at + 1e-6 : 0);
  }
}

describe('language server: module files read once, again on change', function () {
  this.timeout(30000);
  let dir: string;
  let main: string;
  let sibling: string;
  let client: LspClient;
  const start = async (watchFiles: boolean) => {
    client = new LspClient({ pull: false, watchFiles });
    await client.initialize(pathToFileURL(dir).href);
    if (watchFiles) {
      const options = (await client.registered(WATCHED)) as { watchers: Array<{ globPattern: string }> };
      assert.deepEqual(
        options.watchers.map((w) => w.globPattern),
        ['**/*.tf', '**/*.tf.json', '**/*.tfvars', '**/*.tfvars.json'],
      );
    }
  };
  const watched = (uri: string, type: number) => client.notify({ method: WATCHED }, { changes: [{ uri, type }] });
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'storage-perf-module-watch-')));
    main = pathToFileURL(join(dir, 'main.tf')).href;
    sibling = pathToFileURL(join(dir, 'vm.tf')).href;
    writeFileSync(join(dir, 'main.tf'), DISK);
    writeFileSync(join(dir, 'vm.tf'), vm('n2-standard-8'));
  });
  afterEach(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('watching: a change on disk is not read until the client names it; then the document is analysed again', async () => {
    await start(true);
    client.open(main, DISK, 1);
    assert.ok(refused(await client.pushedDiagnostics(main, 1)));
    writeFileSync(join(dir, 'vm.tf'), vm('c3-standard-22'));
    client.change(main, 2, [{ text: DISK.replace('size = 100', 'size = 200') }]);
    assert.ok(refused(await client.pushedDiagnostics(main, 2)), 'the held text, not read again on an edit');
    // No edit: the notification alone has main.tf analysed again, with the new vm.tf.
    watched(sibling, CHANGED);
    await pushedWhere(client, main, (ds) => !refused(ds));
  });

  it('watching: a deleted file drops out of the module, and a created one joins it', async () => {
    await start(true);
    client.open(main, DISK, 1);
    assert.ok(refused(await client.pushedDiagnostics(main, 1)));
    unlinkSync(join(dir, 'vm.tf'));
    watched(sibling, DELETED);
    // No VM attaches the disk: the finding that needs one is gone.
    await pushedWhere(client, main, (ds) => !refused(ds));
    writeFileSync(join(dir, 'other.tf'), vm('n2-standard-4'));
    watched(pathToFileURL(join(dir, 'other.tf')).href, CREATED);
    await pushedWhere(client, main, refused);
  });

  it('without watchers: the stat check sees a changed file at the next edit', async () => {
    await start(false);
    client.open(main, DISK, 1);
    assert.ok(refused(await client.pushedDiagnostics(main, 1)));
    writeFileSync(join(dir, 'vm.tf'), vm('c3-standard-22'));
    client.change(main, 2, [{ text: DISK.replace('size = 100', 'size = 200') }]);
    assert.ok(!refused(await client.pushedDiagnostics(main, 2)));
  });

  it("an open module file's buffer wins over the disk, until it is closed", async () => {
    await start(true);
    client.open(main, DISK, 1);
    assert.ok(refused(await client.pushedDiagnostics(main, 1)));
    // Unsaved: the disk still says n2. main.tf is analysed again, unasked, with the buffer.
    client.open(sibling, vm('c3-standard-22'), 1);
    await pushedWhere(client, main, (ds) => !refused(ds));
    client.change(sibling, 2, [{ text: vm('n2-standard-16') }]);
    await pushedWhere(client, main, refused);
    client.change(sibling, 3, [{ text: vm('c3-standard-22') }]);
    await pushedWhere(client, main, (ds) => !refused(ds));
    client.close(sibling);
    await pushedWhere(client, main, refused);
  });
});
