-- The plugin with lean.nvim's `leanls` (a function `cmd` that passes config.cmd_env to
-- vim.lsp.rpc.start): the real lean.nvim when editors/nvim/test.sh unpacked it, else the
-- imitation in test/fixtures/leannvim (harness.lean_nvim), against test/stub_server.py. No
-- `lake` is on Neovim's PATH at all: the server can only be found through the shim directory in
-- cmd_env.
local here = vim.fs.dirname(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p'))
local root = vim.fs.dirname(here)
vim.opt.rtp:prepend(root)
package.path = here .. '/?.lua;' .. package.path
local H = require('harness')
local ln = H.lean_nvim(here)
local la = require('lean_assess')

local tmp = H.tmpdir()
local shim = vim.fs.joinpath(tmp, 'shim')
local log = vim.fs.joinpath(tmp, 'stub.log')
local project = H.stub_project(tmp, shim, here)
vim.uv.fs_symlink(vim.fs.joinpath(shim, 'lake'), vim.fs.joinpath(shim, 'lean'))
-- A folder without a lakefile (only lean-toolchain): lean.nvim starts `lean --server` there.
local standalone = vim.fs.joinpath(tmp, 'standalone')
H.write(vim.fs.joinpath(standalone, 'lean-toolchain'), 'leanprover/lean4:v4.30.0\n')
H.write(vim.fs.joinpath(standalone, 'Solo.lean'), 'theorem s : 2 = 2 := rfl\n')
vim.env.STUB_LOG = log
assert(vim.fn.executable('lake') == 0, 'this test needs no lake on PATH')
assert(vim.fn.executable('lean') == 0, 'this test needs no lean on PATH')

-- As a lean.nvim user: the `leanls` config comes from the runtimepath; the plugin extends it.
local state = la.setup({ path = vim.fs.joinpath(shim, 'lake'), shim_dir = shim, install_shim = false })
vim.lsp.enable('leanls')
vim.cmd.edit(vim.fs.joinpath(project, 'Auto.lean'))
local buf = vim.api.nvim_get_current_buf()

H.test('setup extends the runtimepath leanls config without replacing its cmd or handlers', function()
  local cfg = vim.lsp.config.leanls
  H.eq(type(cfg.cmd), 'function', 'cmd is still the function')
  H.eq(type(cfg.handlers['$/lean/fileProgress']), 'function', "lean.nvim's handler kept")
  H.eq(vim.split(cfg.cmd_env.PATH, ':')[1], shim, 'shim first on cmd_env PATH')
  H.eq(state.shim, 'installed', 'shim state')
end)

H.test('lake serve -- <root> runs from the shim directory, in the root, and the lens shows', function()
  H.wait_for(5000, function()
    return vim.lsp.get_clients({ bufnr = buf, name = 'leanls' })[1]
  end, 'leanls to attach')
  local first = H.wait_for(5000, function()
    local f = io.open(log)
    local line = f and f:read('*l')
    if f then
      f:close()
    end
    return line and vim.json.decode(line)
  end, 'the stub to start')
  H.eq(first.path0, shim, 'first PATH entry')
  H.eq(first.argv, { 'serve', '--', project }, 'argv')
  H.wait_for(5000, function()
    return #vim.lsp.codelens.get(buf) > 0
  end, 'lenses')
end)

H.test('without a lakefile lean.nvim starts `lean --server <root>`, which also goes through the shim', function()
  vim.cmd.edit(vim.fs.joinpath(standalone, 'Solo.lean'))
  local solo = vim.api.nvim_get_current_buf()
  H.wait_for(5000, function()
    return vim.lsp.get_clients({ bufnr = solo, name = 'leanls' })[1]
  end, 'leanls to attach to the standalone file')
  local started = H.wait_for(5000, function()
    for line in io.lines(log) do
      local m = vim.json.decode(line)
      if m.argv and m.argv[1] == '--server' then
        return m
      end
    end
  end, 'lean --server to start')
  H.eq(started.path0, shim, 'first PATH entry')
  H.eq(started.argv, { '--server', standalone }, 'argv')
end)

H.test('the lean.nvim-style config keeps capabilities.lean and its publishDiagnostics handler', function()
  local cfg = vim.lsp.config.leanls
  H.eq(cfg.capabilities.lean.silentDiagnosticSupport, true, 'capabilities.lean')
  H.eq(type(cfg.handlers['textDocument/publishDiagnostics']), 'function', 'diagnostics handler kept')
end)

H.test('lean.nvim said nothing but its Neovim-version warning', function()
  H.check_lean_nvim_notes(ln)
end)

for _, c in ipairs(vim.lsp.get_clients()) do
  c:stop(true)
end
H.finish()
