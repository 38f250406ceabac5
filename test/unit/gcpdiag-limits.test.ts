/**
 * gcp-2024's per-VM Persistent Disk limits (`vm_limits`) against Google's own tables from the public
 * GoogleCloudPlatform/gcpdiag repository (test/fixtures/gcpdiag-limits), row by row and figure by figure, both
 * ways: every Google row must be in the catalog with the same figures, and every catalog row of these series
 * must be one of Google's. The differences we keep on purpose are listed below with their reason; the test
 * fails on any other difference, and on a listed one that no longer exists.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { builtinRegistry, type Catalog, type VmLimitRow } from '../../core/src';

const DIR = join(resolve(__dirname, '../../..'), 'test/fixtures/gcpdiag-limits');
const FIGURES = ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'] as const;
type Figure = (typeof FIGURES)[number];

/** One difference: the Google table and row, the figure (or 'row'), Google's value and the catalog's. */
interface Difference {
  table: string;
  disk: string;
  row: string;
  figure: Figure | 'row';
  google: number | 'present' | 'absent';
  catalog: number | 'present' | 'absent' | undefined;
}

/** The differences kept on purpose, each with its reason. */
const EXPECTED: Array<Difference & { why: string }> = [
  ...(['pd-standard', 'pd-balanced', 'pd-ssd'] as const).map((disk) => ({
    table: 'e2',
    disk,
    row: 'e2-micro, e2-small',
    figure: 'row' as const,
    google: 'absent' as const,
    catalog: 'present' as const,
    why: "Google gives the shared-core e2-micro and e2-small no row: their limit is unknown, held at most to e2-medium's row (upper_bound_of), never the 2-7 vCPU row",
  })),
  {
    table: 'A2 Ultra VMs',
    disk: 'pd-standard',
    row: 'a2-ultragpu-8g',
    figure: 'read_mibps',
    google: 1,
    catalog: undefined,
    why: 'Google gives 1 MiB/s, an evident slip (every other large A2 row has 1,200); the figure is left out, not guessed',
  },
];

type GoogleRow = Record<string, string | number>;

/** A Google row's selector: a vCPU range ("2-7", "64 or more", "88") or a machine type ("e2-medium*"). */
function selector(g: GoogleRow): { label: string; matches(r: VmLimitRow): boolean } {
  const label = String(g['Machine type'] ?? g['VM vCPU count']);
  const range = /^(\d+)(?:-(\d+)| or more)?$/.exec(label);
  if (!range) {
    // The E2 table marks e2-medium with an asterisk whose footnote it does not carry.
    const name = label.replace(/\*$/, '');
    return { label: name, matches: (r) => r.machine_types?.includes(name) ?? false };
  }
  const min = Number(range[1]);
  const max = label.endsWith('or more') ? undefined : Number(range[2] ?? range[1]);
  return { label, matches: (r) => r.vcpus !== undefined && r.vcpus.min === min && r.vcpus.max === max };
}

/** Google's figure: throughput columns are headed MiBps, except the A3 table's MB/s (used as MiB/s, as the catalog says). */
function googleFigure(g: GoogleRow, f: Figure): number | undefined {
  const dir = f.startsWith('read') ? 'read' : 'write';
  const v = f.endsWith('iops')
    ? g[`Maximum ${dir} IOPS`]
    : (g[`Maximum ${dir} throughput (MiBps)`] ?? g[`Maximum ${dir} throughput (MB/s)`]);
  return v === undefined ? undefined : Number(v);
}

function differences(c: Catalog): Difference[] {
  const out: Difference[] = [];
  const matched = new Set<VmLimitRow>();
  const series = new Set<string>();
  // The disk types Google's tables cover per series (Persistent Disk): catalog rows of other types (Hyperdisk,
  // from other sources) have nothing here to be compared with.
  const covered = new Set<string>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('-family.json'))) {
    const tables = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Record<string, Record<string, GoogleRow[]>>;
    for (const [table, disks] of Object.entries(tables)) {
      const s = table.split(' ')[0].toLowerCase(); // "N2D VMs", "A2 Ultra VMs" → n2d, a2
      series.add(s);
      const ours = c.vm_limits.filter((t) => t.series.includes(s));
      for (const [disk, rows] of Object.entries(disks)) {
        covered.add(`${s}/${disk}`);
        const candidates = ours.flatMap((t) => t.disk_types[disk] ?? []);
        for (const g of rows) {
          const sel = selector(g);
          const r = candidates.find((x) => sel.matches(x));
          if (!r) {
            out.push({ table, disk, row: sel.label, figure: 'row', google: 'present', catalog: 'absent' });
            continue;
          }
          matched.add(r);
          for (const f of FIGURES) {
            const want = googleFigure(g, f);
            const have = r[f];
            if (want !== have)
              out.push({ table, disk, row: sel.label, figure: f, google: want ?? 'absent', catalog: have as number | undefined });
          }
        }
      }
    }
  }
  for (const t of c.vm_limits.filter((x) => x.series.some((s) => series.has(s)))) {
    for (const [disk, rows] of Object.entries(t.disk_types)) {
      if (!t.series.some((s) => covered.has(`${s}/${disk}`))) continue;
      for (const r of rows.filter((x) => !matched.has(x))) {
        const row = r.machine_types?.join(', ') ?? `${r.vcpus?.min}-${r.vcpus?.max ?? 'more'}`;
        out.push({ table: t.series.join(', '), disk, row, figure: 'row', google: 'absent', catalog: 'present' });
      }
    }
  }
  return out;
}

describe("gcp-2024 per-VM limits against Google's gcpdiag tables", () => {
  const c = builtinRegistry.get('gcp-2024') as Catalog;
  const found = differences(c);
  const key = (d: Difference) => `${d.table} / ${d.disk} / ${d.row} / ${d.figure}: Google ${d.google}, catalog ${d.catalog}`;
  it('compares every table of every file', () => {
    // 10 family files, 21 tables, 273 rows: a fixture that stopped loading would pass the checks below vacuously.
    const rows = readdirSync(DIR)
      .filter((f) => f.endsWith('-family.json'))
      .flatMap((f) => Object.values(JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Record<string, Record<string, unknown[]>>))
      .flatMap((t) => Object.values(t))
      .reduce((n, r) => n + r.length, 0);
    assert.equal(rows, 273);
  });
  it('differs from Google only where the table of expected differences says why', () => {
    const expected = new Set(EXPECTED.map(key));
    assert.deepEqual(
      found.map(key).filter((k) => !expected.has(k)),
      [],
    );
  });
  it('every expected difference still exists', () => {
    const actual = new Set(found.map(key));
    assert.deepEqual(
      EXPECTED.map(key).filter((k) => !actual.has(k)),
      [],
    );
  });
});
