/** The extension's snippets, expanded with their default values, are specs that evaluate cleanly. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze } from '../../core/src';

const ROOT = resolve(__dirname, '../../..');
const snippets = JSON.parse(readFileSync(join(ROOT, 'snippets/storage-perf.json'), 'utf8')) as Record<
  string,
  { prefix: string | string[]; body: string[]; isFileTemplate?: boolean }
>;

/** What VS Code inserts when every placeholder keeps its default: `${1:x}` → x, `${2|a,b|}` → a, `$0` → ''. */
function expand(body: string[]): string {
  const defaults = new Map<string, string>();
  const text = body
    .join('\n')
    .replace(/\$\{(\d+):([^}]*)\}/g, (_, n: string, v: string) => {
      defaults.set(n, v);
      return v;
    })
    .replace(/\$\{(\d+)\|([^|]*)\|\}/g, (_, n: string, v: string) => {
      const first = v.split(',')[0];
      defaults.set(n, first);
      return first;
    });
  return text.replace(/\$\{(\d+)\}|\$(\d+)/g, (_, a: string | undefined, b: string | undefined) => defaults.get(a ?? b!) ?? '');
}

describe('snippets', () => {
  const templates = Object.entries(snippets).filter(([, s]) => s.isFileTemplate);

  it('offers a new-spec template per provider', () => {
    assert.deepEqual(
      templates.map(([name]) => name),
      ['New spec (Google Cloud)', 'New spec (Yandex Cloud)', 'New spec (AWS)'],
    );
  });

  for (const [name, s] of templates) {
    it(`${name} expands to a spec with no error or warning, and its workload meets its target`, () => {
      const a = analyze(expand(s.body));
      assert.deepEqual(
        a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => `${d.code}: ${d.message}`),
        [],
      );
      assert.equal(a.vms.length, 1);
      assert.equal(a.vms[0].disks.length, 1);
      assert.equal(a.vms[0].workloads[0].meets_target, true);
      assert.ok(a.monthly_cost! > 0);
    });
  }

  it('the item snippets are fragments of a spec: indented YAML list items', () => {
    for (const [name, s] of Object.entries(snippets).filter(([, x]) => !x.isFileTemplate)) {
      assert.match(s.body[0], /^- name: /, name);
      for (const line of s.body.slice(1)) assert.match(line, /^( {2}\S|\$0$)| {4,}\S/, `${name}: ${line}`);
    }
  });
});
