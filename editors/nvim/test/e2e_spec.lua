-- End to end: real Neovim 0.11, this plugin, the real `lean-assess` (its `lake` shim and `serve`)
-- and the Lean stand-in (`lean-standin`, built from tests/standin/) playing the real `lake serve`.
-- Checks: the lens appears with the expected text, the hover has the proxy's section after `***`,
-- a code action runs. Fails at once when the binaries are not built.
-- Run through editors/nvim/test.sh (it sets LEAN_ASSESS_REPO and builds the binaries with cargo).
local here = vim.fs.dirname(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p'))
local root = vim.fs.dirname(here)
vim.opt.rtp:prepend(root)
package.path = here .. '/?.lua;' .. package.path
local H = require('harness')
local la = require('lean_assess')

local repo = os.getenv('LEAN_ASSESS_REPO') or vim.fs.dirname(vim.fs.dirname(root))
local bin = os.getenv('LEAN_ASSESS_BIN') or vim.fs.joinpath(repo, 'target', 'debug', 'lean-assess')
local standin = os.getenv('LEAN_STANDIN_BIN') or vim.fs.joinpath(repo, 'target', 'debug', 'lean-standin')

local function missing()
  if vim.fn.executable(bin) ~= 1 then
    return bin .. ' is not built'
  end
  if vim.fn.executable(standin) ~= 1 then
    return standin .. ' (the Lean stand-in) is not built'
  end
  local help = vim.system({ bin, 'serve', '--help' }, { text = true }):wait(10000)
  if not ((help.stdout or '') .. (help.stderr or '')):lower():find('usage:.*serve') then
    return bin .. ' has no `serve` command'
  end
end

local why = missing()
if why then
  -- Not a skip: editors/nvim/test.sh builds the binaries, so missing ones are a failure.
  H.test('end-to-end against lean-assess serve', function()
    error(why .. ' (editors/nvim/test.sh builds it with cargo)')
  end)
  H.finish()
end

local tmp = H.tmpdir()
local project = vim.fs.joinpath(tmp, 'project')
local shim = vim.fs.joinpath(tmp, 'shim')

-- A reference file and a candidate with a directive, as a user writes them (architecture.md).
H.write(vim.fs.joinpath(project, 'lakefile.toml'), 'name = "demo"\n')
H.write(
  vim.fs.joinpath(project, 'Reference.lean'),
  'theorem mathd_algebra_142 (m b : ℝ) (h₀ : m * 7 + b = -1) (h₁ : m * -1 + b = 7) : m + b = 5 := by\n  sorry\n'
)
H.write(
  vim.fs.joinpath(project, 'Auto.lean'),
  '-- @reference Reference.lean::mathd_algebra_142\n'
    .. 'theorem my_favorite_theorem (m b : ℝ) (h₀ : m * 7 + b = -1) (h₁ : m * -1 + b < 7) : m + b = 5 := by\n'
    .. '  sorry\n'
)

-- The user's real `lake` is the stand-in: the shim must find it on PATH behind the shim directory
-- and run `<real lake> serve -- <root>` behind the proxy.
local elan = vim.fs.joinpath(tmp, 'elan-bin')
H.write(
  vim.fs.joinpath(elan, 'lake'),
  ('#!/bin/sh\n[ "$1" = serve ] || { echo "unexpected lake $*" >&2; exit 2; }\nexec %s\n'):format(vim.fn.shellescape(standin)),
  493
)
vim.env.PATH = elan .. ':' .. vim.env.PATH

-- A plain config (no lean.nvim), with the plugin's `cmd` that starts in the project root.
vim.lsp.config('leanls', { cmd = la.lake_serve_cmd(), filetypes = { 'lean' }, root_markers = { 'lakefile.toml' } })
local state = la.setup({ path = bin, shim_dir = shim })
vim.lsp.enable('leanls')

H.test('setup installs the real shim (DIR/lake → lean-assess)', function()
  H.eq(state.shim, 'installed', 'shim state')
  H.eq(vim.uv.fs_realpath(vim.fs.joinpath(shim, 'lake')), vim.uv.fs_realpath(bin), 'lake target')
end)

vim.cmd.edit(vim.fs.joinpath(project, 'Auto.lean'))
local buf = vim.api.nvim_get_current_buf()

local function lens_texts()
  local texts = {}
  for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
    if lens.command and lens.command.title then
      texts[#texts + 1] = lens.command.title
    end
  end
  return table.concat(texts, ' | ')
end

H.test('the client reaches the proxy through the shim and sees its capabilities', function()
  local client = H.wait_for(10000, function()
    return vim.lsp.get_clients({ bufnr = buf, name = 'leanls' })[1]
  end, 'leanls to attach')
  H.wait_for(10000, function()
    return client.initialized
  end, 'initialize')
  H.truthy(client.server_capabilities.codeLensProvider, 'codeLensProvider added by the proxy')
  local cmds = (client.server_capabilities.executeCommandProvider or {}).commands or {}
  H.truthy(#cmds > 0, 'executeCommandProvider.commands: ' .. vim.inspect(cmds))
  H.truthy(client.server_capabilities.hoverProvider, "Lean's hoverProvider kept")
end)

H.test('the lens appears above the theorem with the TED similarity', function()
  local text = H.wait_for(15000, function()
    local t = lens_texts()
    return t:lower():find('ted') and t:find('%d') and t
  end, 'a lens naming TED with a value; have: ' .. lens_texts())
  local lens = vim.lsp.codelens.get(buf)[1]
  H.eq(lens.range.start.line, 1, 'lens on the theorem line (0-based)')
  io.stdout:write('     lens: ' .. text .. '\n')
end)

H.test('hover on the theorem name: Lean part, then `***`, then the lean-assess section', function()
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 1, character = 12 } }
  local value = H.wait_for(15000, function()
    local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 5000) or {}
    for _, r in pairs(res) do
      local c = r.result and r.result.contents
      local v = type(c) == 'table' and (c.value or (c[1] and (c[1].value or c[1]))) or c
      if type(v) == 'string' and v:find('***', 1, true) then
        return v
      end
    end
  end, 'a hover with a `***` section')
  local after = value:sub(select(2, value:find('***', 1, true)) + 1)
  H.truthy(after:find('%S'), 'text after ***')
  H.truthy(after:lower():find('ted'), 'section names TED: ' .. after)
  io.stdout:write('     hover section: ' .. after:gsub('\n', ' '):sub(1, 120) .. '\n')
end)

