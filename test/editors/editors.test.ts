/**
 * The editor set-ups the README documents (editors/neovim, editors/emacs), run in the real editors against
 * the real server: a user who copies them gets diagnostics and hovers. The editors are installed by
 * scripts/test-setup.sh.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const SERVER = join(ROOT, 'server/bin/storage-perf-language-server.js');

interface Seen {
  diagnostics: Array<{ line: number; code: string; message: string }>;
  hover: string;
}

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-editor-'));
  copyFileSync(join(ROOT, 'examples/storage.perf.yaml'), join(dir, 'storage.perf.yaml'));
  return dir;
}

function checkSeen(seen: Seen): void {
  const cap = seen.diagnostics.find((d) => d.code === 'capped-by-vcpu');
  assert.ok(cap, `no capped-by-vcpu diagnostic among ${JSON.stringify(seen.diagnostics)}`);
  assert.equal(cap.line, 10, 'on the machine_type line');
  assert.match(cap.message, /n2-standard-16/);
  assert.match(seen.hover, /15,000/, `hover on the disk: ${seen.hover}`);
  assert.match(seen.hover, /\$85\.00/);
}

describe('documented editor set-ups', function () {
  this.timeout(60000);

  it('Neovim (vim.lsp.start_client) shows the vCPU cap and a disk hover', () => {
    const dir = workspace();
    try {
      const out = join(dir, 'seen.json');
      // The driver waits for the server's diagnostics, asks for a hover on the `data` disk's name and writes
      // what the editor holds as JSON.
      writeFileSync(
        join(dir, 'init.lua'),
        [
          `vim.g.storage_perf_server_cmd = { 'node', ${JSON.stringify(SERVER)}, '--stdio' }`,
          `dofile(${JSON.stringify(join(ROOT, 'editors/neovim/storage-perf.lua'))})`,
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'drive.lua'),
        `
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local seen = { diagnostics = {}, hover = '' }
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(seen.diagnostics, { line = d.lnum + 1, code = d.code, message = d.message })
end
local params = { textDocument = vim.lsp.util.make_text_document_params(), position = { line = 13, character = 16 } }
local resp = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000) or {}
for _, r in pairs(resp) do if r.result then seen.hover = r.result.contents.value end end
local f = io.open(${JSON.stringify(out)}, 'w'); f:write(vim.fn.json_encode(seen)); f:close()
vim.cmd('qa!')
`,
      );
      const r = spawnSync(
        'nvim',
        ['--headless', '-u', join(dir, 'init.lua'), 'storage.perf.yaml', '-c', `luafile ${join(dir, 'drive.lua')}`],
        { cwd: dir, encoding: 'utf8', timeout: 50000 },
      );
      assert.equal(r.error, undefined, String(r.error));
      checkSeen(JSON.parse(readFileSync(out, 'utf8')) as Seen);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Emacs (eglot) shows the vCPU cap and a disk hover', () => {
    const dir = workspace();
    try {
      const out = join(dir, 'seen.json');
      writeFileSync(
        join(dir, 'drive.el'),
        `
(setq storage-perf-server-command '("node" ${JSON.stringify(SERVER)} "--stdio"))
(load ${JSON.stringify(join(ROOT, 'editors/emacs/storage-perf.el'))})
(require 'json)
(find-file "storage.perf.yaml")
;; eglot-ensure defers the connection to the end of the command loop, which batch mode never reaches.
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) 30)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.05)))
(let* ((diags (mapcar (lambda (d)
                        (list (cons 'line (line-number-at-pos (flymake-diagnostic-beg d)))
                              (cons 'code (and (string-match "\\\\[\\\\([a-z-]+\\\\)\\\\]" (flymake-diagnostic-text d))
                                               (match-string 1 (flymake-diagnostic-text d))))
                              (cons 'message (flymake-diagnostic-text d))))
                      (flymake-diagnostics)))
       (hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                               (list :textDocument (eglot--TextDocumentIdentifier)
                                     :position (list :line 13 :character 16)))))
  (with-temp-file ${JSON.stringify(out)}
    (insert (json-encode (list (cons 'diagnostics diags)
                               (cons 'hover (plist-get (plist-get hover :contents) :value)))))))
`,
      );
      const r = spawnSync('emacs', ['--batch', '-q', '-l', join(dir, 'drive.el')], { cwd: dir, encoding: 'utf8', timeout: 50000 });
      assert.equal(r.error, undefined, String(r.error));
      assert.equal(r.status, 0, r.stderr);
      checkSeen(JSON.parse(readFileSync(out, 'utf8')) as Seen);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
