/**
 * A user's catalog that is malformed JSON or lies (negative limits, sources it never defines, infinite numbers,
 * keys the format does not have) is refused, and every problem points at a line and column of the catalog file:
 * for `evaluate --catalog-file` on stderr, for the language server's `storagePerf.catalogPath` as diagnostics
 * on the catalog file and in an error message.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex, parseCatalogText } from '../../core/src';
import { MAX_CATALOG_BYTES } from '../../protocol/src/file-io';
import { RawServer } from './raw-server';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'cli/bin/storage-perf.js');
const BASE = readFileSync(join(ROOT, 'catalogs/gcp-2024.json'), 'utf8').replace('"edition": "gcp-2024"', '"edition": "mine"');
const SPEC = readFileSync(join(ROOT, 'examples/storage.perf.yaml'), 'utf8').replace('catalog: gcp-2024', 'catalog: mine');
const dir = mkdtempSync(join(tmpdir(), 'storage-perf-catalog-'));

/** The catalog with the `nth` match of `from` replaced, and the 1-based line:column where `to` now starts. */
function lie(from: RegExp, to: string): { text: string; line: number; column: number } {
  const m = from.exec(BASE);
  assert.ok(m, `${from} not in the catalog`);
  const text = BASE.slice(0, m.index) + to + BASE.slice(m.index + m[0].length);
  const p = new LineIndex(text).position(m.index);
  return { text, line: p.line + 1, column: p.character + 1 };
}

/** A named pipe no one writes to: opening it for reading would block for ever. */
function fifo(name: string): string {
  const path = join(dir, name);
  rmSync(path, { force: true });
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, `mkfifo: ${r.stderr}`);
  return path;
}

/** A sparse file one byte over the catalog size limit (no disk space used). */
function oversized(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, '');
  truncateSync(path, MAX_CATALOG_BYTES + 1);
  return path;
}

// What each path that is no catalog file must be refused as, before it is opened.
const NOT_FILES: Array<[string, () => string, RegExp]> = [
  ['a named pipe', () => fifo('pipe.json'), /named pipe \(FIFO\), not a regular file/],
  ['a device', () => '/dev/zero', /a device, not a regular file/],
  ['a file over the size limit', () => oversized('huge.json'), new RegExp(`over the limit of ${MAX_CATALOG_BYTES} bytes`)],
];

function evaluateWith(catalogText: string, name: string) {
  const file = join(dir, name);
  writeFileSync(file, catalogText);
  writeFileSync(join(dir, 'spec.perf.yaml'), SPEC);
  const r = spawnSync(process.execPath, [BIN, 'evaluate', join(dir, 'spec.perf.yaml'), '--catalog-file', file], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, file };
}

