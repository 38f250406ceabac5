/**
 * `JSON.stringify(value, null, 2)` written in pieces. The report of a spec of ten thousand VMs is tens of
 * megabytes of JSON: as one string (and the buffer it is copied into to be written) it would more than double
 * the command's peak memory. The outer arrays and objects are written element by element; each element below
 * `depth` is stringified on its own and indented to its place, which gives the same bytes as one
 * `JSON.stringify` of the whole.
 */

/** A buffer of pieces handed to `sink` about every 64 KiB: few writes, none large. */
export class ChunkedWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly sink: (s: string) => void) {}
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= 65536) this.flush();
  }
  flush(): void {
    if (this.parts.length) this.sink(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}

type Holder = Record<string, unknown> | unknown[];

/** What JSON.stringify would put for `holder[key]`: its toJSON() where it has one; undefined when left out. */
function jsonValue(holder: Holder, key: string): unknown {
  const v = (holder as Record<string, unknown>)[key];
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    return (v as { toJSON(k: string): unknown }).toJSON(key);
  return v;
}

function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** Writes `value` as `JSON.stringify(value, null, 2)` does, streaming its arrays and objects `depth` levels deep. */
export function writeJson(value: unknown, out: { write(s: string): void }, depth = 4, indent = ''): void {
  if (depth <= 0 || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const s = JSON.stringify(value, null, 2);
    out.write(indent && s.includes('\n') ? s.replace(/\n/g, `\n${indent}`) : s);
    return;
  }
  const inner = `${indent}  `;
  const array = Array.isArray(value);
  const keys = array ? value.map((_, i) => String(i)) : Object.keys(value);
  let first = true;
  for (const k of keys) {
    let v = jsonValue(value as Holder, k);
    if (omitted(v)) {
      if (!array) continue;
      v = null;
    }
    out.write(`${first ? (array ? '[' : '{') : ','}\n${inner}${array ? '' : `${JSON.stringify(k)}: `}`);
    first = false;
    writeJson(v, out, depth - 1, inner);
  }
  out.write(first ? (array ? '[]' : '{}') : `\n${indent}${array ? ']' : '}'}`);
}
