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
 *
 * Text is encoded as UTF-8 straight into a buffer of 1 MiB that the pieces are cut from (`Utf8Pieces`), not into a
 * buffer of its own for each chunk: a VM's JSON is some ten kilobytes, and encoding it with `Buffer.from` (which
 * measures the text first, then allocates) took twice as long as writing it into room already there.
 */
export async function writeChunks(chunks: Iterable<Chunk>, stream: Writable): Promise<void> {
  const pieces = new Utf8Pieces();
  let failed = false;
  const onError = () => {
    failed = true;
  };
  stream.on('error', onError);
  const flush = async (last: boolean) => {
    const ready = pieces.take(last);
    if (!ready.length) return;
    let ok = true;
    if (ready.length === 1) ok = stream.write(ready[0]);
    else {
      // Pieces are written as they are, not copied into one buffer: the stream gathers them into one system call.
      stream.cork();
      for (const p of ready) ok = stream.write(p) && ok;
      stream.uncork();
    }
    if (!ok && !failed) await drained(stream, onError);
  };
  try {
    for (const c of chunks) {
      if (failed) return;
      pieces.add(c);
      if (pieces.size >= PIECE) await flush(false);
    }
    if (!failed) await flush(true);
  } finally {
    stream.off('error', onError);
  }
}

/** About how many bytes `writeChunks` gathers before it writes. */
const PIECE = 65536;
/** The buffer text is encoded into; a text that may need more than a quarter of it gets a buffer of its own. */
const SLAB = 1 << 20;

/**
 * Chunks as UTF-8 bytes, ready to write. Text is encoded into the free end of one buffer, and what is encoded is
 * taken as a view of it (the stream keeps the view until written, so the buffer is never written over: a new one
 * is made when it is full). Bytes already encoded are copied in where small, else given as they are.
 * A text chunk may end inside a surrogate pair: its first half is kept back and encoded with the next text, as
 * the text joined would be.
 */
export class Utf8Pieces {
  private slab = Buffer.allocUnsafe(SLAB);
  /** Where the bytes not yet taken begin, and where they end. */
  private from = 0;
  private to = 0;
  /** Views taken out of order: bytes given whole, and the slab's part before them. */
  private ready: Uint8Array[] = [];
  private readySize = 0;
  private pending = '';

  /** The bytes not yet taken. */
  get size(): number {
    return this.readySize + this.to - this.from;
  }

  add(c: Chunk): void {
    if (typeof c === 'string') return this.text(c);
    this.text('', true);
    if (c.byteLength > PIECE) return this.whole(c);
    if (c.byteLength > this.slab.length - this.to) this.renew();
    this.slab.set(c, this.to);
    this.to += c.byteLength;
  }

  /** The bytes so far, in order, and none kept; `last`: a first half of a surrogate pair left is written as it is. */
  take(last: boolean): Uint8Array[] {
    if (last) this.text('', true);
    this.cut();
    const out = this.ready;
    this.ready = [];
    this.readySize = 0;
    return out;
  }

  private text(t: string, flushPending = false): void {
    if (this.pending) [t, this.pending] = [this.pending + t, ''];
    const n = t.length;
    if (!flushPending && n && (t.charCodeAt(n - 1) & 0xfc00) === 0xd800) [t, this.pending] = [t.slice(0, -1), t.slice(-1)];
    if (!t) return;
    // At most three bytes a UTF-16 code unit (a pair, two units, is four bytes).
    if (3 * t.length > SLAB >> 2) return this.whole(Buffer.from(t, 'utf8'));
    if (3 * t.length > this.slab.length - this.to) this.renew();
    this.to += this.slab.write(t, this.to);
  }

  /** Bytes given as they are, after what came before them. */
  private whole(bytes: Uint8Array): void {
    this.cut();
    this.ready.push(bytes);
    this.readySize += bytes.byteLength;
  }

  /** The slab's bytes not yet taken, as a view, put with what is ready. */
  private cut(): void {
    if (this.to === this.from) return;
    this.ready.push(this.slab.subarray(this.from, this.to));
    this.readySize += this.to - this.from;
    this.from = this.to;
  }

  private renew(): void {
    this.cut();
    this.slab = Buffer.allocUnsafe(SLAB);
    this.from = this.to = 0;
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
 * `JSON.stringify(value, null, 2)` with every line after the first indented by `indent` (spaces, two a level):
 * stringified nested in as many arrays as `indent` is deep, so that JSON.stringify indents it where it belongs, and
 * the text between the arrays' brackets taken as it is (a slice: no copy of the text to indent it, nor to cut it out).
 */
export function nestedJson(value: unknown, indent: string): string {
  const levels = indent.length >> 1;
  const text = JSON.stringify(wrapped(value, levels), null, 2);
  const cut = bracketChars(levels);
  // The value's own first line comes after the indentation of its place.
  return text.slice(cut + indent.length, text.length - cut);
}

export function indented(json: string, indent: string): string {
  return indent && json.includes('\n') ? json.replace(/\n/g, `\n${indent}`) : json;
}
