/**
 * The editor goals on a 20,000-line spec of distinct VMs (./fleet, about 680 VMs of gcp-2024, each with a
 * comment), and as a second row on the replica fleet (about 740 VMs of one shape, each with a comment, two disks
 * and two workloads; `--both`, `--replicas`), ours against yaml-language-server in the same run: didOpen → first diagnostics, an edit at the
 * bottom, a VM inserted at the top, hover p50, the bytes of one publish, and our RSS after 300 edits against
 * after the first analysis. docs/performance.md's editor table comes from this output.
 */
import type { LspClient } from '../cli/src/lsp-client';
import { LineIndex } from '../core/src';
import { ourServer, rssMiB, stats, yamlServer } from './lsp';
import { distinctSpecOfLines, evaluationHitRate, percent } from './fleet';
import { SPEC_HEAD, vmLines } from './specs';

const URI = 'file:///bench/scale.perf.yaml';

/** One VM as real specs have them: a comment, the benchmark VM, and a second, sequential workload. */
function realisticVm(name: string, k: number): string[] {
  return [
    `  # ${name}: owned by team-${k % 13}, sized in OPS-${1000 + k}`,
    ...vmLines(name, k),
    '      - name: backup',
    '        disk: logs',
    '        pattern: sequential',
    '        block_size: 1MiB',
    '        read_ratio: 0',
    '        queue_depth: 8',
    '        target:',
    `          mibps: ${50 + (k % 5) * 10}`,
  ];
}

/** The replica fleet (./specs: VMs of one shape repeating every 840), a comment before each VM. */
export function realisticSpec(lines: number): { text: string; vms: number } {
  const out = [...SPEC_HEAD];
  let vms = 0;
  while (out.length < lines) out.push(...realisticVm(`vm${vms}`, vms++));
  return { text: out.join('\n') + '\n', vms };
}

/** Distinct VMs of gcp-2024 (./fleet), a comment before each. */
const distinctSpec = (lines: number) => distinctSpecOfLines(lines, true);

const SPECS = { distinct: distinctSpec, replicas: realisticSpec };
/** Where the edits go: the digit before `GiB` of a disk's size (the replicas': their data disk's). */
const SIZES = { distinct: /size: \d+GiB\n/g, replicas: /GiB\n {6}- name: logs/g };

interface Doc {
  text: string;
  version: number;
}

/** Applies one edit (offsets into the current text), waits for the diagnostics it brings, and returns the ms. */
async function edit(c: LspClient, doc: Doc, start: number, end: number, newText: string): Promise<number> {
  const idx = new LineIndex(doc.text);
  const t0 = performance.now();
  c.change(URI, ++doc.version, [{ range: { start: idx.position(start), end: idx.position(end) }, text: newText }]);
  doc.text = doc.text.slice(0, start) + newText + doc.text.slice(end);
  await c.publishedAfter(URI, t0);
  return performance.now() - t0;
}

/** The offset of the digit before `GiB` in the n-th size `sizes` finds (n counted from the end when negative). */
function sizeDigit(text: string, n: number, pattern: RegExp): number {
  const sizes: number[] = [];
  for (const m of text.matchAll(pattern)) sizes.push(m.index + m[0].indexOf('GiB') - 1);
  if (!sizes.length) throw new Error('no disk size in the spec');
  return sizes[((n % sizes.length) + sizes.length) % sizes.length];
}

interface Result {
  openMs: number;
  bottom: number;
  top: number;
  hover: number;
  publishBytes: number;
  rssFirst?: number;
  rssAfter?: number;
}

