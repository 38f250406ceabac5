/**
 * End-to-end test of the VS Code extension in a real VS Code: the packaged .vsix is installed into
 * code-server (VS Code 1.100.3's server and workbench), an example workspace is opened in Chromium driven
 * by playwright-core, and the test checks what a user sees — the Problems panel, a hover, a quick fix from
 * the light bulb (and the file it changes on disk), the status-bar cost, the changes since the last commit
 * (the workspace is a git repository of one commit).
 *
 * Needs `sh scripts/e2e-setup.sh` (Chromium, code-server in .cache/) and `npm run package` first; `npm test`
 * runs both. STORAGE_PERF_E2E=skip skips it. Screenshots and code-server's logs go to test-artifacts/e2e/.
 *
 * The expected figures are not written here: they come from the core's analysis of the same file, so the
 * test checks that the editor shows what the model computes, through server, client and workbench.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { analyze, diffAnalyses, EvaluationCache, fileReport, fmtMoney } from '../../core/src';
import { closeTab, commitAll, freePort, quickOpen, runCommand, waitForHealth } from './workbench';

const ROOT = resolve(__dirname, '../../..');
const CODE_SERVER_VERSION = '4.100.3';
const CODE_SERVER = join(process.env.STORAGE_PERF_E2E_CACHE ?? join(ROOT, '.cache'), 'code-server', CODE_SERVER_VERSION);
const CODE_SERVER_ENTRY = join(CODE_SERVER, 'node_modules/code-server/out/node/entry.js');
const CHROMIUM = process.env.STORAGE_PERF_E2E_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const EXAMPLE = join(ROOT, 'examples', 'storage.perf.yaml');
const SPEC_NAME = 'storage.perf.yaml';
/** A spec added after the workspace's one commit. */
const NEW_SPEC = 'new.perf.yaml';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; publisher: string; version: string };
const VSIX = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);

/** What the model says about the example: the source of every expected figure below. */
function expected() {
  const text = readFileSync(EXAMPLE, 'utf8');
  const analysis = analyze(text);
  const report = fileReport(EXAMPLE, analysis);
  const cap = analysis.diagnostics.find((d) => d.code === 'capped-by-vcpu');
  assert.ok(cap, 'the example has a capped-by-vcpu warning');
  assert.ok(report.currency && report.monthly_cost !== null, 'the example has prices');
  const vm = report.vms[0];
  const disk = vm.disks.find((d) => d.name === 'data');
  assert.ok(disk && disk.monthly_cost !== null);
  const fix = cap.fixes?.[0];
  assert.ok(fix && fix.kind === 'set-value', 'the warning offers a quick fix that sets a value');
  return {
    capMessage: cap.message,
    capLine: text.slice(0, cap.span.start).split('\n').length,
    capColumn: cap.span.start - text.lastIndexOf('\n', cap.span.start - 1),
    fixTitle: fix.title,
    fixValue: String(fix.value),
    machineType: vm.machine_type,
    vmName: vm.name,
    workloads: vm.workloads.map((w) => w.name),
    cost: fmtMoney(report.monthly_cost, report.currency),
    diskIops: disk.read_iops!.toLocaleString('en-US'),
    diskCost: fmtMoney(disk.monthly_cost, report.currency),
  };
}

