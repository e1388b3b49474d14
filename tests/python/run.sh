#!/usr/bin/env bash
# The Python package as a user gets it: a fresh virtual environment, `pip install .` from the
# repository's root (maturin from PyPI, crates from crates.io, compiled in release mode into the
# workspace's target/), then tests/python/test_lean_assess.py under pytest, which compares each
# result with the CLI's `--json` ($LEAN_ASSESS_CLI, default target/debug/lean-assess: built by
# `cargo test`, or here when missing).
# Usage: tests/python/run.sh [PYTEST ARGS...]   (needs python3 with venv: scripts/install-test-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=$(mktemp -d "${TMPDIR:-/tmp}/lean-assess-venv.XXXXXX")
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
started=$SECONDS
"${pip[@]}" install --quiet .
echo "tests/python: pip install . took $((SECONDS - started)) s"
"${pip[@]}" install --quiet -r tests/python/requirements.txt

if [ -z "${LEAN_ASSESS_CLI:-}" ]; then
    [ -x target/debug/lean-assess ] || cargo build --bin lean-assess
    export LEAN_ASSESS_CLI="$PWD/target/debug/lean-assess"
fi
# From tests/python, so that `lean_assess` can only be the installed package (not python/'s source).
cd tests/python
"$venv/bin/python" -m pytest -p no:cacheprovider "$@" test_lean_assess.py