// Each lie: what is changed, into what, and what the message must say. The value's own position is expected.
const LIES: Array<{ what: string; from: RegExp; to: string; message: RegExp; valueOffset?: number }> = [
  { what: 'a negative per-GiB rate', from: /(?<="read_iops_per_gib": )[0-9.]+/, to: '-30', message: /must be >= 0/ },
  { what: 'a negative disk maximum', from: /(?<="disk_max": \{\s*"read_iops": )[0-9.]+/, to: '-1', message: /must be > 0/ },
  { what: 'an infinite limit (1e400 reads as Infinity)', from: /(?<="read_iops_per_gib": )[0-9.]+/, to: '1e400', message: /finite/ },
  {
    what: 'a source it never defines',
    from: /(?<="iops_formula": "min",\s*"source": )"pd-perf"/,
    to: '"nowhere"',
    message: /source 'nowhere' is not defined in sources/,
  },
  { what: 'a key the format does not have', from: /"as_of"/, to: '"as_off"', message: /'as_off' is not a catalog key here/ },
];

describe('user catalog files that are malformed or lie', function () {
  this.timeout(30000);
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('evaluate --catalog-file', () => {
    for (const l of LIES) {
      it(`${l.what}: exit 2, with file:line:column of the value`, () => {
        const { text, line, column } = lie(l.from, l.to);
        const r = evaluateWith(text, 'lie.json');
        assert.equal(r.code, 2, r.stderr);
        assert.equal(r.stdout, '');
        const hit = r.stderr.split('\n').find((x) => l.message.test(x));
        assert.ok(hit, r.stderr);
        assert.ok(hit.includes(`${r.file}:${line}:${column}: /`), `${hit}\nexpected ${line}:${column}`);
      });
    }

    it('malformed JSON: each syntax error at its line and column', () => {
      for (const [what, text, line, column] of [
        ['a missing comma', '{\n  "edition": "x"\n  "provider": "gcp"\n}\n', 3, 3],
        ['a trailing comma', '{\n  "edition": "x",\n}\n', 3, 1],
        ['a comment', '{\n  // mine\n  "edition": "x"\n}\n', 2, 3],
        ['a cut-off file', BASE.slice(0, 500), 0, 0],
        ['an empty file', '', 1, 1],
      ] as const) {
        const r = evaluateWith(text, 'broken.json');
        assert.equal(r.code, 2, `${what}: ${r.stderr}`);
        assert.match(r.stderr, /is invalid:\n/, what);
        if (line) assert.ok(r.stderr.includes(`${r.file}:${line}:${column}: `), `${what}: ${r.stderr}`);
        else assert.match(r.stderr, /JSON syntax error/, what);
      }
    });

    it('duplicate keys: refused at the second key (JSON readers would silently keep one)', () => {
      const text = BASE.replace('"provider": "gcp",', '"provider": "gcp",\n  "provider": "yandex",');
      const r = evaluateWith(text, 'dup.json');
      assert.equal(r.code, 2);
      const p = new LineIndex(text).position(text.indexOf('"provider": "yandex"'));
      assert.ok(r.stderr.includes(`${r.file}:${p.line + 1}:${p.character + 1}: /provider: duplicate key 'provider'`), r.stderr);
    });

    it('a catalog saved with a BOM is read, not refused', () => {
      const r = evaluateWith(`\uFEFF${BASE}`, 'bom.json');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /catalog mine/);
    });

    it('a catalog path that is a directory or does not exist: exit 2 and why', () => {
      for (const path of [dir, join(dir, 'nope.json')]) {
        const r = spawnSync(process.execPath, [BIN, 'evaluate', join(ROOT, 'examples/storage.perf.yaml'), '--catalog-file', path], {
          encoding: 'utf8',
        });
        assert.equal(r.status, 2);
        assert.match(r.stderr, /cannot load catalog .*(EISDIR|ENOENT)/);
      }
    });

    for (const [what, make, why] of NOT_FILES)
      it(`${what}: refused before it is read, exit 2 and why`, () => {
        // The timeout only keeps a regression from hanging the run: the expected outcome is the exit.
        const r = spawnSync(process.execPath, [BIN, 'evaluate', join(ROOT, 'examples/storage.perf.yaml'), '--catalog-file', make()], {
          encoding: 'utf8',
          timeout: 20000,
        });
        assert.equal(r.status, 2, r.stderr);
        assert.match(r.stderr, new RegExp(`cannot load catalog .*${why.source}`));
      });

    it('every number of a built-in catalog, made negative, is refused at its own position', () => {
      const text = readFileSync(join(ROOT, 'catalogs/yandex-2025.json'), 'utf8');
      const numbers = [...text.matchAll(/(?<=": )[0-9][0-9.]*(?=[,\n\s}\]])/g)];
      assert.ok(numbers.length > 50);
      for (const m of numbers) {
        const lied = text.slice(0, m.index) + '-7' + text.slice(m.index! + m[0].length);
        const { catalog, problems } = parseCatalogText(lied);
        assert.equal(catalog, undefined, `-7 at ${m.index} accepted`);
        assert.ok(
          problems.some((p) => p.span.start === m.index),
          `-7 at ${m.index}: ${JSON.stringify(problems.slice(0, 3))}`,
        );
      }
    });
  });

  describe('storagePerf.catalogPath in the language server', () => {
    let s: RawServer;
    afterEach(() => s?.kill());

    it('refused with diagnostics on the catalog file and an error message; specs use the built-in catalogs', async () => {
      const { text, line, column } = lie(/(?<="read_iops_per_gib": )[0-9.]+/, '-30');
      const file = join(dir, 'server-lie.json');
      writeFileSync(file, text);
      s = new RawServer();
      await s.initialize({ textDocument: { diagnostic: {} } }, process.pid, { settings: { catalogPath: file } });
      const shown = await s.waitFor((m) => m.method === 'window/showMessageRequest', 10000, 'an error message');
      assert.match((shown.params as { message: string }).message, new RegExp(`${line}:${column} /disk_types/[^ ]+ must be >= 0`));
      const uri = pathToFileURL(file).toString();
      const pub = await s.waitFor(
        (m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri,
        10000,
        'diagnostics on the catalog file',
      );
      const diags = (
        pub.params as { diagnostics: Array<{ range: { start: { line: number; character: number } }; message: string; severity: number }> }
      ).diagnostics;
      assert.ok(
        diags.some(
          (d) =>
            d.range.start.line === line - 1 && d.range.start.character === column - 1 && /must be >= 0/.test(d.message) && d.severity === 1,
        ),
        JSON.stringify(diags),
      );
      // The spec naming the refused edition is told so; the server is otherwise unharmed.
      s.notifyServer('textDocument/didOpen', {
        textDocument: { uri: 'file:///c/spec.perf.yaml', languageId: 'storage-perf', version: 1, text: SPEC },
      });
      const r = await s.response(s.request('textDocument/diagnostic', { textDocument: { uri: 'file:///c/spec.perf.yaml' } }));
      assert.ok(
        (r.result as { items: Array<{ code: string }> }).items.some((d) => d.code === 'unknown-catalog'),
        JSON.stringify(r),
      );
    });

    for (const [what, make, why] of NOT_FILES)
      it(`${what}: an error message, and specs are analysed with the built-in catalogs`, async () => {
        s = new RawServer();
        await s.initialize({ textDocument: { diagnostic: {} } }, process.pid, { settings: { catalogPath: make() } });
        const shown = await s.waitFor((m) => m.method === 'window/showMessageRequest', 10000, 'an error message');
        assert.match((shown.params as { message: string }).message, new RegExp(`cannot load catalog .*${why.source}`));
        s.notifyServer('textDocument/didOpen', {
          textDocument: { uri: 'file:///c/spec.perf.yaml', languageId: 'storage-perf', version: 1, text: SPEC },
        });
        const r = await s.response(s.request('textDocument/diagnostic', { textDocument: { uri: 'file:///c/spec.perf.yaml' } }));
        assert.ok(
          (r.result as { items: Array<{ code: string }> }).items.some((d) => d.code === 'unknown-catalog'),
          JSON.stringify(r),
        );
      });

    it('a fixed catalog clears the catalog file diagnostics and is used', async () => {
      const file = join(dir, 'server-fixed.json');
      writeFileSync(file, '{ "edition": ');
      s = new RawServer();
      await s.initialize({ textDocument: { diagnostic: {} } }, process.pid, { settings: { catalogPath: file } });
      const uri = pathToFileURL(file).toString();
      const published = (m: { method?: string; params?: unknown }) =>
        m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri;
      const first = await s.waitFor(published, 10000, 'diagnostics on the broken catalog');
      assert.ok((first.params as { diagnostics: unknown[] }).diagnostics.length > 0);
      writeFileSync(file, BASE);
      s.notifyServer('workspace/didChangeConfiguration', { settings: { storagePerf: { catalogPath: file } } });
      await s.waitFor(
        (m) => published(m) && (m.params as { diagnostics: unknown[] }).diagnostics.length === 0,
        10000,
        'cleared catalog diagnostics',
      );
      s.notifyServer('textDocument/didOpen', {
        textDocument: { uri: 'file:///c/spec.perf.yaml', languageId: 'storage-perf', version: 1, text: SPEC },
      });
      const r = await s.response(s.request('textDocument/diagnostic', { textDocument: { uri: 'file:///c/spec.perf.yaml' } }));
      assert.ok(!(r.result as { items: Array<{ code: string }> }).items.some((d) => d.code === 'unknown-catalog'), JSON.stringify(r));
    });
  });
});
