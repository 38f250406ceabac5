/** Catalog look-ups (core/src/checks/catalog.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze } from '../../core/src';
import { BASE, expectAt } from './helpers';

describe('checks: catalog', () => {
  it('unknown-disk-type', () => {
    expectAt(BASE.replace('type: pd-ssd', 'type: pd-turbo'), 'unknown-disk-type', 'pd-turbo');
    expectAt(BASE.replace('type: pd-ssd', 'type: network-ssd'), 'unknown-disk-type', 'network-ssd');
  });
  it('unknown-catalog with fixes; catalog-provider-mismatch', () => {
    const d = expectAt(BASE.replace('gcp-2024', 'gcp-2019'), 'unknown-catalog', 'gcp-2019');
    assert.ok(d.fixes?.some((f) => f.kind === 'set-value' && f.value === 'gcp-2024'));
    expectAt(BASE.replace('gcp-2024', 'yandex-2025'), 'catalog-provider-mismatch', 'yandex-2025');
  });
  it('unknown-region: no default prices; a near spelling is the preferred fix', () => {
    const region = (r: string) => BASE.replace('catalog: gcp-2024\n', `catalog: gcp-2024\nregion: ${r}\n`);
    const far = expectAt(region('mars-north1'), 'unknown-region', 'mars-north1');
    assert.ok(!far.fixes?.some((f) => f.preferred), 'no region is preferred when none is near');
    assert.equal(analyze(region('mars-north1')).monthly_cost, undefined);
    const near = expectAt(region('europe-west-4'), 'unknown-region', 'europe-west-4');
    assert.match(near.message, /did you mean europe-west4\?/);
    assert.deepEqual(
      near.fixes?.filter((f) => f.preferred).map((f) => f.kind === 'set-value' && f.value),
      ['europe-west4'],
    );
  });
  it('unknown-machine-type, unknown-series, vcpus-not-offered, machine-conflict', () => {
    expectAt(BASE.replace('n2-standard-8', 'n2-standard-7'), 'unknown-machine-type', 'n2-standard-7');
    expectAt(BASE.replace('n2-standard-8', 'q9-standard-8'), 'unknown-machine-type', 'q9-standard-8');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: q9\n    vcpus: 8'), 'unknown-series', 'q9');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: n2\n    vcpus: 7'), 'vcpus-not-offered', '7');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    machine_type: n2-standard-8\n    vcpus: 16'), 'machine-conflict', '16');
  });
});
