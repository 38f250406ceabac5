/**
 * The editor features on an Azure spec (azure-2026): hover, inlay hints, completion and the quick fixes of the
 * Azure findings, each fix applied and the spec analysed again. Figures are those of Microsoft's pages as the
 * catalog holds them (learn.microsoft.com: disks-scalability-targets, the Dsv5 and Dsv3 size pages, disk-bursting).
 */
import * as assert from 'node:assert/strict';
import { analyze, applyEdits, complete, fixEdits, hover, inlayHints } from '../../core/src';

const SPEC = `version: 1
provider: azure
catalog: azure-2026
region: eastus
vms:
  - name: db
    machine_type: Standard_D8s_v3
    disks:
      - name: os
        role: os
        type: premium-ssd
        size: 128GiB
        caching: read-write
      - name: data
        type: premium-ssd
        size: 1TiB
        tier: P40
        caching: read-only
      - name: zoned
        type: premium-ssd
        size: 1TiB
        redundancy: zrs
    workloads:
      - name: oltp
        disk: data
        block_size: 8KiB
        read_ratio: 1
        cache_hit_ratio: 0.9
  - name: v6
    machine_type: Standard_D8s_v6
    disks:
      - name: log
        type: premium-ssd-v2
        size: 512GiB
        provisioned_iops: 40000
        provisioned_throughput: 600MB/s
      - name: bulk
        type: premium-ssd
        size: 4TiB
`;

/** The hover at the end of the first occurrence of `needle` (inside its value), after `from` when given. */
function hoverAt(text: string, needle: string, from = ''): string {
  const at = text.indexOf(needle, text.indexOf(from)) + needle.length - 1;
  const h = hover(analyze(text), at);
  assert.ok(h, `no hover at ${needle}`);
  return h.markdown;
}

