-- Tests of the plugin with Neovim's real LSP client against test/stub_server.py, which offers
-- what the proxy adds (lens, hover section, code actions, executeCommand, codeLens/refresh).
-- Run: nvim --headless --clean -l test/plugin_spec.lua  (editors/nvim/test.sh does this)
local here = vim.fs.dirname(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p'))
local root = vim.fs.dirname(here)
vim.opt.rtp:prepend(root)
package.path = here .. '/?.lua;' .. package.path
local H = require('harness')
local la = require('lean_assess')

local tmp = H.tmpdir()

-- A stand-in for `lean-assess shim DIR` that does what the contract says (DIR/lake and
-- DIR/lean → itself).
local function fake_binary(dir, body)
  local bin = vim.fs.joinpath(dir, 'lean-assess')
  H.write(bin, body or '#!/bin/sh\n[ "$1" = shim ] || exit 2\nmkdir -p "$2" && ln -sf "$0" "$2/lake" && ln -sf "$0" "$2/lean" && echo "cmd_env PATH: $2"\n', 493)
  return bin
end

H.test('cmd_env puts the shim first once, keeps other variables, sets LEAN_ASSESS_CONFIG', function()
  local env = la.cmd_env({ PATH = '/a:/shim/:/b', FOO = 'x' }, '/shim', 'cfg/lean-assess.toml')
  H.eq(env.PATH, '/shim:/a:/b', 'PATH')
  H.eq(env.FOO, 'x', 'other variable kept')
  H.eq(env.LEAN_ASSESS_CONFIG, vim.fn.getcwd() .. '/cfg/lean-assess.toml', 'config made absolute')
  H.eq(la.cmd_env(env, '/shim').PATH, '/shim:/a:/b', 'idempotent')
  local from_nvim = la.cmd_env(nil, '/shim')
  H.eq(from_nvim.PATH, '/shim:' .. vim.env.PATH:gsub('^:+', ''), 'defaults to Neovim PATH')
  H.eq(from_nvim.LEAN_ASSESS_CONFIG, nil, 'no config unless asked')
end)

H.test('a shim without `lean` (from before lean.nvim\'s `lean --server` fallback was covered) is reinstalled', function()
  local bin = fake_binary(vim.fs.joinpath(tmp, 'old-shim-bin'))
  local dir = vim.fs.joinpath(tmp, 'old-shim')
  vim.fn.mkdir(dir, 'p')
  vim.uv.fs_symlink(bin, vim.fs.joinpath(dir, 'lake'))
  H.eq(la.shim_state(dir, bin), 'missing', 'lake only')
  H.truthy(la.install_shim(bin, dir), 'reinstalled')
  H.eq(la.shim_state(dir, bin), 'installed', 'lake and lean')
end)

H.test('Neovim older than 0.11.4: one clear message, nothing set up', function()
  local real_has = vim.fn.has
  local notes = {}
  local real_notify = vim.notify
  vim.fn.has = function(what)
    if what == 'nvim-0.11.4' then
      return 0
    end
    return real_has(what)
  end
  vim.notify = function(msg, level)
    notes[#notes + 1] = { msg, level }
  end
  local ok, result = pcall(la.setup, {})
  vim.fn.has = real_has
  vim.notify = real_notify
  H.truthy(ok, 'no error: ' .. tostring(result))
  H.eq(result, nil, 'setup returns nothing')
  H.eq(#notes, 1, 'one message')
  H.truthy(notes[1][1]:find('needs Neovim 0.11.4 or newer', 1, true), notes[1][1])
  H.eq(notes[1][2], vim.log.levels.ERROR, 'an error')
  H.eq(la.version_problem(), nil, 'this Neovim is new enough')
end)

H.test('find_binary: explicit path must be executable; else PATH lookup with a clear message', function()
  local dir = vim.fs.joinpath(tmp, 'fb')
  local bin = fake_binary(dir)
  H.eq(la.find_binary(bin), bin, 'explicit path')
  local none, why = la.find_binary(vim.fs.joinpath(dir, 'missing'))
  H.eq(none, nil, 'missing path')
  H.truthy(why:find('not an executable', 1, true), 'message names the problem: ' .. tostring(why))
  local saved = vim.env.PATH
  vim.env.PATH = dir .. ':' .. saved
  H.eq(la.find_binary(nil), bin, 'found on PATH')
  vim.env.PATH = '/nonexistent'
  local _, why2 = la.find_binary(nil)
  vim.env.PATH = saved
  H.truthy(why2 and why2:find('not on PATH', 1, true), 'not-on-PATH message')
end)

H.test('install_shim runs `BINARY shim DIR` and checks DIR/lake resolves to it', function()
  local bin = fake_binary(vim.fs.joinpath(tmp, 'ib'))
  local dir = vim.fs.joinpath(tmp, 'ib-shim')
  H.eq(la.shim_state(dir, bin), 'missing', 'before')
  local ok, out = la.install_shim(bin, dir)
  H.truthy(ok, 'installed: ' .. tostring(out))
  H.truthy(out:find(dir, 1, true), 'output names the directory')
  H.eq(la.shim_state(dir, bin), 'installed', 'after')
  H.eq(la.shim_state(dir, fake_binary(vim.fs.joinpath(tmp, 'other'))), 'foreign', 'another binary')
  local failing = fake_binary(vim.fs.joinpath(tmp, 'fail'), '#!/bin/sh\necho "no space" >&2\nexit 4\n')
  local ok2, err = la.install_shim(failing, vim.fs.joinpath(tmp, 'fail-shim'))
  H.eq(ok2, false, 'failure reported')
  H.truthy(err:find('exit 4', 1, true) and err:find('no space', 1, true), 'error has status and stderr: ' .. err)
end)

H.test('setup extends an existing plain vim.lsp.config(leanls) and installs the shim', function()
  local bin = fake_binary(vim.fs.joinpath(tmp, 'setup-bin'))
  local shim = vim.fs.joinpath(tmp, 'setup-shim')
  vim.lsp.config('leanls', { cmd = { 'lake', 'serve', '--' }, cmd_env = { PATH = '/x:/y', KEEP = '1' } })
  local state = la.setup({ path = bin, shim_dir = shim })
  H.eq(state.shim, 'installed', 'shim state')
  local cfg = vim.lsp.config.leanls
  H.eq(cfg.cmd, { 'lake', 'serve', '--' }, 'cmd untouched')
  H.eq(cfg.cmd_env.PATH, shim .. ':/x:/y', 'PATH')
  H.eq(cfg.cmd_env.KEEP, '1', 'other env kept')
  if not vim.lsp.codelens.enable then
    H.eq(cfg.capabilities.workspace.codeLens.refreshSupport, true, 'refresh support advertised (0.11)')
    H.eq(cfg.handlers['workspace/codeLens/refresh'], la.on_codelens_refresh, 'refresh handler (0.11)')
  end
  for _, name in ipairs({ 'LeanAssessDiff', 'LeanAssessPath', 'LeanAssessSetReference', 'LeanAssessLens', 'LeanAssessInfo' }) do
    H.eq(vim.fn.exists(':' .. name), 2, ':' .. name .. ' defined')
  end
  -- A second setup (e.g. re-sourcing the config) must not stack the shim twice.
  la.setup({ path = bin, shim_dir = shim })
  H.eq(vim.lsp.config.leanls.cmd_env.PATH, shim .. ':/x:/y', 'PATH after second setup')
end)

H.test('setup without the binary warns and still uses an existing shim directory', function()
  local shim = vim.fs.joinpath(tmp, 'nobin-shim')
  local messages = {}
  local notify = vim.notify
  vim.notify = function(m)
    messages[#messages + 1] = m
  end
  local state = la.setup({ path = vim.fs.joinpath(tmp, 'does-not-exist'), shim_dir = shim })
  vim.notify = notify
  H.eq(state.binary, nil, 'no binary')
  H.eq(state.shim, 'missing', 'no shim')
  H.truthy(messages[1] and messages[1]:find('not an executable', 1, true), 'warned: ' .. vim.inspect(messages))
end)

-- The client, started through the shim PATH, against the stub.
local function read_log(file)
  local out = {}
  if vim.uv.fs_stat(file) then
    for line in io.lines(file) do
      out[#out + 1] = vim.json.decode(line)
    end
  end
  return out
end

local function received(file, method, pred)
  for _, m in ipairs(read_log(file)) do
    if m.method == method and (not pred or pred(m)) then
      return m
    end
  end
end

--- Wait until the server (logging to `log`) received `workspace/executeCommand` with the one
--- argument `arg`.
local function wait_for_command(log, arg, what)
  H.wait_for(5000, function()
    return received(log, 'workspace/executeCommand', function(m)
      return vim.deep_equal(m.params.arguments, { arg })
    end)
  end, what)
end

local function lens_texts(bufnr)
  local texts = {}
  for _, ns in pairs(vim.api.nvim_get_namespaces()) do
    for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
      for _, chunk in ipairs(mark[4].virt_text or {}) do
        texts[#texts + 1] = chunk[1]
      end
    end
  end
  return table.concat(texts, ' ')
end

local shim = vim.fs.joinpath(tmp, 'stub-shim')
local log = vim.fs.joinpath(tmp, 'stub.log')
-- The shim directory's `lake` is the stub here: the client can only reach it through cmd_env PATH.
local project = H.stub_project(tmp, shim, here)
vim.env.STUB_LOG = log
-- The user's real `lake` (elan's) is on Neovim's PATH, as for every Lean user: Neovim 0.11 checks
-- that a table `cmd` is executable on its own PATH before starting. It must NOT be the one run.
local real_lake_dir = vim.fs.joinpath(tmp, 'elan-bin')
H.write(vim.fs.joinpath(real_lake_dir, 'lake'), '#!/bin/sh\necho "real lake reached: $*" >&2\nexit 1\n', 493)
vim.env.PATH = real_lake_dir .. ':' .. vim.env.PATH

vim.lsp.config('leanls', {
  cmd = { 'lake', 'serve', '--' },
  cmd_env = { PATH = vim.env.PATH }, -- drop the earlier tests' shim directories
  filetypes = { 'lean' },
  root_markers = { 'lakefile.toml' },
})
la.setup({ path = vim.fs.joinpath(tmp, 'none'), shim_dir = shim, install_shim = false, config = vim.fs.joinpath(project, 'lean-assess.toml') })
vim.lsp.enable('leanls')
vim.cmd.edit(vim.fs.joinpath(project, 'Auto.lean'))
local buf = vim.api.nvim_get_current_buf()

H.test('the Lean client starts through the shim directory on cmd_env PATH, with the config variable', function()
  local client = H.wait_for(5000, function()
    return vim.lsp.get_clients({ bufnr = buf, name = 'leanls' })[1]
  end, 'leanls to attach')
  H.truthy(client.server_capabilities.codeLensProvider, 'codeLensProvider')
  local first = read_log(log)[1]
  H.eq(first.path0, shim, 'first PATH entry of the server')
  H.eq(first.argv, { 'serve', '--' }, 'argv')
  H.eq(first.config, vim.fs.joinpath(project, 'lean-assess.toml'), 'LEAN_ASSESS_CONFIG')
end)

H.test('code lenses are enabled on attach and displayed', function()
  H.wait_for(5000, function()
    return lens_texts(buf):find('TED 0.83 · v1', 1, true)
  end, 'lens text in the buffer: ' .. lens_texts(buf))
  H.truthy(received(log, 'textDocument/codeLens'), 'lens requested')
end)

H.test(':LeanAssessDiff runs the proxy command; the refresh request re-fetches the lens', function()
  vim.api.nvim_win_set_cursor(0, { 2, 9 })
  vim.cmd('LeanAssessDiff')
  wait_for_command(log, 'differences', 'executeCommand differences')
  H.wait_for(5000, function()
    return lens_texts(buf):find('v2', 1, true)
  end, 'refreshed lens: ' .. lens_texts(buf))
  -- Neovim answered the server's workspace/codeLens/refresh request with a success (null). The
  -- handler re-requests the lenses before it returns, so the reply may reach the stub after the
  -- new lens has been shown: wait for it.
  local answer = H.wait_for(5000, function()
    for _, m in ipairs(read_log(log)) do
      if m.id == 'stub:refresh' and m.method == nil then
        return m
      end
    end
  end, 'the reply to workspace/codeLens/refresh')
  H.eq(answer.error, nil, 'refresh reply error')
end)

H.test(':LeanAssessPath and :LeanAssessLens run their commands', function()
  vim.api.nvim_win_set_cursor(0, { 2, 9 })
  vim.cmd('LeanAssessPath')
  wait_for_command(log, 'path', 'executeCommand path')
  vim.cmd('LeanAssessLens')
  wait_for_command(log, 'lens', 'executeCommand from the lens')
end)

H.test(':LeanAssessSetReference applies the "Use as reference" edit', function()
  vim.api.nvim_win_set_cursor(0, { 2, 9 })
  vim.cmd('LeanAssessSetReference')
  H.wait_for(5000, function()
    return vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == '-- @reference used'
  end, 'edit applied: ' .. vim.inspect(vim.api.nvim_buf_get_lines(buf, 0, 2, false)))
end)

for _, c in ipairs(vim.lsp.get_clients()) do
  c:stop(true)
end
H.finish()
