#!/bin/sh
# Prepares what the end-to-end test of the VS Code extension (test/e2e/vscode.test.ts) needs: Debian's
# Chromium and the tools to build code-server's native modules, and code-server itself — a real VS Code
# server with the real workbench — installed into a cache folder outside the repository's node_modules.
# Work already done is skipped, so a second run takes well under a second.
#
#   sh scripts/e2e-setup.sh            install what is missing
#   STORAGE_PERF_E2E=skip              do nothing (the e2e test then skips itself, saying why)
#   STORAGE_PERF_E2E_CACHE=DIR         where code-server goes (default: .cache/ in the repository)
#
# code-server 4.100.3 is VS Code 1.100.3, the newest release that runs on Node 20 (later ones need 22+).
set -eu

CODE_SERVER_VERSION=4.100.3
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${STORAGE_PERF_E2E_CACHE:-$root/.cache}
prefix=$cache/code-server/$CODE_SERVER_VERSION
marker=$prefix/.installed

if [ "${STORAGE_PERF_E2E:-}" = skip ]; then
  echo "e2e-setup: STORAGE_PERF_E2E=skip, nothing to do"
  exit 0
fi

log() { echo "e2e-setup: $*"; }

# --- Debian packages ------------------------------------------------------------------------------------
# chromium: the browser the test drives. ripgrep: code-server's search needs an rg binary, and the npm
# package that provides one downloads it from GitHub at install time. The rest builds code-server's native
# modules (node-pty, spdlog, kerberos, ...) from source, since their prebuilt binaries are not on npm.
packages="chromium ripgrep build-essential pkg-config python3 libx11-dev libxkbfile-dev libsecret-1-dev libkrb5-dev"
sh "$root/scripts/ensure-debian-packages.sh" $packages

# --- code-server -----------------------------------------------------------------------------------------
if [ -f "$marker" ]; then
  log "code-server $CODE_SERVER_VERSION already installed in $prefix"
  exit 0
fi

start=$(date +%s)
log "installing code-server $CODE_SERVER_VERSION into $prefix"
rm -rf "$prefix"
mkdir -p "$prefix"
cd "$prefix"
echo '{ "private": true }' > package.json

# As root npm refuses lifecycle scripts without unsafe-perm; node-gyp must use the machine's Node headers
# (it would otherwise download them); node-pty's install runs `npx node-gyp`, which must not prompt; the
# modules that first try a prebuilt binary from GitHub (argon2, kerberos) go straight to building it.
if [ -z "${npm_config_nodedir:-}" ]; then
  # The headers of the Node that runs us: next to its binary (tarball installs), else the system's.
  npm_config_nodedir=$(node -p 'require("path").resolve(process.execPath, "../..")')
  [ -f "$npm_config_nodedir/include/node/node_api.h" ] || npm_config_nodedir=/usr
fi
if [ ! -f "$npm_config_nodedir/include/node/node_api.h" ]; then
  echo "e2e-setup: Node's headers are not in $npm_config_nodedir/include/node (Debian's nodejs or libnode-dev provides them); set npm_config_nodedir" >&2
  exit 1
fi
export npm_config_unsafe_perm=true npm_config_nodedir npm_config_yes=true
export npm_config_build_from_source=true
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

# Scripts off: code-server's postinstall would install VS Code's dependencies with @vscode/ripgrep's
# download from GitHub. Install those dependencies ourselves, seed rg, build the native modules, then let
# code-server's own postinstall finish (symlinks, the built-in extensions' dependencies).
npm install --ignore-scripts --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION"
# code-server's own native dependency (password hashing; loaded even with --auth none).
npm rebuild argon2 --loglevel=error
[ -f node_modules/argon2/lib/binding/napi-v3/argon2.node ] || { echo "e2e-setup: argon2 was not built" >&2; exit 1; }
vscode=$prefix/node_modules/code-server/lib/vscode
(cd "$vscode" && npm install --omit=dev --ignore-scripts --loglevel=error)
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
(cd "$vscode" && npm rebuild --loglevel=error)
for m in node-pty/build/Release/pty.node @vscode/spdlog/build/Release/spdlog.node; do
  [ -f "$vscode/node_modules/$m" ] || { echo "e2e-setup: native module $m was not built" >&2; exit 1; }
done
# postinstall.sh reads Node's major version and the package manager from npm's user agent.
(cd "$prefix/node_modules/code-server" && npm_config_user_agent="npm/$(npm -v) node/$(node -v) linux x64" sh postinstall.sh >/dev/null)

node "$prefix/node_modules/code-server/out/node/entry.js" --version >/dev/null
touch "$marker"
log "code-server installed in $(( $(date +%s) - start )) s"