H.test(':LeanAssessDiff runs the "Show differences" action: lean-assess diagnostics appear', function()
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  vim.cmd('LeanAssessDiff')
  local diags = H.wait_for(15000, function()
    local ours = vim.tbl_filter(function(d)
      return d.source == 'lean-assess'
    end, vim.diagnostic.get(buf))
    return #ours > 0 and ours
  end, 'diagnostics with source lean-assess; have: ' .. vim.inspect(vim.diagnostic.get(buf)))
  H.eq(diags[1].lnum, 1, 'on the theorem line')
  io.stdout:write('     difference: ' .. diags[1].message:gsub('\n', ' ') .. '\n')
end)

--- Run a user command on the theorem line and return the buffer the proxy opens with
--- window/showDocument (a read-only markdown view), switching back to the candidate afterwards.
local function opened_by(command)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  vim.cmd(command)
  local view = H.wait_for(15000, function()
    local cur = vim.api.nvim_get_current_buf()
    return cur ~= buf and cur
  end, command .. ' to open a document')
  local lines = vim.api.nvim_buf_get_lines(view, 0, -1, false)
  vim.api.nvim_set_current_buf(buf)
  return vim.api.nvim_buf_get_name(view), lines
end

H.test(':LeanAssessPath opens the proof path view (window/showDocument)', function()
  local name, lines = opened_by('LeanAssessPath')
  H.truthy(lines[1] and lines[1]:find('Proof path for `my_favorite_theorem`', 1, true), 'heading in ' .. name .. ': ' .. vim.inspect(lines))
  io.stdout:write('     proof path view: ' .. vim.fs.basename(name) .. ' (' .. #lines .. ' lines)\n')
end)

H.test(':LeanAssessLens runs the lens command: the details view opens', function()
  local name, lines = opened_by('LeanAssessLens')
  H.truthy(#lines > 0 and table.concat(lines, '\n'):lower():find('ted', 1, true), 'details mention ted in ' .. name .. ': ' .. vim.inspect(lines))
end)

H.test(':LeanAssessSetReference writes the pair down (workspace/applyEdit)', function()
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  vim.cmd('LeanAssessSetReference')
  -- The reference came from a directive, so the proxy writes a [[reference.pair]] into the
  -- project's lean-assess.toml (Neovim applies the edit into a buffer for that file).
  local config = vim.fs.joinpath(project, 'lean-assess.toml')
  local text = H.wait_for(15000, function()
    local b = vim.fn.bufnr(vim.fn.fnameescape(config))
    local t = b > 0 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') or ''
    return t:find('[[reference.pair]]', 1, true) and t
  end, 'a [[reference.pair]] edit to ' .. config)
  H.truthy(text:find('my_favorite_theorem', 1, true) and text:find('mathd_algebra_142', 1, true), 'pair names both theorems: ' .. text)
end)

H.test('an edit that matches the reference: the lens refreshes to ted 1.00, the differences clear', function()
  -- `<` → `=` in h₁: the candidate now states the reference. Neovim sends didChange; the proxy
  -- recomputes and sends workspace/codeLens/refresh, which the plugin's 0.11 handler serves.
  local line = vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1]
  vim.api.nvim_buf_set_lines(buf, 1, 2, false, { (line:gsub('m %* %-1 %+ b < 7', 'm * -1 + b = 7')) })
  local text = H.wait_for(15000, function()
    local t = lens_texts()
    return t:find('ted 1.00', 1, true) and t
  end, 'lens with ted 1.00; have: ' .. lens_texts())
  io.stdout:write('     lens after the edit: ' .. text .. '\n')
  H.wait_for(15000, function()
    return #vim.tbl_filter(function(d)
      return d.source == 'lean-assess'
    end, vim.diagnostic.get(buf)) == 0
  end, 'lean-assess diagnostics cleared')
end)

for _, c in ipairs(vim.lsp.get_clients()) do
  c:stop(true)
end
H.finish()
