/**
 * `JSON.stringify(value, null, 2)` written in pieces. The report of a spec of ten thousand VMs is tens of
 * megabytes of JSON: as one string (and the buffer it is copied into to be written) it would more than double
 * the command's peak memory. The outer arrays and objects are written element by element; each element below
 * `depth` is stringified on its own and indented to its place, which gives the same bytes as one
 * `JSON.stringify` of the whole.
 */
import type { Writable } from 'node:stream';

/**
 * Writes `chunks` to `stream` in pieces of about 64 KiB, waiting whenever the stream asks to (a pipe to a slow
 * reader would otherwise queue the whole report in memory). Stops at the stream's first error: a reader that
 * went away (`| head`) wants no more.
 */
export async function writeChunks(chunks: Iterable<Chunk>, stream: Writable): Promise<void> {
  let parts: Chunk[] = [];
  let size = 0;
  let failed = false;
  const onError = () => {
    failed = true;
  };
  stream.on('error', onError);
  const flush = async () => {
    let ok = true;
    if (parts.every((p) => typeof p === 'string')) ok = stream.write(parts.join(''));
    else {
      // Bytes are written as they are, not copied into one buffer: the stream gathers them into one system call.
      stream.cork();
      for (const p of parts) ok = stream.write(p) && ok;
      stream.uncork();
    }
    parts = [];
    size = 0;
    if (!ok && !failed) await drained(stream, onError);
  };
  try {
    for (const c of chunks) {
      if (failed) return;
      parts.push(c);
      size += typeof c === 'string' ? c.length : c.byteLength;
      if (size >= 65536) await flush();
    }
    if (parts.length && !failed) await flush();
  } finally {
    stream.off('error', onError);
  }
}

/**
 * A piece of the output: text, or text already encoded as UTF-8 (a part many VMs share is encoded once, not once
 * for each of them).
 */
export type Chunk = string | Uint8Array;

/** Resolves when `stream` drains; a stream that closes or fails never drains: then `onEnd` and resolve too. */
function drained(stream: Writable, onEnd: () => void): Promise<void> {
  return new Promise((res) => {
    const done = () => {
      for (const [event, f] of listeners) stream.off(event, f);
      res();
    };
    const ended = () => {
      onEnd();
      done();
    };
    const listeners: Array<[string, () => void]> = [
      ['drain', done],
      ['close', ended],
      ['error', ended],
    ];
    for (const [event, f] of listeners) stream.on(event, f);
  });
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
 * `value` as `JSON.stringify(value, null, 2)` writes it, in pieces. Objects and arrays `depth` levels deep are written
 * part by part; below that, an array's elements are stringified some hundreds at a time (nested in as many
 * arrays as the array itself is deep, so that JSON.stringify indents them where they belong) and anything else
 * whole. A toJSON(key) of an element of such a batch is given its index in the batch.
 */
export function* jsonChunks(value: unknown, depth = 3, level = 0): Generator<Chunk> {
  const indent = '  '.repeat(level);
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield indented(JSON.stringify(value, null, 2), indent);
    return;
  }
  // An iterable that is not an array (a generator of the report's VMs) is written as the array it yields.
  if (!Array.isArray(value) && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function')
    return yield* batched(value as Iterable<unknown>, level);
  const array = Array.isArray(value);
  if (array && depth <= 0) return yield* batched(value, level);
  if (depth <= 0) return yield indented(JSON.stringify(value, null, 2), indent);
  const keys = array ? value.map((_, i) => String(i)) : Object.keys(value);
  let first = true;
  for (const k of keys) {
    let v = jsonValue(value as Holder, k);
    if (omitted(v)) {
      if (!array) continue;
      v = null;
    }
    yield `${first ? (array ? '[' : '{') : ','}\n${indent}  ${array ? '' : `${JSON.stringify(k)}: `}`;
    first = false;
    yield* jsonChunks(v, depth - 1, level + 1);
  }
  yield first ? (array ? '[]' : '{}') : `\n${indent}${array ? ']' : '}'}`;
}

const BATCH = 256;

/**
 * An element of an iterable whose JSON is already written: `prewritten(indent)` gives what
 * `JSON.stringify(element, null, 2)` would, with every line after the first indented by `indent`. The report's
 * VMs written alike share all their text but their names (cli/src/evaluate.ts).
 */
export interface PrewrittenJson {
  readonly prewritten: (indent: string) => Chunk[];
}

function isPrewritten(v: unknown): v is PrewrittenJson {
  return typeof v === 'object' && v !== null && typeof (v as Partial<PrewrittenJson>).prewritten === 'function';
}

/** `value` inside `levels` arrays, for JSON.stringify to indent it as deep as they are. */
function wrapped(value: unknown, levels: number): unknown {
  let nested = value;
  for (let l = 0; l < levels; l++) nested = [nested];
  return nested;
}

/**
 * How many characters the brackets of `levels` nested arrays take in JSON.stringify(…, null, 2) before what the
 * innermost holds, and as many after it: array i opens with i × 2 spaces, '[' and a newline, and closes alike.
 * All ASCII: as many bytes.
 */
const bracketChars = (levels: number) => levels * (levels + 1);

function* batched(items: Iterable<unknown>, level: number): Generator<Chunk> {
  const pad = '  '.repeat(level + 1);
  let batch: unknown[] = [];
  let first = true;
  const flush = () => {
    // The batch is the innermost of level + 1 arrays.
    const text = JSON.stringify(wrapped(batch, level), null, 2);
    const cut = bracketChars(level + 1);
    const out = `${first ? '[\n' : ',\n'}${text.slice(cut, text.length - cut)}`;
    batch = [];
    first = false;
    return out;
  };
  for (const item of items) {
    if (isPrewritten(item)) {
      if (batch.length) yield flush();
      yield `${first ? '[\n' : ',\n'}${pad}`;
      yield* item.prewritten(pad);
      first = false;
      continue;
    }
    batch.push(item);
    if (batch.length >= BATCH) yield flush();
  }
  if (batch.length) yield flush();
  yield first ? '[]' : `\n${'  '.repeat(level)}]`;
}

/**
 * `JSON.stringify(value, null, 2)` with every line after the first indented by `indent` (spaces, two a level), as
 * UTF-8: stringified nested in as many arrays as `indent` is deep, so that JSON.stringify indents it where it
 * belongs, and the bytes between the arrays' brackets taken as they are (no copy of the text to indent it, nor
 * to cut it out: a view of the one buffer it is encoded into).
 */
export function nestedJson(value: unknown, indent: string): Uint8Array {
  const levels = indent.length >> 1;
  const bytes = Buffer.from(JSON.stringify(wrapped(value, levels), null, 2), 'utf8');
  const cut = bracketChars(levels);
  // The value's own first line comes after the indentation of its place.
  return bytes.subarray(cut + indent.length, bytes.length - cut);
}

export function indented(json: string, indent: string): string {
  return indent && json.includes('\n') ? json.replace(/\n/g, `\n${indent}`) : json;
}
