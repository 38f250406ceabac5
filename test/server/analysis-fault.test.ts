/**
 * An analysis that throws (a fault of ours, never an input's) is answered as a failure to whoever waits for it:
 * the run that threw was left waiting for ever, and so was a pull of diagnostics and `storage-perf lint`, until its
 * timeout. The fault here is a catalog whose disk types cannot be read.
 */
import * as assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { BUILTIN_CATALOGS, CatalogRegistry, type Catalog } from '../../core/src';
import { AnalysedDocuments } from '../../server/src/documents';

const URI = 'file:///analysis-fault/a.perf.yaml';
const TEXT = [
  'version: 1',
  'provider: gcp',
  'catalog: faulty',
  'vms:',
  '  - {name: a, machine_type: n2-standard-8, disks: [{name: d, type: pd-ssd, size: 100GiB}]}',
  '',
].join('\n');

/** gcp-2024 under another edition, whose disk types throw when read once it is in the registry. */
function faultyRegistry(): CatalogRegistry {
  const gcp = BUILTIN_CATALOGS.find((c) => c.edition === 'gcp-2024')!;
  let armed = false;
  const faulty = Object.defineProperty({ ...gcp, edition: 'faulty' }, 'disk_types', {
    enumerable: true,
    get() {
      if (armed) throw new Error('disk types unreadable');
      return gcp.disk_types;
    },
  }) as Catalog;
  const registry = new CatalogRegistry();
  registry.add(faulty);
  armed = true;
  return registry;
}

describe('an analysis that throws', () => {
  it('fails the run in slices for whoever waits, and the next request fails again rather than waiting', async () => {
    const docs = new AnalysedDocuments({ current: {}, registry: faultyRegistry() });
    const doc = TextDocument.create(URI, 'storage-perf', 1, TEXT);
    await assert.rejects(docs.analysed(doc), /disk types unreadable/);
    await assert.rejects(docs.analysed(doc), /disk types unreadable/);
  });

  it('a request that finishes the analysis at once gets the error, and leaves no run behind that never ends', async () => {
    const docs = new AnalysedDocuments({ current: {}, registry: faultyRegistry() });
    const doc = TextDocument.create(URI, 'storage-perf', 1, TEXT);
    const waiting = docs.analysed(doc);
    // Finished at once, as a hover finishes it: the run under way throws there.
    assert.throws(() => docs.analysisOf(doc), /disk types unreadable/);
    await assert.rejects(waiting, /disk types unreadable/);
    await assert.rejects(docs.analysed(doc), /disk types unreadable/);
  });
});
