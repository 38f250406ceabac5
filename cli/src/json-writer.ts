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

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` does. Objects and arrays `depth` levels deep are written
 * part by part; below that, an array's elements are stringified some hundreds at a time (nested in as many
 * arrays as the array itself is deep, so that JSON.stringify indents them where they belong) and anything else
 * whole. A toJSON(key) of an element of such a batch is given its index in the batch.
 */
export function writeJson(value: unknown, out: { write(s: string): void }, depth = 3, level = 0): void {
  const indent = '  '.repeat(level);
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    out.write(indented(JSON.stringify(value, null, 2), indent));
    return;
  }
  const array = Array.isArray(value);
  if (array && depth <= 0) return writeBatched(value, out, level);
  if (depth <= 0) return out.write(indented(JSON.stringify(value, null, 2), indent));
  const keys = array ? value.map((_, i) => String(i)) : Object.keys(value);
  let first = true;
  for (const k of keys) {
    let v = jsonValue(value as Holder, k);
    if (omitted(v)) {
      if (!array) continue;
      v = null;
    }
    out.write(`${first ? (array ? '[' : '{') : ','}\n${indent}  ${array ? '' : `${JSON.stringify(k)}: `}`);
    first = false;
    writeJson(v, out, depth - 1, level + 1);
  }
  out.write(first ? (array ? '[]' : '{}') : `\n${indent}${array ? ']' : '}'}`);
}

const BATCH = 256;

function writeBatched(items: unknown[], out: { write(s: string): void }, level: number): void {
  if (!items.length) return out.write('[]');
  const opening = Array.from({ length: level + 1 }, (_, i) => `${'  '.repeat(i)}[\n`).join('');
  const closing = Array.from({ length: level + 1 }, (_, i) => `\n${'  '.repeat(level - i)}]`).join('');
  out.write('[\n');
  for (let i = 0; i < items.length; i += BATCH) {
    let nested: unknown = items.slice(i, i + BATCH);
    for (let l = 0; l < level; l++) nested = [nested];
    const text = JSON.stringify(nested, null, 2);
    out.write(`${i ? ',\n' : ''}${text.slice(opening.length, text.length - closing.length)}`);
  }
  out.write(`\n${'  '.repeat(level)}]`);
}

function indented(json: string, indent: string): string {
  return indent && json.includes('\n') ? json.replace(/\n/g, `\n${indent}`) : json;
}
