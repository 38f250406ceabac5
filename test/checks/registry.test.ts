/**
 * The check registry (core/src/checks/registry.ts) and the rules that keep it whole: every module is
 * registered, every code documented and tested, and docs/lint.md says what the registry says.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHECKS, codeTableMarkdown, DIAGNOSTIC_CODES, moduleOf } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');

describe('checks: registry', () => {
  it('every registered code has a severity, a summary and docs', () => {
    for (const [code, info] of Object.entries(DIAGNOSTIC_CODES)) {
      assert.ok(['error', 'warning', 'information', 'hint'].includes(info.severity), code);
      assert.ok(info.summary.length > 10 && info.summary.endsWith('.'), code);
      assert.ok(info.docs.length > 10 && info.docs.endsWith('.'), code);
      assert.equal(moduleOf(code)?.codes[code], info, code);
    }
  });
  it('every module file in core/src/checks is in the registry, under its file name', () => {
    const files = readdirSync(join(ROOT, 'core/src/checks')).filter(
      (f) => f.endsWith('.ts') && !['registry.ts', 'types.ts', 'docs.ts'].includes(f),
    );
    assert.deepEqual(files.map((f) => f.replace(/\.ts$/, '')).sort(), CHECKS.map((m) => m.id).sort());
  });
  it('every module has a test file here that names each of its codes', () => {
    for (const m of CHECKS) {
      const test = readFileSync(join(ROOT, 'test/checks', `${m.id}.test.ts`), 'utf8');
      for (const code of Object.keys(m.codes)) assert.ok(test.includes(`'${code}'`), `test/checks/${m.id}.test.ts does not test ${code}`);
    }
  });
  it('docs/lint.md lists exactly the registry (run `npm run docs:codes` after changing a code)', () => {
    const doc = readFileSync(join(ROOT, 'docs/lint.md'), 'utf8');
    assert.ok(doc.includes(codeTableMarkdown()), 'docs/lint.md is out of date: run npm run docs:codes');
  });
});
