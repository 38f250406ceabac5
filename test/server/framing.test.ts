/** The frame guard in front of the JSON-RPC reader, in process: what it passes on, byte for byte, and what it drops. */
import * as assert from 'node:assert/strict';
import { FrameResync } from '../../server/src/framing';

const frame = (body: string, length = Buffer.byteLength(body)) => `Content-Length: ${length}\r\n\r\n${body}`;
const A = frame('{"jsonrpc":"2.0","id":1,"method":"a","params":{"text":"Content-Length: 5\\r\\n\\r\\n"}}');
const B = frame('{"jsonrpc":"2.0","id":2,"method":"b"}');

/** What comes out when `input` goes in as the given chunks, and what is reported. */
async function through(chunks: Array<string | Buffer>): Promise<{ out: string; said: string[] }> {
  const said: string[] = [];
  const t = new FrameResync((m) => said.push(m));
  const out: Buffer[] = [];
  t.on('data', (b: Buffer) => out.push(Buffer.from(b)));
  const ended = new Promise((res) => t.on('end', res));
  for (const c of chunks) t.write(c);
  t.end();
  await ended;
  return { out: Buffer.concat(out).toString(), said };
}

describe('frame guard (server/src/framing.ts)', () => {
  it('well-formed frames pass byte for byte, split anywhere, a body quoting a header included', async () => {
    const input = A + B;
    for (let cut = 1; cut < input.length; cut++) {
      const r = await through([input.slice(0, cut), input.slice(cut)]);
      assert.deepEqual(r, { out: input, said: [] }, `cut at ${cut}`);
    }
  });

  it('a 10 MB frame in 64 KB chunks passes whole', async () => {
    const big = Buffer.from(frame(JSON.stringify({ text: 'x'.repeat(10 * 1024 * 1024) })));
    const chunks: Buffer[] = [];
    for (let i = 0; i < big.length; i += 65536) chunks.push(big.subarray(i, i + 65536));
    const r = await through(chunks);
    assert.equal(r.out.length, big.length);
    assert.ok(r.out === big.toString(), 'the same bytes');
    assert.deepEqual(r.said, []);
  });

  it('broken frames are dropped and said; the frames around them pass', async () => {
    const body = '{"jsonrpc":"2.0","id":3,"method":"c"}';
    const short = frame(body, body.length - 5);
    // Each broken input, what is passed on, and why the rest is dropped. A length too short passes its frame as
    // the header says (the JSON reader drops it as not JSON) and the guard drops the rest of the body; in one too
    // long the next frame's header is found, and the broken frame dropped.
    const cases: Array<[string, string, string]> = [
      [short, A + short.slice(0, -5) + B + B, 'bytes before a Content-Length header'],
      [frame(body, body.length + 5), A + B + B, 'Content-Length longer than its body'],
      [`X-Garbage: yes\r\n\r\n${body}`, A + B + B, 'without a valid Content-Length'],
      ['Content-Length: many\r\n\r\n', A + B + B, 'without a valid Content-Length'],
      [`Content-Length: 999999999999\r\n\r\n${body}`, A + B + B, 'Content-Length longer than its body'],
    ];
    for (const [broken, out, why] of cases) {
      const r = await through([A + broken + B + B]);
      assert.equal(r.out, out, JSON.stringify(broken));
      assert.ok(
        r.said.some((m) => m.includes(why)),
        JSON.stringify(r.said),
      );
    }
  });

  it('input that ends inside a frame is said', async () => {
    const r = await through([A + B.slice(0, 20)]);
    assert.equal(r.out, A);
    assert.match(r.said.join('\n'), /input ended inside a frame: 20 bytes dropped/);
  });
});
