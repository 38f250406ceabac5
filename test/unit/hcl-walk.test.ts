/**
 * The HCL parser's copy of a tree out of the WebAssembly (protocol/src/hcl-walk.ts): the direct walk, which keeps
 * the cursor in the module's transfer buffer, copies the same tree as web-tree-sitter's `TreeCursor` does, node for
 * node (type, place, missing, error, named children), on every .tf file of the fixtures and on broken copies of
 * them (each cut in the middle, and with a brace taken out), which hold ERROR and missing nodes.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HclSyntaxNode } from '../../core/src';
import { copiedTree, loadHclParser } from '../../protocol/src/hcl-parser';
import { filesUnder } from '../fixtures/files-under';

const FIXTURES = join(__dirname, '../../../test/fixtures');

/** A tree as one line per node: depth, type, place, missing, error (a deep comparison of the trees is slower). */
function shape(n: HclSyntaxNode, depth = 0, out: string[] = []): string[] {
  out.push(`${depth} ${n.type} ${n.startIndex}-${n.endIndex}${n.isMissing ? ' missing' : ''}${n.hasError ? ' error' : ''}`);
  for (const c of n.namedChildren) shape(c!, depth + 1, out);
  return out;
}

/** The text as a whole, cut in the middle, and without its first closing brace. */
const versions = (text: string) => [text, text.slice(0, text.length >> 1), text.replace('}', '')];

describe('the HCL parser: the copy of a tree out of the WebAssembly', () => {
  before(() => loadHclParser());

  it('copies every fixture the same with the direct walk as with TreeCursor, broken copies included', () => {
    const files = filesUnder(FIXTURES, /\.tf$/);
    assert.ok(files.length > 100, `${files.length} .tf files`);
    let errors = 0;
    let missing = 0;
    for (const file of files)
      for (const text of versions(readFileSync(file, 'utf8'))) {
        const direct = copiedTree(text, 'direct');
        const cursor = copiedTree(text, 'cursor');
        assert.ok(direct && cursor, `${file}: both walks ran`);
        const lines = shape(direct.rootNode);
        assert.equal(lines.join('\n'), shape(cursor.rootNode).join('\n'), file);
        if (direct.rootNode.hasError) errors++;
        if (lines.some((l) => l.endsWith(' missing') || l.includes(' missing '))) missing++;
      }
    // The broken copies reach the error paths of the copy.
    assert.ok(errors > 100, `${errors} trees with errors`);
    assert.ok(missing > 0, `${missing} trees with a missing node`);
  });

  it('copies text outside ASCII by UTF-16 offsets, as the text is indexed', () => {
    const text = 'locals {\n  name = "données—ü"\n  n = 1\n}\n';
    const tree = copiedTree(text, 'direct')!;
    const block = tree.rootNode.namedChildren[0]!.namedChildren[0]!;
    const attrs = block.namedChildren.find((c) => c!.type === 'body')!.namedChildren;
    assert.deepEqual(
      attrs.map((a) => a!.text),
      ['name = "données—ü"', 'n = 1'],
    );
  });
});
