/**
 * Disk types whose per-volume figures the provider gives only as ranges (the catalog's `figure_range`: AWS
 * Magnetic, 40 - 200 IOPS and 40 - 90 MiB/s). The model takes the top of each range, marked as an upper bound
 * wherever it is shown; this check says the range, how little the volume may deliver, and a per-request charge the
 * price leaves out, on the disk's type.
 */
import { fmt, fmtUnitPrice } from '../units';
import type { CheckModule } from './types';

export const figureRange: CheckModule = {
  id: 'figure-range',
  title: 'Disk types given as ranges',
  about:
    'Disks of a type whose per-volume figures the catalog edition has only as ranges (its `figure_range`): their figures are the top of each range, upper bounds, and a target reached only there is not judged.',
  codes: {
    'disk-figures-range': {
      severity: 'information',
      summary: "The provider gives this disk type's figures only as ranges: its figures are upper bounds.",
      docs: "Raised on the disk's `type`. aws-2025: Magnetic (`standard`), a previous-generation EBS type, for which AWS's volume types page gives a maximum of 40 - 200 IOPS and 40 - 90 MiB/s per volume (and about 100 IOPS on average) rather than limits. The disk's figures are the top of each range (200 IOPS, 90 MiB/s), marked as upper bounds (`upper_bound` in the report, '≤ 200 IOPS (range ...)' where they are shown); the message says the volume may deliver as little as the bottom (40 IOPS, 40 MiB/s). A workload target reached only at these figures is not judged (`meets_target` null); one missed even there is. Where I/O requests are billed per million, that part of the price depends on the workload: the disk's price is its capacity, marked incomplete, and the message gives the rate. Measure the volume with fio, or use a current type (gp3).",
    },
  },
  vm: (ctx) => {
    for (const d of ctx.evaluation.disks) {
      if (d.type.model !== 'scaled' || !d.type.figure_range) continue;
      const r = d.type.figure_range;
      const perMillion = d.type.price?.per_million_requests?.[ctx.region];
      const requests =
        perMillion !== undefined
          ? `; its I/O requests (${fmtUnitPrice(perMillion, ctx.catalog.currency)} per million) are left out of its price`
          : '';
      const path = `${d.spec.path}/type`;
      ctx.report(
        'disk-figures-range',
        `disk '${d.spec.name}': ${d.type.label} is given as a ${r.words}: figures are its top; it may deliver ${fmt(r.low.iops)} IOPS, ${fmt(r.low.mibps)} MiB/s${requests}`,
        ctx.at(path),
        { path },
      );
    }
  },
};
