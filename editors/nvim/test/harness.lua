-- Minimal test harness for `nvim --headless --clean -l FILE`: plain asserts, one line per test,
-- and the closing line "N passed, N failed" (the form CI reads), exit status 1 on any failure.
local H = { passed = 0, failed = 0, skipped = 0 }

--- Every vim.notify of the run ({ msg, level }), still shown as usual: the lean.nvim specs check
--- what lean.nvim said (its Neovim-version warning and nothing else).
H.notes = {}
local shown = vim.notify
vim.notify = function(msg, level, opts)
  H.notes[#H.notes + 1] = { msg = tostring(msg), level = level or vim.log.levels.INFO }
  return shown(msg, level, opts)
end

function H.test(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    H.passed = H.passed + 1
    io.stdout:write('ok   ' .. name .. '\n')
  else
    H.failed = H.failed + 1
    io.stdout:write('FAIL ' .. name .. '\n' .. tostring(err) .. '\n')
  end
end

function H.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(('%s: expected %s, got %s'):format(what or 'value', vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function H.truthy(v, what)
  if not v then
    error((what or 'condition') .. ' was false', 2)
  end
  return v
end

--- Wait up to `ms` for `fn()` to return a truthy value (events are processed meanwhile).
function H.wait_for(ms, fn, what)
  local value
  local ok = vim.wait(ms, function()
    value = fn()
    return value
  end, 20)
  if not ok then
    error(('timed out after %d ms waiting for %s'):format(ms, what or 'condition'), 2)
  end
  return value
end

function H.tmpdir()
  local d = vim.fn.tempname()
  vim.fn.mkdir(d, 'p')
  return d
end

function H.write(path, text, mode)
  vim.fn.mkdir(vim.fs.dirname(path), 'p')
  local f = assert(io.open(path, 'w'))
  f:write(text)
  f:close()
  if mode then
    vim.uv.fs_chmod(path, mode)
  end
end

--- A Lean project `tmp/project` (a lakefile and `Auto.lean`, one theorem) and, in `shim`, a
--- `lake` that runs test/stub_server.py (logging to $STUB_LOG). Returns the project's path.
function H.stub_project(tmp, shim, here)
  local project = vim.fs.joinpath(tmp, 'project')
  H.write(vim.fs.joinpath(project, 'lakefile.toml'), 'name = "demo"\n')
  H.write(vim.fs.joinpath(project, 'Auto.lean'), '-- candidate\ntheorem t : 1 + 1 = 2 := by\n  rfl\n')
  H.write(vim.fs.joinpath(shim, 'lake'), ('#!/bin/sh\nSTUB_PATH="$PATH" exec python3 %s "$@"\n'):format(vim.fs.joinpath(here, 'stub_server.py')), 493)
  return project
end

--- Put lean.nvim on the runtimepath as a user has it: the real one when editors/nvim/test.sh
--- unpacked it ($LEAN_NVIM_DIR, from ../shared/clients), else the imitation of its `leanls`
--- config in test/fixtures/leannvim. The real one's plugin/lean.lua is sourced, which Neovim
--- does at startup for every plugin on the runtimepath (the spec sets the runtimepath after
--- startup): it enables `leanls` and defines the :Lean* commands. Returns { real, dir }.
function H.lean_nvim(here)
  local real = os.getenv('LEAN_NVIM_DIR')
  if real and real ~= '' then
    assert(vim.uv.fs_stat(vim.fs.joinpath(real, 'lsp', 'leanls.lua')), real .. ' is not lean.nvim (no lsp/leanls.lua)')
    vim.opt.rtp:prepend(real)
    vim.cmd.runtime('plugin/lean.lua')
    return { real = true, dir = real }
  end
  local fixture = vim.fs.joinpath(here, 'fixtures', 'leannvim')
  vim.opt.rtp:prepend(fixture)
  return { real = false, dir = fixture }
end

--- The warnings and errors lean.nvim showed: with the real one on a Neovim older than its
--- MIN_SUPPORTED_NVIM (0.11.5 at b2b6e044) exactly its version warning, else none.
function H.check_lean_nvim_notes(ln)
  local loud = vim.tbl_filter(function(n)
    return n.level >= vim.log.levels.WARN and n.msg:find('lean', 1, true) and not n.msg:find('^lean%-assess')
  end, H.notes)
  local want = {}
  if ln.real then
    local min = require('lean').MIN_SUPPORTED_NVIM
    if vim.version.lt(vim.version(), min) then
      want = { ('lean.nvim requires Neovim %s or later (you have %s).'):format(min, tostring(vim.version())) }
    end
  end
  H.eq(
    vim.tbl_map(function(n)
      return n.msg
    end, loud),
    want,
    'lean.nvim warnings'
  )
end

function H.finish()
  local line = ('%d passed, %d failed'):format(H.passed, H.failed)
  if H.skipped > 0 then
    line = line .. (', %d skipped'):format(H.skipped)
  end
  io.stdout:write(line .. '\n')
  io.stdout:flush()
  -- test.sh adds up the counts of all spec files for its own closing line.
  local counts = os.getenv('LEAN_ASSESS_TEST_COUNTS')
  if counts then
    local f = io.open(counts, 'a')
    if f then
      f:write(('%d %d %d\n'):format(H.passed, H.failed, H.skipped))
      f:close()
    end
  end
  os.exit(H.failed == 0 and 0 or 1)
end

return H
