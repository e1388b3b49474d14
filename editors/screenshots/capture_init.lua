-- Neovim init for capture.sh: the plugin set up as a user would, then, once the lens is shown,
-- the hover on the theorem name; writes $LA_DONE when the screen is ready to capture.
vim.opt.rtp:prepend(os.getenv('LA_PLUGIN'))
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'no'
vim.o.shortmess = vim.o.shortmess .. 'I'
vim.lsp.config('leanls', { cmd = { 'lake', 'serve', '--' }, filetypes = { 'lean' }, root_markers = { 'lakefile.toml' } })
require('lean_assess').setup({ path = os.getenv('LA_BIN'), shim_dir = os.getenv('LA_SHIM') })
vim.lsp.enable('leanls')

local started = vim.uv.now()
local timer = assert(vim.uv.new_timer())
timer:start(200, 200, vim.schedule_wrap(function()
  local buf = vim.api.nvim_get_current_buf()
  -- Wait for the lens, and for its running metrics to finish, so lens and hover agree.
  local lenses = vim.lsp.codelens.get(buf)
  local title = lenses[1] and lenses[1].command and lenses[1].command.title or ''
  if (#lenses == 0 or title:find('running', 1, true) or title:find('pending', 1, true)) and vim.uv.now() - started < 20000 then
    return
  end
  timer:stop()
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  vim.lsp.buf.hover({ border = 'rounded', max_width = 90 })
  vim.defer_fn(function()
    local f = assert(io.open(os.getenv('LA_DONE'), 'w'))
    f:write(#vim.lsp.codelens.get(buf) > 0 and 'lens\n' or 'no lens\n')
    f:close()
  end, 1500)
end))
