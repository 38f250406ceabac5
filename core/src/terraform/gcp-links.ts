/**
 * Google resources named by a known name or self link (`db-data`,
 * `https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-a/disks/db-data`): the name is unique only
 * in its zone (a regional disk's, in its region), so a link is matched by zone (or region) and name, and a bare
 * name attached to an instance by the instance's zone, where a zonal disk must be. One resource, or none: two disks
 * of one name in two zones are never taken one for the other.
 */
import { at, str } from './json';
import type { PlanContext, PlanResource } from './plan-model';

/** Where a self link places what it names: `zones` or `regions`, and which. */
interface Place {
  kind: 'zones' | 'regions';
  at: string;
}

const LINK = /(?:^|\/)projects\/([^/]+)\/(zones|regions)\/([^/]+)\/[^/]+\/([^/]+)$/;

/** The zone a resource runs in: its own, else (not written at all) its provider configuration's default. */
export function zoneOf(r: PlanResource, ctx: PlanContext): string | undefined {
  const own = str(at(r.values, 'zone'));
  if (own || ctx.written(r, ['zone'])) return own;
  return str(r.providerDefaults?.zone);
}

/** The region a regional resource is in: its own `region`, else (not written) its provider's default region. */
function regionOfResource(r: PlanResource, ctx: PlanContext): string | undefined {
  const own = str(at(r.values, 'region'));
  if (own || ctx.written(r, ['region'])) return own;
  return str(r.providerDefaults?.region);
}

/**
 * Whether a resource may be in a place: false where it is known to be elsewhere, undefined where its place is not
 * known, true where it is known to be there.
 */
function isIn(r: PlanResource, place: Place, ctx: PlanContext): boolean | undefined {
  const regional = r.type.includes('_region_');
  if (regional) {
    const region = regionOfResource(r, ctx);
    if (region === undefined) return undefined;
    // A regional disk serves the zones of its region; a link by region names it by its own.
    return place.kind === 'regions' ? region === place.at : place.at.startsWith(`${region}-`);
  }
  if (place.kind === 'regions') return false;
  const zone = zoneOf(r, ctx);
  return zone === undefined ? undefined : zone === place.at;
}

/**
 * The one resource of these types a known name or self link names; `near` is the zone a bare name is looked for in
 * (the attaching instance's). Where one resource has the name and no place is given or known, it is that one.
 */
export function byLink(ctx: PlanContext, types: readonly string[], source: string | undefined, near?: string): PlanResource | undefined {
  if (!source) return undefined;
  const m = LINK.exec(source);
  const name = m ? m[4] : source.slice(source.lastIndexOf('/') + 1);
  const place: Place | undefined = m ? { kind: m[2] as Place['kind'], at: m[3] } : near ? { kind: 'zones', at: near } : undefined;
  const project = m?.[1];
  const found = types
    .flatMap((t) => ctx.withValue(t, 'name', name))
    .filter((r) => !project || (str(at(r.values, 'project')) ?? project) === project);
  if (!place) return found.length === 1 ? found[0] : undefined;
  const placed = found.map((r) => ({ r, in: isIn(r, place, ctx) })).filter((x) => x.in !== false);
  // One that may be there, and (when several have the name) known to be: never one whose place is only guessed.
  if (placed.length !== 1) return undefined;
  return placed[0].in === true || found.length === 1 ? placed[0].r : undefined;
}
