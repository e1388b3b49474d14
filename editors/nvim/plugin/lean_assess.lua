-- Nothing runs on load: call require('lean_assess').setup{} (see editors/README.md).
if vim.g.loaded_lean_assess then
  return
end
vim.g.loaded_lean_assess = 1
