import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import specSchema from '../../schemas/storage-perf.schema.json';
import * as compiled from '../../core/src/document/spec-validator.generated';

const ROOT = resolve(__dirname, '../../..');

describe('the spec schema compiled ahead of time', () => {
  it('is what scripts/write-spec-validator.mjs writes from the schema as it is', () => {
    const r = spawnSync(process.execPath, ['scripts/write-spec-validator.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(compiled.SCHEMA_TEXT, JSON.stringify(specSchema));
  });

  it('gives the errors the schema compiled at run time gives', () => {
    const runtime = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(specSchema as object);
    const validate = compiled.validate as typeof runtime;
    const docs: unknown[] = [
      { version: 1, provider: 'gcp', vms: [] },
      { version: 2, provider: 'aws', vms: [{ name: 'a', disks: [{ name: 'd', type: 'pd-ssd', size: '10GiB', colour: 1 }] }] },
      { version: 1, provider: 'gcp', vms: [{ name: 'a', machine_type: 3, workloads: [{ name: 'w', read_ratio: 2, target: {} }] }] },
      'not a spec',
    ];
    for (const doc of docs) {
      assert.equal(validate(doc), runtime(doc));
      assert.deepEqual(validate.errors ?? null, runtime.errors ?? null);
    }
  });
});
