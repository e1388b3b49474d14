#!/usr/bin/env bash
# Build, unit-test and package the VS Code extension. Needs node/npm only (never downloads VS Code).
# Exits non-zero on any failure. `editors/ci-install.sh` runs `npm ci` here beforehand; this script
# runs it too when node_modules is missing, so it also works on its own.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
if [ ! -d node_modules ]; then
    npm ci --no-audit --no-fund
fi
npx tsc -p .
# The "shim against the real binary" test runs when the crate's binary is built.
if [ -z "${LEAN_ASSESS_BIN:-}" ] && [ -x "$repo/target/debug/lean-assess" ]; then
    export LEAN_ASSESS_BIN="$repo/target/debug/lean-assess"
fi
node --test out/test/*.test.js
# Packaging is part of the build the issue asks for: check the .vsix holds the compiled extension.
vsix="$(mktemp -d)/lean-assess.vsix"
npx vsce package --no-dependencies -o "$vsix" >/dev/null
python3 - "$vsix" <<'PY'
import sys, zipfile, json
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = {"extension/package.json", "extension/out/src/extension.js", "extension/out/src/core/config.js"}
missing = need - names
manifest = json.loads(zipfile.ZipFile(sys.argv[1]).read("extension/package.json"))
if missing or manifest["main"] != "./out/src/extension.js" or any(n.startswith("extension/out/test/") for n in names):
    sys.exit(f"vsix content wrong: missing {sorted(missing)}; files {sorted(names)}")
print(f"vsix ok: {sys.argv[1]} ({len(names)} files)")
PY
