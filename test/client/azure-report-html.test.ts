/** The report view's HTML for an Azure VM: the shipped Azure example, with its data disk made zone-redundant. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyze } from '../../core/src';
import { specReport } from '../../server/src/features/report';
import { reportHtml } from '../../client/src/report-html';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/azure-db.perf.yaml');
const reportOf = (text: string) => specReport(pathToFileURL(EXAMPLE).href, analyze(text), (t) => analyze(t));
const opts = { nonce: 'n0nce', title: 'azure-db.perf.yaml' };

describe('report view HTML of an Azure VM', () => {
  const text = readFileSync(EXAMPLE, 'utf8').replace('        tier: P40\n', '        tier: P40\n        redundancy: zrs\n');
  const report = reportOf(text);
  const html = reportHtml(report, opts);
  const row = (disk: string) => new RegExp(`<tr><td>${disk}</td>.*?</tr>`).exec(html)?.[0] ?? '';

  it('names the size with its vCPUs and the VM total as partial: no machine prices, and no ZRS price', () => {
    assert.match(html, /<h2>VM db <span class="dim">— Standard_D16s_v5, 16 vCPUs<\/span>/);
    assert.equal(report.monthly_cost_text, 'at least $97.31 (machine price unknown; premium-ssd P40 ZRS price unknown)');
    assert.ok(html.includes(`<strong>${report.monthly_cost_text}</strong>`));
  });

  it("shows each disk's figures with the table that sets them, and the ZRS disk's price as unknown (a dash, its reason on it), never $0", () => {
    // P10 for the 128 GiB OS disk: 500 IOPS; the data disk set to P40: 7,500 IOPS, 250 MB/s (238 MiB/s).
    assert.match(
      row('os'),
      /<td>premium-ssd<\/td><td class="n">128<\/td><td class="n"><span title="Premium SSD 128 GiB rounded up to P10 \(128 GiB\): 500 IOPS[^"]*azure-2026[^"]*">500<\/span>/,
    );
    assert.match(row('data'), /<span title="Premium SSD performance tier P40: 7,500 IOPS[^"]*">7,500<\/span>/);
    assert.match(row('data'), /<span title="azure-2026 has no zone-redundant \(ZRS\) disk prices">—<\/span><\/td><\/tr>$/);
    assert.doesNotMatch(row('data'), /\$0\.00/);
    assert.match(row('log'), /<td>premium-ssd-v2<\/td>.*<td>provisioned<\/td><td>provisioned<\/td>.*\$77\.60/);
  });

  it("explains a workload's figure through the host cache, with the hit ratio the spec gives", () => {
    const oltp = new RegExp('<tr><td>oltp</td>.*?</tr>').exec(html)?.[0] ?? '';
    assert.match(oltp, /<td class="n">10,000<\/td><td class="n">2,500<\/td>/);
    assert.match(oltp, /title="[^"]*host cache at a 50 % hit ratio: hits count only against the cached limit/);
    assert.match(oltp, /12,000 IOPS <span class="ok">met \(\+4\.2%\)<\/span>/);
  });
});
