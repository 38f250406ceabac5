/**
 * Offsets ↔ line/column (core/src/text.ts `LineIndex`): lines end at LF, CRLF or a lone CR, and a text of LF alone
 * (found by a faster path) gives what the general one does.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineIndex } from '../../core/src';

/** Where each line starts, as a pattern finds the line ends. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  return starts;
}

describe('offsets and positions of a text', () => {
  it('every offset is on the line a pattern for LF, CRLF and CR finds, with or without CR in the text', () => {
    const chars = fc.constantFrom('a', 'é', ' ', '\n', '\r', '\r\n');
    const texts = fc.oneof(fc.array(chars, { maxLength: 60 }), fc.array(fc.constantFrom('a', ' ', '\n'), { maxLength: 60 }));
    fc.assert(
      fc.property(texts, (parts) => {
        const text = parts.join('');
        const starts = lineStarts(text);
        const index = new LineIndex(text);
        assert.equal(index.lineCount, starts.length);
        for (let o = 0; o <= text.length; o++) {
          let line = 0;
          while (line + 1 < starts.length && starts[line + 1] <= o) line++;
          assert.deepEqual(index.position(o), { line, character: o - starts[line] }, `offset ${o} of ${JSON.stringify(text)}`);
        }
      }),
      { numRuns: 500 },
    );
  });
});
