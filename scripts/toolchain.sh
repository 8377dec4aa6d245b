# Why: repomem needs Node >= 22.13 (tested on 24) and pnpm, but CI machines and newcomers may
# have only an older Node and no pnpm. This file, when sourced, puts a suitable node and pnpm on
# PATH, fetching both from the npm registry into ./.toolchain when needed. Nothing outside the
# repository is touched (no global install, no system change).
# shellcheck shell=bash

REPOMEM_ROOT="${REPOMEM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
REPOMEM_NODE_SPEC="${REPOMEM_NODE_SPEC:-node@24}"
REPOMEM_PNPM_VERSION="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$REPOMEM_ROOT/package.json")"

repomem_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=13)?0:1)'
}

repomem_toolchain() {
  local tc="$REPOMEM_ROOT/.toolchain"
  if [ -x "$tc/node_modules/.bin/node" ]; then
    export PATH="$tc/node_modules/.bin:$PATH"
  fi
  if ! repomem_node_ok; then
    echo "[toolchain] node $(node --version 2>/dev/null || echo none) is older than 22.13; fetching $REPOMEM_NODE_SPEC into .toolchain/" >&2
    mkdir -p "$tc"
    [ -f "$tc/package.json" ] || echo '{"name":"repomem-toolchain","private":true}' > "$tc/package.json"
    (cd "$tc" && npm install --no-audit --no-fund --loglevel=error "$REPOMEM_NODE_SPEC" "pnpm@$REPOMEM_PNPM_VERSION" >&2)
    export PATH="$tc/node_modules/.bin:$PATH"
    repomem_node_ok || { echo "[toolchain] could not provision Node >= 22.13 (got $(node --version 2>/dev/null))" >&2; return 1; }
  fi
  if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$REPOMEM_PNPM_VERSION" ]; then
    if [ ! -x "$tc/node_modules/.bin/pnpm" ] || [ "$("$tc/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$REPOMEM_PNPM_VERSION" ]; then
      echo "[toolchain] fetching pnpm@$REPOMEM_PNPM_VERSION into .toolchain/" >&2
      mkdir -p "$tc"
      [ -f "$tc/package.json" ] || echo '{"name":"repomem-toolchain","private":true}' > "$tc/package.json"
      (cd "$tc" && npm install --no-audit --no-fund --loglevel=error "pnpm@$REPOMEM_PNPM_VERSION" >&2)
    fi
    export PATH="$tc/node_modules/.bin:$PATH"
  fi
  export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
  echo "[toolchain] node $(node --version), pnpm $(pnpm --version)" >&2
}