/** The user settings that keep the workbench from opening anything the test did not ask for. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.commandCenter.enabled': false,
  'files.autoSave': 'off',
  'editor.hover.delay': 200,
  // Terraform files get the server too (the last test opens one).
  'storagePerf.terraform.enable': true,
};

describe('VS Code extension in code-server (end to end)', function () {
  this.timeout(180_000);

  let tmp: string;
  let workspace: string;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let want: ReturnType<typeof expected>;
  let started: number;

  const shot = async (name: string) => {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  };

  before(async function () {
    if (process.env.STORAGE_PERF_E2E === 'skip') this.skip();
    started = Date.now();
    for (const [what, path, how] of [
      ['code-server', join(CODE_SERVER, '.installed'), 'sh scripts/e2e-setup.sh'],
      ['Chromium', CHROMIUM, 'sh scripts/e2e-setup.sh'],
      ['the packaged extension', VSIX, 'npm run package'],
    ]) {
      assert.ok(existsSync(path), `${what} is missing (${path}): run \`${how}\` first, or set STORAGE_PERF_E2E=skip`);
    }
    // An old .vsix would test old code: it must be at least as new as the bundles it was built from.
    const bundle = join(ROOT, 'dist', 'extension.js');
    if (existsSync(bundle))
      assert.ok(statSync(VSIX).mtimeMs >= statSync(bundle).mtimeMs - 1000, `${VSIX} is older than dist/: run \`npm run package\``);

    want = expected();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    tmp = mkdtempSync(join(tmpdir(), 'storage-perf-e2e-'));
    workspace = join(tmp, 'workspace');
    mkdirSync(workspace);
    // A copy: the quick fix edits it.
    cpSync(EXAMPLE, join(workspace, SPEC_NAME));
    cpSync(join(ROOT, 'test/fixtures/terraform/planned/main.tf'), join(workspace, 'main.tf'));
    // A git repository: "Show Changes Since Last Commit" compares the open spec with this commit.
    commitAll(workspace);
    cpSync(EXAMPLE, join(workspace, NEW_SPEC));
    const userData = join(tmp, 'user-data');
    mkdirSync(join(userData, 'User'), { recursive: true });
    writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
    const port = await freePort();
    const config = join(tmp, 'config.yaml');
    writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    const isolated = ['--config', config, '--user-data-dir', userData, '--extensions-dir', join(tmp, 'extensions')];

    const install = spawnSync(process.execPath, [CODE_SERVER_ENTRY, ...isolated, '--install-extension', VSIX], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(install.status, 0, `installing the .vsix failed:\n${install.stdout}\n${install.stderr}`);
    const installed = readdirSync(join(tmp, 'extensions'));
    assert.ok(
      installed.some((d) => d.startsWith(`${pkg.publisher}.${pkg.name}-${pkg.version}`)),
      `extension not installed: ${installed.join(', ')}`,
    );

    const log = createWriteStream(join(ARTIFACTS, 'code-server.log'));
    // Its own session and process group: code-server leaves extension-host and language-server processes
    // behind, and the whole group is killed at the end.
    server = spawn(
      process.execPath,
      [
        CODE_SERVER_ENTRY,
        ...isolated,
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--auth',
        'none',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        workspace,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.pipe(log);
    server.stderr!.pipe(log);
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, server, 30_000, join(ARTIFACTS, 'code-server.log'));

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await openSpec(url);
    } catch (e) {
      await shot('failed-opening-the-spec').catch(() => undefined);
      throw e;
    }
  });

  async function openSpec(url: string): Promise<void> {
    await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The explorer lists the workspace once the remote file system answers.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: SPEC_NAME }).first().waitFor({ timeout: 60_000 });

    // Open the spec with Quick Open, as a user would.
    await page
      .locator('.monaco-workbench')
      .click({ position: { x: 700, y: 450 } })
      .catch(() => undefined);
    await quickOpen(page, SPEC_NAME, 'machine_type');
  }

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page)
      await shot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
        await new Promise((r) => setTimeout(r, 1000));
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
    // code-server's own logs (extension host, the language server's output channel) are kept for failures.
    if (tmp) {
      const logs = join(tmp, 'user-data', 'logs');
      if (existsSync(logs)) cpSync(logs, join(ARTIFACTS, 'logs'), { recursive: true });
      rmSync(tmp, { recursive: true, force: true });
    }
    if (started) process.stdout.write(`      (end-to-end run: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  });

  it('lists the vCPU-cap warning in the Problems panel', async () => {
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'capped-by-vcpu' });
    await row.first().waitFor({ timeout: 60_000 });
    const text = (await row.first().textContent())!.replace(/\u00a0/g, ' ');
    assert.ok(text.includes(want.capMessage), `Problems row "${text}" lacks "${want.capMessage}"`);
    assert.match(text, new RegExp(`Ln ${want.capLine}, Col ${want.capColumn}`));
    await shot('1-problems');
  });

  it("shows the spec's monthly cost in the status bar", async () => {
    const item = page.locator('.statusbar-item', { hasText: `${want.cost}/mo` });
    await item.first().waitFor({ timeout: 30_000 });
    await shot('2-status-bar');
  });

  it('highlights quantities with their units apart from other values (the injected grammar)', async () => {
    // Monaco renders one span per differently coloured token: a quantity must not look like a plain string.
    const classes = await page.evaluate<Record<string, string>>(`(() => {
      const out = {};
      for (const span of document.querySelectorAll('.monaco-editor .view-line span span')) {
        const t = (span.textContent || '').replace(/\\u00a0/g, ' ').trim();
        if (t && !(t in out)) out[t] = span.className;
      }
      return out;
    })()`);
    const quantity = classes['500GiB'] ?? classes['500'];
    assert.ok(quantity, `no token for 500GiB among ${Object.keys(classes).join(' | ')}`);
    assert.ok(classes['pd-ssd'], 'no token for pd-ssd');
    assert.notEqual(quantity, classes['pd-ssd'], 'a quantity is coloured like a plain string');
    assert.equal(classes['8KiB'] ?? classes['8'], quantity, 'block sizes are quantities too');
  });

  it('shows computed IOPS and cost when hovering a disk', async () => {
    // Focus the editor and bring the disk's line into view, then put the mouse over the disk's name.
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    // Runs in the page (a string: the project compiles without the DOM's types).
    const box = await page.evaluate<{ x: number; y: number } | null>(`(() => {
      for (const line of document.querySelectorAll('.monaco-editor .view-line')) {
        // The line also holds the server's inlay hint after the name.
        if (!/^- name: data(\\s|$)/.test((line.textContent || '').replace(/\\u00a0/g, ' ').trim())) continue;
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const i = (n.textContent || '').indexOf('data');
          if (i < 0) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 4);
          const r = range.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        }
      }
      return null;
    })()`);
    assert.ok(box, 'the line "- name: data" is on screen');
    await page.mouse.move(box.x - 40, box.y + 40);
    await page.mouse.move(box.x, box.y, { steps: 5 });
    const hover = page.locator('.monaco-hover', { hasText: 'Disk data' });
    await hover.first().waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await hover.first().textContent())!;
    assert.ok(text.includes(want.diskIops), `hover lacks the IOPS ${want.diskIops}: ${text}`);
    assert.ok(text.includes(want.diskCost), `hover lacks the cost ${want.diskCost}: ${text}`);
    await shot('3-hover');
    await page.keyboard.press('Escape');
  });

  it('opens the report view from the command palette: per-VM tables and charts against the targets', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await runCommand(page, 'Storage Perf: Show Report');
    await page
      .locator('.tab', { hasText: `Report: ${SPEC_NAME}` })
      .first()
      .waitFor({ timeout: 30_000 });
    // A webview is an iframe (the host) holding another (the content).
    const view = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await view.locator('h2', { hasText: `VM ${want.vmName}` }).waitFor({ timeout: 30_000 });
    const text = (await view.locator('body').textContent())!;
    assert.ok(text.includes(want.cost), `the report lacks the cost ${want.cost}`);
    assert.ok(text.includes(want.diskIops), `the report lacks the disk's IOPS ${want.diskIops}`);
    for (const w of want.workloads) assert.ok(text.includes(w), `the report lacks the workload ${w}`);
    // One chart of IOPS and one of throughput; the example sets an IOPS target and a throughput target.
    assert.equal(await view.locator('svg.chart').count(), 2);
    assert.ok((await view.locator('svg.chart line.target').count()) >= 2, 'the charts mark the targets');
    await shot('4-report');
    await closeTab(page, `Report: ${SPEC_NAME}`);
  });

  it('applies a quick fix from the light bulb, and the file on disk changes', async () => {
    const file = join(workspace, SPEC_NAME);
    assert.ok(readFileSync(file, 'utf8').includes(`machine_type: ${want.machineType}`));
    await page.mouse.move(5, 5);
    await page.locator('.monaco-editor .view-lines').first().click();
    // Go to Line/Column puts the cursor on the warning; the light bulb appears for the fix there.
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').waitFor();
    await page.keyboard.type(`${want.capLine}:${want.capColumn}`);
    await page.keyboard.press('Enter');
    const bulb = page.locator('.monaco-editor .lightBulbWidget');
    await bulb.first().waitFor({ state: 'visible', timeout: 30_000 });
    await shot('5-light-bulb');
    await bulb.first().click();
    const action = page.locator('.action-widget .monaco-list-row', { hasText: want.fixTitle });
    await action.first().waitFor({ timeout: 30_000 });
    await shot('6-quick-fix-menu');
    // The menu opens with a pointer guard over the page until the mouse moves: point at the fix, then pick it.
    const row = await action.first().boundingBox();
    assert.ok(row);
    await page.mouse.move(row.x + row.width / 2, row.y + row.height / 2, { steps: 3 });
    await action.first().click();
    await page
      .locator('.monaco-editor .view-lines', { hasText: `machine_type: ${want.fixValue}` })
      .first()
      .waitFor();
    await page.keyboard.press('Control+S');
    const deadline = Date.now() + 15_000;
    let text = readFileSync(file, 'utf8');
    while (!text.includes(`machine_type: ${want.fixValue}`) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      text = readFileSync(file, 'utf8');
    }
    assert.ok(text.includes(`machine_type: ${want.fixValue}`), `the saved file still reads:\n${text}`);
    assert.ok(!text.includes(`machine_type: ${want.machineType}\n`));
    // The edit touched that value only.
    assert.equal(text, readFileSync(EXAMPLE, 'utf8').replace(`machine_type: ${want.machineType}`, `machine_type: ${want.fixValue}`));
    // And the server agrees the cap is gone.
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'capped-by-vcpu' })
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 });
    await shot('7-fixed');
  });

  it('shows the changes since the last commit: the committed spec against the open text, edited and unsaved', async () => {
    const committed = readFileSync(EXAMPLE, 'utf8');
    // The quick fix above is saved; a disk is now resized in the editor and not saved.
    const saved = committed.replace(`machine_type: ${want.machineType}`, `machine_type: ${want.fixValue}`);
    const open = saved.replace('size: 500GiB', 'size: 1000GiB');
    assert.notEqual(open, saved);
    const cache = new EvaluationCache();
    const record = diffAnalyses(
      { analysis: analyze(committed, { cache }), path: SPEC_NAME, ref: 'HEAD' },
      { analysis: analyze(open, { cache }), path: SPEC_NAME },
    );
    const line = saved.slice(0, saved.indexOf('size: 500GiB')).split('\n').length;
    const column = saved.split('\n')[line - 1].indexOf('500GiB') + 1;
    await page.mouse.move(5, 5);
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').waitFor();
    await page.keyboard.type(`${line}:${column}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('1000GiB');
    await page.keyboard.press('Escape');
    await page.locator('.monaco-editor .view-lines', { hasText: 'size: 1000GiB' }).first().waitFor();

    await runCommand(page, 'Storage Perf: Show Changes Since Last Commit');
    await page
      .locator('.tab', { hasText: `Changes: ${SPEC_NAME}` })
      .first()
      .waitFor({ timeout: 30_000 });
    const view = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    // The view follows the text: it shows this summary once the server has the edit and git the commit.
    await view.locator('p.summary', { hasText: record.summary }).waitFor({ timeout: 60_000 });
    const text = (await view.locator('section.changes').textContent())!;
    assert.deepEqual(
      record.vms.map((v) => v.name),
      [want.vmName],
    );
    const vm = record.vms[0];
    assert.ok(text.includes(`VM ${vm.name}`), text);
    assert.ok(text.includes(`${vm.machine_type.before} → ${vm.machine_type.after}`), `no machine change in: ${text}`);
    const resize = await view.locator('section.changes tr', { hasText: 'disk data: GiB' }).locator('td').allTextContents();
    assert.deepEqual(resize, ['disk data: GiB', '500', '1,000', '']);
    for (const f of vm.findings.gone) assert.ok(text.includes(f.code), `the finding ${f.code} is not listed as gone: ${text}`);
    assert.ok(vm.findings.gone.length > 0, 'the saved fix lifted the vCPU cap');
    const delta = vm.monthly_cost.total.delta!;
    assert.ok(delta > 0 && text.includes(`+${fmtMoney(delta, record.currency!)}/month`), `no cost change in: ${text}`);
    // The report of the open text follows it.
    await view.locator('h2', { hasText: `VM ${want.vmName}` }).waitFor();
    await shot('8-changes');
    await closeTab(page, `Changes: ${SPEC_NAME}`);
  });

  it('a spec not in the last commit: the view says it is new, no error, and shows its report', async () => {
    await quickOpen(page, NEW_SPEC, 'machine_type');
    await runCommand(page, 'Storage Perf: Show Changes Since Last Commit');
    await page
      .locator('.tab', { hasText: `Changes: ${NEW_SPEC}` })
      .first()
      .waitFor({ timeout: 30_000 });
    const view = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await view.locator('section.changes p.note', { hasText: 'The spec is new: it is not in the last commit' }).waitFor({ timeout: 60_000 });
    await view.locator('h2', { hasText: `VM ${want.vmName}` }).waitFor();
    await shot('9-changes-new-file');
    await closeTab(page, `Changes: ${NEW_SPEC}`);
  });

  it('a .tf file, with Terraform enabled by the setting: its findings in the Problems panel', async () => {
    await quickOpen(page, 'main.tf', 'n2-standard-7');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'unknown-machine-type' });
    await row.first().waitFor({ timeout: 60_000 });
    assert.match((await row.first().textContent())!.replace(/\u00a0/g, ' '), /Ln 12, Col 18/);
    await shot('10-terraform');
  });
});
