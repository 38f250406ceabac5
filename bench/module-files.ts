/**
 * An edit of a .tf file beside a large generated `.tf.json` (2.9 MB and 30 MB): what the language server does per
 * edit before the module-file cache (every file of the module read and parsed again, `inputForFile` without a
 * cache) against after (one `ModuleFiles` kept between edits, as the server keeps it), in the same run and
 * process; with the cache's hit rates. Then over stdio: didChange → diagnostics with a client that watches files
 * and with one that does not (the stat check before each use).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../cli/src/lsp-client';
import { analyze, EvaluationCache } from '../core/src';
import { loadHclParser } from '../protocol/src/hcl-parser';
import { ModuleFiles } from '../protocol/src/module-files';
import { inputForFile } from '../protocol/src/terraform-input';
import { percent } from './fleet';

const MAIN = `resource "google_compute_disk" "data" {
  name = "data"
  type = "pd-ssd"
  size = 100
  zone = "us-central1-a"
}
resource "google_compute_instance" "vm" {
  name         = "vm"
  machine_type = "n2-standard-8"
  zone         = "us-central1-a"
  boot_disk {
    initialize_params {
      size = 20
      type = "pd-balanced"
    }
  }
  attached_disk {
    source = google_compute_disk.data.id
  }
}
`;
/** The open file with its disk size changed: the `k`th edit. */
const edited = (k: number) => MAIN.replace('size = 100', `size = ${100 + (k % 50)}`);

/**
 * A generated `.tf.json` (as CDK for Terraform writes one) of about `bytes` bytes: 20 VMs with their disks, and
 * firewall rules (what such a file mostly holds: resources that are no VM), pretty-printed.
 */
export function tfJsonOfBytes(bytes: number): string {
  const disk: Record<string, object> = {};
  const instance: Record<string, object> = {};
  for (let k = 0; k < 20; k++) {
    disk[`data${k}`] = { name: `data-${k}`, type: 'pd-ssd', size: 100 + 50 * k, zone: 'us-central1-a' };
    instance[`vm${k}`] = {
      name: `vm-${k}`,
      machine_type: 'n2-standard-8',
      zone: 'us-central1-a',
      boot_disk: { initialize_params: { size: 20, type: 'pd-balanced' } },
      attached_disk: { source: `\${google_compute_disk.data${k}.id}` },
    };
  }
  const firewall: Record<string, object> = {};
  const rule = (k: number) => ({
    name: `allow-${k}`,
    network: '${var.network}',
    source_ranges: Array.from({ length: 16 }, (_, i) => `10.${k % 250}.${i}.0/24`),
    allow: [{ protocol: 'tcp', ports: ['22', '443', `${8000 + (k % 1000)}`] }],
    target_tags: [`tier-${k % 7}`, 'managed'],
  });
  const text = () =>
    JSON.stringify(
      {
        variable: { network: { default: 'default' } },
        resource: { google_compute_disk: disk, google_compute_instance: instance, google_compute_firewall: firewall },
      },
      null,
      2,
    );
  // Rules added by the size of one as printed, until the file is of the size asked.
  for (let k = 0; k < 100; k++) firewall[`rule${k}`] = rule(k);
  const hundred = text().length;
  for (let k = 100; k < 200; k++) firewall[`rule${k}`] = rule(k);
  const per = (text().length - hundred) / 100;
  for (let k = 200; k < 100 + (bytes - hundred) / per; k++) firewall[`rule${k}`] = rule(k);
  return text();
}

/** Median and count of `runs` timings of `fn(k)`, ms. */
function timed(runs: number, fn: (k: number) => void): number {
  const xs: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn(k);
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1];
}

/** One edit's work as the server does it: the module read (through `cache`, if any), then analysed. */
function editOnce(path: string, text: string, cache: ModuleFiles | undefined, evaluations: EvaluationCache): void {
  const input = inputForFile(path, text, { cache });
  analyze(input.text, { frontEnd: input.frontEnd, cache: evaluations });
}

