/** What the extension hands the language server from its settings, in trusted and untrusted workspaces. */
import * as assert from 'node:assert/strict';
import { serverSettings } from '../../client/src/settings';

describe('client settings for the server', () => {
  const section = { catalog: 'gcp-2020', region: 'europe-west1', catalogPath: '/home/me/catalogs/mine.json', trace: { server: 'verbose' } };

  it('passes the catalog edition, region and user catalog in a trusted workspace', () => {
    assert.deepEqual(serverSettings(section, true), {
      catalog: 'gcp-2020',
      region: 'europe-west1',
      catalogPath: '/home/me/catalogs/mine.json',
    });
  });

  it('withholds the user catalog in an untrusted workspace, and only it', () => {
    assert.deepEqual(serverSettings(section, false), { catalog: 'gcp-2020', region: 'europe-west1', catalogPath: '' });
  });

  it('sends nothing but the three strings: no trace setting, no values of other types', () => {
    assert.deepEqual(serverSettings({ catalog: 7, catalogPath: ['x'], extra: 'y' }, true), { catalog: '', region: '', catalogPath: '' });
    assert.deepEqual(serverSettings({}, true), { catalog: '', region: '', catalogPath: '' });
  });
});