describe('Azure in the editor: hover', () => {
  it('on the size: the uncached limit, its burst and 30-minute window, and the cached limit with the cache size (Dsv3 page)', () => {
    const md = hoverAt(SPEC, 'Standard_D8s_v3');
    // Standard_D8s_v3: 12,800 IOPS / 192 MBps uncached, burst 16,000 / 400 MBps, cached 16,000 / 128 MBps, 200 GiB cache.
    assert.match(md, /\| premium-ssd \|\s+12,800 \|\s+12,800 \|\s+183 \|\s+183 \|/);
    assert.match(md, /premium-ssd burst: 16,000 IOPS, 381 MiB\/s for up to 30 minutes at a time \(azure-2026: Max uncached/);
    assert.match(md, /cached limit \(reads that hit the host cache\): 16,000 IOPS, 122 MiB\/s, cache 200 GiB \(azure-2026: Max cached/);
  });

  it('on a v6 size: the Premium SSD v2 / Ultra column and the Premium SSD one, each with its own table', () => {
    const md = hoverAt(SPEC, 'Standard_D8s_v6');
    assert.match(md, /\| premium-ssd-v2 \|\s+16,667 \|/);
    assert.match(md, /\| premium-ssd\s+\|\s+12,800 \|/);
    assert.match(md, /- premium-ssd-v2: azure-2026: Max uncached Ultra Disk and Premium SSD v2/);
    assert.match(md, /- premium-ssd: azure-2026: Max uncached Premium SSD/);
    assert.match(md, /no cached limit published for Standard_D8s_v6/);
  });

  it('on a disk: its type named once, the tier that sets its figures, the uncached limit that binds, the edition', () => {
    const md = hoverAt(SPEC, 'name: zoned');
    assert.match(md, /^\*\*Disk zoned\*\* — Premium SSD \(premium-ssd, P1-P80\), 1,024 GiB on Standard_D8s_v3 · azure-2026$/m);
    assert.match(md, /read and write IOPS: Premium SSD 1,024 GiB rounded up to P30 \(1,024 GiB\): 5,000 IOPS/);
    // 192 MBps = 183 MiB/s holds the P30's 200 MB/s (191 MiB/s): the VM binds throughput.
    assert.match(md, /\| read throughput\s+\|\s+183 MiB\/s \| vm\s+\|\s+191 \|/);
    assert.match(md, /read and write throughput: Standard_D8s_v3 limit for remote: 183 MiB\/s \(azure-2026: Max uncached Premium SSD/);
  });

  it('a ZRS disk: its price said unknown, on the disk and on its redundancy, never priced as LRS', () => {
    const md = hoverAt(SPEC, 'zrs');
    assert.match(
      md,
      /^\*\*ZRS\*\*: the same figures as a locally redundant disk.*price is unknown and every total it is part of is partial/m,
    );
    assert.match(md, /\*\*Cost\*\* unknown \(premium-ssd P30 ZRS price unknown\) — azure-2026 has no zone-redundant \(ZRS\) disk prices/);
    assert.match(hoverAt(SPEC, 'name: db'), /\| zoned \| premium-ssd \|\s+1,024 GiB \|.*\|\s+unknown \|$/m);
  });

  it("on tier: the tier set, its figures against the size's own, its price and the tiers allowed (disks-change-performance)", () => {
    const md = hoverAt(SPEC, 'tier: P40');
    assert.match(
      md,
      /^\*\*Performance tier P40\*\*: 7,500 IOPS, 238 MiB\/s \(250 MB\/s\) instead of P30's 5,000 IOPS, 191 MiB\/s \(200 MB\/s\); billed as P40 \(\$259\.05\/month\); a P30 can be set to P40, P50 \(azure-2026: Performance tiers/m,
    );
  });

  it("on caching: what a hit and a miss count against, with the size's cached limit", () => {
    const md = hoverAt(SPEC, 'caching: read-only');
    assert.match(
      md,
      /^\*\*Host caching read-only\*\*: reads that hit the cache count only against Standard_D8s_v3's cached limit, 16,000 IOPS and 122 MiB\/s/m,
    );
  });

  it("a credit-bursting tier's figures with their window: a P10 bursts to 3,500 IOPS and 170 MB/s for 30 minutes (disk-bursting)", () => {
    const md = hoverAt(SPEC, 'name: os');
    assert.match(md, /read and write IOPS: 3,500 IOPS for 30 min, then 500 \(until its burst credits run out\)/);
    assert.match(md, /read and write throughput: 162 MiB\/s for 30 min, then 95\.4 \(until its burst credits run out\)/);
  });

  it('a workload on a cached disk: bound by the cached limit, which it names', () => {
    const md = hoverAt(SPEC, 'name: oltp');
    // 90 % of the reads hit: 16,000 IOPS cached limit, 128 MBps = 122 MiB/s at 8 KiB = 15,625 IOPS.
    assert.match(md, /^\| IOPS\s+\|\s+15,625 \|/m);
    assert.match(md, /\*\*Limited by vm\*\*:.*Standard_D8s_v3 cached limit 122 MiB\/s/);
  });
});

describe('Azure in the editor: inlay hints and completion', () => {
  it('one hint per disk with its figures and price; an unknown price said so', () => {
    const a = analyze(SPEC);
    const hints = inlayHints(a);
    const at = (name: string) => hints.find((h) => h.offset === SPEC.indexOf(`name: ${name}`) + `name: ${name}`.length)!;
    assert.match(at('data').label, /^ 7,500\/7,500 IOPS · 183\/183 MiB\/s · \$259\.05\/mo$/);
    assert.match(at('data').tooltip, /read\/write MiB\/s limited by vm\/vm \(azure-2026\)/);
    assert.match(at('zoned').label, /^ 5,000\/5,000 IOPS · 183\/183 MiB\/s(?! · \$)/);
    assert.match(at('oltp').label, /^ 15,625 IOPS · 122 MiB\/s$/);
  });

  function completeAt(text: string, marker = '|') {
    const at = text.indexOf(marker);
    const t = text.slice(0, at) + text.slice(at + marker.length);
    return complete(t, at, analyze(t)).map((e) => e.label);
  }

  it("sizes of the catalog, by the prefix typed in Azure's own case or in lower case", () => {
    const typed = completeAt(SPEC.replace('machine_type: Standard_D8s_v3', 'machine_type: Standard_D4|'));
    assert.ok(typed.includes('Standard_D4s_v5') && typed.includes('Standard_D4s_v6') && typed.includes('Standard_D4ds_v5'), typed.join());
    assert.ok(
      typed.every((l) => l.startsWith('Standard_D4')),
      typed.join(),
    );
    assert.deepEqual(completeAt(SPEC.replace('machine_type: Standard_D8s_v3', 'machine_type: standard_d4|')), typed);
  });

  it('disk types, host caching, redundancy and disk controller values', () => {
    assert.deepEqual(completeAt(SPEC.replace('        type: premium-ssd\n        size: 128GiB', '        type: |\n        size: 128GiB')), [
      'premium-ssd',
      'standard-ssd',
      'standard-hdd',
      'premium-ssd-v2',
      'ultra-disk',
    ]);
    assert.deepEqual(completeAt(SPEC.replace('caching: read-only', 'caching: |')), ['none', 'read-only', 'read-write']);
    assert.deepEqual(completeAt(SPEC.replace('redundancy: zrs', 'redundancy: |')), ['lrs', 'zrs']);
    assert.deepEqual(
      completeAt(SPEC.replace('    machine_type: Standard_D8s_v6\n', '    machine_type: Standard_D8s_v6\n    disk_controller: |\n')),
      ['scsi', 'nvme'],
    );
  });

  it("a disk's keys are those of its provider: Azure's options on Azure, not GCP's replication or local SSD's", () => {
    const azureKeys = completeAt(SPEC.replace('        redundancy: zrs\n', '        |\n'));
    for (const k of ['role', 'tier', 'bursting', 'redundancy', 'performance_plus', 'provisioned_iops']) assert.ok(azureKeys.includes(k), k);
    for (const k of ['replication', 'count', 'interface']) assert.ok(!azureKeys.includes(k), k);
    const gcp =
      'version: 1\nprovider: gcp\nvms:\n  - name: db\n    machine_type: n2-standard-8\n    disks:\n      - name: data\n        type: pd-ssd\n        |\n';
    const gcpKeys = completeAt(gcp);
    for (const k of ['replication', 'count', 'interface']) assert.ok(gcpKeys.includes(k), k);
    for (const k of ['role', 'caching', 'tier', 'bursting', 'redundancy', 'performance_plus']) assert.ok(!gcpKeys.includes(k), k);
  });

  it("a disk type's documentation says how tiers work, not 'provisioned'", () => {
    const t = SPEC.replace('        type: premium-ssd\n        size: 128GiB', '        type: |\n        size: 128GiB');
    const at = t.indexOf('|');
    const s = t.slice(0, at) + t.slice(at + 1);
    const e = complete(s, at, analyze(s)).find((x) => x.label === 'premium-ssd')!;
    assert.match(e.documentation!, /^sold in tiers P1-P80 \(4-32,767 GiB\): a size is rounded up to the next tier/);
    assert.match(complete(s, at, analyze(s)).find((x) => x.label === 'premium-ssd-v2')!.documentation!, /provisioned performance/);
  });

  it('tier: the tiers the disk can be set to, from its size (P30: P40, P50; P60: P70, P80), with their figures', () => {
    const open = SPEC.replace('tier: P40', 'tier: ');
    const p30 = complete(open, SPEC.indexOf('tier: P40') + 'tier: '.length, analyze(open));
    assert.deepEqual(
      p30.map((e) => [e.label, e.detail]),
      [
        ['P40', '2,048 GiB tier: 7,500 IOPS, 238 MiB/s'],
        ['P50', '4,096 GiB tier: 7,500 IOPS, 238 MiB/s'],
      ],
    );
    const big = SPEC.replace('size: 1TiB\n        tier: P40', 'size: 8TiB\n        tier: P40');
    const at = big.indexOf('tier: P40') + 'tier: '.length;
    const b = big.slice(0, at) + big.slice(at + 3);
    assert.deepEqual(
      complete(b, at, analyze(b)).map((e) => e.label),
      ['P70', 'P80'],
    );
  });
});

describe('Azure quick fixes: each applied and analysed again does what its title says and nothing more', () => {
  const head = 'version: 1\nprovider: azure\ncatalog: azure-2026\nregion: eastus\nvms:\n  - name: db\n';
  const disk = (lines: string) => `    machine_type: Standard_D8s_v5\n    disks:\n      - name: data\n${lines}`;
  const cases: Array<[string, string, RegExp]> = [
    [
      'host-caching-unsupported',
      disk('        type: premium-ssd-v2\n        size: 64GiB\n        caching: read-only\n'),
      /^Set caching: none$/,
    ],
    [
      'performance-plus-size',
      disk('        type: premium-ssd\n        size: 256GiB\n        performance_plus: true\n'),
      /^Remove performance_plus$/,
    ],
    [
      'on-demand-bursting-size',
      disk('        type: premium-ssd\n        size: 256GiB\n        bursting: on-demand\n'),
      /^Remove bursting$/,
    ],
    ['performance-tier-invalid', disk('        type: premium-ssd\n        size: 4TiB\n        tier: P60\n'), /^Remove tier$/],
    ['performance-tier-invalid', disk('        type: premium-ssd-v2\n        size: 64GiB\n        tier: P30\n'), /^Remove tier$/],
    [
      'unknown-machine-type',
      disk('        type: premium-ssd\n        size: 256GiB\n').replace('Standard_D8s_v5', 'Standard_D8z_v5'),
      /^Use Standard_D8s_v5$/,
    ],
    ['unknown-disk-type', disk('        type: premium-sdd\n        size: 256GiB\n'), /^Use premium-ssd$/],
    [
      'too-many-disks',
      `    machine_type: Standard_D2s_v5\n    disks:\n${[1, 2, 3, 4, 5].map((i) => `      - name: d${i}\n        type: premium-ssd\n        size: 128GiB\n`).join('')}`,
      /^Change machine to Standard_D4s_v5 /,
    ],
    [
      'capped-by-vcpu',
      disk('        type: premium-ssd\n        size: 2TiB\n').replace('Standard_D8s_v5', 'Standard_D2s_v5'),
      /^Change machine to Standard_D8s_v5 /,
    ],
    [
      'provisioned-above-vm-limit',
      disk(
        '        type: premium-ssd-v2\n        size: 512GiB\n        provisioned_iops: 40000\n        provisioned_throughput: 600MB/s\n',
      ).replace('Standard_D8s_v5', 'Standard_D2s_v5'),
      /^Provision 3,750 IOPS and 119 MiB\/s \(−\$204\.33\/month\)$/,
    ],
    [
      'provisioned-above-vm-limit',
      disk('        type: premium-ssd\n        size: 512GiB\n        tier: P50\n').replace('Standard_D8s_v5', 'Standard_D2s_v5'),
      /^Set tier P30 \(−\$360\.40\/month\)$/,
    ],
    [
      'target-unreachable',
      disk('        type: premium-ssd\n        size: 512GiB\n') +
        '    workloads:\n      - name: w\n        disk: data\n        block_size: 8KiB\n        read_ratio: 0.7\n        target: { iops: 15000 }\n',
      // Standard_D8s_v5's uncached 12,800 IOPS holds it below 15,000 on any disk: the machine changes too. 15,000 8 KiB
      // I/Os a second are 117.2 MiB/s, within Premium SSD v2's free 125 MB/s (119.2 MiB/s): no throughput is bought.
      /^Change machine to Standard_D16s_v5 and switch 'data' to premium-ssd-v2, 15,000 IOPS provisioned /,
    ],
  ];
  for (const [code, body, title] of cases) {
    it(`${code}: ${title.source}`, () => {
      const text = head + body;
      const a = analyze(text);
      const d = a.diagnostics.find((x) => x.code === code);
      assert.ok(d, `no ${code}: ${a.diagnostics.map((x) => x.code).join(', ')}`);
      const f = d.fixes?.find((x) => title.test(x.title));
      assert.ok(f, `${code} offers ${JSON.stringify(d.fixes?.map((x) => x.title))}`);
      const out = applyEdits(text, fixEdits(text, a.parsed.tree, f));
      const after = analyze(out);
      assert.ok(!after.diagnostics.some((x) => x.code === code && x.path === d.path), `${code} still there after '${f.title}'`);
      // Nothing more: no finding appears that was not there, and only the lines the fix names change.
      const before = new Set(a.diagnostics.map((x) => `${x.code} ${x.path}`));
      // A machine now known is one the edition has no price for: that information is the machine's, not the fix's.
      const added = after.diagnostics.filter((x) => !before.has(`${x.code} ${x.path}`) && !/has no machine prices/.test(x.message));
      assert.deepEqual(
        added.map((x) => `${x.code} ${x.message}`),
        [],
      );
      // ... and only the keys the fix names change.
      const keys = new Set(
        (f.kind === 'set-values' ? f.values.map((v) => ('key' in v && v.key ? v.key : v.path)) : [f.path]).map((p) => p.split('/').pop()),
      );
      const lines = (s: string) => s.split('\n');
      const touched = [...lines(out).filter((l) => !lines(text).includes(l)), ...lines(text).filter((l) => !lines(out).includes(l))];
      for (const l of touched) assert.ok(keys.has(/^\s*(?:- )?(\w+):/.exec(l)?.[1]), `${f.title} changed '${l}'`);
    });
  }

  it('the fixes of options the disk cannot have change no figure: the option was already ignored', () => {
    for (const [code, body] of cases.slice(0, 5)) {
      const text = head + body;
      const a = analyze(text);
      const f = a.diagnostics.find((x) => x.code === code)!.fixes![0];
      const after = analyze(applyEdits(text, fixEdits(text, a.parsed.tree, f)));
      const figures = (x: typeof a) => x.vms[0].disks.map((d) => [d.figures.read_iops, d.figures.read_mibps, d.cost.monthly]);
      assert.deepEqual(figures(after), figures(a), code);
    }
  });
});
