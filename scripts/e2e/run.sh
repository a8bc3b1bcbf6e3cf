#!/usr/bin/env bash
# Browser tests of the console (npm run test:e2e): dependencies, PostgreSQL and Redis, Debian chromium,
# then scripts/e2e/run-e2e.ts. The last line is "N passed, N failed".
set -uo pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$ROOT" || exit 1

ensure_dependencies || exit 1
ensure_infra || exit 1
bash scripts/ensure-browser.sh || {
  echo "0 passed, 1 failed"
  exit 1
}
SWC_NODE_PROJECT="$ROOT/tsconfig.base.json" exec node -r @swc-node/register scripts/e2e/run-e2e.ts
