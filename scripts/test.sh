#!/usr/bin/env bash
# Every test of the project: lint, typecheck, unit, integration on both bus drivers (real PostgreSQL,
# Redis and Kafka), console tests. Prints a last line "N passed, N failed".
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$ROOT"

ensure_dependencies || exit 1
# The CJK font of the server-rendered documents (their tests and the api).
bash "$ROOT/scripts/ensure-fonts.sh" || exit 1
ensure_infra --kafka || exit 1

RESULTS="$ROOT/.var/test-results"
rm -rf "$RESULTS" && mkdir -p "$RESULTS"
status=0
step() {
  local name=$1
  shift
  say "$name"
  local started=$SECONDS
  if "$@"; then
    echo "$name: ok" >>"$RESULTS/steps.txt"
  else
    echo "$name: FAILED" >>"$RESULTS/steps.txt"
    status=1
  fi
  echo "($name took $((SECONDS - started)) s)"
}

step "format" prettier --check --log-level warn .
step "lint" nx run-many -t lint --parallel=2 --output-style=stream-without-prefixes
step "typecheck" nx run-many -t typecheck --parallel=2 --output-style=stream-without-prefixes
step "unit tests" jest --selectProjects unit --ci --json --outputFile="$RESULTS/unit.json"
step "integration tests" jest --selectProjects integration --ci --maxWorkers=2 --json --outputFile="$RESULTS/integration.json"
if [[ -f apps/console/vite.config.ts ]]; then
  step "console tests" vitest run --config apps/console/vite.config.ts --reporter=default --reporter=json \
    --outputFile.json="$RESULTS/console.json"
  step "console build" vite build --config apps/console/vite.config.ts --logLevel warn
fi
# The real built console and api in Debian chromium (installed by scripts/ensure-browser.sh when missing).
if [[ -f scripts/e2e/run-e2e.ts ]]; then
  step "browser tests" env E2E_RESULTS_JSON="$RESULTS/e2e.json" bash scripts/e2e/run.sh
fi

echo
cat "$RESULTS/steps.txt"
node scripts/test-summary.js "$RESULTS" "$status"
