/** What the spec schema says about a place in the spec: key documentation, allowed keys, enums. */
import specSchema from '../../../schemas/storage-perf.schema.json';

interface SchemaNode {
  $ref?: string;
  description?: string;
  markdownDescription?: string;
  properties?: Record<string, SchemaNode>;
  /** Keys by pattern (the top level's `^x-` extension fields). */
  patternProperties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  enum?: unknown[];
  examples?: unknown[];
  default?: unknown;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  type?: string | string[];
  required?: string[];
}

const root = specSchema as unknown as SchemaNode & { definitions?: Record<string, SchemaNode> };

function deref(n: SchemaNode | undefined): SchemaNode | undefined {
  let cur = n;
  for (let i = 0; cur?.$ref && i < 8; i++) {
    const name = cur.$ref.replace(/^#\/definitions\//, '');
    // Keep the referring node's own description: it is specific to this use.
    const target = root.definitions?.[name];
    cur = target ? { ...target, ...withoutRef(cur) } : undefined;
  }
  return cur;
}

function withoutRef(n: SchemaNode): SchemaNode {
  const { $ref: _ignored, ...rest } = n;
  return rest;
}

/** The schema node for a JSON pointer into the spec (array indices step into `items`). */
export function schemaAt(path: string): SchemaNode | undefined {
  let cur: SchemaNode | undefined = deref(root);
  for (const seg of path.split('/').slice(1)) {
    if (!cur) return undefined;
    if (/^\d+$/.test(seg) && cur.items) cur = deref(cur.items);
    else cur = deref(propertyOf(cur, seg.replace(/~1/g, '/').replace(/~0/g, '~')));
  }
  return cur;
}

/** The schema of key `key` of an object: its own property, else the first pattern it matches. */
function propertyOf(n: SchemaNode, key: string): SchemaNode | undefined {
  const own = n.properties?.[key];
  if (own || !n.patternProperties) return own;
  return Object.entries(n.patternProperties).find(([pattern]) => new RegExp(pattern, 'u').test(key))?.[1];
}

export function describeKey(path: string): string | undefined {
  const n = schemaAt(path);
  if (!n || !path) return undefined;
  const key = path.split('/').pop();
  const doc = n.markdownDescription ?? n.description;
  if (!doc) return undefined;
  const ex = n.examples?.length
    ? `\n\nExamples: ${n.examples.map((e) => `\`${typeof e === 'string' ? e : JSON.stringify(e)}\``).join(', ')}`
    : '';
  return `\`${key}\` — ${doc}${ex}`;
}

/** Keys the schema allows in the object at `path`, with their documentation. */
export function keysAt(path: string): Array<{ key: string; doc: string; required: boolean; node: SchemaNode }> {
  const n = schemaAt(path);
  if (!n?.properties) return [];
  return Object.entries(n.properties).map(([key, child]) => {
    const d = deref(child) ?? child;
    return { key, doc: d.markdownDescription ?? d.description ?? '', required: !!n.required?.includes(key), node: d };
  });
}

export function enumAt(path: string): string[] | undefined {
  const n = schemaAt(path);
  return n?.enum?.map(String);
}

export function examplesAt(path: string): unknown[] {
  return schemaAt(path)?.examples ?? [];
}
