/** Catalog look-ups (core/src/checks/catalog.ts): each code, with the exact text its range covers. */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, CatalogRegistry, fileReport, type Catalog } from '../../core/src';
import { catalog } from '../../core/src/checks/catalog';
import { BASE, expectAt } from './helpers';

describe('checks: catalog', () => {
  it('a machine type or series in capitals is read as written: one error, with a fix to the lower-case name', () => {
    const cases: Array<[string, string, string, string]> = [
      [BASE.replace('n2-standard-8', 'N2-STANDARD-8'), 'unknown-machine-type', 'N2-STANDARD-8', 'n2-standard-8'],
      [BASE.replace('machine_type: n2-standard-8', 'series: N2\n    vcpus: 8'), 'unknown-series', 'N2', 'n2'],
      [
        BASE.replace('provider: gcp\ncatalog: gcp-2024', 'provider: aws').replace('n2-standard-8', 'M6I.2xlarge').replace('pd-ssd', 'gp3'),
        'unknown-machine-type',
        'M6I.2xlarge',
        'm6i.2xlarge',
      ],
    ];
    for (const [text, code, covered, fixed] of cases) {
      const a = analyze(text);
      const errors = a.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => [d.code, text.slice(d.span.start, d.span.end)]),
        [[code, covered]],
      );
      assert.match(errors[0].message, /lower case/);
      assert.deepEqual(
        errors[0].fixes?.map((f) => f.kind === 'set-value' && [f.value, f.preferred, f.type ?? 'problem']),
        [[fixed, true, 'problem']],
      );
      assert.ok(a.vms[0].unavailable, 'no figures for a machine not read');
    }
  });
  it('unmodelled-disk-type: a type named in other_disk_types is information, the disk has no figures and the total is partial; a typo stays an error', () => {
    // aws-2025 models Magnetic now (test/unit/aws-magnetic.test.ts); an edition that names it as not modelled:
    const base = builtinRegistry.get('aws-2025')!;
    const edition: Catalog = structuredClone(base);
    delete (edition.disk_types as Record<string, unknown>).standard;
    edition.other_disk_types = {
      types: { standard: 'Magnetic, a previous-generation EBS volume type (about 100 IOPS on average)' },
      source: 'ug-volume-types',
      table: 'Previous generation volumes: Magnetic (standard)',
      date: '2023-05-11',
    };
    const registry = new CatalogRegistry([edition]);
    const aws = (type: string) =>
      'version: 1\nprovider: aws\nvms:\n  - name: db\n    machine_type: m6i.4xlarge\n    disks:\n' +
      `      - name: data\n        type: gp3\n        size: 100GiB\n      - name: old\n        type: ${type}\n        size: 100GiB\n`;
    const text = aws('standard');
    const a = analyze(text, { registry });
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['unmodelled-disk-type', 'information']],
    );
    const d = a.diagnostics[0];
    assert.equal(text.slice(d.span.start, d.span.end), 'standard');
    assert.match(d.message, /^disk 'old': standard is Magnetic, a previous-generation EBS volume type .*; aws-2025 does not model it/);
    const v = a.vms[0];
    assert.equal(v.disks.find((x) => x.spec.name === 'data')?.figures.read_iops, 3000);
    assert.equal(v.monthly_cost_complete, false);
    // A name that is no EBS type is still an error.
    expectAt(aws('standart'), 'unknown-disk-type', 'standart');
  });

  it('did-you-mean offers a misspelling of the same size and family only; a type the edition lacks is a warning with no figures', () => {
    const aws = (machine: string) =>
      `version: 1\nprovider: aws\nvms:\n  - name: db\n    machine_type: ${machine}\n    disks:\n      - name: data\n        type: gp3\n        size: 100GiB\n`;
    const one = (machine: string, code = 'unknown-machine-type') => {
      const d = expectAt(aws(machine), code, machine);
      return { message: d.message, fixes: (d.fixes ?? []).map((f) => f.kind === 'set-value' && f.value) };
    };
    // A misspelling of a real name still gets its fix.
    assert.deepEqual(one('m6i.2xlarg'), {
      message: "unknown machine type 'm6i.2xlarg' in aws-2025; names are <family>.<size>, such as m5.large; did you mean m6i.2xlarge?",
      fixes: ['m6i.2xlarge'],
    });
    // A size not written as AWS writes sizes, in a family the edition has: the sizes it comes in.
    assert.match(one('m6i.enormous').message, /^m6i in aws-2025 comes in large, .*, metal: not 'enormous'$/);
    // Another size of the family, or the same size of another family, is not what was written: a size the edition
    // lacks is said with the sizes it has, and a family it does not model (mac1, t1, or one it does not name) is
    // said so, all as warnings without figures or fixes (t4g.small was offered t3.small: another CPU).
    const lacking: Array<[string, RegExp]> = [
      ['m7g.24xlarge', /^aws-2025 has no m7g\.24xlarge, so it has no figures: its m7g sizes are medium, large, .*16xlarge, metal$/],
      ['c5.16xlarge', /^aws-2025 has no c5\.16xlarge, so it has no figures: its c5 sizes are large, .*24xlarge, metal$/],
      [
        'mac1.metal',
        /^mac1 is an instance family aws-2025 does not model \(no EBS limits or vCPUs for it\), so 'mac1\.metal' has no figures$/,
      ],
      ['t1.micro', /^t1 is an instance family aws-2025 does not model .*'t1\.micro' has no figures$/],
      ['m8g.large', /^m8g is an instance family aws-2025 does not model .*'m8g\.large' has no figures$/],
      ['mac2.metal', /^mac2 is an instance family aws-2025 does not model/],
      ['i7ie.large', /^i7ie is an instance family aws-2025 does not model/],
    ];
    for (const [machine, message] of lacking) {
      const a = analyze(aws(machine));
      assert.deepEqual(
        a.diagnostics.map((d) => [d.code, d.severity]),
        [['unmodelled-machine-type', 'warning']],
        machine,
      );
      const d = one(machine, 'unmodelled-machine-type');
      assert.match(d.message, message, machine);
      assert.deepEqual(d.fixes, [], machine);
      assert.ok(a.vms[0].unavailable, `${machine}: no figures`);
      assert.deepEqual(a.vms[0].disks, [], machine);
    }
    // An unknown family with a size AWS does not write is an error, still offered no other family.
    assert.deepEqual(one('m8g.larg'), {
      message: "unknown machine type 'm8g.larg' in aws-2025; names are <family>.<size>, such as m5.large",
      fixes: [],
    });
  });
  it('did-you-mean offers every name as near as the nearest, none preferred: network-sdd is network-hdd or network-ssd', () => {
    const text =
      'version: 1\nprovider: yandex\nvms:\n  - name: a\n    series: standard-v3\n    vcpus: 4\n    disks:\n      - name: d\n        type: network-sdd\n        size: 93GiB\n';
    const d = expectAt(text, 'unknown-disk-type', 'network-sdd');
    assert.match(d.message, /did you mean network-hdd or network-ssd\?$/);
    assert.deepEqual(
      d.fixes?.map((f) => f.kind === 'set-value' && [f.value, f.preferred]),
      [
        ['network-hdd', false],
        ['network-ssd', false],
      ],
    );
  });
  it('unknown-disk-type', () => {
    expectAt(BASE.replace('type: pd-ssd', 'type: pd-turbo'), 'unknown-disk-type', 'pd-turbo');
    const d = expectAt(BASE.replace('type: pd-ssd', 'type: network-ssd'), 'unknown-disk-type', 'network-ssd');
    // The edition names the provider; a provider's id in prose ('a gcp disk type', 'a aws disk type') reads wrong.
    assert.match(d.message, /^'network-ssd' is not a disk type of gcp-2024; /);
  });
  it("one mistake, one finding: a misspelt disk type is the catalog check's alone, with its did-you-mean", () => {
    const text = BASE.replace('type: pd-ssd', 'type: pd-sdd');
    const onType = analyze(text).diagnostics.filter((d) => d.path?.endsWith('/type'));
    assert.deepEqual(
      onType.map((d) => [d.code, d.fixes?.map((f) => f.kind === 'set-value' && f.value)]),
      [['unknown-disk-type', ['pd-ssd']]],
    );
  });
  it('a disk type that is not text at all (empty, a list, true) is a wrong-type finding, not silence', () => {
    for (const v of ['', '~', 'true', '[pd-ssd]', '{a: 1}']) {
      const text = BASE.replace('type: pd-ssd', `type: ${v}`);
      const onType = analyze(text).diagnostics.filter((d) => d.path?.endsWith('/type'));
      assert.deepEqual(
        onType.map((d) => [d.code, d.message]),
        [['wrong-type', 'type must be a string']],
        v,
      );
    }
  });
  it('a misspelt provider: one finding with its did-you-mean, no catalog-provider-mismatch as well', () => {
    const a = analyze(BASE.replace('provider: gcp', 'provider: gcpp'));
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.path, d.fixes?.map((f) => f.kind === 'set-value' && f.value)]),
      [['invalid-value', '/provider', ['gcp']]],
    );
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
  it('unpriced-region: a region the provider offers but the edition does not price is information, with no fix', () => {
    const region = (r: string) => BASE.replace('catalog: gcp-2024\n', `catalog: gcp-2024\nregion: ${r}\n`);
    const d = expectAt(region('europe-west6'), 'unpriced-region', 'europe-west6');
    assert.equal(d.severity, 'information');
    assert.match(d.message, /^gcp-2024 has no prices for europe-west6, a gcp region .*: costs are left out$/);
    assert.deepEqual(d.fixes ?? [], []);
    const a = analyze(region('europe-west6'));
    assert.equal(a.monthly_cost, undefined);
    assert.ok(!a.diagnostics.some((x) => x.code === 'unknown-region' || x.code === 'price-unknown'));
    // Figures do not depend on the price: they are the same as in a priced region.
    const priced = fileReport('s', analyze(region('europe-west4'))).vms[0].disks[0].read_iops;
    assert.equal(fileReport('s', a).vms[0].disks[0].read_iops, priced);
    // Yandex's Kazakhstan region and AWS's GovCloud are regions too.
    for (const [provider, catalog, r] of [
      ['yandex', 'yandex-2025', 'kz1'],
      ['aws', 'aws-2025', 'us-gov-west-1'],
    ]) {
      const text = `version: 1\nprovider: ${provider}\ncatalog: ${catalog}\nregion: ${r}\nvms: []\n`;
      assert.ok(
        analyze(text).diagnostics.some((x) => x.code === 'unpriced-region'),
        `${r}`,
      );
    }
  });
  it('unknown-machine-type, unknown-series, vcpus-not-offered, machine-conflict', () => {
    expectAt(BASE.replace('n2-standard-8', 'n2-standard-7'), 'unknown-machine-type', 'n2-standard-7');
    expectAt(BASE.replace('n2-standard-8', 'q9-standard-8'), 'unknown-machine-type', 'q9-standard-8');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: q9\n    vcpus: 8'), 'unknown-series', 'q9');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: n2\n    vcpus: 7'), 'vcpus-not-offered', '7');
    expectAt(BASE.replace('    machine_type: n2-standard-8', '    machine_type: n2-standard-8\n    vcpus: 16'), 'machine-conflict', '16');
  });
  it('unknown-machine-type keeps what follows the vCPU count: only suffixes the series has, with a fix', () => {
    const fixOf = (d: { fixes?: Array<{ kind: string; value?: unknown }> }) => d.fixes?.[0]?.value;
    const at = (mt: string) => expectAt(BASE.replace('n2-standard-8', mt), 'unknown-machine-type', mt);
    assert.equal(fixOf(at('n2-standard-8-foo')), 'n2-standard-8');
    assert.equal(fixOf(at('c3-standard-22-xyz')), 'c3-standard-22');
    assert.match(at('c3-standard-22-xyz').message, /take only -lssd, -metal/);
    assert.equal(fixOf(at('c3-standard-8-lsd')), 'c3-standard-8-lssd');
    assert.equal(fixOf(at('n2-standrad-8')), 'n2-standard-8');
    // c3-highcpu types come without local SSDs: the nearest real name is the plain one.
    assert.equal(fixOf(at('c3-highcpu-8-lssd')), 'c3-highcpu-8');
    assert.equal(fixOf(at('c3-standard-16-lssd')), 'c3-standard-22-lssd');
    assert.equal(fixOf(at('n2-standard-7')), 'n2-standard-8');
  });
  it('vcpus-not-offered with a fix to the nearest offered count', () => {
    const d = expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: n1\n    vcpus: 3'), 'vcpus-not-offered', '3');
    // N1 offers 2 and 4: equally near, the larger gives at least what was asked.
    assert.equal(d.fixes?.[0].kind === 'set-value' && d.fixes[0].value, 4);
    const n2 = expectAt(BASE.replace('    machine_type: n2-standard-8', '    series: n2\n    vcpus: 6'), 'vcpus-not-offered', '6');
    assert.match(n2.message, /a custom type with 6 is machine_type n2-custom-6-<MiB>$/);
  });
  it('custom machine types follow their series rules; an invalid shape names the rule and fixes to the nearest', () => {
    const at = (mt: string) => expectAt(BASE.replace('n2-standard-8', mt), 'unknown-machine-type', mt);
    const value = (d: { fixes?: Array<{ kind: string; value?: unknown }> }) => d.fixes?.[0]?.value;
    let d = at('n2-custom-7-16384');
    assert.match(d.message, /n2 custom machines take these vCPU counts: 2 to 32 in steps of 2, then 36 to 128 in steps of 4; not 7/);
    assert.equal(value(d), 'n2-custom-8-16384');
    d = at('n2-custom-6-60000');
    assert.match(d.message, /multiple of 256 MiB/);
    assert.equal(value(d), 'n2-custom-6-49152'); // 60,000 rounds to 59,904, over 6 × 8,192 without -ext
    d = at('n2-custom-6-60160');
    assert.match(d.message, /512 to 8192 MiB per vCPU \(3072 to 49152 MiB for 6\)/);
    assert.equal(value(at('n2d-custom-10-8192')), 'n2d-custom-8-8192');
    assert.equal(value(at('custom-3-4096')), 'custom-4-4096');
    assert.equal(value(at('e2-custom-4-8192-ext')), 'e2-custom-4-8192');
    assert.equal(value(at('e2-custom-medium-9000')), 'e2-custom-medium-8192');
    assert.match(at('n4-custom-4-8192').message, /has no custom-machine rules for n4/);
  });
  it('valid custom, suffixed and new machine types raise no catalog finding', () => {
    const codes = Object.keys(catalog.codes);
    for (const mt of [
      'custom-6-20480',
      'custom-1-1024',
      'n2-custom-6-16384',
      'n2-custom-6-65536-ext',
      'n2d-custom-48-24576',
      'e2-custom-4-8192',
      'e2-custom-medium-6144',
      'c3-standard-8-lssd',
      'c4-standard-288-lssd-metal',
      'c4d-highmem-384-metal',
      'z3-highmem-8-highlssd',
      'z3-highmem-176-standardlssd',
      'n4d-standard-96',
      'm4-ultramem-224',
      'x4-1920-32t-metal',
      'h4d-highmem-192-lssd',
      'a4-highgpu-8g',
    ]) {
      const found = analyze(BASE.replace('n2-standard-8', mt)).diagnostics.filter((x) => codes.includes(x.code ?? ''));
      assert.deepEqual(
        found.map((x) => x.message),
        [],
        mt,
      );
    }
  });
});
