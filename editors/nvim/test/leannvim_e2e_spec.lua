-- End to end in front of lean.nvim: real Neovim, lean.nvim (the real one from
-- ../shared/clients when editors/nvim/test.sh found it, $LEAN_NVIM_DIR; else the imitation in
-- test/fixtures/leannvim, and test.sh says so), this plugin, the real `lean-assess` (its shim and
-- `serve`) and the Lean stand-in as the user's `lake`/`lean`. One set-up a run
-- ($LEAN_ASSESS_NVIM_SETUP), as users have them:
--   plain       lean.nvim as installed (no vim.g.lean_config), `setup{}` installing the shim, a
--               project with a lakefile: lens, hover, the three actions (plain-text
--               differences), Lean's warnings following an edit, an edit that matches;
--   written     the settings the plugin writes: "Use as reference" writes a [[reference.pair]]
--               into the project's lean-assess.toml (which has `lens = ["ted", "path"]`); saved,
--               it is what judges the theorem once its directive is gone; the proof path view
--               agrees with that lens;
--   nolakefile  a folder with only lean-toolchain: lean.nvim starts `lean --server <root>`,
--               which the shim's `lean` puts behind the proxy.
local here = vim.fs.dirname(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p'))
local root = vim.fs.dirname(here)
vim.opt.rtp:prepend(root)
package.path = here .. '/?.lua;' .. package.path
local H = require('harness')

local setup_name = os.getenv('LEAN_ASSESS_NVIM_SETUP') or 'plain'
local repo = os.getenv('LEAN_ASSESS_REPO') or vim.fs.dirname(vim.fs.dirname(root))
local bin = os.getenv('LEAN_ASSESS_BIN') or vim.fs.joinpath(repo, 'target', 'debug', 'lean-assess')
local standin = os.getenv('LEAN_STANDIN_BIN') or vim.fs.joinpath(repo, 'target', 'debug', 'lean-standin')
for _, b in ipairs({ bin, standin }) do
  if vim.fn.executable(b) ~= 1 then
    H.test('end to end in front of lean.nvim (' .. setup_name .. ')', function()
      error(b .. ' is not built (editors/nvim/test.sh builds it with cargo)')
    end)
    H.finish()
  end
end

local tmp = H.tmpdir()
local shim = vim.fs.joinpath(tmp, 'shim')
local tools_log = vim.fs.joinpath(tmp, 'tools.log')

-- The user's real `lake` and `lean` (as elan puts them on PATH): the stand-in for the server
-- calls, the version lines of Lean 4.30 otherwise. Each call is logged (tool, cwd, args) so the
-- tests see which one lean.nvim started, where, and that it came through the shim.
local elan = vim.fs.joinpath(tmp, 'elan-bin')
local function fake_tool(name, server_test, version)
  H.write(
    vim.fs.joinpath(elan, name),
    ('#!/bin/sh\nprintf "%s\\t%%s\\t%%s\\n" "$PWD" "$*" >>%s\n%s\n[ "$1" = --version ] && { echo %s; exit 0; }\necho "unexpected %s $*" >&2\nexit 2\n'):format(
      name,
      vim.fn.shellescape(tools_log),
      server_test:format(vim.fn.shellescape(standin)),
      vim.fn.shellescape(version),
      name
    ),
    493
  )
end
fake_tool('lake', '[ "$1" = serve ] && exec %s', 'Lake version 5.0.0-src (Lean version 4.30.0)')
fake_tool('lean', 'for a in "$@"; do [ "$a" = --server ] && exec %s; done', 'Lean (version 4.30.0, x86_64-unknown-linux-gnu, Release)')
vim.env.PATH = elan .. ':' .. vim.env.PATH

local ln = H.lean_nvim(here)
io.stdout:write(('     lean.nvim: %s (%s); set-up: %s\n'):format(ln.real and 'the real one' or 'the imitation', ln.dir, setup_name))

-- The project of the set-up.
local project = vim.fs.joinpath(tmp, 'project')
local cand_name = 'my_favorite_theorem'
local reference = 'theorem mathd_algebra_142 (m b : ℝ) (h₀ : m * 7 + b = -1) (h₁ : m * -1 + b = 7) : m + b = 5 := by\n  sorry\n'
local candidate = '-- @reference Reference.lean::mathd_algebra_142\n'
  .. 'theorem my_favorite_theorem (m b : ℝ) (h₀ : m * 7 + b = -1) (h₁ : m * -1 + b < 7) : m + b = 5 := by\n'
  .. '  sorry\n'
H.write(vim.fs.joinpath(project, 'lean-toolchain'), 'leanprover/lean4:v4.30.0\n')
if setup_name ~= 'nolakefile' then
  H.write(vim.fs.joinpath(project, 'lakefile.toml'), 'name = "demo"\n')
end
if setup_name == 'written' then
  -- `3 ≥ x` states `x ≤ 3`: neither `ted` nor `path` shows it (no rewrites), transted-lite does.
  reference = 'theorem same_name (x : ℕ) (h₁ : x ≤ 3) : x + 1 ≤ 4 := by\n  sorry\n'
  candidate = '-- @reference Reference.lean::same_name\ntheorem cand (x : ℕ) (h₁ : 3 ≥ x) : x + 1 ≤ 4 := by\n  sorry\n'
  cand_name = 'cand'
  H.write(vim.fs.joinpath(project, 'lean-assess.toml'), '[metrics]\nlens = ["ted", "path"]\n')
end
H.write(vim.fs.joinpath(project, 'Reference.lean'), reference)
H.write(vim.fs.joinpath(project, 'Auto.lean'), candidate)

local la = require('lean_assess')
local state = la.setup({ path = bin, shim_dir = shim })
-- lean.nvim enabled `leanls` already (its plugin/ file); enabling it again is what a user's
-- config may do too, and changes nothing.
vim.lsp.enable('leanls')

H.test('setup installs the shim and extends lean.nvim\'s leanls (its cmd function and handlers kept)', function()
  H.eq(state.shim, 'installed', 'shim state')
  H.eq(vim.uv.fs_realpath(vim.fs.joinpath(shim, 'lean')), vim.uv.fs_realpath(bin), 'lean → lean-assess')
  local cfg = vim.lsp.config.leanls
  H.eq(type(cfg.cmd), 'function', 'lean.nvim\'s cmd is still its function')
  H.eq(type(cfg.handlers['$/lean/fileProgress']), 'function', 'lean.nvim\'s fileProgress handler kept')
  H.eq(vim.split(cfg.cmd_env.PATH, ':')[1], shim, 'shim first on cmd_env PATH')
end)

vim.cmd.edit(vim.fs.joinpath(project, 'Auto.lean'))
local buf = vim.api.nvim_get_current_buf()

--- The line (0-based) of the candidate theorem now.
local function theorem_line()
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find('^theorem ' .. cand_name) then
      return i - 1
    end
  end
  error('no theorem ' .. cand_name .. ' in the buffer')
end

local function lens_texts()
  local texts = {}
  for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
    if lens.command and lens.command.title then
      texts[#texts + 1] = lens.command.title
    end
  end
  return table.concat(texts, ' | ')
end

local function ours()
  return vim.tbl_filter(function(d)
    return d.source == 'lean-assess'
  end, vim.diagnostic.get(buf))
end

--- Run a user command on the theorem line and return the document the proxy opens with
--- window/showDocument (name, lines), switching back to the candidate afterwards.
local function opened_by(command)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { theorem_line() + 1, 10 })
  vim.cmd(command)
  local view = H.wait_for(15000, function()
    local cur = vim.api.nvim_get_current_buf()
    return cur ~= buf and cur
  end, command .. ' to open a document')
  local lines = vim.api.nvim_buf_get_lines(view, 0, -1, false)
  vim.api.nvim_set_current_buf(buf)
  return vim.api.nvim_buf_get_name(view), lines
end

H.test('lean.nvim starts the server it chooses through the shim, and the client sees the proxy', function()
  local client = H.wait_for(10000, function()
    return vim.lsp.get_clients({ bufnr = buf, name = 'leanls' })[1]
  end, 'leanls to attach')
  H.wait_for(10000, function()
    return client.initialized
  end, 'initialize')
  H.truthy(client.server_capabilities.codeLensProvider, 'codeLensProvider added by the proxy')
  H.truthy(client.server_capabilities.hoverProvider, "Lean's hoverProvider kept")
  -- The real tool was called by the shim (from the project, with the shim gone from PATH).
  local want = setup_name == 'nolakefile' and ('lean\t%s\t--server %s'):format(project, project)
    or ('lake\t%s\tserve -- %s'):format(project, project)
  local line = H.wait_for(5000, function()
    local f = io.open(tools_log)
    local text = f and f:read('*a') or ''
    if f then
      f:close()
    end
    return text:find(want, 1, true) and text
  end, 'the log of the real tool to have ' .. want)
  io.stdout:write('     server started: ' .. vim.trim(line):gsub('\t', ' ') .. '\n')
end)

H.test('the lens appears on the theorem line with the TED similarity', function()
  -- Each metric's value arrives on its own: wait until none is still running, so that the
  -- text checked below is the lens's last.
  local text = H.wait_for(15000, function()
    local t = lens_texts()
    return t:lower():find('ted') and t:find('%d') and not t:find('running', 1, true) and t
  end, 'a lens naming TED with a value and no metric running; have: ' .. lens_texts())
  H.eq(vim.lsp.codelens.get(buf)[1].range.start.line, theorem_line(), 'lens on the theorem line (0-based)')
  if setup_name == 'written' then
    H.truthy(text:find('lean-assess: not shown · ted 0.80 · path 1.00', 1, true), 'the lens of lens = ["ted", "path"]: ' .. text)
  end
  io.stdout:write('     lens: ' .. text .. '\n')
end)

H.test('hover on the theorem name: Lean part, then `***`, then the lean-assess section', function()
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = theorem_line(), character = 10 } }
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
  H.truthy(after:lower():find('ted'), 'section names TED: ' .. after)
