# Why: repomem needs Node >= 22.16 (node:sqlite with FTS5; tested on 24) and pnpm, but CI
# machines and newcomers may have only an older Node and no pnpm. This file, when sourced, puts a
# suitable node and pnpm on PATH, fetching both from the npm registry into ./.toolchain when
# needed. Nothing outside the repository is touched (no global install, no system change). It is
# quiet when nothing has to be fetched; set REPOMEM_VERBOSE=1 to see which node and pnpm it chose.
# shellcheck shell=bash

REPOMEM_ROOT="${REPOMEM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
REPOMEM_NODE_SPEC="${REPOMEM_NODE_SPEC:-node@24}"
REPOMEM_PNPM_VERSION="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$REPOMEM_ROOT/package.json")"
# The floor is engines.node of the root package.json (">=22.16").
REPOMEM_NODE_FLOOR="$(sed -n 's/.*"node": *">= *\([0-9][0-9.]*\)".*/\1/p' "$REPOMEM_ROOT/package.json" | head -n 1)"

# No update banners from npm or pnpm, no telemetry from turbo, in anything run from here.
export npm_config_update_notifier=false npm_config_fund=false TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

repomem_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); const [x,y]=process.argv[1].split(".").map(Number); process.exit(a>x||(a===x&&b>=y)?0:1)' "$REPOMEM_NODE_FLOOR"
}

# npm's output goes to .toolchain/logs/toolchain.log, shown only when the fetch fails.
repomem_fetch() {
  local tc="$REPOMEM_ROOT/.toolchain"
  mkdir -p "$tc/logs"
  [ -f "$tc/package.json" ] || echo '{"name":"repomem-toolchain","private":true}' > "$tc/package.json"
  if ! (cd "$tc" && npm install --no-audit --no-fund --loglevel=error "$@" >"$tc/logs/toolchain.log" 2>&1); then
    echo "[toolchain] npm install $* failed:" >&2
    cat "$tc/logs/toolchain.log" >&2
    return 1
  fi
}

repomem_toolchain() {
  local tc="$REPOMEM_ROOT/.toolchain"
  if [ -x "$tc/node_modules/.bin/node" ]; then
    export PATH="$tc/node_modules/.bin:$PATH"
  fi
  if ! repomem_node_ok; then
    echo "[toolchain] node $(node --version 2>/dev/null || echo none) is older than $REPOMEM_NODE_FLOOR; fetching $REPOMEM_NODE_SPEC into .toolchain/" >&2
    repomem_fetch "$REPOMEM_NODE_SPEC" "pnpm@$REPOMEM_PNPM_VERSION"
    export PATH="$tc/node_modules/.bin:$PATH"
    repomem_node_ok || { echo "[toolchain] could not provision Node >= $REPOMEM_NODE_FLOOR (got $(node --version 2>/dev/null))" >&2; return 1; }
  fi
  if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$REPOMEM_PNPM_VERSION" ]; then
    if [ ! -x "$tc/node_modules/.bin/pnpm" ] || [ "$("$tc/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$REPOMEM_PNPM_VERSION" ]; then
      echo "[toolchain] fetching pnpm@$REPOMEM_PNPM_VERSION into .toolchain/" >&2
      repomem_fetch "pnpm@$REPOMEM_PNPM_VERSION"
    fi
    export PATH="$tc/node_modules/.bin:$PATH"
  fi
  if [ -n "${REPOMEM_VERBOSE:-}" ]; then
    echo "[toolchain] node $(node --version), pnpm $(pnpm --version)" >&2
  fi
}
