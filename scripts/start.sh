#!/usr/bin/env bash
# Start the whole system on this machine: dependencies, infrastructure, migrations, build, every
# service and the console. `npm start -- stop` stops what it started.
#   BUS=kafka npm start      run the event bus on Kafka (a local broker is started when needed)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$ROOT"

RUN_DIR="$ROOT/.var/run"
LOG_DIR="$ROOT/.var/logs"
mkdir -p "$RUN_DIR" "$LOG_DIR"

API_PORT=${API_PORT:-3000}
API_WORKER_PORT=${API_WORKER_PORT:-3001}
GATEWAY_PORT=${GATEWAY_PORT:-3100}
OCPP_PORT=${OCPP_PORT:-9000}
MSG_PORT=${MSG_PORT:-3200}
MSG_WORKER_PORT=${MSG_WORKER_PORT:-3201}
CONSOLE_PORT=${CONSOLE_PORT:-4200}

stop_all() {
  local pidfile
  for pidfile in "$RUN_DIR"/*.pid; do
    [[ -f "$pidfile" ]] || continue
    local pid
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      echo "stopped $(basename "$pidfile" .pid)"
    fi
    rm -f "$pidfile"
  done
}

if [[ "${1:-}" == "stop" ]]; then
  stop_all
  exit 0
fi

ensure_dependencies
# The CJK font the api renders bills and reports with (fonts-noto-cjk).
bash "$ROOT/scripts/ensure-fonts.sh"
if [[ "${BUS:-redis}" == "kafka" ]]; then ensure_infra --kafka; else ensure_infra; fi
export BUS=${BUS:-redis}
export NODE_ENV=${NODE_ENV:-production}

# Secrets come only from the environment. For this local run, generate them once and keep them in
# .var/secrets.env (git-ignored) so sessions survive restarts.
SECRETS="$ROOT/.var/secrets.env"
if [[ ! -f "$SECRETS" ]]; then
  umask 077
  {
    echo "JWT_SECRET=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64url"))')"
    echo "PLATFORM_CONFIG_KEY=$(node -e 'console.log(require("crypto").randomBytes(16).toString("base64url"))')"
  } >"$SECRETS"
fi
# Secrets added since a secrets file was made are appended to it.
if ! grep -q '^PILE_PASSWORD_KEY=' "$SECRETS"; then
  (umask 077 && echo "PILE_PASSWORD_KEY=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64url"))')" >>"$SECRETS")
fi
if ! grep -q '^METRICS_TOKEN=' "$SECRETS"; then
  (umask 077 && echo "METRICS_TOKEN=$(node -e 'console.log(require("crypto").randomBytes(24).toString("base64url"))')" >>"$SECRETS")
fi
set -a
# shellcheck disable=SC1090
. "$SECRETS"
set +a
export JWT_SECRET PLATFORM_CONFIG_KEY PILE_PASSWORD_KEY METRICS_TOKEN
export VITE_PLATFORM_CONFIG_KEY="$PLATFORM_CONFIG_KEY"
# The demo depot: demo users (and, with the simulation, piles and buses). DEMO_DATA=false to skip.
export DEMO_DATA=${DEMO_DATA:-true}
# The console's server proxies to the services from this machine and forwards the browser's address.
export TRUST_PROXY=${TRUST_PROXY:-loopback}
# Alert targets, webhooks and mail servers inside the network need an administrator's allow-list; the demo
# watches its own services on this machine.
export OUTBOUND_ALLOWED_HOSTS=${OUTBOUND_ALLOWED_HOSTS:-localhost,127.0.0.0/8,::1}

say "Applying database migrations"
SWC_NODE_PROJECT="$ROOT/tsconfig.base.json" node -r @swc-node/register scripts/migrate.ts

say "Building services and console"
nx run-many -t build --parallel=2 --output-style=stream-without-prefixes

stop_all >/dev/null

# start NAME HEALTH_URL COMMAND...
start_service() {
  local name=$1 health=$2
  shift 2
  say "Starting $name"
  nohup "$@" >"$LOG_DIR/$name.log" 2>&1 &
  echo $! >"$RUN_DIR/$name.pid"
  for _ in $(seq 1 120); do
    if curl -fsS "$health" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$(cat "$RUN_DIR/$name.pid")" 2>/dev/null; then
      echo "$name exited during start-up; last lines of $LOG_DIR/$name.log:" >&2
      tail -n 30 "$LOG_DIR/$name.log" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "$name did not become healthy at $health within 60 s; see $LOG_DIR/$name.log" >&2
  exit 1
}

# start_process NAME LOG_PATTERN COMMAND...: a process without HTTP, ready when its log shows LOG_PATTERN.
start_process() {
  local name=$1 pattern=$2
  shift 2
  say "Starting $name"
  nohup "$@" >"$LOG_DIR/$name.log" 2>&1 &
  echo $! >"$RUN_DIR/$name.pid"
  for _ in $(seq 1 120); do
    if grep -q "$pattern" "$LOG_DIR/$name.log" 2>/dev/null; then return 0; fi
    if ! kill -0 "$(cat "$RUN_DIR/$name.pid")" 2>/dev/null; then
      echo "$name exited during start-up; last lines of $LOG_DIR/$name.log:" >&2
      tail -n 30 "$LOG_DIR/$name.log" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "$name did not report '$pattern' within 60 s; see $LOG_DIR/$name.log" >&2
  exit 1
}

PORT=$API_PORT SERVICE_NAME=api start_service api "http://127.0.0.1:$API_PORT/health" \
  node dist/apps/api/apps/api/src/main.js
# The api's worker: bus consumers (settlement, monitoring read model), sweeps and scheduled jobs.
API_WORKER_PORT=$API_WORKER_PORT SERVICE_NAME=api start_service api-worker "http://127.0.0.1:$API_WORKER_PORT/health" \
  node dist/apps/api/apps/api/src/worker.main.js
# The gateway's node options: GATEWAY_NODE_OPTIONS in libs/server/ocpp-gateway/src/node-options.ts (a test keeps them equal).
PORT=$GATEWAY_PORT OCPP_PORT=$OCPP_PORT SERVICE_NAME=ocpp-gateway start_service ocpp-gateway \
  "http://127.0.0.1:$GATEWAY_PORT/health" node --max-semi-space-size=32 dist/apps/ocpp-gateway/apps/ocpp-gateway/src/main.js
PORT=$MSG_PORT SERVICE_NAME=msg-center start_service msg-center "http://127.0.0.1:$MSG_PORT/health" \
  node dist/apps/msg-center/apps/msg-center/src/main.js
MSG_WORKER_PORT=$MSG_WORKER_PORT SERVICE_NAME=msg-center start_service msg-center-worker \
  "http://127.0.0.1:$MSG_WORKER_PORT/health" node dist/apps/msg-center/apps/msg-center/src/worker.main.js
# The console's production server (apps/console-server): the build with its caching and security headers,
# the API paths passed to the api and the message centre (STOMP WebSocket included).
PORT=$CONSOLE_PORT HOST=127.0.0.1 CONSOLE_DIST=dist/apps/console API_UPSTREAM="http://127.0.0.1:$API_PORT" \
  MS_UPSTREAM="http://127.0.0.1:$MSG_PORT" start_service console "http://127.0.0.1:$CONSOLE_PORT/health" \
  node dist/apps/console-server/apps/console-server/src/main.js

if [[ "${DEMO_SIMULATION:-true}" == "true" ]]; then
  OCPP_URL="ws://127.0.0.1:$OCPP_PORT/ocpp" SWC_NODE_PROJECT="$ROOT/tsconfig.base.json" start_process demo-depot \
    'demo simulation running' node -r @swc-node/register scripts/demo-depot.ts
else
  SWC_NODE_PROJECT="$ROOT/tsconfig.base.json" node -r @swc-node/register scripts/demo-depot.ts --seed-only
fi

# The simulated card reader on this PC (apps/card-reader): the IC-card screens make, read and write cards
# through it. A drawer of blank cards, one CPU card in the slot, the first time (its state is kept in
# .var/card-reader.json). Skipped when something (a real reader agent) already answers on its port.
CARD_READER_PORT=${CARD_READER_PORT:-4455}
if curl -fsS "http://127.0.0.1:$CARD_READER_PORT/cards" >/dev/null 2>&1; then
  echo "card reader: something already answers on 127.0.0.1:$CARD_READER_PORT; not starting the simulated one"
else
  CARD_READER_PORT=$CARD_READER_PORT CARD_READER_STATE_FILE="$ROOT/.var/card-reader.json" \
    CARD_READER_ALLOWED_ORIGINS="http://127.0.0.1:$CONSOLE_PORT,http://localhost:$CONSOLE_PORT" \
    SWC_NODE_PROJECT="$ROOT/tsconfig.base.json" start_process card-reader 'listening on' \
    node -r @swc-node/register apps/card-reader/src/main.ts
  if curl -fsS "http://127.0.0.1:$CARD_READER_PORT/cards" | grep -q '"cards":\[\]'; then
    for uid in 04A1D0C001 04A1D0C002 04A1D0C003; do
      curl -fsS -X PUT "http://127.0.0.1:$CARD_READER_PORT/cards/$uid" -d '{"chip":"CPU"}' >/dev/null
    done
    for uid in 04B2E0D101 04B2E0D102; do
      curl -fsS -X PUT "http://127.0.0.1:$CARD_READER_PORT/cards/$uid" -d '{"chip":"M1"}' >/dev/null
    done
    curl -fsS -X PUT "http://127.0.0.1:$CARD_READER_PORT/slot" -d '{"uid":"04A1D0C001"}' >/dev/null
  fi
fi

cat <<MSG

Voltdepot is running (bus: $BUS).
  Console         http://127.0.0.1:$CONSOLE_PORT/
  API             http://127.0.0.1:$API_PORT/health   metrics: /metrics (Bearer METRICS_TOKEN of .var/secrets.env)
  API worker      http://127.0.0.1:$API_WORKER_PORT/health   metrics: /metrics
  OCPP gateway    ws://127.0.0.1:$OCPP_PORT/ocpp/{chargePointId}   health: http://127.0.0.1:$GATEWAY_PORT/health
  Message centre  http://127.0.0.1:$MSG_PORT/health   metrics: /metrics
  Message worker  http://127.0.0.1:$MSG_WORKER_PORT/health   metrics: /metrics
  Logs            $LOG_DIR/   Stop: npm start -- stop
  Demo login      admin / Admin@123456   (also operator, maintainer, fleet / Demo@123456)
  Demo depot      20 simulated piles charging 40 buses (DEMO_SIMULATION=false to switch off)
  Card reader     ws://127.0.0.1:$CARD_READER_PORT (simulated; cards: curl 127.0.0.1:$CARD_READER_PORT/cards,
                  put one in the slot: curl -X PUT 127.0.0.1:$CARD_READER_PORT/slot -d '{"uid":"04A1D0C002"}')
MSG
