-- storage-perf language server for Neovim 0.7 and later (no plugins needed).
-- Put this file in your config (for example ~/.config/nvim/lua/storage-perf.lua and `require('storage-perf')`
-- from init.lua), or source it with `:luafile`.
--
-- The server command: `npx --no-install storage-perf-language-server --stdio` finds the server installed in
-- the project; set vim.g.storage_perf_server_cmd (a list) before loading this file to use another one, e.g.
-- { 'node', '/path/to/storage-perf/server/bin/storage-perf-language-server.js', '--stdio' }.
-- Settings the server reads through workspace/configuration go in vim.g.storage_perf_settings, e.g.
-- { storagePerf = { catalog = 'gcp-2024', region = 'europe-west4' } }.

local cmd = vim.g.storage_perf_server_cmd or { 'npx', '--no-install', 'storage-perf-language-server', '--stdio' }
local settings = vim.g.storage_perf_settings or { storagePerf = {} }
local client_id = nil

local function attach(bufnr)
  -- One server for the whole session: vim.lsp.start (0.8+) would reuse it by itself, start_client (0.7) does not.
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client({
      name = 'storage-perf',
      cmd = cmd,
      root_dir = vim.fn.getcwd(),
      settings = settings,
      init_options = settings,
    })
  end
  if client_id ~= nil then vim.lsp.buf_attach_client(bufnr, client_id) end
end

vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
  pattern = { '*.perf.yaml', '*.perf.yml' },
  callback = function(args) attach(args.buf) end,
})
