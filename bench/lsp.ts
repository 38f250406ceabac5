/**
 * LSP latencies over stdio, ours against yaml-language-server validating the same documents with our JSON
 * schema, in one run: time from didChange to published diagnostics, and hover round trips; and on a realistic
 * 20,000-line spec the editor goals of docs/performance.md (bench/lsp-scale.ts, which uses the servers started here).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../cli/src/lsp-client';
import { LineIndex } from '../core/src';
import { distinctSpecOfLines, evaluationHitRate, percent } from './fleet';

const ROOT = resolve(__dirname, '../..');
const SCHEMA = pathToFileURL(resolve(ROOT, 'schemas/storage-perf.schema.json')).href;
const YAML_LS = resolve(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server');

/** A spec of about `lines` lines of distinct VMs (./fleet). */
export function specOfLines(lines: number): string {
  return distinctSpecOfLines(lines).text;
}

interface Stats {
  median: number;
  p99: number;
  n: number;
}
function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[s.length >> 1], p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))], n: s.length };
}

async function measure(client: LspClient, text: string, iterations: number): Promise<{ diagnostics: Stats; hover: Stats }> {
  const uri = 'file:///bench/storage.perf.yaml';
  let t0 = performance.now();
  client.open(uri, text, 1);
  await client.publishedAfter(uri, t0);
  const idx = new LineIndex(text);
  // Edit the last size value back and forth: a real change that keeps the document valid.
  const last = text.lastIndexOf('GiB');
  const at = idx.position(last - 1);
  const diag: number[] = [];
  const hov: number[] = [];
  const hoverAt = idx.position(text.indexOf('      - name: d') + 15);
  for (let i = 0; i < iterations; i++) {
    const digit = String(i % 10);
    t0 = performance.now();
    client.change(uri, i + 2, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: digit }]);
    await client.publishedAfter(uri, t0);
    diag.push(performance.now() - t0);
    t0 = performance.now();
    await client.hover(uri, hoverAt);
    hov.push(performance.now() - t0);
  }
  return { diagnostics: stats(diag), hover: stats(hov) };
}

export async function benchLsp(): Promise<string[]> {
  const out = [
    '## LSP over stdio: storage-perf vs yaml-language-server (same documents, our JSON schema)',
    '',
    'Distinct VMs of gcp-2024 (bench/fleet.ts).',
    '',
    '| document | server | didChange→diagnostics median / p99 ms | hover median / p99 ms |',
    '|---|---|---|---|',
  ];
  const ratios: string[] = [];
  for (const [label, lines, iterations] of [
    ['100 lines', 100, 40],
    ['20,000 lines', 20000, 12],
  ] as const) {
    const text = specOfLines(lines);
    ratios.push(`- ${label}: evaluation-cache hit rate of the first analysis ${percent(evaluationHitRate([text], true))}`);
    const ours = await ourServer();
    const a = await measure(ours, text, iterations);
    await ours.stop();
    const yaml = await yamlServer();
    const b = await measure(yaml, text, iterations);
    await yaml.stop();
    const row = (name: string, r: typeof a) =>
      `| ${label} | ${name} | ${r.diagnostics.median.toFixed(1)} / ${r.diagnostics.p99.toFixed(1)} | ${r.hover.median.toFixed(2)} / ${r.hover.p99.toFixed(2)} |`;
    out.push(row('storage-perf', a), row('yaml-language-server', b));
    ratios.push(
      `- ${label}: diagnostics ${(b.diagnostics.median / a.diagnostics.median).toFixed(1)}× faster, hover ${(b.hover.median / a.hover.median).toFixed(1)}× faster (yaml-language-server median ÷ ours)`,
    );
  }
  return [...out, '', ...ratios];
}

export async function ourServer(): Promise<LspClient> {
  const c = new LspClient({ pull: false, timeoutMs: 300000 });
  await c.initialize();
  return c;
}

export async function yamlServer(): Promise<LspClient> {
  const yaml = { validate: true, hover: true, completion: true, schemas: { [SCHEMA]: ['*.perf.yaml'] } };
  const c = new LspClient({ command: [process.execPath, YAML_LS, '--stdio'], pull: false, timeoutMs: 300000, sections: { yaml } });
  await c.initialize();
  c.notify({ method: 'workspace/didChangeConfiguration' }, { settings: { yaml } });
  return c;
}

/** The server's resident set, MiB (Linux: /proc). */
export function rssMiB(c: LspClient): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${c.child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export { stats, type Stats };

if (require.main === module) {
  benchLsp().then(
    (lines) => process.stdout.write(lines.join('\n') + '\n'),
    (e) => {
      process.stderr.write(String(e?.stack ?? e) + '\n');
      process.exitCode = 1;
    },
  );
}