end)

if setup_name ~= 'written' then
  H.test(':LeanAssessDiff: lean-assess diagnostics on the theorem, in plain text (no markdown)', function()
    vim.api.nvim_win_set_cursor(0, { theorem_line() + 1, 10 })
    vim.cmd('LeanAssessDiff')
    local diags = H.wait_for(15000, function()
      local d = ours()
      return #d > 0 and d
    end, 'diagnostics with source lean-assess; have: ' .. vim.inspect(vim.diagnostic.get(buf)))
    H.eq(diags[1].lnum, theorem_line(), 'on the theorem line')
    for _, d in ipairs(diags) do
      H.truthy(not d.message:find('`', 1, true), 'no backticks in ' .. d.message)
    end
    H.truthy(diags[1].message:find("hypothesis 'h₁': '<' where the reference has '='", 1, true), diags[1].message)
    io.stdout:write('     difference: ' .. diags[1].message .. '\n')
  end)
end

H.test(':LeanAssessPath opens the proof path view', function()
  local name, lines = opened_by('LeanAssessPath')
  local text = table.concat(lines, '\n')
  H.truthy(lines[1] and lines[1]:find('Proof path for `' .. cand_name .. '`', 1, true), 'heading in ' .. name .. ': ' .. text)
  if setup_name == 'written' then
    -- The lens said "not shown": the view says whose path this is and which metric shows more.
    H.truthy(text:find('The lens shows ted and path', 1, true), text)
    H.truthy(text:find("transted-lite shows the two statements equivalent; the lens's metrics do not", 1, true), text)
  end
end)

