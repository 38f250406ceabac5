/** What the extension hands the language server from its settings, in trusted and untrusted workspaces. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverSettings } from '../../client/src/settings';

describe('client settings for the server', () => {
  const section = {
    catalog: 'gcp-2020',
    region: 'europe-west1',
    catalogPath: '/home/me/catalogs/mine.json',
    followLinks: true,
    trace: { server: 'verbose' },
  };

  it('passes the catalog edition, region, user catalog and followLinks in a trusted workspace', () => {
    assert.deepEqual(serverSettings(section, true), {
      catalog: 'gcp-2020',
      region: 'europe-west1',
      catalogPath: '/home/me/catalogs/mine.json',
      followLinks: true,
    });
  });

  it('withholds the user catalog and followLinks in an untrusted workspace, and only them', () => {
    assert.deepEqual(serverSettings(section, false), { catalog: 'gcp-2020', region: 'europe-west1', catalogPath: '', followLinks: false });
  });

  it('sends nothing but the three strings and followLinks: no trace setting, no values of other types', () => {
    assert.deepEqual(serverSettings({ catalog: 7, catalogPath: ['x'], followLinks: 'yes', extra: 'y' }, true), {
      catalog: '',
      region: '',
      catalogPath: '',
      followLinks: false,
    });
    assert.deepEqual(serverSettings({}, true), { catalog: '', region: '', catalogPath: '', followLinks: false });
  });

  it('package.json declares each setting the server reads from the client, and restricts the two it withholds', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
    const declared = pkg.contributes.configuration.properties;
    for (const key of Object.keys(serverSettings({}, true)))
      assert.ok(declared[`storagePerf.${key}`], `storagePerf.${key} is not declared`);
    assert.equal(declared['storagePerf.followLinks'].type, 'boolean');
    assert.equal(declared['storagePerf.followLinks'].default, false);
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['storagePerf.catalogPath', 'storagePerf.followLinks']);
  });
});
