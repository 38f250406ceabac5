/** The real language server over stdio on an Azure spec: hover, completion, a quick fix and inlay hints. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LspClient } from '../../cli/src/lsp-client';
import { applyEdits, LineIndex } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = readFileSync(join(ROOT, 'examples/azure-db.perf.yaml'), 'utf8');
const URI = 'file:///project/azure-db.perf.yaml';
const pos = (text: string, needle: string, delta = 0) => new LineIndex(text).position(text.indexOf(needle) + delta);

describe('language server over stdio: an Azure spec', function () {
  this.timeout(30000);
  let client: LspClient;
  beforeEach(async () => {
    client = new LspClient({ pull: true });
    await client.initialize();
  });
  afterEach(async () => {
    await client.stop();
  });

  it('hover on the size: its uncached limit and its burst window (Dsv5 page); on a disk: the tier that sets it', async () => {
    client.open(URI, EXAMPLE);
    const size = await client.hover(URI, pos(EXAMPLE, 'Standard_D16s_v5', 3));
    // Standard_D16s_v5: 25,600 IOPS and 600 MBps uncached, 40,000 IOPS and 1,200 MBps for 30 minutes.
    assert.match(size!.contents.value, /\| premium-ssd +\| +25,600 \| +25,600 \| +572 \| +572 \|/);
    assert.match(size!.contents.value, /premium-ssd burst: 40,000 IOPS, 1,144 MiB\/s for up to 30 minutes at a time/);
    const disk = await client.hover(URI, pos(EXAMPLE, 'name: data', 7));
    assert.match(disk!.contents.value, /read and write IOPS: Premium SSD performance tier P40: 7,500 IOPS/);
  });

  it("completion of a size typed in part replaces what was typed with Azure's spelling", async () => {
    const text = EXAMPLE.replace('machine_type: Standard_D16s_v5', 'machine_type: standard_d16');
    client.open(URI, text);
    const at = pos(text, 'standard_d16', 'standard_d16'.length);
    const items = await client.completion(URI, at);
    const item = items.find((i) => i.label === 'Standard_D16s_v5');
    assert.ok(item, items.map((i) => i.label).join(','));
    const edit = item.textEdit as { range: { start: { line: number; character: number } }; newText: string };
    assert.deepEqual(edit.range.start, pos(text, 'standard_d16'));
    assert.equal(edit.newText, 'Standard_D16s_v5');
  });

  it('code action: host caching on Premium SSD v2 is set to none, and the finding goes', async () => {
    const text = EXAMPLE.replace('        provisioned_iops: 12000\n', '        provisioned_iops: 12000\n        caching: read-only\n');
    client.open(URI, text);
    const d = (await client.pullDiagnostics(URI)).find((x) => x.code === 'host-caching-unsupported');
    assert.ok(d);
    const actions = await client.codeActions(URI, d.range, [d]);
    const fix = actions.find((a) => a.title === 'Set caching: none');
    assert.ok(fix, actions.map((a) => a.title).join(' | '));
    const idx = new LineIndex(text);
    const after = applyEdits(
      text,
      fix.edit!.changes![URI].map((e) => ({ start: idx.offset(e.range.start), end: idx.offset(e.range.end), newText: e.newText })),
    );
    // The inserted key only: the data disk's own caching: read-only stays.
    assert.equal(
      after,
      text.replace('caching: read-only\n        provisioned_throughput', 'caching: none\n        provisioned_throughput'),
    );
    client.change(URI, 2, [{ text: after }]);
    assert.ok(!(await client.pullDiagnostics(URI)).some((x) => x.code === 'host-caching-unsupported'));
  });

  it('inlay hints: each disk with its figures and price', async () => {
    client.open(URI, EXAMPLE);
    const hints = await client.inlayHints(URI, { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } });
    const labels = hints.map((h) => (typeof h.label === 'string' ? h.label : ''));
    assert.ok(labels.includes(' 7,500/7,500 IOPS · 238/238 MiB/s · $259.05/mo'), labels.join(' | '));
    assert.ok(labels.includes(' 12,000/12,000 IOPS · 381/381 MiB/s · $77.60/mo'), labels.join(' | '));
  });
});
