-- Minimal test harness for `nvim --headless --clean -l FILE`: plain asserts, one line per test,
-- and the closing line "N passed, N failed" (the form CI reads), exit status 1 on any failure.
local H = { passed = 0, failed = 0, skipped = 0 }

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
