/**
 * What a reference to a resource of the module stands for before plan (`google_compute_disk.data[*].name`,
 * `aws_instance.web.availability_zone`): the arguments its configuration sets, as Terraform's plan knows them
 * (https://developer.hashicorp.com/terraform/language/expressions/references#values-not-yet-known); an attribute
 * the provider computes (`id`, `self_link`) or one set from a value unknown here is unknown, and says so
 * (`Unknowns` of ./hcl-convert.ts, set by the reader on each block's values). With `count` it is a list of the
 * instances, with `for_each` a map of them by key, as in Terraform.
 */
import type { Node } from 'jsonc-parser';
import { withUnknowns, type Why } from './hcl-convert';
import { arrayNode, objectNode } from './hcl-nodes';
import type { PlanResource } from './plan-model';

/** How a resource block makes its instances. */
export type Expansion = 'count' | 'for_each' | 'one';

/**
 * A block's values (`values` of the reader: attributes by name, nested blocks as lists) as a reference reads them:
 * an attribute it lacks is unknown, said by `why` (an attribute written but unknown here) or as computed.
 */
export function referable(values: Node, owner: string, why: (path: string[]) => Why[] | undefined, path: string[] = []): Node {
  const where = path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  return withUnknowns(values, {
    keys: new Map(),
    other: (key) => why([...path, key]) ?? [{ text: `${owner}${where}.${key} is known only after apply` }],
  });
}

/**
 * The value of `reference` (`type.name`) for the instances read of it, or why it is unknown: `unexpanded` where its
 * count or for_each is unknown until plan (said on it); undefined where the module has no such resource.
 */
export function resourceValue(
  reference: string,
  expansion: Expansion | undefined,
  instances: readonly PlanResource[],
  unexpanded: boolean,
): Node | Why | undefined {
  if (unexpanded) return { text: `${reference}'s instances are unknown until plan` };
  if (!expansion) return undefined;
  const values = instances.filter((r) => r.values).map((r) => ({ key: r.index, node: { ...r.values! } }));
  if (expansion === 'one') return values[0]?.node;
  if (expansion === 'count')
    return arrayNode(
      values.sort((a, b) => Number(a.key) - Number(b.key)).map((x) => x.node),
      0,
      0,
    );
  return objectNode(
    values.map((x): [string, Node, number] => [String(x.key), x.node, x.node.offset]),
    0,
    0,
  );
}
