/**
 * Provisioned IOPS and throughput (pd-extreme, Hyperdisk, gp3, io1/io2): the range a disk of a given size accepts,
 * what it gets when the spec asks for a value or none (shared by the figures and the price, ./cost), and the figures
 * that follow from them.
 */
import { limitValue, type Catalog, type ProvisionedDiskType } from '../catalog';
import type { DiskSpec } from '../document/types';
import { fmt } from '../units';
import { DiskFigures, type FigureKey, type FigureSource } from './figures';
import { METRICS, type Metric } from './types';

export interface ProvisionedRange {
  min: number;
  max: number;
  default?: number;
  min_per_gib?: number;
  max_per_gib?: number;
  max_at_least?: number;
}

/** The provisioned amounts the type allows for a disk of this size (lo ≤ hi, even where the table says otherwise). */
export function provisionedBounds(r: ProvisionedRange, size: number): { lo: number; hi: number } {
  const lo = Math.max(r.min, r.min_per_gib !== undefined ? r.min_per_gib * size : 0);
  const perGib = r.max_per_gib !== undefined ? Math.max(r.max_per_gib * size, r.max_at_least ?? 0) : Infinity;
  const hi = Math.min(r.max, perGib);
  return { lo: Math.min(lo, hi), hi };
}

/** The provisioned amount a disk gets: what the spec asks (or the default), clamped into the allowed range. */
export function provisionedValue(r: ProvisionedRange, asked: number | undefined, size: number): number {
  const { lo, hi } = provisionedBounds(r, size);
  const v = asked ?? r.default ?? lo;
  return Math.max(lo, Math.min(hi, v));
}

/** How a provisioned amount came about: asked for, the type's default, from the other amount, from io1's tiers, or capped by gp3's ratio. */
type How = 'asked' | 'default' | 'per-other' | 'tiered' | 'ratio-cap';

/**
 * A provisioned disk's figures: its IOPS and throughput as provisioned (or following from each other), each held to
 * the type's maximum (the maximum itself where nothing is provisioned). One source explains them all.
 */
export function provisionedFigures(c: Catalog, t: ProvisionedDiskType, d: DiskSpec, size: number): DiskFigures {
  const x = new ProvisionedSource(c, t, d, size);
  const f = new DiskFigures(x);
  for (const m of METRICS) {
    const b = x.amount(m);
    const cap = limitValue(t.disk_max[m], 1);
    if (b !== undefined && !(cap !== undefined && cap < b)) f.set(m, b, 'provisioned');
    else f.set(m, cap!, 'disk');
  }
  return f;
}

class ProvisionedSource implements FigureSource {
  private iops?: number;
  private iopsHow?: How;
  private mibps?: number;
  private mibpsHow?: How;
  /** The throughput the IOPS follow from, as provisioned (before any cap on it). */
  private iopsFrom?: number;
  /** io1's tier that sets the throughput. */
  private tier?: { up_to_iops: number; mibps_per_iops: number; max_mibps: number };

  constructor(
    private readonly c: Catalog,
    private readonly t: ProvisionedDiskType,
    d: DiskSpec,
    size: number,
  ) {
    const p = t.provisioned;
    if (p.iops) {
      this.iops = provisionedValue(p.iops, d.provisioned_iops, size);
      this.iopsHow = d.provisioned_iops !== undefined ? 'asked' : 'default';
    }
    if (p.mibps) {
      this.mibps = provisionedValue(p.mibps, d.provisioned_mibps, size);
      this.mibpsHow = d.provisioned_mibps !== undefined ? 'asked' : 'default';
    }
    if (this.mibps === undefined && this.iops !== undefined && p.mibps_per_iops) {
      this.mibps = this.iops * p.mibps_per_iops;
      this.mibpsHow = 'per-other';
    }
    if (this.iops === undefined && this.mibps !== undefined && p.iops_per_mibps) {
      this.iops = this.mibps * p.iops_per_mibps;
      this.iopsHow = 'per-other';
      this.iopsFrom = this.mibps;
    }
    this.throughputByIops();
  }

  /**
   * Throughput that IOPS set or cap (AWS): io1's tiers (0.25 MiB/s per IOPS up to 500 MiB/s, then 16 KiB per IOPS),
   * and gp3's ceiling of 0.25 MiB/s per provisioned IOPS on provisioned throughput (never under its minimum).
   */
  private throughputByIops(): void {
    const p = this.t.provisioned;
    const iops = this.iops;
    if (iops === undefined) return;
    const tiers = p.mibps_per_iops_tiers;
    if (this.mibps === undefined && tiers?.length) {
      const tier = tiers.find((x) => iops <= x.up_to_iops) ?? tiers[tiers.length - 1];
      this.mibps = Math.min(iops * tier.mibps_per_iops, tier.max_mibps);
      this.mibpsHow = 'tiered';
      this.tier = tier;
      return;
    }
    const ratio = p.mibps_max_per_iops;
    if (this.mibps !== undefined && ratio !== undefined) {
      const cap = Math.max(iops * ratio, p.mibps?.min ?? 0);
      if (cap < this.mibps) {
        this.mibps = cap;
        this.mibpsHow = 'ratio-cap';
      }
    }
  }

  /** The provisioned amount behind figure `m` (IOPS or throughput), before the type's maximum. */
  amount(m: Metric): number | undefined {
    return m.endsWith('iops') ? this.iops : this.mibps;
  }

  explainFigure(k: FigureKey): string {
    const { c, t } = this;
    const m = k as Metric;
    const p = t.provisioned;
    const iopsFigure = m.endsWith('iops');
    const unit = iopsFigure ? 'IOPS' : 'MiB/s';
    const b = this.amount(m);
    const cap = limitValue(t.disk_max[m], 1);
    const src = `(${c.edition}: ${p.table})`;
    if (b === undefined || (cap !== undefined && cap < b))
      return `${t.label} maximum ${fmt(cap!)} ${unit} (${c.edition}: ${t.disk_max.table})`;
    switch (iopsFigure ? this.iopsHow : this.mibpsHow) {
      case 'asked':
        return `provisioned ${fmt(b)} ${unit} ${src}`;
      case 'default':
        return `default provisioned ${fmt(b)} ${unit} ${src}`;
      case 'per-other':
        return iopsFigure
          ? `${p.iops_per_mibps} IOPS per provisioned MiB/s × ${fmt(this.iopsFrom!)} = ${fmt(b)} IOPS ${src}`
          : `${p.mibps_per_iops} MiB/s per provisioned IOPS × ${fmt(this.iops!)} = ${fmt(b)} MiB/s ${src}`;
      case 'tiered': {
        const tier = this.tier!;
        return `${tier.mibps_per_iops} MiB/s per provisioned IOPS × ${fmt(this.iops!)}, at most ${fmt(tier.max_mibps)} MiB/s up to ${fmt(tier.up_to_iops)} IOPS = ${fmt(b)} MiB/s ${src}`;
      }
      default:
        return `at most ${p.mibps_max_per_iops} MiB/s per provisioned IOPS × ${fmt(this.iops!)} = ${fmt(b)} MiB/s ${src}`;
    }
  }
}
