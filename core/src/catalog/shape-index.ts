/**
 * Machine names a provider writes with capitals (Azure: Standard_D8s_v5), read in any case: such a name is the
 * provider's own spelling, not a lower-case name written in capitals.
 */
import type { Catalog, MachineSeries } from './types';

export interface NamedShape {
  series: string;
  name: string;
  vcpus: number;
  info: MachineSeries;
}

/** Whether a machine's name is written with capitals by its provider (then any case of it is read). */
export function anyCase(name: string): boolean {
  return name !== name.toLowerCase();
}

/** The shapes with capitals in their names, by their lower-case spelling. */
export function shapeIndex(c: Catalog): Map<string, NamedShape> {
  let index = shapeIndexes.get(c);
  if (!index) {
    index = new Map();
    for (const [series, info] of Object.entries(c.machine_series))
      for (const [name, vcpus] of Object.entries(info.shapes ?? {}))
        if (anyCase(name)) index.set(name.toLowerCase(), { series, name, vcpus, info });
    shapeIndexes.set(c, index);
  }
  return index;
}
const shapeIndexes = new WeakMap<Catalog, Map<string, NamedShape>>();

/** How the edition's machine types are named: Google's pattern, or (AWS) named sizes with an example. */
export function nameRule(c: Catalog): string {
  const any = shapeIndex(c).values().next().value;
  if (any) return `names are as the provider writes them (any case), such as ${any.name}`;
  if (!namedSizes(c)) return 'names are <series>-<family>-<vCPUs> (n2-standard-8)';
  return `names are <family>.<size>, such as ${Object.keys(Object.values(c.machine_series)[0].shapes!)[0]}`;
}

/** Whether the edition names machines <family>.<size> (AWS), rather than by Google's pattern. */
export function namedSizes(c: Catalog): boolean {
  const series = Object.values(c.machine_series);
  return series.length > 0 && series.every((i) => !i.families && i.shapes);
}
