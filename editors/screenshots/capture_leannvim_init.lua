-- Neovim init for `capture.sh --lean-nvim`: the real lean.nvim ($LA_LEAN_NVIM, as installed: on
-- the runtimepath; its infoview below the code so that lines show whole) and this plugin set up
-- as a user would; once the lens
-- has settled, "Show differences" on the theorem: its diagnostic (plain text, as editors show
-- diagnostics) as virtual text on the hypothesis it underlines, beside lean.nvim's infoview.
-- Writes $LA_DONE when the screen is ready to capture.
vim.g.lean_config = { infoview = { orientation = 'horizontal' } }
vim.opt.rtp:prepend(os.getenv('LA_LEAN_NVIM'))
vim.opt.rtp:prepend(os.getenv('LA_PLUGIN'))
vim.o.termguicolors = true
vim.o.number = true
vim.o.shortmess = vim.o.shortmess .. 'I'
vim.diagnostic.config({ virtual_text = true })
require('lean_assess').setup({ path = os.getenv('LA_BIN'), shim_dir = os.getenv('LA_SHIM') })

local started = vim.uv.now()
local timer = assert(vim.uv.new_timer())
timer:start(300, 300, vim.schedule_wrap(function()
  local buf = vim.fn.bufnr('Auto.lean')
  local lenses = vim.lsp.codelens.get(buf)
  local title = lenses[1] and lenses[1].command and lenses[1].command.title or ''
  if (#lenses == 0 or title:find('running', 1, true) or title:find('pending', 1, true)) and vim.uv.now() - started < 20000 then
    return
  end
  timer:stop()
  vim.api.nvim_set_current_win(vim.fn.bufwinid(buf))
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  vim.cmd('LeanAssessDiff')
  vim.defer_fn(function()
    local ours = vim.tbl_filter(function(d)
      return d.source == 'lean-assess'
    end, vim.diagnostic.get(buf))
    vim.defer_fn(function()
      local f = assert(io.open(os.getenv('LA_DONE'), 'w'))
      f:write(('%d lens, %d difference\n'):format(#vim.lsp.codelens.get(buf), #ours))
      f:close()
    end, 1500)
  end, 1500)
end))