if setup_name == 'plain' then
  H.test(':LeanAssessLens runs the lens command: the details view opens', function()
    local name, lines = opened_by('LeanAssessLens')
    H.truthy(table.concat(lines, '\n'):lower():find('ted', 1, true), 'details mention ted in ' .. name)
  end)
end

local config = vim.fs.joinpath(project, 'lean-assess.toml')
local function config_buffer_text()
  local b = vim.fn.bufnr(vim.fn.fnameescape(config))
  return b > 0 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') or '', b
end

if setup_name ~= 'nolakefile' then
  H.test(':LeanAssessSetReference writes the pair into lean-assess.toml (workspace/applyEdit)', function()
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { theorem_line() + 1, 10 })
    vim.cmd('LeanAssessSetReference')
    local text = H.wait_for(15000, function()
      local t = config_buffer_text()
      return t:find('[[reference.pair]]', 1, true) and t
    end, 'a [[reference.pair]] edit to ' .. config)
    H.truthy(text:find(cand_name, 1, true), 'pair names the candidate: ' .. text)
    if setup_name == 'written' then
      H.truthy(text:find('lens = ["ted", "path"]', 1, true), 'the existing settings kept: ' .. text)
    end
  end)
end

if setup_name == 'written' then
  H.test('saved, the written pair judges the theorem once its directive is gone', function()
    local _, b = config_buffer_text()
    vim.api.nvim_buf_call(b, function()
      vim.cmd('silent write')
    end)
    vim.api.nvim_set_current_buf(buf)
    H.eq(vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]:find('^%-%- @reference') ~= nil, true, 'directive on line 1')
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, {})
    vim.cmd('silent write')
    -- Lean's didSave makes the proxy re-read lean-assess.toml; the lens moves to line 0 and
    -- still shows the pair's judgement.
    local text = H.wait_for(15000, function()
      local lenses = vim.lsp.codelens.get(buf)
      local t = lens_texts()
      return #lenses == 1 and lenses[1].range.start.line == 0 and t:find('ted 0.80', 1, true) and t
    end, 'the lens on line 0 from the written pair; have: ' .. lens_texts())
    io.stdout:write('     lens from the written pair: ' .. text .. '\n')
  end)
