/** The TextMate injection that highlights quantities: which spellings it takes as a number and a unit. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const injection = JSON.parse(readFileSync(join(ROOT, 'syntaxes/storage-perf.injection.tmLanguage.json'), 'utf8')) as {
  scopeName: string;
  injectionSelector: string;
  repository: { quantity: { match: string; captures: Record<string, { name: string }> } };
};
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { grammars: Array<{ scopeName: string; injectTo?: string[]; path: string }> };
};

// Oniguruma's leading (?i) is JavaScript's "i" flag; the rest of the pattern is common syntax.
const source = injection.repository.quantity.match;
assert.ok(source.startsWith('(?i)'));
const quantity = new RegExp(source.slice(4), 'gi');

function quantities(text: string): Array<[string, string]> {
  return [...text.matchAll(quantity)].map((m) => [m[1], m[2]]);
}

describe('grammar: quantities injected into YAML', () => {
  it('is contributed as an injection into YAML and the spec language', () => {
    const g = manifest.contributes.grammars.find((x) => x.scopeName === injection.scopeName);
    assert.ok(g);
    assert.deepEqual(g.injectTo?.sort(), ['source.storage-perf', 'source.yaml']);
    assert.match(injection.injectionSelector, /string\.unquoted/);
  });

  it('splits every unit the spec accepts into number and unit', () => {
    const cases: Array<[string, [string, string]]> = [
      ['500GiB', ['500', 'GiB']],
      ['1.5 TB', ['1.5', 'TB']],
      ['2TiB', ['2', 'TiB']],
      ['500GB', ['500', 'GB']],
      ['400MiB/s', ['400', 'MiB/s']],
      ['100MB/s', ['100', 'MB/s']],
      ['1.2GB/s', ['1.2', 'GB/s']],
      ['2GiB/s', ['2', 'GiB/s']],
      ['10Gbps', ['10', 'Gbps']],
      ['800Mbps', ['800', 'Mbps']],
      ['8KiB', ['8', 'KiB']],
      ['4k', ['4', 'k']],
      ['1m', ['1', 'm']],
      ['256KiB', ['256', 'KiB']],
    ];
    for (const [text, want] of cases) assert.deepEqual(quantities(text), [want], text);
  });

  it('leaves alone what is not a quantity: names, machine types, bare numbers', () => {
    for (const text of ['n2-standard-8', 'pd-ssd', 'hyperdisk-balanced', 'us-central1', '12000', 'v2', 'db1m', 'a4k', '4kHz', '8KiB/x'])
      assert.deepEqual(quantities(text), [], text);
  });
});
