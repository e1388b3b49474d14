#!/usr/bin/env bash
# Every test of the project: the Rust crate (unit and integration tests; benches are built and
# smoke-run as tests) and each editor plugin's own test script when present.
# Usage: scripts/test-all.sh   (from anywhere). Runs everything, then exits non-zero if any part
# failed, naming the parts that did.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=()

echo "== cargo test --all-targets --no-fail-fast"
cargo test --all-targets --no-fail-fast || failed+=("cargo test")

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
