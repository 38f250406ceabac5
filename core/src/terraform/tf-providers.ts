/**
 * Provider configurations of a module's .tf files, for what they default: the `region`/`zone` a resource that
 * gives none of its own runs in (google: `zone`, `region`; aws: `region`; yandex: `zone`). Resources use their
 * provider's default configuration, or the one their `provider` argument names (`google.west`); a child module
 * inherits its caller's default configurations, or exactly those its `providers` argument maps.
 */
import { evaluate, named, type HclSyntaxNode, type Scope } from './hcl-values';
import { PROVIDER_DEFAULTS, type ProviderDefaults } from './plan-model';

/** Provider configurations by name as resources refer to them: `google`, `google.west`. */
export type Providers = Map<string, ProviderDefaults>;

const attrs = (body: HclSyntaxNode | undefined) => (body ? named(body).filter((c) => c.type === 'attribute') : []);
const nameOf = (n: HclSyntaxNode) => named(n)[0]?.text ?? '';
const exprOf = (a: HclSyntaxNode) => named(a).find((c) => c.type === 'expression');
const bodyOf = (b: HclSyntaxNode) => named(b).find((c) => c.type === 'body');
const labelOf = (b: HclSyntaxNode) => {
  const l = named(b)[1];
  return l?.type === 'string_lit' ? l.text.slice(1, -1) : l?.type === 'identifier' ? l.text : undefined;
};

/** A `provider "google" { ... }` block into `into`, under `google` or `google.<alias>`. */
export function readProviderBlock(b: HclSyntaxNode, scope: Scope, into: Providers, merge = false): void {
  const name = labelOf(b);
  if (!name) return;
  const body = bodyOf(b);
  const alias = attrs(body).find((a) => nameOf(a) === 'alias');
  const aliasValue = alias && exprOf(alias) && evaluate(exprOf(alias)!, scope);
  const key = aliasValue?.type === 'string' ? `${name}.${String(aliasValue.value)}` : name;
  // An override file's provider block changes only the arguments it sets.
  const defaults: ProviderDefaults = merge ? { ...into.get(key) } : {};
  for (const attr of PROVIDER_DEFAULTS[name] ?? []) {
    const a = attrs(body).find((x) => nameOf(x) === attr);
    const v = a && exprOf(a) && evaluate(exprOf(a)!, scope);
    if (v?.type === 'string') defaults[attr] = v;
    else if (a) defaults.unknown = `${key}'s ${attr} is ${exprOf(a)?.text.trim() ?? 'not given'}, which is unknown until plan`;
  }
  into.set(key, defaults);
}

/** The configuration a resource uses: its `provider` argument's, else its type's provider's default one. */
export function providerOf(type: string, given: HclSyntaxNode | undefined, providers: Providers): ProviderDefaults | undefined {
  const name = given ? exprOf(given)?.text.trim() : type.slice(0, type.indexOf('_'));
  return name ? providers.get(name) : undefined;
}

/** The configurations a module call passes: its `providers = { google = google.west }`, else the caller's defaults. */
export function providersForCall(body: HclSyntaxNode | undefined, caller: Providers): Providers {
  const given = attrs(body).find((a) => nameOf(a) === 'providers');
  if (!given) return new Map([...caller].filter(([k]) => !k.includes('.')));
  const out: Providers = new Map();
  const object = exprOf(given) && findObject(exprOf(given)!);
  for (const elem of object ? named(object).filter((e) => e.type === 'object_elem') : []) {
    const [k, v] = named(elem).filter((c) => c.type === 'expression');
    const from = v && caller.get(v.text.trim());
    if (k && from) out.set(k.text.trim(), from);
  }
  return out;
}

function findObject(n: HclSyntaxNode): HclSyntaxNode | undefined {
  if (n.type === 'object') return n;
  for (const c of named(n)) {
    const o = findObject(c);
    if (o) return o;
  }
  return undefined;
}