/** didChange → published diagnostics over stdio, median ms of `runs` edits. */
async function overStdio(dir: string, watchFiles: boolean, runs: number): Promise<number> {
  const client = new LspClient({ pull: false, watchFiles, timeoutMs: 600000 });
  try {
    await client.initialize(pathToFileURL(dir).href);
    if (watchFiles) await client.registered('workspace/didChangeWatchedFiles');
    const uri = pathToFileURL(join(dir, 'main.tf')).href;
    client.open(uri, MAIN, 1);
    await client.pushedDiagnostics(uri, 1);
    const xs: number[] = [];
    for (let k = 0; k < runs; k++) {
      const t0 = performance.now();
      client.change(uri, k + 2, [{ text: edited(k + 1) }]);
      await client.pushedDiagnostics(uri, k + 2);
      xs.push(performance.now() - t0);
    }
    xs.sort((a, b) => a - b);
    return xs[xs.length >> 1];
  } finally {
    await client.stop();
  }
}

const HEAD = [
  '## A .tf file edited beside a large generated .tf.json (the module-file cache)',
  '',
  'In process, per edit: the module read and analysed as the server does it, without the cache (before: every file',
  'read and parsed again) and with one cache kept between edits (after); the first edit of each warms the cache.',
  'Over stdio: didChange → diagnostics of the server with a client that watches files and with one that does not.',
  '',
  '| .tf.json | edits | before median ms | after median ms | after ÷ before | file reads: hit rate | parses: hit rate | stdio, watching client, median ms | stdio, stat check, median ms |',
  '|---|---|---|---|---|---|---|---|---|',
];

/** One row: `runs` edits beside a `.tf.json` of about `bytes` bytes; over stdio too unless `stdio` is false. */
export async function moduleFilesRow(label: string, bytes: number, runs: number, stdio = true): Promise<string> {
  await loadHclParser();
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-bench-module-'));
  try {
    const json = tfJsonOfBytes(bytes);
    writeFileSync(join(dir, 'main.tf'), MAIN);
    writeFileSync(join(dir, 'generated.tf.json'), json);
    const path = join(dir, 'main.tf');
    const evaluations = new EvaluationCache();
    editOnce(path, edited(0), undefined, evaluations);
    const before = timed(runs, (k) => editOnce(path, edited(k + 1), undefined, evaluations));
    const cache = new ModuleFiles();
    editOnce(path, edited(0), cache, evaluations);
    const after = timed(runs, (k) => editOnce(path, edited(k + 1), cache, evaluations));
    const c = cache.counts;
    const watching = stdio ? (await overStdio(dir, true, runs)).toFixed(0) : '—';
    const statting = stdio ? (await overStdio(dir, false, runs)).toFixed(0) : '—';
    return `| ${label} (${(json.length / 1e6).toFixed(1)} MB) | ${runs} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(after / before).toFixed(2)}× | ${percent(c.hits / (c.hits + c.reads))} (${c.reads} read) | ${percent(c.parseHits / (c.parseHits + c.parses))} | ${watching} | ${statting} |`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchModuleFiles(): Promise<string[]> {
  return [...HEAD, await moduleFilesRow('2.9 MB', 2.9e6, 5), await moduleFilesRow('30 MB', 30e6, 2)];
}

// `node out/bench/module-files.js [MB RUNS [nostdio]]`: one row as soon as it is measured, or both.
if (require.main === module) {
  const [mb, runs, nostdio] = process.argv.slice(2);
  const rows = mb
    ? moduleFilesRow(`${mb} MB`, Number(mb) * 1e6, Number(runs ?? 3), nostdio !== 'nostdio').then((r) => [...HEAD, r])
    : benchModuleFiles();
  rows.then(
    (lines) => process.stdout.write(lines.join('\n') + '\n'),
    (e) => {
      process.stderr.write(String(e?.stack ?? e) + '\n');
      process.exitCode = 1;
    },
  );
}
