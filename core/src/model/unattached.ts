/**
 * A disk the configuration creates and attaches to no VM (from Terraform): no figures (no machine to deliver them
 * on), but a price, in the region of its own zone. Part of the file's total, never of a VM's; a disk that cannot be
 * priced leaves that total partial, naming it.
 */
import { refusedSize, type Catalog } from '../catalog';
import type { UnattachedDiskSpec } from '../document/types';
import { diskCost } from './cost';
import { cost, type Cost } from './types';

export interface UnattachedDiskEval {
  spec: UnattachedDiskSpec;
  /** Where it is priced: its own zone's region, else the file's. */
  region: string;
  cost: Cost;
}

export function evaluateUnattached(c: Catalog, d: UnattachedDiskSpec, fileRegion: string): UnattachedDiskEval {
  const region = d.region ?? fileRegion;
  const why = unpricedWhy(c, d);
  if (why !== undefined) return { spec: d, region, cost: cost(undefined, false, () => why, [{ part: 'capacity', text: why }]) };
  return { spec: d, region, cost: diskCost(c, c.disk_types[d.type], d, d.size_gib!, region) };
}

/** Why the disk has no price of its own here, in the words a total says it lacks it; undefined when it has one. */
function unpricedWhy(c: Catalog, d: UnattachedDiskSpec): string | undefined {
  if (d.invalid !== undefined) return d.invalid;
  const t = c.disk_types[d.type];
  if (!t) return `disk '${d.name}' has a type ${c.edition} does not know`;
  if (t.model === 'devices') return `disk '${d.name}' is a ${d.type} device, which comes with a machine`;
  if (d.size_gib === undefined || d.size_gib <= 0) return `disk '${d.name}' has no valid size`;
  if (refusedSize(t, d.size_gib, d.replication)) return `disk '${d.name}' has a size ${d.type} does not come in`;
  return undefined;
}