async function run(c: LspClient, text: string, ours: boolean, iterations: number, sizes: RegExp): Promise<Result> {
  const doc: Doc = { text, version: 1 };
  let t0 = performance.now();
  c.open(URI, text, 1);
  await c.publishedAfter(URI, t0);
  const openMs = performance.now() - t0;
  const rssFirst = ours ? rssMiB(c) : undefined;
  const bottom: number[] = [];
  const top: number[] = [];
  const hovers: number[] = [];
  const head = text.indexOf('vms:\n') + 5;
  const inserted = realisticVm('inserted', 3).join('\n') + '\n';
  for (let i = 0; i < iterations; i++) {
    const at = sizeDigit(doc.text, -1, sizes);
    bottom.push(await edit(c, doc, at, at + 1, String(i % 10)));
    // A VM inserted at the top, then removed: every VM below moves twice.
    top.push(await edit(c, doc, head, head, inserted));
    top.push(await edit(c, doc, head, head + inserted.length, ''));
  }
  const idx = new LineIndex(doc.text);
  // A disk's name in the middle of the document.
  const hoverAt = idx.position(doc.text.indexOf('      - name: d', doc.text.length >> 1) + 15);
  for (let i = 0; i < iterations; i++) {
    t0 = performance.now();
    await c.hover(URI, hoverAt);
    hovers.push(performance.now() - t0);
  }
  const publishBytes = Buffer.byteLength(JSON.stringify({ uri: URI, diagnostics: c.lastPushed(URI)?.diagnostics ?? [] }));
  let rssAfter: number | undefined;
  if (ours) {
    // 300 edits, each to another VM's size: new content every time, the worst case for a cache.
    for (let i = 0; i < 300; i++) {
      const at = sizeDigit(doc.text, i * 37, sizes);
      await edit(c, doc, at, at + 1, String(i % 10));
    }
    rssAfter = rssMiB(c);
  }
  const med = (xs: number[]) => stats(xs).median;
  return { openMs, bottom: med(bottom), top: med(top), hover: med(hovers), publishBytes, rssFirst, rssAfter };
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const met = (ok: boolean) => (ok ? 'yes' : '**no**');

export async function benchScale(kind: keyof typeof SPECS = 'distinct'): Promise<string[]> {
  const { text, vms } = SPECS[kind](20000);
  const iterations = 8;
  const oursC = await ourServer();
  const a = await run(oursC, text, true, iterations, SIZES[kind]);
  await oursC.stop();
  const yamlC = await yamlServer();
  const b = await run(yamlC, text, false, iterations, SIZES[kind]);
  await yamlC.stop();
  const growth = a.rssAfter! - a.rssFirst!;
  const KiB = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  return [
    `## Editor at scale, ${kind === 'distinct' ? 'distinct VMs (gcp-2024)' : 'replicas (repeating every 840)'}: ${text.split('\n').length.toLocaleString('en-US')} lines, ${vms} VMs, every VM analysed (medians, ms)`,
    '',
    `Evaluation-cache hit rate of the first analysis: ${percent(evaluationHitRate([text], true))}.`,
    '',
    '| what | storage-perf | yaml-language-server | ratio | goal | met? |',
    '|---|---|---|---|---|---|',
    `| didChange → diagnostics (edit at the bottom) | ${a.bottom.toFixed(0)} | ${b.bottom.toFixed(0)} | ${ratio(a.bottom, b.bottom)} | ≤ 0.33× | ${met(a.bottom <= b.bottom / 3)} |`,
    `| a VM inserted at / removed from the top | ${a.top.toFixed(0)} | ${b.top.toFixed(0)} | ${ratio(a.top, a.bottom)} of our bottom edit | ≤ 2× | ${met(a.top <= 2 * a.bottom)} |`,
    `| didOpen → first diagnostics | ${a.openMs.toFixed(0)} | ${b.openMs.toFixed(0)} | ${ratio(a.openMs, b.openMs)} | ≤ 0.8× | ${met(a.openMs <= 0.8 * b.openMs)} |`,
    `| hover p50 | ${a.hover.toFixed(2)} | ${b.hover.toFixed(2)} | ${ratio(a.hover, b.hover)} | < 5 ms | ${met(a.hover < 5)} |`,
    `| bytes of one publish | ${KiB(a.publishBytes)} | ${KiB(b.publishBytes)} | ${b.publishBytes > 100 ? ratio(a.publishBytes, b.publishBytes) : '—'} | fixes not sent | — |`,
    `| RSS after 300 edits − after the first analysis | ${growth.toFixed(0)} MiB (${a.rssFirst!.toFixed(0)} → ${a.rssAfter!.toFixed(0)}) | — | — | ≤ 50 MB | ${met(growth <= 50)} |`,
  ];
}

if (require.main === module) {
  const kinds = process.argv.includes('--replicas')
    ? (['replicas'] as const)
    : process.argv.includes('--both')
      ? (['distinct', 'replicas'] as const)
      : (['distinct'] as const);
  (async () => {
    for (const k of kinds) process.stdout.write((await benchScale(k)).join('\n') + '\n\n');
  })().then(
    () => undefined,
    (e) => {
      process.stderr.write(String(e?.stack ?? e) + '\n');
      process.exitCode = 1;
    },
  );
}
