# Shared by start.sh and test.sh: install dependencies when needed and load infrastructure settings.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export PATH="$ROOT/node_modules/.bin:$PATH"
export NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=${NX_SKIP_NX_CACHE:-false}

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [[ "$node_major" -lt 20 ]]; then
  echo "Node.js 20 or newer is required (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

# npm ci when node_modules is missing or older than the lock file.
ensure_dependencies() {
  mkdir -p "$ROOT/.var"
  # A linked node_modules (git worktrees sharing one install) is managed where it lives: npm ci here would
  # empty the shared folder for every checkout using it.
  if [[ -L "$ROOT/node_modules" ]]; then return 0; fi
  local stamp="$ROOT/node_modules/.voltdepot-installed"
  if [[ ! -f "$stamp" || "$ROOT/package-lock.json" -nt "$stamp" ]]; then
    say "Installing dependencies"
    # npm ci when the lock file is complete; some registry mirrors lack other platforms' optional
    # binaries (e.g. @swc/core-darwin-*), which makes npm ci refuse the lock file: fall back to npm install.
    (cd "$ROOT" && { npm ci --no-audit --no-fund 2>"$ROOT/.var/npm-ci.log" || npm install --no-audit --no-fund; })
    touch "$stamp"
  fi
}

# Bring up PostgreSQL, Redis (and Kafka with --kafka), then export their URLs.
ensure_infra() {
  bash "$ROOT/scripts/infra.sh" up "$@"
  # shellcheck disable=SC1091
  . "$ROOT/.var/infra.env"
}
