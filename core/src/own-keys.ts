/**
 * Objects looked up by names that a spec or a Terraform file writes: a catalog's records (`c.disk_types[d.type]`,
 * `c.machine_series[series]`, a series' `shapes[name]`, prices by region) and the tables of the front ends
 * (resource types, Azure's storage account types, units). On an ordinary object such a lookup also finds what every
 * object inherits: a disk of type `constructor` found Object's constructor function as its type and the analysis
 * of its file failed; `series: constructor` resolved to a machine; a resource of type `constructor` failed the
 * Terraform front end. No check may have to remember that, so these objects inherit nothing: a lookup by a name
 * finds an entry of their own or nothing.
 */

/**
 * `value` with every plain object in it (itself included) given no prototype, in place: each keeps its own
 * properties and V8's fast layout (Object.create(null) would make a dictionary of each); arrays stay arrays.
 * Returns `value`.
 */
export function withoutInheritance<T>(value: T): T {
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (Object.getPrototypeOf(v) === Object.prototype) Object.setPrototypeOf(v, null);
    for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k]);
  };
  walk(value);
  return value;
}
