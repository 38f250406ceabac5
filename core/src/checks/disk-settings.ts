/**
 * Disk settings: each disk's size, provisioned IOPS and throughput, device count and interface within what
 * its type allows, and settings that have no effect on the type.
 */
import {
  attaches,
  refusedSize,
  sizeRange,
  unmodelledOn,
  type AllocationUnitDiskType,
  type Catalog,
  type DiskType,
  type ProvisionedDiskType,
} from '../catalog';
import type { FixData } from '../diagnostics';
import type { DiskSpec } from '../document/types';
import { localSsdDeviceGib } from '../model/local-ssd';
import { provisionedBounds, provisionedValue } from '../model/provisioned';
import { fmt, formatSize, sizeText } from '../units';
import type { CheckModule, VmContext } from './types';

export const diskSettings: CheckModule = {
  id: 'disk-settings',
  title: 'Disk settings',
  about: "Each disk's size, provisioned IOPS and throughput, device count and interface, within what its type allows.",
  codes: {
    'size-out-of-range': {
      severity: 'error',
      summary: 'The disk size is outside what the disk type allows.',
      docs: 'The fix sets the nearest size the type allows. Where the machine cannot attach the type, it is not preferred: the type has to change first (disk-type-not-on-series, disk-type-not-on-machine), and that fix keeps the size where the new type takes it.',
      fixType: 'sizing',
    },
    'missing-size': {
      severity: 'error',
      summary: 'The disk needs a size.',
      docs: "The fix adds the type's default (or smallest) size.",
      fixType: 'sizing',
    },
    'not-applicable': {
      severity: 'warning',
      summary: 'A setting that has no effect for this disk type.',
      docs: 'For example `size` on local SSD (set `count`), or `provisioned_iops` on a type whose IOPS come from its size. The fix removes it.',
    },
    'provisioned-out-of-range': {
      severity: 'error',
      summary: 'Provisioned IOPS or throughput outside the allowed range.',
      docs: "The range depends on the disk's size; the fix sets the nearest allowed value.",
      fixType: 'sizing',
    },
    'provisioned-ratio': {
      severity: 'error',
      summary: 'Provisioned throughput above what the provisioned IOPS allow.',
      docs: 'AWS gp3: at most 0.25 MiB/s per provisioned IOPS (125 MiB/s is always allowed). One fix lowers the throughput to the most the IOPS allow, the other raises the IOPS to carry the throughput.',
      fixType: 'sizing',
    },
    'missing-provisioned-iops': {
      severity: 'error',
      summary: 'The disk type needs provisioned IOPS and the spec gives none.',
      docs: "AWS io1 and io2 volumes are created with their IOPS. The figures use the type's lowest value until the spec gives one; the fix writes that value in, for you to raise.",
      fixType: 'sizing',
    },
    'allocation-unit': {
      severity: 'warning',
      summary: 'The Yandex disk size is not a whole number of allocation units.',
      docs: 'An error for types sold only in whole units. Performance comes in whole units; the fix rounds the size up.',
      fixType: 'sizing',
    },
    'hdd-burst': {
      severity: 'information',
      summary: 'A small Yandex HDD can burst for a while above its sustained figures.',
      docs: 'Figures are the sustained ones.',
    },
  },
  vm: (ctx) => {
    for (const d of ctx.vm.disks) {
      const t = ctx.catalog.disk_types[d.type];
      if (!t) continue;
      // A type the edition does not model on this machine has no bounds here either (./unmodelled says so): only
      // a missing size, which its price needs.
      if (!unmodelledOn(t, ctx.machine)) checkDisk(ctx, d, t);
      else if (t.model !== 'devices' && d.size_gib === undefined) size(ctx, d, t);
    }
  },
};

function checkDisk(ctx: VmContext, d: DiskSpec, t: DiskType): void {
  const p = d.path;
  const na = (field: string, why: string) => {
    const path = `${p}/${field}`;
    if (ctx.has(path))
      ctx.report('not-applicable', `${field} has no effect on ${d.type}: ${why}`, ctx.key(path), {
        path,
        fixes: [{ kind: 'remove-key', path, title: `Remove ${field}`, preferred: true }],
      });
  };
  if (t.model === 'devices') {
    na('size', `its size is ${localSsdDeviceGib(t, ctx.machine)} GiB per device; set count instead`);
    if (d.interface !== undefined && !t.interfaces[d.interface]) {
      ctx.report('invalid-value', `interface must be one of ${Object.keys(t.interfaces).join(', ')}`, ctx.at(`${p}/interface`), {
        path: `${p}/interface`,
      });
    }
  } else {
    na('count', 'only local SSD has devices');
    na('interface', 'only local SSD has an interface');
    size(ctx, d, t);
  }
  if (d.replication === 'regional' && !(t.replication ?? []).includes('regional')) {
    ctx.report('invalid-value', `${d.type} cannot be regional`, ctx.at(`${p}/replication`), {
      path: `${p}/replication`,
      fixes: [{ kind: 'set-value', path: `${p}/replication`, value: 'zonal', title: 'Make it zonal', preferred: true }],
    });
  }
  if (t.model === 'provisioned') provisioned(ctx, d, t, na);
  else {
    na('provisioned_iops', 'its IOPS come from its size');
    na('provisioned_throughput', 'its throughput comes from its size');
  }
  if (t.model === 'allocation-units' && d.size_gib !== undefined) allocationUnits(ctx, ctx.catalog, d, t, d.size_gib);
}

