/**
 * The module calls of other than local sources, as written (`remoteModuleCalls`): keyed as `modules.json` keys them,
 * through local modules at any depth, an override file's `source` or `version` over the original's, `.tf.json` too.
 */
import * as assert from 'node:assert/strict';
import { remoteModuleCalls, type HclParse, type TfFile } from '../../core/src';
import { loadHclParser } from '../../protocol/src/hcl-parser';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

const calls = (files: TfFile[]) => {
  const got = remoteModuleCalls(parse, files);
  return got && Object.fromEntries(got);
};

describe('remoteModuleCalls', () => {
  it('keys the calls of the root module and of the local modules it calls, not those of downloaded ones', () => {
    const files: TfFile[] = [
      {
        path: 'main.tf',
        text: 'module "web" {\n  source  = "acme/web/google"\n  version = "~> 1.2"\n}\nmodule "app" {\n  source = "../modules/app"\n}\n',
      },
      { path: '../modules/app/main.tf', text: 'module "db" {\n  source = "git::https://example.com/db.git?ref=v1"\n  count  = 2\n}\n' },
      { path: '.terraform/modules/web/main.tf', text: 'module "inner" {\n  source = "acme/inner/google"\n}\n' },
    ];
    assert.deepEqual(calls(files), {
      web: { source: 'acme/web/google', version: '~> 1.2' },
      'app.db': { source: 'git::https://example.com/db.git?ref=v1', version: undefined },
    });
  });

  it("an override file's version replaces the original's; a source that is not a literal is none", () => {
    const files: TfFile[] = [
      {
        path: 'main.tf',
        text: 'module "web" {\n  source  = "acme/web/google"\n  version = "1.0.0"\n}\nmodule "x" {\n  source = var.where\n}\n',
      },
      { path: 'override.tf', text: 'module "web" {\n  version = "2.0.0"\n}\nmodule "none" {\n  source = "acme/none/google"\n}\n' },
      { path: 'extra.tf.json', text: '{"module": {"db": {"source": "acme/db/google", "version": "3.1.0"}}}' },
    ];
    assert.deepEqual(calls(files), {
      web: { source: 'acme/web/google', version: '2.0.0' },
      x: { source: undefined, version: undefined },
      db: { source: 'acme/db/google', version: '3.1.0' },
    });
  });

  it('a file that does not parse: the calls are not known', () => {
    assert.equal(calls([{ path: 'main.tf', text: 'module "web" {\n  source = "acme/web/google"\n' }]), undefined);
  });
});
