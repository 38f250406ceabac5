/**
 * A bounded memo, least recently used out: the advice memo and the size-search memo keep what a long editing
 * session or a spec of many distinct VMs is likely to ask for again, not everything ever searched.
 */
export function recall<V>(memo: Map<string, V>, key: string, limit: number, make: () => V): V {
  let v = memo.get(key);
  if (v !== undefined || memo.has(key)) memo.delete(key);
  else {
    v = make();
    if (memo.size >= limit) memo.delete(memo.keys().next().value!);
  }
  memo.set(key, v as V);
  return v as V;
}