end

H.test("Lean's warnings follow an edit (incremental didChange, applied by the stand-in as Lean does)", function()
  local function sorry_lines()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.message == "declaration uses 'sorry'" then
        out[#out + 1] = d.lnum
      end
    end
    table.sort(out)
    return out
  end
  local before = H.wait_for(15000, function()
    local s = sorry_lines()
    return #s > 0 and s
  end, "a 'sorry' warning")
  -- Two comment lines above the theorem: Neovim sends only the inserted range.
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '-- one', '-- two' })
  local after = H.wait_for(15000, function()
    local s = sorry_lines()
    return #s == #before and s[1] == before[1] + 2 and s
  end, "the 'sorry' warning two lines down; have: " .. vim.inspect(sorry_lines()) .. ', before: ' .. vim.inspect(before))
  io.stdout:write(('     sorry warning: line %d → %d\n'):format(before[1] + 1, after[1] + 1))
end)

if setup_name ~= 'written' then
  H.test('an edit that matches the reference: the lens refreshes to ted 1.00, the differences clear', function()
    local l = theorem_line()
    local line = vim.api.nvim_buf_get_lines(buf, l, l + 1, false)[1]
    vim.api.nvim_buf_set_lines(buf, l, l + 1, false, { (line:gsub('m %* %-1 %+ b < 7', 'm * -1 + b = 7')) })
    local text = H.wait_for(15000, function()
      local t = lens_texts()
      return t:find('ted 1.00', 1, true) and t
    end, 'lens with ted 1.00; have: ' .. lens_texts())
    io.stdout:write('     lens after the edit: ' .. text .. '\n')
    H.wait_for(15000, function()
      return #ours() == 0
    end, 'lean-assess diagnostics cleared')
  end)
end

H.test('lean.nvim said nothing but its Neovim-version warning (which changes nothing checked here)', function()
  H.check_lean_nvim_notes(ln)
end)

for _, c in ipairs(vim.lsp.get_clients()) do
  c:stop(true)
end
H.finish()
