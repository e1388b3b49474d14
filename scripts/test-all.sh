#!/usr/bin/env bash
# Every test of the project: the Rust crate (unit, integration, benches compiled and smoke-run
# as tests) and each editor plugin's own test script when present.
# Usage: scripts/test-all.sh   (from anywhere; exits non-zero on the first failure)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test --all-targets --no-fail-fast"
cargo test --all-targets --no-fail-fast

shopt -s nullglob
for script in editors/*/test.sh; do
  echo "== $script"
  bash "$script"
done
echo "== all tests passed"
