/**
 * Which machine a VM is (core/src/catalog/machines.ts): custom types take their series' per-vCPU limit tier,
 * types with local SSDs carry them, and every name the catalog offers resolves to itself.
 */
import * as assert from 'node:assert/strict';
import { analyze, builtinRegistry, largerMachines, machineTypeNames, resolveMachine, type Catalog } from '../../core/src';

const gcp = builtinRegistry.get('gcp-2024') as Catalog;

const spec = (machine: string, disk: string) => `version: 1
provider: gcp
catalog: gcp-2024
vms:
  - name: db
    machine_type: ${machine}
    disks:
      - name: data
${disk}`;

function machine(name: string) {
  const r = resolveMachine(gcp, { machine_type: name });
  assert.ok(r.ok, `${name}: ${r.ok ? '' : r.message}`);
  return r.machine;
}

describe('machines', () => {
  it('a custom N2 with 6 vCPUs gets the N2 2-7 vCPU row (pd-ssd: 15,000 IOPS, 240 MiB/s)', () => {
    const f = analyze(spec('n2-custom-6-16384', '        type: pd-ssd\n        size: 2000GiB\n')).vms[0].disks[0].figures;
    assert.equal(f.read_iops, 15000);
    assert.equal(f.read_mibps, 240);
    assert.equal(f.by('read_mibps'), 'vm');
    // The same disk on n2-standard-8 gets the 8-15 vCPU row's 800 MiB/s, so the custom type is not read as it.
    const g = analyze(spec('n2-standard-8', '        type: pd-ssd\n        size: 2000GiB\n')).vms[0].disks[0].figures;
    assert.equal(g.read_mibps, 800);
  });
  it('larger shapes are of the same kind and never have fewer vCPUs: nothing after a2-megagpu-16g', () => {
    // Found by the invariant suite: the shapes listed after a2-megagpu-16g (96 vCPUs) are the A2 Ultra ones, from
    // 12 vCPUs and with local SSD; they were offered as larger machines, and figures fell on them.
    const gcp = builtinRegistry.get('gcp-2024')!;
    const larger = (name: string) => {
      const r = resolveMachine(gcp, { machine_type: name });
      assert.ok(r.ok, name);
      return largerMachines(r.machine).map((m) => m.name);
    };
    assert.deepEqual(larger('a2-megagpu-16g'), []);
    assert.deepEqual(larger('a2-highgpu-4g'), ['a2-highgpu-8g']);
    assert.deepEqual(larger('a2-ultragpu-2g'), ['a2-ultragpu-4g', 'a2-ultragpu-8g']);
  });
  it('an N1 custom type resolves to N1 and its vCPU count', () => {
    const m = machine('custom-6-20480');
    assert.deepEqual([m.series, m.vcpus, m.custom], ['n1', 6, { memory_mib: 20480, extended: false }]);
  });
  it('a shared-core E2 custom type has e2-medium limits (pd-ssd 12,000 read / 10,000 write IOPS, 200 MiB/s)', () => {
    const f = analyze(spec('e2-custom-medium-6144', '        type: pd-ssd\n        size: 2000GiB\n')).vms[0].disks[0].figures;
    assert.deepEqual([f.read_iops, f.write_iops, f.read_mibps], [12000, 10000, 200]);
  });
  it('types that come with local SSDs carry their count and device size', () => {
    assert.deepEqual(machine('c3-standard-8-lssd').local_ssd, { count: 2, device_gib: 375 });
    assert.deepEqual(machine('c4-highmem-144-lssd').local_ssd, { count: 24, device_gib: 375 });
    assert.deepEqual(machine('c4a-standard-72-lssd').local_ssd, { count: 16, device_gib: 375 });
    assert.deepEqual(machine('c4d-standard-8-lssd').local_ssd, { count: 1, device_gib: 375 });
    assert.deepEqual(machine('c3d-highmem-360-lssd').local_ssd, { count: 32, device_gib: 375 });
    assert.deepEqual(machine('c4-standard-288-lssd-metal').local_ssd, { count: 6, device_gib: 3000 });
    assert.deepEqual(machine('z3-highmem-22-highlssd').local_ssd, { count: 3, device_gib: 3000 });
    assert.deepEqual(machine('z3-highmem-22-standardlssd').local_ssd, { count: 2, device_gib: 3000 });
    assert.deepEqual(machine('z3-highmem-192-highlssd-metal').local_ssd, { count: 12, device_gib: 6000 });
    assert.deepEqual(machine('z3-highmem-88').local_ssd, { count: 12, device_gib: 3000 });
    assert.deepEqual(machine('a3-highgpu-8g').local_ssd, { count: 16, device_gib: 375 });
    assert.deepEqual(machine('a2-ultragpu-4g').local_ssd, { count: 4, device_gib: 375 });
    assert.deepEqual(machine('h4d-highmem-192-lssd').local_ssd, { count: 10, device_gib: 375 });
    assert.equal(machine('a3-highgpu-8g-nolssd').local_ssd, undefined);
    assert.equal(machine('c3-standard-8').local_ssd, undefined);
    assert.equal(machine('n2-standard-8').local_ssd, undefined);
  });
  it('bare metal types attach only what their suffix allows', () => {
    assert.deepEqual(machine('c4-standard-288-metal').info.disk_types, ['hyperdisk-balanced', 'hyperdisk-extreme']);
    assert.equal(machine('c4-standard-288').info.disk_types?.includes('hyperdisk-throughput'), true);
  });
  it('larger machines keep the suffix (and its local SSDs) or the custom memory per vCPU', () => {
    const next = largerMachines(machine('c3-standard-8-lssd'))[0];
    assert.deepEqual([next.name, next.local_ssd], ['c3-standard-22-lssd', { count: 4, device_gib: 375 }]);
    // 16,384 MiB / 6 vCPUs × 8 = 21,845 MiB, rounded to 256 MiB.
    assert.equal(largerMachines(machine('n2-custom-6-16384'))[0].name, 'n2-custom-8-21760');
    // A fix writes the name into machine_type: a named shape's larger machines are real types ("e2 with 4 vCPUs"
    // was written before), and they no longer carry the shape's own limit row.
    const fromShape = largerMachines(machine('e2-custom-medium-6144'))[0];
    assert.deepEqual([fromShape.name, fromShape.limits_as, fromShape.custom], ['e2-standard-4', undefined, undefined]);
    assert.equal(largerMachines(machine('e2-medium'))[0].name, 'e2-standard-4');
  });
  it('a machine is one object, found by its name or as a larger one of any other: its rows are looked up once', () => {
    const aws = builtinRegistry.get('aws-2025') as Catalog;
    const cases: Array<[Catalog, string, string[]]> = [
      [gcp, 'n2-standard-32', ['n2-standard-2', 'n2-standard-8', 'n2-standard-16']],
      [aws, 'm6i.metal', ['m6i.large', 'm6i.4xlarge', 'm6i.16xlarge']],
    ];
    for (const [c, name, from] of cases) {
      const r = resolveMachine(c, { machine_type: name });
      assert.ok(r.ok, name);
      for (const smaller of from) {
        const s = resolveMachine(c, { machine_type: smaller });
        assert.ok(s.ok, smaller);
        const found = largerMachines(s.machine).find((m) => m.name === name);
        assert.equal(found, r.machine, `${name} found from ${smaller}`);
      }
    }
  });
  it('every machine type a catalog names resolves to itself', () => {
    for (const edition of ['gcp-2020', 'gcp-2024']) {
      const c = builtinRegistry.get(edition) as Catalog;
      for (const { name, vcpus } of machineTypeNames(c)) {
        const r = resolveMachine(c, { machine_type: name });
        assert.ok(r.ok, `${edition} ${name}: ${r.ok ? '' : r.message}`);
        assert.deepEqual([r.machine.name, r.machine.vcpus], [name, vcpus]);
      }
    }
  });
  it('every fix for a wrong name is itself a valid machine type', () => {
    for (const bad of [
      'n2-standard-8-foo',
      'c3-standard-22-xyz',
      'c3-standard-8-lsd',
      'c3-standard-16-lssd',
      'c4d-highcpu-7-lssd',
      'n2-standard-7',
      'n2-standrad-8',
      'n2-custom-7-16384',
      'n2-custom-6-60000',
      'n2-custom-200-999999-ext',
      'n2d-custom-6-1000000-ext',
      'custom-97-1000',
      'e2-custom-4-8192-ext',
      'e2-custom-medium-9000',
    ]) {
      const r = resolveMachine(gcp, { machine_type: bad });
      assert.ok(!r.ok && typeof r.fix === 'string', bad);
      const fixed = resolveMachine(gcp, { machine_type: r.fix });
      assert.ok(fixed.ok, `${bad} → ${r.fix}: ${fixed.ok ? '' : fixed.message}`);
    }
    // A size the shapes do not have is not a misspelling of one: a3-highgpu-3g is as near to 1g, 2g, 4g and 8g,
    // and each is another machine. No fix, rather than one of them picked.
    const r = resolveMachine(gcp, { machine_type: 'a3-highgpu-3g' });
    assert.ok(!r.ok && r.fix === undefined, r.ok ? '' : String(r.fix));
  });
});
