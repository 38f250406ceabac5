/**
 * A guard in front of the JSON-RPC reader on stdin. vscode-jsonrpc's reader trusts `Content-Length`: after a frame
 * whose length is wrong it reads the rest of the stream out of step (each body taken as the next header block,
 * rejected, and dropped), so the server ran on and never answered again. This stream passes well-formed frames
 * through byte for byte; where the bytes are not a frame it drops them up to the next `Content-Length` header
 * and says what it dropped on stderr. The damaged frame's request is lost: its id cannot be read.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ContentTypeDecoder, Message, MessageWriter } from 'vscode-languageserver/node';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = Buffer.from('content-length:');
/** A header block longer than this is not one (LSP headers are two short lines). */
const MAX_HEADER_BYTES = 4096;
/** A header field: `Name: value` (RFC 7230 token characters in the name). */
const FIELD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \t]*[\x20-\x7e]*$/;
/** The most room reserved ahead for a body: past it, the buffer grows by doubling as bytes come. */
const MAX_RESERVE = 64 * 1024 * 1024;
/** How far back from a blank line in a body a header block that starts there is looked for. */
const LOOK_BACK = 256;
/** A header block that ends at the end of the text: a frame begins there, inside what was taken as a body. */
const HEADER_AT_END = /content-length:[ \t]*\d+(?:\r\n[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*)*$/i;

/** The content length a well-formed header block gives, or undefined when it is not well formed. */
function contentLength(header: string): number | undefined {
  const lines = header.split('\r\n');
  if (!lines.every((l) => FIELD.test(l))) return undefined;
  const values = lines.filter((l) => /^content-length:/i.test(l)).map((l) => l.slice(l.indexOf(':') + 1).trim());
  return values.length === 1 && /^\d+$/.test(values[0]) ? Number(values[0]) : undefined;
}

/** Where the last `Content-Length:` (any case) in `bytes` starts, or -1. */
function lastContentLength(bytes: Buffer): number {
  return Buffer.from(bytes.toString('latin1').toLowerCase(), 'latin1').lastIndexOf(CONTENT_LENGTH);
}

export class FrameResync extends Transform {
  /** What has come and is not yet passed on: the first `size` bytes of `data`, which grows by doubling. */
  private data: Buffer = Buffer.alloc(0);
  private size = 0;
  /** How far the current frame's body has been searched for a header block inside it. */
  private scanned = 0;

  constructor(private readonly report: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.append(chunk);
      for (let frame = this.next(); frame; frame = this.next()) this.push(frame);
    } catch (e) {
      // An error here would end the stream, and with it every later request: drop what is buffered instead.
      this.report(`${this.size} bytes dropped after an error: ${(e as Error)?.message ?? String(e)}`);
      this.data = Buffer.alloc(0);
      this.size = 0;
      this.scanned = 0;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.buffer.length) this.report(`input ended inside a frame: ${this.buffer.length} bytes dropped`);
    done();
  }

  private get buffer(): Buffer {
    return this.data.subarray(0, this.size);
  }

  /** Copies a chunk in; a body of many chunks is copied once (concatenating per chunk took seconds for 10 MB). */
  private append(chunk: Buffer): void {
    this.reserve(Math.max(2 * this.data.length, this.size + chunk.length, 65536), this.size + chunk.length);
    chunk.copy(this.data, this.size);
    this.size += chunk.length;
  }

  /** Room for `bytes` in `data` when it has less than `needed`: a body whose length is known is copied once. */
  private reserve(bytes: number, needed = bytes): void {
    if (needed <= this.data.length) return;
    const grown = Buffer.allocUnsafe(bytes);
    this.data.copy(grown, 0, 0, this.size);
    this.data = grown;
  }

  /** Passes on or drops the first `bytes`: what is left starts the buffer (a view, nothing copied). */
  private consume(bytes: number): void {
    this.data = this.data.subarray(bytes);
    this.size -= bytes;
    this.scanned = 0;
  }

  private skip(bytes: number, why: string): void {
    this.report(`dropped ${bytes} bytes that were not a JSON-RPC frame (${why}); reading on from the next header`);
    this.consume(bytes);
  }

  /** The next whole frame, or undefined when more bytes are needed. Drops what is not a frame on the way. */
  private next(): Buffer | undefined {
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER_BYTES) this.dropBefore(this.buffer, 'no header end');
        return undefined;
      }
      const header = this.buffer.subarray(0, end);
      const length = contentLength(header.toString('latin1'));
      if (length === undefined) {
        this.dropBefore(header, 'a header block without a valid Content-Length', end + HEADER_END.length);
        continue;
      }
      const start = end + HEADER_END.length;
      const inside = this.headerInside(start, start + length);
      if (inside >= 0) {
        this.skip(inside, 'a Content-Length longer than its body: the next frame began inside it');
        continue;
      }
      if (this.buffer.length < start + length) {
        // Room for the whole body, up to a bound: a hostile length (10^12) must not allocate it.
        this.reserve(Math.min(start + length + LOOK_BACK, MAX_RESERVE));
        return undefined;
      }
      // A view: what comes later is written after it, or into a new buffer, never over it.
      const frame = this.buffer.subarray(0, start + length);
      this.consume(start + length);
      return frame;
    }
  }

  /** Drops what comes before the last `Content-Length:` in `bytes`, or `otherwise` bytes when there is none. */
  private dropBefore(bytes: Buffer, why: string, otherwise = bytes.length - CONTENT_LENGTH.length): void {
    const at = lastContentLength(bytes);
    if (at > 0) this.skip(at, 'bytes before a Content-Length header: the frame before was longer than its Content-Length said');
    else this.skip(Math.max(otherwise, 1), why);
  }

  /**
   * Where a header block begins inside the body being read, or -1. A JSON body holds no raw CR LF CR LF (line
   * breaks in strings are escaped), so a blank line after `Content-Length: n` in it is the next frame's header.
   * The header may end past the body's declared end (a length a few bytes too long cuts into it): what has
   * come after the body is searched too, up to a header's length.
   */
  private headerInside(from: number, to: number): number {
    const limit = Math.min(this.buffer.length, to + LOOK_BACK);
    for (;;) {
      const blank = this.buffer.indexOf(HEADER_END, from + this.scanned);
      if (blank < 0 || blank + HEADER_END.length > limit) {
        // A blank line may straddle the end of what has come: search its first bytes again next time.
        this.scanned = Math.max(this.scanned, Math.min(limit, to) - from - HEADER_END.length + 1);
        return -1;
      }
      const back = Math.max(from, blank - LOOK_BACK);
      const m = HEADER_AT_END.exec(this.buffer.subarray(back, blank).toString('latin1'));
      if (m && back + m.index < to) return back + m.index;
      this.scanned = blank + 1 - from;
    }
  }
}

/**
 * The JSON decoder of the reader, answering a body that is not JSON with JSON-RPC 2.0's Parse error (-32700, id
 * null: the id cannot be read), then failing as the library's own decoder does, so the body is dropped and the
 * next frame read.
 */
export function parseErrorReplying(writer: MessageWriter, report: (message: string) => void): ContentTypeDecoder {
  return {
    name: 'application/json',
    async decode(buffer: Uint8Array, options: { charset: BufferEncoding }): Promise<Message> {
      try {
        return JSON.parse(new TextDecoder(options.charset).decode(buffer)) as Message;
      } catch (e) {
        const reason = (e as Error)?.message ?? String(e);
        report(`a frame whose body is not JSON was answered with -32700: ${reason}`);
        await writer.write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${reason}` } } as Message);
        throw e;
      }
    },
  };
}
