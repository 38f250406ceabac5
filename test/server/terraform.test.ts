/**
 * The language server on Terraform files, over stdio as an editor drives it: a .tf document is analysed with
 * the rest of its module (the other .tf files of its folder and its local modules, read from disk), and shows
 * its own findings and hovers at their HCL positions.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../../cli/src/lsp-client';
import { LineIndex } from '../../core/src';

const MODULE = resolve(__dirname, '../../../test/fixtures/terraform/module');
const MAIN = readFileSync(join(MODULE, 'main.tf'), 'utf8');
const URI = pathToFileURL(join(MODULE, 'main.tf')).href;
const at = (text: string, needle: string, delta = 0) => new LineIndex(text).position(text.indexOf(needle) + delta);

describe('language server: .tf files', function () {
  this.timeout(30000);
  let client: LspClient;
  beforeEach(async () => {
    client = new LspClient({ pull: false });
    await client.initialize();
  });
  afterEach(async () => {
    await client.stop();
  });

  it("pushes the document's findings at their HCL positions, not those of the module's other files", async () => {
    client.open(URI, MAIN, 1);
    const ds = await client.pushedDiagnostics(URI, 1);
    const unknown = ds.find((d) => d.code === 'unknown-machine-type')!;
    assert.deepEqual(unknown.range.start, at(MAIN, '"n2-standard-7"'));
    assert.equal(unknown.severity, 1);
    const shared = ds.find((d) => d.code === 'terraform-shared-disk')!;
    assert.deepEqual(shared.range.start, at(MAIN, '"google_compute_disk" "shared"'));
    // The module's own findings (modules/db/main.tf) are that file's, not this one's.
    assert.ok(!ds.some((d) => d.code === 'shared-baseline'), JSON.stringify(ds.map((d) => d.code)));
  });

  it('hovers on a disk and an instance give their figures and the limit that binds', async () => {
    client.open(URI, MAIN, 1);
    await client.pushedDiagnostics(URI, 1);
    const disk = await client.hover(URI, at(MAIN, '"hyperdisk-balanced"\n  size                   = 1000', 3));
    assert.ok(disk, 'a hover on the disk type');
    assert.match(disk.contents.value, /20,000/);
    assert.match(disk.contents.value, /provisioned/i);
    const machine = await client.hover(URI, at(MAIN, '"c3-standard-22"', 3));
    assert.ok(machine, 'a hover on the machine type');
    assert.match(machine.contents.value, /c3-standard-22/);
  });

  it('malformed HCL: one error diagnostic, and the server goes on', async () => {
    const broken = MAIN.replace('resource "google_compute_instance" "typo" {', 'resource "google_compute_instance" "typo" {{');
    client.open(URI, broken, 1);
    const ds = await client.pushedDiagnostics(URI, 1);
    assert.equal(ds.length, 1, JSON.stringify(ds));
    assert.equal(ds[0].code, 'terraform-syntax');
    client.change(URI, 2, [{ text: MAIN }]);
    const again = await client.pushedDiagnostics(URI, 2);
    assert.ok(again.some((d) => d.code === 'unknown-machine-type'));
  });

  it('a terraformVarFiles setting naming a missing file: an error diagnostic naming that file, not an empty list', async () => {
    await client.stop();
    const missing = join(MODULE, 'missing.tfvars');
    client = new LspClient({ pull: false, settings: { terraformVarFiles: [missing] } });
    await client.initialize();
    client.open(URI, MAIN, 1);
    const ds = await client.pushedDiagnostics(URI, 1);
    const d = ds.find((x) => x.code === 'terraform-var-file');
    assert.ok(d, JSON.stringify(ds.map((x) => x.code)));
    assert.equal(d.severity, 1);
    assert.match(String(d.message), new RegExp(`cannot read the variable file ${missing.replace(/[.\\]/g, '\\$&')} .*ENOENT`));
    assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } });
    // The module is still read: its other findings are there too.
    assert.ok(ds.some((x) => x.code === 'unknown-machine-type'));
  });
});
