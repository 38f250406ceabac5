/** Helpers of the end-to-end test (./vscode.test.ts): code-server's port and health, a git workspace, the command palette. */
import * as assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

/** Waits until code-server answers its health check; `log` names where its output goes, for the error. */
export async function waitForHealth(url: string, server: ChildProcess, ms: number, log: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}; see ${log}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${ms} ms`);
}

/** Makes `folder` a git repository whose one commit holds its files as they are now. */
export function commitAll(folder: string): void {
  const git = (...args: string[]) => {
    const r = spawnSync(
      'git',
      ['-c', 'user.name=storage-perf e2e', '-c', 'user.email=e2e@example.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd: folder, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, `git ${args.join(' ')} failed: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'the spec as committed');
}

/** Runs a command from the command palette (F1) by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type(title);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Opens a workspace file with Quick Open, as a user would, and waits until its editor shows `text`. */
export async function quickOpen(page: Page, name: string, text: string): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).first().waitFor();
  await page.locator('.monaco-editor .view-lines', { hasText: text }).first().waitFor();
}

/**
 * Closes an editor tab with its close button: a view opened beside without taking the focus would leave Ctrl+W
 * to the spec.
 */
export async function closeTab(page: Page, title: string): Promise<void> {
  const tab = page.locator('.tab', { hasText: title }).first();
  await tab.hover();
  await tab.locator('.tab-actions .action-label').first().click();
  await tab.waitFor({ state: 'detached', timeout: 10_000 });
}