function size(ctx: VmContext, d: DiskSpec, t: Exclude<DiskType, { model: 'devices' }>): void {
  const p = d.path;
  // A disk not evaluated for a reason already said (an error on another of its values; a size Terraform knows only
  // after apply) is not also asked for a size.
  if (d.size_gib === undefined && !ctx.has(`${p}/size`) && d.invalid === undefined) {
    const range = sizeRange(t, d.replication);
    // The type's default size, where a regional disk may have it (Google: a regional standard disk from 200 GB).
    const def = Math.max(t.size_gib.default ?? range.advised, range.min);
    ctx.report(
      'missing-size',
      `disk '${d.name}' needs a size (${d.replication === 'regional' && range.min !== t.size_gib.min ? 'regional ' : ''}${d.type}: ${sizeText(range.advised)} to ${sizeText(range.max)})`,
      ctx.key(`${p}/name`),
      {
        path: p,
        fixes: [{ kind: 'add-key', path: p, key: 'size', value: formatSize(def), title: `Add size: ${formatSize(def)}`, preferred: true }],
      },
    );
  } else if (d.size_gib !== undefined && refusedSize(t, d.size_gib, d.replication) === 'range') {
    const { min, max, advised } = sizeRange(t, d.replication);
    const fix = formatSize(d.size_gib < min ? advised : max);
    const regional = min !== t.size_gib.min ? 'regional ' : '';
    // A type the machine cannot attach is what has to change first (attach's finding, whose fix keeps the size where
    // the new type takes it): a size for this type is offered, not preferred.
    const usable = !ctx.machine || attaches(ctx.machine, d.type);
    ctx.report(
      'size-out-of-range',
      `${regional}${d.type} sizes run from ${sizeText(min)} to ${sizeText(max)}; this is ${sizeText(d.size_gib)}`,
      ctx.at(`${p}/size`),
      {
        path: `${p}/size`,
        fixes: [{ kind: 'set-value', path: `${p}/size`, value: fix, title: `Set size to ${fix}`, preferred: usable }],
      },
    );
  }
}

function provisioned(ctx: VmContext, d: DiskSpec, t: ProvisionedDiskType, na: (field: string, why: string) => void): void {
  const p = d.path;
  const size = d.size_gib ?? t.size_gib.default ?? t.size_gib.min;
  const pr = t.provisioned;
  if (!pr.iops)
    na(
      'provisioned_iops',
      pr.iops_per_mibps ? `its IOPS follow from the provisioned throughput (${pr.iops_per_mibps} per MiB/s)` : 'IOPS are not provisioned',
    );
  if (!pr.mibps)
    na(
      'provisioned_throughput',
      pr.mibps_per_iops
        ? `its throughput follows from the provisioned IOPS (${pr.mibps_per_iops} MiB/s per IOPS)`
        : 'throughput is not provisioned',
    );
  const check = (field: string, r: typeof pr.iops, v: number | undefined, unit: string) => {
    if (!r || v === undefined) return;
    const { lo, hi } = provisionedBounds(r, size);
    if (v >= lo - 1e-9 && v <= hi + 1e-9) return;
    const fixed = Math.round(v < lo ? Math.ceil(lo) : Math.floor(hi));
    const value = unit === 'IOPS' ? fixed : `${fixed}MiB/s`;
    ctx.report(
      'provisioned-out-of-range',
      `${d.type} of ${sizeText(size)} takes ${fmt(lo)} to ${fmt(hi)} provisioned ${unit}; ${fmt(v)} is outside`,
      ctx.at(`${p}/${field}`),
      {
        path: `${p}/${field}`,
        fixes: [{ kind: 'set-value', path: `${p}/${field}`, value, title: `Provision ${fmt(fixed)} ${unit}`, preferred: true }],
      },
    );
  };
  check('provisioned_iops', pr.iops, d.provisioned_iops, 'IOPS');
  check('provisioned_throughput', pr.mibps, d.provisioned_mibps, 'MiB/s');
  throughputRatio(ctx, d, t, size);
  missingIops(ctx, d, t, size);
}

