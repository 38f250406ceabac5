/**
 * `storage-perf diff --format markdown` as a pull-request comment: the committed example (docs/diff-example.md) is
 * what the command prints, and it renders as it should — read by a Markdown parser (markdown-it, the CommonMark
 * parser VS Code uses), every table's rows have the header's columns, aligned in the source too, and every
 * `<details>` block is closed. A change too large for one comment stays within 65,000 characters and says what
 * it left out.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import { analyze, diffAnalyses, EvaluationCache } from '../../core/src';
import { MARKER, MAX_MARKDOWN, renderMarkdown } from '../../cli/src/diff/markdown';
import { SPEC_HEAD, vmLines } from '../../bench/specs';

const ROOT = resolve(__dirname, '../../..');

/** Each table's rows as the parser reads them: cells per row, header first. */
function tables(md: string): number[][] {
  const tokens = new MarkdownIt({ html: true }).parse(md, {});
  const out: number[][] = [];
  let cells = 0;
  for (const t of tokens) {
    if (t.type === 'table_open') out.push([]);
    else if (t.type === 'tr_open') cells = 0;
    else if (t.type === 'th_open' || t.type === 'td_open') cells++;
    else if (t.type === 'tr_close') out[out.length - 1].push(cells);
  }
  return out;
}

/** The checks every comment passes: tables whole and aligned, <details> opened and closed in turn. */
function assertRenders(md: string): void {
  const found = tables(md);
  assert.ok(found.length > 0, 'a table at least');
  for (const rows of found)
    assert.ok(
      rows.every((n) => n === rows[0]),
      `every row has the header's ${rows[0]} columns: ${rows.join(',')}`,
    );
  // In the source: runs of lines that start with a pipe.
  const sourceTables: string[][] = [];
  let run: string[] | undefined;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) run = undefined;
    else if (run) run.push(line);
    else sourceTables.push((run = [line]));
  }
  assert.equal(sourceTables.length, found.length, 'every table in the source is one the parser reads');
  const pipes = (l: string) => [...l].flatMap((c, i) => (c === '|' && l[i - 1] !== '\\' ? [i] : []));
  for (const lines of sourceTables)
    for (const l of lines) assert.deepEqual(pipes(l), pipes(lines[0]), `aligned with its header:\n${lines[0]}\n${l}`);
  // The blocks open and close at the start of a line (a name's `<details>` in a code span is text).
  let depth = 0;
  for (const m of md.matchAll(/^<(\/?)details>/gm)) {
    depth += m[1] ? -1 : 1;
    assert.ok(depth >= 0 && depth <= 1, 'a <details> closed before the next opens');
  }
  assert.equal(depth, 0, 'every <details> is closed');
  // The parser sees the blocks as HTML: as many in what it renders as the source opens.
  const rendered = new MarkdownIt({ html: true }).render(md);
  assert.equal((rendered.match(/<details>/g) ?? []).length, (md.match(/^<details>/gm) ?? []).length);
}

describe('storage-perf diff --format markdown', () => {
  it('docs/diff-example.md is what the command prints for the worked example', () => {
    const r = spawnSync(process.execPath, ['scripts/write-diff-example.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('the example renders: tables whole and aligned, every <details> closed, the summary first', () => {
    const md = readFileSync(join(ROOT, 'docs/diff-example.md'), 'utf8');
    assertRenders(md);
    const lines = md.split('\n');
    assert.equal(lines[0], MARKER);
    assert.match(lines[1], /^### storage-perf: 3 VMs changed, 1 added, 1 removed: 1 target now missed, /);
    assert.equal((md.match(/<details>/g) ?? []).length, 5);
  });

  it('a change of 3,000 VMs stays within 65,000 characters and counts what it leaves out', function () {
    this.timeout(120000);
    const text = (shift: number) => {
      const out = [...SPEC_HEAD];
      for (let i = 0; i < 3000; i++) out.push(...vmLines(`vm${i}`, i, i + shift));
      return out.join('\n') + '\n';
    };
    const cache = new EvaluationCache();
    const record = diffAnalyses(
      { analysis: analyze(text(0), { cache }), path: 'base.perf.yaml' },
      { analysis: analyze(text(1), { cache }), path: 'head.perf.yaml' },
    );
    assert.equal(record.vms.length, 3000);
    const md = renderMarkdown(record);
    assert.ok(md.length <= MAX_MARKDOWN, `${md.length} characters`);
    assert.ok(md.length > MAX_MARKDOWN / 2, 'the room is used');
    const shown = (md.match(/<details>/g) ?? []).length;
    assert.ok(shown > 0 && shown < 3000);
    assert.match(
      md,
      new RegExp(`… and ${3000 - shown} more VMs not shown here \\(${3000 - shown} changed; \\d+ targets? now missed, \\d+ new errors?, `),
    );
    assertRenders(md);
  });

  it('names and messages cannot break the table or the blocks', () => {
    const base = `${SPEC_HEAD.join('\n')}\n${vmLines('a|b<details>', 1).join('\n')}\n`;
    const head = base.replace('size: 150GiB', 'size: 300GiB');
    assert.notEqual(head, base);
    const record = diffAnalyses({ analysis: analyze(base), path: 'b' }, { analysis: analyze(head), path: 'h' });
    const md = renderMarkdown(record);
    assertRenders(md);
    assert.match(md, /^\| `a\\\|b<details>` +\| changed/m);
    assert.match(md, /^<details><summary><b><code>a\|b&lt;details&gt;<\/code><\/b>/m);
  });

  it("names are inert: no mention, link, image or reference from a VM's, disk's or workload's name", () => {
    const hostile = '"@org/team [x](https://evil.example) ![i](https://evil.example/i.png) www.evil.example #12"';
    const lines = vmLines(hostile, 1)
      .join('\n')
      .replace('name: data', `name: ${hostile}`)
      .replace('disk: data', `disk: ${hostile}`)
      .replace('name: oltp', `name: ${hostile}`);
    const base = `${SPEC_HEAD.join('\n')}\n${lines}\n`;
    // A larger disk, and a target it now misses: a disk row and a workload row.
    const head = base.replace('size: 150GiB', 'size: 300GiB').replace('iops: 7000', 'iops: 90000');
    const record = diffAnalyses({ analysis: analyze(base), path: 'b' }, { analysis: analyze(head), path: 'h' });
    assert.ok(record.vms[0].disks.length && record.vms[0].workloads.length);
    const md = renderMarkdown(record);
    assertRenders(md);
    // Rendered as GitHub does: HTML kept, bare URLs linked.
    const rendered = new MarkdownIt({ html: true, linkify: true }).render(md);
    assert.doesNotMatch(rendered, /<a |<img /);
    // Outside <code>, no @ or # before a word: GitHub's mentions and references skip code.
    const text = rendered.replace(/<code>[^]*?<\/code>/g, '');
    assert.doesNotMatch(text, /[@#][A-Za-z0-9]/);
    assert.ok((rendered.match(/<code>@org\/team/g) ?? []).length >= 3, 'the names, shown as code');
  });
});