/** gp3: provisioned throughput at most 0.25 MiB/s per provisioned IOPS, never less than the included minimum. */
function throughputRatio(ctx: VmContext, d: DiskSpec, t: ProvisionedDiskType, size: number): void {
  const pr = t.provisioned;
  const ratio = pr.mibps_max_per_iops;
  const v = d.provisioned_mibps;
  if (ratio === undefined || !pr.iops || !pr.mibps || v === undefined) return;
  const { lo, hi } = provisionedBounds(pr.mibps, size);
  if (v > hi + 1e-9) return; // provisioned-out-of-range says it
  const iops = provisionedValue(pr.iops, d.provisioned_iops, size);
  const most = Math.max(lo, iops * ratio);
  if (v <= most + 1e-9) return;
  const p = `${d.path}/provisioned_throughput`;
  const down = Math.floor(most);
  const fixes: FixData[] = [{ kind: 'set-value', path: p, value: `${down}MiB/s`, title: `Provision ${fmt(down)} MiB/s`, preferred: true }];
  const needed = Math.ceil(v / ratio);
  const { hi: iopsHi } = provisionedBounds(pr.iops, size);
  if (needed <= iopsHi) {
    const ip = `${d.path}/provisioned_iops`;
    fixes.push(
      ctx.has(ip)
        ? { kind: 'set-value', path: ip, value: needed, title: `Provision ${fmt(needed)} IOPS`, preferred: false }
        : {
            kind: 'add-key',
            path: d.path,
            key: 'provisioned_iops',
            value: needed,
            title: `Provision ${fmt(needed)} IOPS`,
            preferred: false,
          },
    );
  }
  ctx.report(
    'provisioned-ratio',
    `${d.type} with ${fmt(iops)} provisioned IOPS takes at most ${fmt(most)} MiB/s (${ratio} MiB/s per IOPS); ${fmt(v)} is more`,
    ctx.at(p),
    { path: p, fixes },
  );
}

/** io1/io2: AWS creates them with their IOPS; a spec without them would otherwise pass with the lowest value silently. */
function missingIops(ctx: VmContext, d: DiskSpec, t: ProvisionedDiskType, size: number): void {
  const r = t.provisioned.iops;
  if (!r || r.default !== undefined || d.provisioned_iops !== undefined || ctx.has(`${d.path}/provisioned_iops`)) return;
  const { lo, hi } = provisionedBounds(r, size);
  ctx.report(
    'missing-provisioned-iops',
    `${d.type} needs provisioned_iops (${fmt(lo)} to ${fmt(hi)} at ${sizeText(size)}); the figures use ${fmt(lo)} until it is given`,
    ctx.key(`${d.path}/type`),
    {
      path: d.path,
      fixes: [
        {
          kind: 'add-key',
          path: d.path,
          key: 'provisioned_iops',
          value: Math.ceil(lo),
          title: `Add provisioned_iops: ${fmt(lo)}`,
          preferred: true,
        },
      ],
    },
  );
}

function allocationUnits(ctx: VmContext, c: Catalog, d: DiskSpec, t: AllocationUnitDiskType, sizeGib: number): void {
  const p = d.path;
  const units = sizeGib / t.unit_gib;
  if (Math.abs(units - Math.round(units)) > 1e-9) {
    const up = Math.ceil(units) * t.unit_gib;
    const msg = t.whole_units
      ? `${d.type} sizes are whole allocation units of ${t.unit_gib} GiB; ${sizeText(sizeGib)} is ${fmt(units)} units`
      : `${sizeText(sizeGib)} is ${fmt(units, 2)} allocation units of ${t.unit_gib} GiB; performance comes in whole units, so its figures are those of ${sizeText(up)}, which costs ${fmt(up / sizeGib, 2)}× as much`;
    ctx.report('allocation-unit', msg, ctx.at(`${p}/size`), {
      severity: t.whole_units ? 'error' : 'warning',
      path: `${p}/size`,
      fixes: [
        {
          kind: 'set-value',
          path: `${p}/size`,
          value: formatSize(up),
          title: `Round up to ${sizeText(up)} (${Math.ceil(units)} units)`,
          preferred: true,
        },
      ],
    });
  }
  if (t.burst && sizeGib < t.burst.to_gib) {
    ctx.report(
      'hdd-burst',
      `${d.type} below ${sizeText(t.burst.to_gib)} can burst to the level of a ${sizeText(t.burst.to_gib)} disk for about ${t.burst.minutes_per_day} minutes a day; figures here are the sustained ones (${c.edition}: ${t.burst.table.split(':')[0]})`,
      ctx.at(`${p}/type`),
      { path: `${p}/type` },
    );
  }
}
